/**
 * The query string of a collection (`/v2/id/objects`, `/agents`, …) as a typed request (parse, don't
 * validate). Paging, record form, full-text query and sorting are read here; each filter of the kind reads
 * its own parameters. Every refusal is a 400 naming the parameter and what it accepts; unknown parameters are
 * ignored, except the kind's reserved ones (the spec's colour parameters on objects), which answer 400 until
 * their module exists rather than be ignored.
 */
import { BadRequestError } from '../http/errors.js';
import type { ActiveFilter, RawQuery } from '../collection-index/filters/filter.js';
import { ParamError } from '../collection-index/filters/filter.js';
import { booleanParam, oneOf, single } from '../collection-index/filters/params.js';
import type { RecordTable } from '../collection-index/record-table.js';
import type { SortDirection } from '../collection-index/sort-orders.js';
import { parseTextQuery, TextQueryError, type TextQuery } from '../collection-index/text/query-parser.js';
import type { IndexDeclaration } from '../collection-index/declarations.js';

export const DEFAULT_ITEMS_PER_PAGE = 10;
export const MAX_ITEMS_PER_PAGE = 100;
/** Longest accepted `q`, in characters. */
export const MAX_QUERY_LENGTH = 500;

export interface CollectionQuery<T extends RecordTable = RecordTable> {
  page: number;
  /** After the cap: a request for more than 100 is served, and linked, as 100. */
  itemsPerPage: number;
  fullRecord: boolean;
  /** Full records in the kind's view (objects: `colors=true`); only with fullRecord. */
  view: boolean;
  text?: TextQuery;
  sort?: { key: string; direction: SortDirection };
  filters: ActiveFilter<T>[];
  /** Active parameters after page and itemsPerPage, in the order links repeat them. */
  linkParams: [string, string][];
}

/** A whole number from 1; above `cap` (when given) it is served as `cap`, however many digits it has. */
function positiveInteger(query: RawQuery, name: string, cap?: number): number | undefined {
  const value = single(query, name);
  if (value === undefined) return undefined;
  const number = /^\d+$/.test(value) ? Number(value) : NaN;
  if (cap !== undefined && number > cap) return cap;
  if (!Number.isSafeInteger(number) || number < 1) throw new ParamError(name, `Invalid ${name}. Use a whole number from 1.`);
  return number;
}

/** `q` as a parsed text query (objects collection syntax), or undefined when absent; throws ParamError. */
export function textQuery(query: RawQuery): { q: string; text: TextQuery } | undefined {
  const q = single(query, 'q');
  if (q === undefined) return undefined;
  if (q.length > MAX_QUERY_LENGTH) throw new ParamError('q', `Invalid q: at most ${MAX_QUERY_LENGTH} characters.`);
  try {
    return { q, text: parseTextQuery(q) };
  } catch (error) {
    if (error instanceof TextQueryError) throw new ParamError('q', `Invalid q: ${error.message}.`);
    throw error;
  }
}

function parse<T extends RecordTable>(query: RawQuery, index: IndexDeclaration<T>, viewParam?: string): CollectionQuery<T> {
  for (const param of index.reserved ?? []) {
    if (query[param] !== undefined && !index.filters.some((filter) => filter.params.includes(param))) {
      throw new ParamError(param, `The ${param} parameter is not supported yet.`);
    }
  }
  const page = positiveInteger(query, 'page') ?? 1;
  const itemsPerPage = positiveInteger(query, 'itemsPerPage', MAX_ITEMS_PER_PAGE) ?? DEFAULT_ITEMS_PER_PAGE;
  const fullRecord = booleanParam(query, 'fullRecord') ?? false;
  const view = viewParam !== undefined && (booleanParam(query, viewParam) ?? false);
  if (view && !fullRecord) throw new ParamError(viewParam!, `${viewParam}=true needs fullRecord=true: stubs carry no ${viewParam}.`);
  const search = textQuery(query);
  const sortBy = oneOf(query, 'sortBy', index.sortKeys);
  const sortOrder = oneOf(query, 'sortOrder', ['asc', 'desc'] as const);

  const links: [string, string][] = fullRecord ? [['fullRecord', 'true']] : [];
  if (view) links.push([viewParam!, 'true']);
  const active: ActiveFilter<T>[] = [];
  for (const filter of index.filters) {
    const parsed = filter.parse(query);
    if (parsed) {
      active.push(parsed);
      links.push(...parsed.link.map(([name, value]): [string, string] => [name, value]));
    }
  }
  if (search) links.push(['q', search.q]);
  if (sortBy !== undefined) links.push(['sortBy', sortBy]);
  if (sortOrder !== undefined) links.push(['sortOrder', sortOrder]);
  const rank = (name: string): number => {
    const position = index.linkOrder.indexOf(name);
    return position < 0 ? index.linkOrder.length : position;
  };
  const linkParams = links.map((link, i) => ({ link, i })).sort((a, b) => rank(a.link[0]) - rank(b.link[0]) || a.i - b.i).map(({ link }) => link);

  // With q, matches come in relevance order unless sortBy asks otherwise; sortOrder alone does not.
  const sort =
    sortBy === undefined && (search !== undefined || sortOrder === undefined)
      ? undefined
      : { key: sortBy ?? index.sortKeys[0], direction: sortOrder ?? 'asc' };
  return { page, itemsPerPage, fullRecord, view, text: search?.text, sort, filters: active, linkParams };
}

/** The typed request of a kind's collection; throws BadRequestError (400) for a value it refuses. */
export function parseCollectionQuery<T extends RecordTable>(query: RawQuery, index: IndexDeclaration<T>, viewParam?: string): CollectionQuery<T> {
  return asBadRequest(() => parse(query, index, viewParam));
}

/** Runs `parse`, turning a ParamError into a BadRequestError (400) with its message. */
export function asBadRequest<R>(parse: () => R): R {
  try {
    return parse();
  } catch (error) {
    if (error instanceof ParamError) throw new BadRequestError(error.message, { cause: error });
    throw error;
  }
}
