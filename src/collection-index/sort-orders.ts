/**
 * Sort orders, computed once per generation: for each sort key of a kind, every id ordered by (key, pid),
 * records lacking the key last. A page in either direction is then a walk over one array, never a sort.
 */
import type { RecordTable } from './record-table.js';

export type SortDirection = 'asc' | 'desc';

export interface SortOrder {
  /** Ids with the key, ascending by key then pid, followed by the ids without it, by pid. */
  readonly order: Uint32Array;
  /** How many ids at the start of `order` have the key. */
  readonly present: number;
}

/** Every id in id (pid) order. */
export const identityOrder = (size: number): SortOrder => ({ order: Uint32Array.from({ length: size }, (_, id) => id), present: size });

/** Ids ordered by `key` (ids without one last); ids are in pid order, so the id breaks ties. */
export function orderBy<T>(size: number, key: (id: number) => T | undefined, compare: (a: T, b: T) => number): SortOrder {
  const present: number[] = [];
  const missing: number[] = [];
  for (let id = 0; id < size; id++) (key(id) === undefined ? missing : present).push(id);
  present.sort((a, b) => compare(key(a) as T, key(b) as T) || a - b);
  return { order: Uint32Array.from([...present, ...missing]), present: present.length };
}

/** ISO dates and other keys that sort as code points. */
export const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The `modified` order every kind has. */
export const modifiedOrder = (table: RecordTable): SortOrder => orderBy(table.size, (id) => table.modified[id], compareStrings);

/** Labels in a language's collation (case and accents are secondary), as readers of that language expect. */
export function collatedOrder(size: number, lang: string, text: (id: number) => string | undefined): SortOrder {
  const collator = new Intl.Collator(lang);
  return orderBy(size, text, collator.compare);
}

/**
 * Up to `limit` ids of `order` that pass `keep`, from the `offset`-th such id. Descending walks the ids with the
 * key backwards, then the ids without it backwards: missing values stay last in both directions, and ties
 * follow pid in the requested direction.
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
