/** Range selections over a sort order: the ids whose key is at least, or at most, a bound, found by binary search. */
import { Bitset } from '../bitset.js';
import type { SortOrder } from '../sort-orders.js';

/** First position in order[0, present) whose key is not below `bound` (keys ascend there). */
function lowerBound<T>(sort: SortOrder, key: (id: number) => T, bound: T, below: (a: T, b: T) => boolean): number {
  let low = 0;
  let high = sort.present;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (below(key(sort.order[middle]!), bound)) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Ids whose key is >= bound. */
export function atLeast<T>(size: number, sort: SortOrder, key: (id: number) => T, bound: T, below: (a: T, b: T) => boolean): Bitset {
  return Bitset.of(size, sort.order.subarray(lowerBound(sort, key, bound, below), sort.present));
}

/** Ids whose key is <= bound. */
export function atMost<T>(size: number, sort: SortOrder, key: (id: number) => T, bound: T, below: (a: T, b: T) => boolean): Bitset {
  // Keys <= bound are those not above it: the positions before the first key that `bound` is below.
  let low = 0;
  let high = sort.present;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (below(bound, key(sort.order[middle]!))) high = middle;
    else low = middle + 1;
  }
  return Bitset.of(size, sort.order.subarray(0, low));
}
