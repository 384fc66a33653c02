/**
 * The shape every collection filter has, whatever the kind: it reads its own query parameters (and rejects
 * bad values with a ParamError naming them), writes them back into pagination links, may load data of its
 * own once per generation, and answers with the set of ids that pass. A new filter is one module built with
 * `defineFilter` and one line in its kind's declaration; nothing else changes.
 */
import type { Bitset } from '../bitset.js';
import type { RecordTable, Row } from '../record-table.js';
import type { SortOrder } from '../sort-orders.js';
import type { Iris } from '../../vocab/iris.js';
import type { BoundTerm } from '../../queries/terms.js';
import type { RawQuery } from '../../http/raw-query.js';

export type { RawQuery } from '../../http/raw-query.js';

/** A parameter value the collection refuses; the endpoint answers 400 with this message. */
export class ParamError extends Error {
  constructor(
    readonly param: string,
    message: string,
  ) {
    super(message);
    this.name = 'ParamError';
  }
}

/** Runs a SELECT of the query library on the generation being indexed; rows of lexical values. */
export type SelectRows = (query: string, bindings?: Record<string, BoundTerm>) => Promise<Row[]>;

/**
 * A SelectRows that can also hand an answer over undecoded (a stored index's: stored-index.ts): the answer is
 * decoded each time it is called, so a table that reads its parts one after the other holds the rows of one
 * part at a time, not those of all its queries.
 */
export type DeferredSelectRows = SelectRows & { deferred(query: string, bindings?: Record<string, BoundTerm>): Promise<() => Row[]> };

/** What a filter sees of the index when it selects. */
export interface FilterHost<T extends RecordTable = RecordTable> {
  readonly table: T;
  /** The order of every sort key of the kind (`modified` is always there). */
  readonly sorts: Readonly<Record<string, SortOrder>>;
  readonly iris: Iris;
  /** The state a filter's `prepare` returned for this generation. */
  stateOf(key: symbol): unknown;
}

/** A filter with its parameters parsed, ready to run against any generation's index of its kind. */
export interface ActiveFilter<T extends RecordTable = RecordTable> {
  readonly name: string;
  /** Its parameters as pagination links repeat them. */
  readonly link: readonly (readonly [string, string])[];
  /** Agent queries keep object-number order whatever sortBy says (spec, objects collection rule 5). */
  readonly fixesOrder: boolean;
  select(host: FilterHost<T>): Bitset;
}

export interface PreparedFilter {
  readonly key: symbol;
  readonly state: unknown;
}

export interface CollectionFilter<T extends RecordTable = RecordTable> {
  readonly name: string;
  readonly params: readonly string[];
  /** Parses the filter's parameters; undefined when the filter is not asked for. Throws ParamError. */
  parse(query: RawQuery): ActiveFilter<T> | undefined;
  /** Loads the filter's own data for a generation (once per index build). */
  prepare(table: T, select: SelectRows): Promise<PreparedFilter>;
}

export interface FilterDefinition<V, S, T extends RecordTable> {
  name: string;
  params: readonly string[];
  parse(query: RawQuery): V | undefined;
  link(value: V): (readonly [string, string])[];
  prepare?(table: T, select: SelectRows): Promise<S> | S;
  select(value: V, host: FilterHost<T>, state: S): Bitset;
  fixesOrder?: boolean;
}

/** Builds a filter from its definition; the definition's state stays private to it. */
export function defineFilter<V, S = undefined, T extends RecordTable = RecordTable>(definition: FilterDefinition<V, S, T>): CollectionFilter<T> {
  const key = Symbol(definition.name);
  return {
    name: definition.name,
    params: definition.params,
    parse(query) {
      const value = definition.parse(query);
      if (value === undefined) return undefined;
      return {
        name: definition.name,
        link: definition.link(value),
        fixesOrder: definition.fixesOrder ?? false,
        // The state was stored under this filter's own key by prepare(), so the cast is to its own type.
        select: (host) => definition.select(value, host, host.stateOf(key) as S),
      };
    },
    async prepare(table, select) {
      return { key, state: definition.prepare ? await definition.prepare(table, select) : undefined };
    },
  };
}
