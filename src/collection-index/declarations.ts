/**
 * What a kind declares of its collection index and of its SPARQL oracle (src/engine/kind.ts gathers them into
 * the kind): types only, so that the index's build and the collection parameters read them from below the engine.
 */
import type { CollectionFilter } from './filters/filter.js';
import type { RecordTable, Row } from './record-table.js';
import type { SortOrder } from './sort-orders.js';
import type { TextField } from './text/analysis.js';
import type { BoundTerm } from '../queries/terms.js';
import type { Iris } from '../vocab/iris.js';

/** The per-generation collection index: its SELECTs, table, orders, text fields and filters. */
export interface IndexDeclaration<T extends RecordTable> {
  /** Library names of the index SELECTs, by the part of the rows each fills. */
  readonly queries: Readonly<Record<string, string>>;
  /** The kind's table from the rows of every index query. */
  table(generationId: string, rows: Readonly<Record<string, readonly Row[]>>): T | Promise<T>;
  /** Values of `sortBy`; the first is pid order and the default. */
  readonly sortKeys: readonly [string, ...string[]];
  /**
   * The order of every other sort key (and `modified`, which `modifiedSince` reads), each computed when the
   * builder asks for it: one order a turn of the event loop, since a replica builds the index of the next
   * generation while it serves the current one.
   */
  sorts(table: T): Record<string, () => SortOrder>;
  /** The fields `q` searches, with their weights. */
  textFields(table: T): TextField[];
  readonly filters: readonly CollectionFilter<T>[];
  /** Order of the parameters in pagination links, after page and itemsPerPage. */
  readonly linkOrder: readonly string[];
  /** Parameters of the spec that no module handles yet: 400 "not supported yet" rather than ignored. */
  readonly reserved?: readonly string[];
}

/** One filter or order of an oracle query: a library query and its bindings (oracle.ts composes them). */
export interface OracleFragment {
  /** Library name, such as `objects/oracle-filter-type`. */
  query: string;
  bindings?: Record<string, BoundTerm>;
}

/** The pure-SPARQL oracle of a kind's collection (tests and benchmarks only). */
export interface OracleDeclaration {
  /** Library name of the base SELECT: every listed record in pid order (`?record` or `?object`, then the pid). */
  readonly base: string;
  readonly sorts: Readonly<Record<string, OracleFragment>>;
  /** The fragments for a request's filter parameters, read independently of the filter modules. */
  filters(params: Readonly<Record<string, string>>, iris: Iris): OracleFragment[];
}
