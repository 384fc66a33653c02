/**
 * The pure-SPARQL oracle of the objects collection: the same filters and orders as the collection index,
 * written as `queries/objects/oracle-*.rq` and composed into one SELECT on the parsed ASTs (each fragment's
 * WHERE is appended to `oracle-base`, its variables renamed apart, its VALUES kept). Tests compare the index
 * with it; benchmarks time it beside the index. It is a full scan by design and never serves a request.
 */
import { DataFactory } from 'n3';
import type { Ordering, Pattern, SelectQuery, Expression } from 'sparqljs';
import sparqljs from 'sparqljs';
import type { QueryCatalogue } from '../queries/catalogue.js';
import type { BoundTerm } from '../queries/terms.js';
import type { Iris } from '../vocab/iris.js';
import { AUTHORITY } from '../vocab/namespaces.js';
import { LANGUAGE_CODES, type LanguageCode } from './object-table.js';
import type { SortDirection, SortKey } from './sort-orders.js';

export interface OracleFragment {
  /** Catalogue name, such as `objects/oracle-filter-type`. */
  query: string;
  bindings?: Record<string, BoundTerm>;
}

export interface OracleRequest {
  filters: OracleFragment[];
  sort?: { key: SortKey; direction: SortDirection };
}

/** Variables every fragment shares with the base query. */
const SHARED = new Set(['object', 'number', 'admin', 'sortKey']);

const SORT_FRAGMENTS: Record<Exclude<SortKey, 'objectNumber'>, OracleFragment> = {
  modified: { query: 'objects/oracle-sort-modified' },
  titleNL: { query: 'objects/oracle-sort-title', bindings: { language: `${AUTHORITY.language}NLD` } },
  titleFR: { query: 'objects/oracle-sort-title', bindings: { language: `${AUTHORITY.language}FRA` } },
  titleEN: { query: 'objects/oracle-sort-title', bindings: { language: `${AUTHORITY.language}ENG` } },
  dateBegin: { query: 'objects/oracle-sort-date-begin' },
  dateEnd: { query: 'objects/oracle-sort-date-end' },
};

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

function fragmentWhere(catalogue: QueryCatalogue, fragment: OracleFragment, suffix: number): Pattern[] {
  const entry = catalogue.get(fragment.query);
  const ast = entry.params.length > 0 ? catalogue.bindAst(fragment.query, [fragment.bindings ?? {}]) : entry.ast;
  return renameApart((ast as SelectQuery).where ?? [], suffix);
}

const variable = (name: string) => DataFactory.variable(name);
const operation = (operator: string, ...args: Expression[]): Expression => ({ type: 'operation', operator, args });

/** The oracle's SPARQL text for a request (run it with `unionDefaultGraph: true`). */
export function oracleQuery(catalogue: QueryCatalogue, iris: Iris, request: OracleRequest): string {
  const base = catalogue.bindAst('objects/oracle-base', [{ admin: iris.adminGraph }]) as SelectQuery;
  const where: Pattern[] = [...(base.where ?? [])];
  request.filters.forEach((fragment, i) => where.push(...fragmentWhere(catalogue, fragment, i + 1)));
  let order: Ordering[] = base.order ?? [];
  let variables = base.variables;
  const sort = request.sort;
  if (sort && sort.key !== 'objectNumber') {
    where.push(...fragmentWhere(catalogue, SORT_FRAGMENTS[sort.key], 0));
    variables = [variable('object'), variable('number'), variable('sortKey')];
    const descending = sort.direction === 'desc';
    order = [
      { expression: operation('!', operation('bound', variable('sortKey'))) },
      { expression: variable('sortKey'), descending },
      { expression: variable('number'), descending },
    ];
  } else if (sort?.direction === 'desc') {
    order = [{ expression: variable('number'), descending: true }];
  }
  return new sparqljs.Generator().stringify({ ...base, variables, where, order } as SelectQuery);
}

/**
 * The oracle fragments for the filter parameters of a request (single values, as tests write them). It reads
 * the parameters independently of the filter modules, as a second implementation should.
 */
export function oracleFilters(params: Readonly<Record<string, string>>, iris: Iris): OracleFragment[] {
  const out: OracleFragment[] = [];
  const add = (query: string, bindings?: Record<string, BoundTerm>): void => {
    out.push({ query: `objects/oracle-filter-${query}`, bindings });
  };
  const truthy = (name: string): boolean => params[name] === 'true' || params[name] === '1';
  const falsy = (name: string): boolean => params[name] === 'false' || params[name] === '0';
  if (params.modifiedSince) add('modified-since', { since: params.modifiedSince });
  if (truthy('hasImages')) add('has-images');
  if (truthy('hasParts')) add('koepel');
  if (truthy('isPartOf')) add('set-member');
  if (truthy('onDisplay')) add('on-display');
  if (falsy('onDisplay')) add('not-on-display');
  if (params.language) add('language', { language: `${AUTHORITY.language}${LANGUAGE_CODES[params.language.toUpperCase() as LanguageCode] ? params.language.toUpperCase() : 'XXX'}` });
  for (const name of ['type', 'material'] as const) {
    for (const label of (params[name] ?? '').split(',').map((part) => part.trim()).filter(Boolean)) add(name, { label });
  }
  if (params.agent) add('agent', { agent: params.agent.includes('/') ? params.agent : iris.agent(params.agent) });
  const froms: number[] = [];
  const tos: number[] = [];
  if (params.date) {
    const [from, to] = params.date.split('/');
    if (from && from !== '..') froms.push(Number(from));
    if (to && to !== '..') tos.push(Number(to));
  }
  if (params.dateFrom) froms.push(Number(params.dateFrom));
  if (params.dateTo) tos.push(Number(params.dateTo));
  if (params.date || params.dateFrom || params.dateTo) {
    add('period', { from: froms.length > 0 ? Math.max(...froms) : -9999, to: tos.length > 0 ? Math.min(...tos) : 9999 });
  }
  if (params.concept) add('concept', { concept: params.concept.includes('/') ? params.concept : iris.concept(params.concept) });
  if (params.conceptSearch) add('concept-search', { text: params.conceptSearch });
  if (params.koepels === 'exclude') add('not-koepel');
  return out;
}
