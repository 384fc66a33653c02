/**
 * Query-time hit sets of the full-text search. An Accumulator holds the records a (sub)query matches, each
 * with its score and the set of query terms that reached it (a bit mask), in arrays indexed by record id (so
 * adding a record is O(1) and combining two sets costs the smaller one, not both), with the list of the ids
 * it holds. Accumulators are reused from query to query (a stamp per id says which ids the current use
 * holds, so nothing is cleared between uses). They combine the way MiniSearch combines its result maps (OR:
 * a record on both sides scores `left + right`; AND: only records on both sides, `left + right`), in the same
 * order of additions, so every score is the same double as MiniSearch's.
 */
import { popcount, type Bitset } from '../bitset.js';

export class Accumulator {
  /** The ids held, in the order they came (not sorted); `count` of them. */
  readonly ids: Uint32Array;
  count = 0;
  readonly scores: Float64Array;
  /** Per id, `words` words of term bits: term n is bit n % 32 of word n / 32 (one word up to 32 terms). */
  readonly masks: Uint32Array;
  private readonly stamps: Uint32Array;
  private stamp = 1;

  constructor(
    size: number,
    readonly words = 1,
  ) {
    this.ids = new Uint32Array(size);
    this.scores = new Float64Array(size);
    this.masks = new Uint32Array(size * words);
    this.stamps = new Uint32Array(size);
  }

  /** Empties the set (in O(1)). */
  clear(): void {
    this.count = 0;
    if (++this.stamp === 0xffffffff) {
      this.stamps.fill(0);
      this.stamp = 1;
    }
  }

  has(id: number): boolean {
    return this.stamps[id] === this.stamp;
  }

  /** One posting of a term: a record not held yet takes `score`, a held one adds it (held + score); the term's bit `mask` of word `word`. */
  add(id: number, score: number, mask: number, word = 0): void {
    const { words } = this;
    if (this.stamps[id] === this.stamp) {
      this.scores[id] = this.scores[id]! + score;
      const at = id * words + word;
      this.masks[at] = this.masks[at]! | mask;
    } else {
      this.stamps[id] = this.stamp;
      this.scores[id] = score;
      if (words === 1) this.masks[id] = mask;
      else {
        this.masks.fill(0, id * words, (id + 1) * words);
        this.masks[id * words + word] = mask;
      }
      this.ids[this.count++] = id;
    }
  }

  /** One posting, membership only. */
  addId(id: number): void {
    if (this.stamps[id] !== this.stamp) {
      this.stamps[id] = this.stamp;
      this.ids[this.count++] = id;
    }
  }

  /** MiniSearch's OR of this set and `other` (of as many words): every record of either, `this + other` on both. */
  or(other: Accumulator, scored: boolean): void {
    const { ids, count } = other;
    if (!scored) {
      for (let i = 0; i < count; i++) this.addId(ids[i]!);
      return;
    }
    const { scores, masks, words } = other;
    for (let i = 0; i < count; i++) {
      const id = ids[i]!;
      this.add(id, scores[id]!, masks[id * words]!);
      for (let w = 1; w < words; w++) this.add(id, 0, masks[id * words + w]!, w);
    }
  }

  /** MiniSearch's AND: the records of both sets (of as many words), `this + other`. */
  and(other: Accumulator, scored: boolean): void {
    const { ids, stamps, words } = this;
    let kept = 0;
    for (let i = 0; i < this.count; i++) {
      const id = ids[i]!;
      if (!other.has(id)) {
        stamps[id] = 0;
        continue;
      }
      if (scored) {
        this.scores[id] = this.scores[id]! + other.scores[id]!;
        for (let at = id * words; at < (id + 1) * words; at++) this.masks[at] = this.masks[at]! | other.masks[at]!;
      }
      ids[kept++] = id;
    }
    this.count = kept;
  }

  /** Keeps the records that pass `keep`. */
  filter(keep: (id: number) => boolean): void {
    const { ids, stamps } = this;
    let kept = 0;
    for (let i = 0; i < this.count; i++) {
      const id = ids[i]!;
      if (keep(id)) ids[kept++] = id;
      else stamps[id] = 0;
    }
    this.count = kept;
  }

  /** MiniSearch's final score of a result: its summed score times the number of distinct query terms that matched it. */
  timesTermCount(): void {
    const { ids, scores, masks, words } = this;
    for (let i = 0; i < this.count; i++) {
      const id = ids[i]!;
      let terms = 0;
      for (let at = id * words; at < (id + 1) * words; at++) terms += popcount(masks[at]!);
      scores[id] = scores[id]! * (terms || 1);
    }
  }

  /** The held records and their scores as arrays of their own (the accumulator goes back to its pool). */
  snapshot(): Ranked {
    return { ids: this.ids.slice(0, this.count), scores: this.scores.slice() };
  }
}

/** Accumulators of one size, lent out and given back within one synchronous query. */
export class AccumulatorPool {
  private readonly free: Accumulator[] = [];

  constructor(
    private readonly size: number,
    /** Mask words of its accumulators (Accumulator.words). */
    readonly words = 1,
  ) {}

  take(): Accumulator {
    const accumulator = this.free.pop() ?? new Accumulator(this.size, this.words);
    accumulator.clear();
    return accumulator;
  }

  give(accumulator: Accumulator): void {
    this.free.push(accumulator);
  }

