/**
 * Counting indexes over labels (spec, "Material index record" and "Other indexes"): for each value a
 * collection filter accepts (a type or material label, a nationality, a role), how many records carry it.
 * The counts come from the very postings the filter selects with, so a member's count is the filter's
 * `hydra:totalItems` by construction; tests check it through HTTP all the same.
 */
import type { Bitset } from '../collection-index/bitset.js';

/** One value of a filter and the records that have it. */
export interface LabelledSet {
  /** The value as the index shows it and the filter link carries it. */
  label: string;
  /** Ascending record ids, or a bitset. */
  ids: ArrayLike<number> | Bitset;
  /** The concept the value stands for, when exactly one does. */
  iri?: string;
}

export interface CountedLabel {
  label: string;
  count: number;
  iri?: string;
}

const DUTCH = new Intl.Collator('nl', { sensitivity: 'base', numeric: true });

const isBitset = (ids: LabelledSet['ids']): ids is Bitset => typeof (ids as Bitset).count === 'function';

/**
 * Counts per value, restricted to `within` when given; values with no record left out. Sorted by count,
 * highest first, then by label in Dutch collation (then code points, so the order is total).
 */
export function countLabels(sets: Iterable<LabelledSet>, within?: Bitset): CountedLabel[] {
  const counted: CountedLabel[] = [];
  for (const set of sets) {
    let count: number;
    if (isBitset(set.ids)) count = within ? set.ids.countAnd(within) : set.ids.count();
    else if (!within) count = set.ids.length;
    else {
      count = 0;
      for (let i = 0; i < set.ids.length; i++) if (within.has(set.ids[i]!)) count++;
    }
    if (count > 0) counted.push(set.iri === undefined ? { label: set.label, count } : { label: set.label, count, iri: set.iri });
  }
  return counted.sort((a, b) => b.count - a.count || DUTCH.compare(a.label, b.label) || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
}
