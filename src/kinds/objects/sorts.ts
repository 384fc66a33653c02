/** Sort keys of the objects collection (spec, `sortBy`): object number (id order), modified, titles per language, dates. */
import { collatedOrder, modifiedOrder, orderBy, type SortOrder } from '../../collection-index/sort-orders.js';
import type { ObjectTable } from './table.js';

export const SORT_KEYS = ['objectNumber', 'modified', 'titleNL', 'titleFR', 'titleEN', 'dateBegin', 'dateEnd'] as const;
export type SortKey = (typeof SORT_KEYS)[number];

const finite = (value: number | undefined): number | undefined => (value !== undefined && Number.isFinite(value) ? value : undefined);

/** The order of every sort key but objectNumber (id order), for `table`. */
export function objectSorts(table: ObjectTable): Record<Exclude<SortKey, 'objectNumber'>, () => SortOrder> {
  return {
    modified: () => modifiedOrder(table),
    titleNL: () => collatedOrder(table.size, 'nl', (id) => table.titles.nl[id]),
    titleFR: () => collatedOrder(table.size, 'fr', (id) => table.titles.fr[id]),
    titleEN: () => collatedOrder(table.size, 'en', (id) => table.titles.en[id]),
    dateBegin: () => orderBy(table.size, (id) => finite(table.periodBegin[id]), (a, b) => a - b),
    dateEnd: () => orderBy(table.size, (id) => finite(table.periodEnd[id]), (a, b) => a - b),
  };
}