  /** Runs `use` with an accumulator of the pool (empty), given back after. */
  with(use: (accumulator: Accumulator) => void): void {
    const accumulator = this.take();
    try {
      use(accumulator);
    } finally {
      this.give(accumulator);
    }
  }
}

/** Matching ids (any order) and their scores (indexed by id). */
export interface Ranked {
  readonly ids: Uint32Array;
  readonly scores: Float64Array;
}

/**
 * Up to `limit` of `ids` (any order) that are in `keep` (every one when undefined), best score first
 * (`scores` is indexed by id) and ties by ascending id, from the `offset`-th. Only the page is ever sorted: a
 * page near the front keeps the best offset + limit while reading (a bounded heap), one near the end the
 * worst from the page on, any other is a selection (quickselect) of the page's ranks; so a page of 30,000
 * matches is one or two passes over them, not a sort of 30,000. `scratch` (at least as long as `ids`) saves
 * the selection an allocation.
 */
export function topRanked(ids: Uint32Array, scores: Float64Array, keep: Bitset | undefined, offset: number, limit: number, scratch?: Uint32Array): number[] {
  if (limit <= 0 || ids.length === 0) return [];
  /** id a ranks before id b */
  const before = (a: number, b: number): boolean => scores[a]! > scores[b]! || (scores[a] === scores[b] && a < b);
  const after = (a: number, b: number): boolean => before(b, a);
  const order = (a: number, b: number): number => scores[b]! - scores[a]! || a - b;
  const n = keep === undefined ? ids.length : countKept(ids, keep);
  if (offset >= n) return [];
  const end = Math.min(n, offset + limit);
  if (end <= HEAP_LIMIT) return Array.from(bounded(ids, keep, end, before).sort(order).subarray(offset, end));
  if (n - offset <= HEAP_LIMIT) {
    const worst = bounded(ids, keep, n - offset, after).sort(order);
    return Array.from(worst.subarray(0, end - offset));
  }
  const candidates = scratch !== undefined && scratch.length >= n ? scratch.subarray(0, n) : new Uint32Array(n);
  for (let i = 0, c = 0; i < ids.length; i++) if (keep === undefined || keep.has(ids[i]!)) candidates[c++] = ids[i]!;
  // Ranks 0 … offset - 1 to the left of `offset`, then ranks offset … end - 1 to the left of `end`.
  if (offset > 0) nthElement(candidates, 0, n - 1, offset, before);
  if (end < n) nthElement(candidates, offset, n - 1, end, before);
  return Array.from(candidates.subarray(offset, end).sort(order));
}

/** Pages reaching at most this far from either end are kept in a heap; others are selected. */
const HEAP_LIMIT = 1024;

function countKept(ids: Uint32Array, keep: Bitset): number {
  let n = 0;
  for (let i = 0; i < ids.length; i++) if (keep.has(ids[i]!)) n++;
  return n;
}

/**
 * The `count` ids of `ids` (those in `keep`) that come first by `first`, in no particular order: a heap of
 * the ones kept so far with the last of them on top.
 */
function bounded(ids: Uint32Array, keep: Bitset | undefined, count: number, first: (a: number, b: number) => boolean): Uint32Array {
  const heap = new Uint32Array(count);
  let size = 0;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    if (keep !== undefined && !keep.has(id)) continue;
    let at: number;
    if (size < count) {
      at = size++;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (!first(heap[parent]!, id)) break;
        heap[at] = heap[parent]!;
        at = parent;
      }
      heap[at] = id;
      continue;
    }
    if (!first(id, heap[0]!)) continue;
    at = 0;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= size) break;
      const right = left + 1;
      const child = right < size && first(heap[left]!, heap[right]!) ? right : left;
      if (!first(id, heap[child]!)) break;
      heap[at] = heap[child]!;
      at = child;
    }
    heap[at] = id;
  }
  return heap.subarray(0, size);
}

/**
 * Rearranges a[lo … hi] (inclusive) so that a[k] is the element that `before` puts k-th (counted from 0 at
 * lo … as in the whole array), every element before it to its left and every later one to its right:
 * Hoare's quickselect with a median-of-three pivot; `before` is a strict total order.
 */
function nthElement(a: Uint32Array, lo: number, hi: number, k: number, before: (x: number, y: number) => boolean): void {
  const swap = (i: number, j: number): void => {
    const t = a[i]!;
    a[i] = a[j]!;
    a[j] = t;
  };
  while (hi - lo > 16) {
    const mid = lo + ((hi - lo) >> 1);
    if (before(a[mid]!, a[lo]!)) swap(lo, mid);
    if (before(a[hi]!, a[lo]!)) swap(lo, hi);
    if (before(a[hi]!, a[mid]!)) swap(mid, hi);
    const pivot = a[mid]!;
    let i = lo - 1;
    let j = hi + 1;
    for (;;) {
      do i++;
      while (before(a[i]!, pivot));
      do j--;
      while (before(pivot, a[j]!));
      if (i >= j) break;
      swap(i, j);
    }
    if (k <= j) hi = j;
    else lo = j + 1;
  }
  for (let i = lo + 1; i <= hi; i++) {
    const item = a[i]!;
    let j = i - 1;
    while (j >= lo && before(item, a[j]!)) {
      a[j + 1] = a[j]!;
      j--;
    }
    a[j + 1] = item;
  }
}
