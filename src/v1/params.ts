/**
 * v1 query parameters as typed values (parse, don't validate): `pageNumber` from 1, `itemsPerPage` (10 by
 * default, above 100 served as 100, as v2 does), and booleans written `true`/`false`/`1`/`0`. A refused value
 * is a 400 naming the parameter.
 */
import { asBadRequest, DEFAULT_ITEMS_PER_PAGE, MAX_ITEMS_PER_PAGE } from '../endpoints/collection-params.js';
import { ParamError, type RawQuery } from '../collection-index/filters/filter.js';
import { booleanParam, single } from '../collection-index/filters/params.js';

export interface V1Paging {
  pageNumber: number;
  itemsPerPage: number;
}

/** A whole number from 1; above `cap` it is served as `cap`. */
function wholeNumber(query: RawQuery, name: string, cap: number): number | undefined {
  const value = single(query, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new ParamError(name, `Invalid ${name}. Use a whole number from 1.`);
  const number = Number(value);
  if (number > cap) return cap;
  if (number < 1) throw new ParamError(name, `Invalid ${name}. Use a whole number from 1.`);
  return number;
}

/** `pageNumber` and `itemsPerPage`; throws BadRequestError. */
export function parsePaging(query: RawQuery): V1Paging {
  return asBadRequest(() => ({
    pageNumber: wholeNumber(query, 'pageNumber', Number.MAX_SAFE_INTEGER) ?? 1,
    itemsPerPage: wholeNumber(query, 'itemsPerPage', MAX_ITEMS_PER_PAGE) ?? DEFAULT_ITEMS_PER_PAGE,
  }));
}

/** A boolean parameter; `fallback` when absent. Throws BadRequestError. */
export function parseFlag(query: RawQuery, name: string, fallback = false): boolean {
  return asBadRequest(() => booleanParam(query, name) ?? fallback);
}

/** An optional boolean parameter (three states: absent, true, false). Throws BadRequestError. */
export function parseOptionalFlag(query: RawQuery, name: string): boolean | undefined {
  return asBadRequest(() => booleanParam(query, name));
}

/** One of `accepted`, `fallback` when absent. Throws BadRequestError. */
export function parseChoice<T extends string>(query: RawQuery, name: string, accepted: readonly T[], fallback: T): T {
  return asBadRequest(() => {
    const value = single(query, name);
    if (value === undefined) return fallback;
    if (!(accepted as readonly string[]).includes(value)) throw new ParamError(name, `Invalid ${name}. Use one of: ${accepted.join(', ')}.`);
    return value as T;
  });
}
