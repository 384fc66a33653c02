/**
 * The pure-SPARQL oracle of a kind's collection: the same filters and orders as the collection index,
 * written as `queries/<kind>/oracle-*.rq` and composed into one SELECT on the parsed ASTs (each fragment's
 * WHERE is appended to the kind's base query, its variables renamed apart, its VALUES kept). Tests compare
 * the index with it; benchmarks time it beside the index. It is a full scan by design and never serves a
 * request. The base query selects the record (`?object` for objects, `?record` for the other kinds) and its
 * pid, in pid order; fragments share those variables, `?admin` and `?sortKey`.
 */
import { DataFactory } from 'n3';
import type { Ordering, Pattern, SelectQuery, Expression } from 'sparqljs';
import sparqljs from 'sparqljs';
import type { QueryLibrary } from '../queries/library.js';
import type { Iris } from '../vocab/iris.js';
import type { OracleDeclaration, OracleFragment } from './declarations.js';

export type { OracleFragment } from './declarations.js';
import type { SortDirection } from './sort-orders.js';

export interface OracleRequest {
  filters: OracleFragment[];
  /** A key the declaration has no fragment for is pid order. */
  sort?: { key: string; direction: SortDirection };
}

/** Variables every fragment shares with the base query. */
const SHARED = new Set(['object', 'record', 'number', 'pid', 'admin', 'sortKey']);

/** Copies a parsed AST with every variable not in SHARED renamed `<name>_<suffix>`. */
function renameApart<T>(value: T, suffix: number): T {
  if (Array.isArray(value)) return value.map((item: unknown) => renameApart(item, suffix)) as T;
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  if (record.termType === 'Variable' && typeof record.value === 'string') {
    return (SHARED.has(record.value) ? value : DataFactory.variable(`${record.value}_${suffix}`)) as T;
  }
  if (typeof record.termType === 'string') return value;
  const out: Record<string, unknown> = {};
  // VALUES rows key their terms by variable name (`?label`), so keys are renamed like the variables.
  for (const [key, item] of Object.entries(record)) {
    const name = key.startsWith('?') && !SHARED.has(key.slice(1)) ? `${key}_${suffix}` : key;
    out[name] = renameApart(item, suffix);
  }
  return out as T;
}

function fragmentWhere(library: QueryLibrary, fragment: OracleFragment, suffix: number): Pattern[] {
  const entry = library.get(fragment.query);
  const ast = entry.params.length > 0 ? library.bindAst(fragment.query, [fragment.bindings ?? {}]) : entry.ast;
  return renameApart((ast as SelectQuery).where ?? [], suffix);
}

const variable = (name: string) => DataFactory.variable(name);
const operation = (operator: string, ...args: Expression[]): Expression => ({ type: 'operation', operator, args });

/** The oracle's SPARQL text for a request (run it with `unionDefaultGraph: true`). */
export function oracleQuery(library: QueryLibrary, iris: Iris, oracle: OracleDeclaration, request: OracleRequest): string {
  const base = library.bindAst(oracle.base, [{ admin: iris.adminGraph }]) as SelectQuery;
  const [recordVariable, pidVariable] = (base.variables as { value: string }[]).map((term) => variable(term.value));
  const where: Pattern[] = [...(base.where ?? [])];
  request.filters.forEach((fragment, i) => where.push(...fragmentWhere(library, fragment, i + 1)));
  let order: Ordering[] = base.order ?? [];
  let variables = base.variables;
  const sort = request.sort;
  const fragment = sort === undefined ? undefined : oracle.sorts[sort.key];
  if (sort && fragment) {
    where.push(...fragmentWhere(library, fragment, 0));
    variables = [recordVariable!, pidVariable!, variable('sortKey')];
    const descending = sort.direction === 'desc';
    order = [
      { expression: operation('!', operation('bound', variable('sortKey'))) },
      { expression: variable('sortKey'), descending },
      { expression: pidVariable!, descending },
    ];
  } else if (sort?.direction === 'desc') {
    order = [{ expression: pidVariable!, descending: true }];
  }
  return new sparqljs.Generator().stringify({ ...base, variables, where, order } as SelectQuery);
}
