/**
 * The straightforward collection select the optimised one is held to (test/unit/text-search.test.ts) and
 * timed against (test/bench/search.ts): the text query through MiniSearch's own search (TextIndex.
 * findReference: every match scored, all sorted), filters intersected, every matching id put in order
 * (relevance, a sort order either way, or pid), then the page sliced out. This is how select worked before
 * the page was bounded.
 */
import { Bitset } from '../../src/collection-index/bitset.js';
import type { CollectionIndex, CollectionRequest, CollectionSlice } from '../../src/collection-index/collection-index.js';
import type { RecordTable } from '../../src/collection-index/record-table.js';
import { pageOf } from '../../src/collection-index/sort-orders.js';

/** Every matching id in the request's order, and the total. */
export function referenceOrder<T extends RecordTable>(index: CollectionIndex<T>, request: Omit<CollectionRequest<T>, 'offset' | 'limit'>): { total: number; ids: number[] } {
  const { size } = index.table;
  let set: Bitset | undefined;
  for (const filter of request.filters) {
    const ids = filter.select(index);
    set = set ? set.and(ids) : ids;
  }
  const matches = request.text ? index.text.findReference(request.text, size) : undefined;
  if (matches) set = set ? set.and(matches.matches) : matches.matches;
  const keep = set ?? Bitset.full(size);
  const all = keep.toArray();
  let ids: number[];
  if (request.filters.some((filter) => filter.fixesOrder)) ids = all;
  else if (request.sort === undefined) ids = matches ? Array.from(matches.ranked).filter((id) => keep.has(id)) : all;
  else {
    const order = index.sorts[request.sort.key];
    if (order === undefined) ids = request.sort.direction === 'asc' ? all : all.reverse();
    else {
      const present = Array.from(order.order.subarray(0, order.present));
      const missing = Array.from(order.order.subarray(order.present));
      const walk = request.sort.direction === 'asc' ? [...present, ...missing] : [...present.reverse(), ...missing.reverse()];
      ids = walk.filter((id) => keep.has(id));
    }
  }
  return { total: ids.length, ids };
}

/** CollectionIndex.select done the straightforward way: sort all, slice. */
export function referenceSelect<T extends RecordTable>(index: CollectionIndex<T>, request: CollectionRequest<T>): CollectionSlice {
  const { total, ids } = referenceOrder(index, request);
  const page = request.limit <= 0 ? [] : ids.slice(request.offset, request.offset + request.limit);
  return { total, iris: page.map((id) => index.table.iris[id]!) };
}

/**
 * CollectionIndex.select as it was before the bounded page (the same-run baseline of test/bench/search.ts):
 * the text query through MiniSearch's search whatever the order asked (every match scored and sorted), then
 * the page walked from the front of that ranking or of the sort order.
 */
export function previousSelect<T extends RecordTable>(index: CollectionIndex<T>, request: CollectionRequest<T>): CollectionSlice {
  const { size } = index.table;
  let set: Bitset | undefined;
  for (const filter of request.filters) {
    const ids = filter.select(index);
    set = set ? set.and(ids) : ids;
  }
  const matches = request.text ? index.text.findReference(request.text, size) : undefined;
  if (matches) set = set ? set.and(matches.matches) : matches.matches;
  const total = set ? set.count() : size;
  const { offset, limit } = request;
  if (offset >= total || limit <= 0) return { total, iris: [] };

  const keep = set ?? Bitset.full(size);
  const order = request.sort === undefined ? undefined : index.sorts[request.sort.key];
  let ids: number[];
  if (request.filters.some((filter) => filter.fixesOrder)) {
    ids = keep.slice(offset, limit);
  } else if (request.sort === undefined) {
    ids = matches ? pageOf({ order: matches.ranked, present: matches.ranked.length }, 'asc', (id) => keep.has(id), offset, limit) : keep.slice(offset, limit);
  } else if (order === undefined) {
    ids = request.sort.direction === 'asc' ? keep.slice(offset, limit) : keep.sliceDescending(offset, limit);
  } else {
    ids = pageOf(order, request.sort.direction, (id) => keep.has(id), offset, limit);
  }
  return { total, iris: ids.map((id) => index.table.iris[id]!) };
}
