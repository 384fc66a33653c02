/**
 * `date` (`YYYY/YYYY`, EDTF interval; `..` leaves an end open), `dateFrom` and `dateTo` (years): objects with
 * one production or creation time-span that overlaps the requested range. Spans are matched one by one, not
 * as the envelope from the earliest begin to the latest end: an object made in 1944 and re-edited 1977-1990
 * was not produced in the fifties. Undated objects never pass. Given together, all three bound the one range.
 */
import { ParamError } from '../../../collection-index/filters/filter.js';
import { defineObjectFilter } from './define.js';
import { single, yearParam } from '../../../collection-index/filters/params.js';
import { BitsetBuilder } from '../../../collection-index/bitset.js';

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

export const productionDateFilter = defineObjectFilter<YearRange>({
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
    const from = Math.max(-Infinity, ...[range.date?.from, range.dateFrom].filter((year): year is number => year !== undefined));
    const to = Math.min(Infinity, ...[range.date?.to, range.dateTo].filter((year): year is number => year !== undefined));
    const { object, begin, end } = host.table.spans;
    const set = new BitsetBuilder(host.table.size);
    // Overlap: the span begins at or before the range's end and ends at or after its start.
    for (let i = 0; i < object.length; i++) if (begin[i]! <= to && end[i]! >= from) set.add(object[i]!);
    return set.build();
  },
});
