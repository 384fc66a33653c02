/**
 * One generation's collection index and the only question collections ask it: for these filters, this
 * text query and this order, how many objects match and which are on the requested page. Everything is
 * in memory; nothing here queries the store.
 */
import { Bitset } from './bitset.js';
import type { ActiveFilter, FilterHost, PreparedFilter } from './filters/filter.js';
import type { ObjectTable } from './object-table.js';
import { pageOf, type SortDirection, type SortKey, type SortOrder } from './sort-orders.js';
import type { TextIndex } from './text/text-index.js';
import type { TextQuery } from './text/query-parser.js';
import type { Iris } from '../vocab/iris.js';

export interface CollectionRequest {
  filters: readonly ActiveFilter[];
  /** Full-text query; its matches are ranked by relevance unless `sort` is given. */
  text?: TextQuery;
  /** Undefined: relevance order with `text`, object-number order without. */
  sort?: { key: SortKey; direction: SortDirection };
  offset: number;
  limit: number;
}

export interface CollectionSlice {
  /** Objects matching every filter. */
  total: number;
  /** Record IRIs of the page, in order. */
  iris: string[];
}

/** Facts about a build, for logs and the benchmark. */
export interface BuildReport {
  objects: number;
  ms: { queries: number; table: number; sorts: number; text: number; filters: number; total: number };
  heapUsedDeltaBytes: number;
}

export class CollectionIndex implements FilterHost {
  private readonly states: ReadonlyMap<symbol, unknown>;

  constructor(
    readonly table: ObjectTable,
    readonly sorts: Readonly<Record<SortKey, SortOrder>>,
    readonly text: TextIndex,
    readonly iris: Iris,
    prepared: readonly PreparedFilter[],
    readonly report: BuildReport,
  ) {
    this.states = new Map(prepared.map((filter) => [filter.key, filter.state]));
  }

  get generationId(): string {
    return this.table.generationId;
  }

  /** The state a filter prepared for this generation. */
  stateOf(key: symbol): unknown {
    return this.states.get(key);
  }

  /** The total and the page of ids for a request. */
  select(request: CollectionRequest): CollectionSlice {
    const { size } = this.table;
    let set: Bitset | undefined;
    for (const filter of request.filters) {
      const ids = filter.select(this);
      set = set ? set.and(ids) : ids;
    }
    const matches = request.text ? this.text.find(request.text) : undefined;
    if (matches) set = set ? set.and(matches.matches) : matches.matches.clone();
    const total = set ? set.count() : size;
    const { offset, limit } = request;
    if (offset >= total || limit <= 0) return { total, iris: [] };

    const keep = set ?? Bitset.full(size);
    let ids: number[];
    if (request.filters.some((filter) => filter.fixesOrder)) {
      ids = keep.slice(offset, limit);
    } else if (request.sort === undefined) {
      ids = matches ? pageOf({ order: matches.ranked, present: matches.ranked.length }, 'asc', (id) => keep.has(id), offset, limit) : keep.slice(offset, limit);
    } else if (request.sort.key === 'objectNumber') {
      ids = request.sort.direction === 'asc' ? keep.slice(offset, limit) : keep.sliceDescending(offset, limit);
    } else {
      ids = pageOf(this.sorts[request.sort.key], request.sort.direction, (id) => keep.has(id), offset, limit);
    }
    return { total, iris: ids.map((id) => this.table.iris[id]!) };
  }
}
