/**
 * Sort orders, computed once per generation: for each sort key, every id ordered by (key, object number),
 * objects lacking the key last. A page in either direction is then a walk over one array, never a sort.
 */
import type { ObjectTable, TitleLanguage } from './object-table.js';

export const SORT_KEYS = ['objectNumber', 'modified', 'titleNL', 'titleFR', 'titleEN', 'dateBegin', 'dateEnd'] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type SortDirection = 'asc' | 'desc';

export interface SortOrder {
  /** Ids with the key, ascending by key then object number, followed by the ids without it, by object number. */
  readonly order: Uint32Array;
  /** How many ids at the start of `order` have the key. */
  readonly present: number;
}

const TITLE_KEYS: Record<'titleNL' | 'titleFR' | 'titleEN', TitleLanguage> = { titleNL: 'nl', titleFR: 'fr', titleEN: 'en' };

/** The order of every sort key for `table`. */
export function buildSortOrders(table: ObjectTable): Record<SortKey, SortOrder> {
  const identity: SortOrder = { order: Uint32Array.from({ length: table.size }, (_, id) => id), present: table.size };
  const titles = Object.fromEntries(
    Object.entries(TITLE_KEYS).map(([key, lang]) => {
      // Titles sort as readers expect in their language (case and accents are secondary), not by code point.
      const collator = new Intl.Collator(lang);
      const values = table.titles[lang];
      return [key, orderBy(table.size, (id) => values[id], collator.compare)];
    }),
  ) as Record<keyof typeof TITLE_KEYS, SortOrder>;
  const modified = table.modified;
  return {
    objectNumber: identity,
    modified: orderBy(table.size, (id) => modified[id], (a, b) => (a < b ? -1 : a > b ? 1 : 0)),
    ...titles,
    dateBegin: orderBy(table.size, (id) => finite(table.periodBegin[id]), (a, b) => a - b),
    dateEnd: orderBy(table.size, (id) => finite(table.periodEnd[id]), (a, b) => a - b),
  };
}

const finite = (value: number | undefined): number | undefined => (value !== undefined && Number.isFinite(value) ? value : undefined);

function orderBy<T>(size: number, key: (id: number) => T | undefined, compare: (a: T, b: T) => number): SortOrder {
  const present: number[] = [];
  const missing: number[] = [];
  for (let id = 0; id < size; id++) (key(id) === undefined ? missing : present).push(id);
  // Ids are in object-number order, so the id breaks ties.
  present.sort((a, b) => compare(key(a) as T, key(b) as T) || a - b);
  return { order: Uint32Array.from([...present, ...missing]), present: present.length };
}

/**
 * Up to `limit` ids of `order` that pass `keep`, from the `offset`-th such id. Descending walks the ids with the
 * key backwards, then the ids without it backwards: missing values stay last in both directions, and ties
 * follow object number in the requested direction.
 */
export function pageOf(sort: SortOrder, direction: SortDirection, keep: (id: number) => boolean, offset: number, limit: number): number[] {
  const { order, present } = sort;
  const out: number[] = [];
  let skip = offset;
  const visit = (id: number): boolean => {
    if (!keep(id)) return true;
    if (skip > 0) skip--;
    else out.push(id);
    return out.length < limit;
  };
  if (direction === 'asc') {
    for (let i = 0; i < order.length; i++) if (!visit(order[i]!)) break;
    return out;
  }
  for (let i = present - 1; i >= 0; i--) if (!visit(order[i]!)) return out;
  for (let i = order.length - 1; i >= present; i--) if (!visit(order[i]!)) return out;
  return out;
}
