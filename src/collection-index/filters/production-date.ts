/**
 * `date` (`YYYY/YYYY`, EDTF interval; `..` leaves an end open), `dateFrom` and `dateTo` (years): objects whose
 * production period (earliest begin to latest end of their production and creation events) overlaps the
 * requested range. Undated objects never pass. Given together, all three must hold.
 */
import { defineFilter, ParamError } from './filter.js';
import { single, yearParam } from './params.js';
import { atLeast, atMost } from './ranges.js';

export interface YearRange {
  date?: { from?: number; to?: number };
  dateFrom?: number;
  dateTo?: number;
}

const INTERVAL = /^(-?\d{1,4}|\.\.)\/(-?\d{1,4}|\.\.)$/;
const INVALID_DATE = 'Invalid date. Use a production range YYYY/YYYY such as 1920/1930 (.. leaves an end open).';

function parseInterval(value: string): { from?: number; to?: number } {
  const match = INTERVAL.exec(value);
  if (!match) throw new ParamError('date', INVALID_DATE);
  const from = match[1] === '..' ? undefined : Number(match[1]);
  const to = match[2] === '..' ? undefined : Number(match[2]);
  if (from !== undefined && to !== undefined && from > to) throw new ParamError('date', `${INVALID_DATE} The range begins after it ends.`);
  return { from, to };
}

export const productionDateFilter = defineFilter<YearRange>({
  name: 'date',
  params: ['date', 'dateFrom', 'dateTo'],
  parse: (query) => {
    const date = single(query, 'date');
    const dateFrom = single(query, 'dateFrom');
    const dateTo = single(query, 'dateTo');
    if (date === undefined && dateFrom === undefined && dateTo === undefined) return undefined;
    return {
      date: date === undefined ? undefined : parseInterval(date),
      dateFrom: dateFrom === undefined ? undefined : yearParam('dateFrom', dateFrom),
      dateTo: dateTo === undefined ? undefined : yearParam('dateTo', dateTo),
    };
  },
  link: (range) => {
    const out: [string, string][] = [];
    if (range.date) out.push(['date', `${range.date.from ?? '..'}/${range.date.to ?? '..'}`]);
    if (range.dateFrom !== undefined) out.push(['dateFrom', String(range.dateFrom)]);
    if (range.dateTo !== undefined) out.push(['dateTo', String(range.dateTo)]);
    return out;
  },
  select: (range, host) => {
    const { table, sorts } = host;
    const froms = [range.date?.from, range.dateFrom].filter((year): year is number => year !== undefined);
    const tos = [range.date?.to, range.dateTo].filter((year): year is number => year !== undefined);
    const below = (a: number, b: number): boolean => a < b;
    // Overlap: the period ends at or after the range's start and begins at or before its end.
    let set = tos.length > 0 ? atMost(table.size, sorts.dateBegin, (id) => table.periodBegin[id]!, Math.min(...tos), below) : undefined;
    if (froms.length > 0) {
      const ends = atLeast(table.size, sorts.dateEnd, (id) => table.periodEnd[id]!, Math.max(...froms), below);
      set = set ? set.and(ends) : ends;
    }
    // Both ends open (date=../..): every dated object.
    return set ?? atLeast(table.size, sorts.dateBegin, (id) => table.periodBegin[id]!, -Infinity, below);
  },
});
