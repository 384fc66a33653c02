/** `modifiedSince=YYYY-MM-DD`: records modified on or after the day. An impossible date (2026-02-30) is refused. */
import type { RecordTable } from '../record-table.js';
import { defineFilter, ParamError, type CollectionFilter } from './filter.js';
import { single } from './params.js';
import { atLeast } from './ranges.js';

/** The exact texts of reference/error-bodies.json: objects_400_modifiedSince and agents_exhibitions_concepts_400_modifiedSince. */
export const INVALID_MODIFIED_SINCE = 'Invalid modifiedSince date format. Use YYYY-MM-DD.';
export const INVALID_MODIFIED_SINCE_OTHER_KINDS = 'Invalid modifiedSince format. Use YYYY-MM-DD.';

/** True for a real calendar day written YYYY-MM-DD. */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The `modifiedSince` filter of a kind, refusing bad dates with `message`. */
export function modifiedSinceFilter<T extends RecordTable>(message: string): CollectionFilter<T> {
  return defineFilter<string, undefined, T>({
    name: 'modifiedSince',
    params: ['modifiedSince'],
    parse: (query) => {
      const value = single(query, 'modifiedSince');
      if (value === undefined) return undefined;
      if (!isCalendarDate(value)) throw new ParamError('modifiedSince', message);
      return value;
    },
    link: (value) => [['modifiedSince', value]],
    select: (since, host) => atLeast(host.table.size, host.sorts.modified!, (id) => host.table.modified[id]!, since, (a, b) => a < b),
  });
}
