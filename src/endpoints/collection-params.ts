/**
 * The query string of /v2/id/objects as a typed request (parse, don't validate). Paging, record form,
 * full-text query and sorting are read here; each filter reads its own parameters (collection-index/filters).
 * Every refusal is a 400 naming the parameter and what it accepts; unknown parameters are ignored, except
 * the spec's colour parameters, which answer 400 until their module exists rather than be ignored.
 */
import { BadRequestError } from '../http/errors.js';
import type { ActiveFilter, ObjectFilter, RawQuery } from '../collection-index/filters/filter.js';
import { ParamError } from '../collection-index/filters/filter.js';
import { OBJECT_FILTERS, unclaimedParams } from '../collection-index/filters/index.js';
import { booleanParam, oneOf, single } from '../collection-index/filters/params.js';
import { SORT_KEYS, type SortDirection, type SortKey } from '../collection-index/sort-orders.js';
import { parseTextQuery, TextQueryError, type TextQuery } from '../collection-index/text/query-parser.js';

export const DEFAULT_ITEMS_PER_PAGE = 10;
export const MAX_ITEMS_PER_PAGE = 100;
/** Longest accepted `q`, in characters. */
export const MAX_QUERY_LENGTH = 500;

export interface ObjectsQuery {
  page: number;
  /** After the cap: a request for more than 100 is served, and linked, as 100. */
  itemsPerPage: number;
  fullRecord: boolean;
  text?: TextQuery;
  sort?: { key: SortKey; direction: SortDirection };
  filters: ActiveFilter[];
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

function textQuery(query: RawQuery): { q: string; text: TextQuery } | undefined {
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

function parse(query: RawQuery, filters: readonly ObjectFilter[]): ObjectsQuery {
  for (const param of unclaimedParams(filters)) {
    if (query[param] !== undefined) throw new ParamError(param, `The ${param} parameter is not supported yet.`);
  }
  const page = positiveInteger(query, 'page') ?? 1;
  const itemsPerPage = positiveInteger(query, 'itemsPerPage', MAX_ITEMS_PER_PAGE) ?? DEFAULT_ITEMS_PER_PAGE;
  const fullRecord = booleanParam(query, 'fullRecord') ?? false;
  const search = textQuery(query);
  const sortBy = oneOf(query, 'sortBy', SORT_KEYS);
  const sortOrder = oneOf(query, 'sortOrder', ['asc', 'desc'] as const);

  const linkParams: [string, string][] = fullRecord ? [['fullRecord', 'true']] : [];
  const active: ActiveFilter[] = [];
  for (const filter of filters) {
    const parsed = filter.parse(query);
    if (parsed) {
      active.push(parsed);
      linkParams.push(...parsed.link.map(([name, value]): [string, string] => [name, value]));
    }
    // q sits after modifiedSince in the spec's table, and so in the links.
    if (filter.name === 'modifiedSince' && search) linkParams.push(['q', search.q]);
  }
  if (search && !filters.some((filter) => filter.name === 'modifiedSince')) linkParams.push(['q', search.q]);
  if (sortBy !== undefined) linkParams.push(['sortBy', sortBy]);
  if (sortOrder !== undefined) linkParams.push(['sortOrder', sortOrder]);

  // With q, matches come in relevance order unless sortBy asks otherwise; sortOrder alone does not.
  const sort =
    sortBy === undefined && (search !== undefined || sortOrder === undefined)
      ? undefined
      : { key: sortBy ?? 'objectNumber', direction: sortOrder ?? 'asc' };
  return { page, itemsPerPage, fullRecord, text: search?.text, sort, filters: active, linkParams };
}

/** The typed request of the objects collection; throws BadRequestError (400) for a value it refuses. */
export function parseObjectsQuery(query: RawQuery, filters: readonly ObjectFilter[] = OBJECT_FILTERS): ObjectsQuery {
  try {
    return parse(query, filters);
  } catch (error) {
    if (error instanceof ParamError) throw new BadRequestError(error.message, { cause: error });
    throw error;
  }
}
