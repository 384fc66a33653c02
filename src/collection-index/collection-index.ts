/**
 * One generation's collection index of one kind and the only question collections ask it: for these
 * filters, this text query and this order, how many records match and which are on the requested page.
 * Everything is in memory; nothing here queries the store.
 */
import { Bitset } from './bitset.js';
import type { ActiveFilter, FilterHost, PreparedFilter } from './filters/filter.js';
import type { RecordTable } from './record-table.js';
import { pageOf, type SortDirection, type SortOrder } from './sort-orders.js';
import type { TextIndex } from './text/text-index.js';
import type { TextQuery } from './text/query-parser.js';
import type { Iris } from '../vocab/iris.js';

export interface CollectionRequest<T extends RecordTable = RecordTable> {
  filters: readonly ActiveFilter<T>[];
  /** Full-text query; its matches are ranked by relevance unless `sort` is given. */
  text?: TextQuery;
  /** Undefined: relevance order with `text`, pid order without. A key without an order is pid order. */
  sort?: { key: string; direction: SortDirection };
  offset: number;
  limit: number;
}

export interface CollectionSlice {
  /** Records matching every filter. */
  total: number;
  /** Record IRIs of the page, in order. */
  iris: string[];
}

/** Facts about a build, for logs and the benchmark. */
export interface BuildReport {
  records: number;
  ms: { queries: number; table: number; sorts: number; text: number; filters: number; total: number };
  heapUsedDeltaBytes: number;
}

export class CollectionIndex<T extends RecordTable = RecordTable> implements FilterHost<T> {
  private readonly states: ReadonlyMap<symbol, unknown>;

  constructor(
    readonly table: T,
    /** Orders of the kind's sort keys; pid order needs none (ids are in pid order). */
    readonly sorts: Readonly<Record<string, SortOrder>>,
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

  /** The records matching every filter and the text query; undefined when nothing narrows (all match). */
  matching(filters: readonly ActiveFilter<T>[], text?: TextQuery): Bitset | undefined {
    const filtered = this.filtered(filters);
    const matches = text ? this.text.find(text, this.table.size, false).matches : undefined;
    return matches && filtered ? filtered.and(matches) : (matches ?? filtered);
  }

  /** The ids passing every filter; undefined without filters. */
  private filtered(filters: readonly ActiveFilter<T>[]): Bitset | undefined {
    let set: Bitset | undefined;
    for (const filter of filters) {
      const ids = filter.select(this);
      set = set ? set.and(ids) : ids;
    }
    return set;
  }

  /**
   * The total and the page of ids for a request. The total is a count of the final set; only the page's ids
   * are put in order: a walk of a sort order, or (relevance) the page's ranks among the text matches.
   */
  select(request: CollectionRequest<T>): CollectionSlice {
    const { size } = this.table;
    const { offset, limit } = request;
    const fixesOrder = request.filters.some((filter) => filter.fixesOrder);
    const filtered = this.filtered(request.filters);
    if (request.text !== undefined && request.sort === undefined && !fixesOrder) {
      // Relevance: the text index ranks the matches that pass the filters and keeps the page only.
      const { matches, ids } = this.text.findPage(request.text, size, filtered, offset, limit);
      const total = filtered ? filtered.countAnd(matches) : matches.count();
      return { total, iris: ids.map((id) => this.table.iris[id]!) };
    }
    const matches = request.text ? this.text.find(request.text, size, false).matches : undefined;
    const set = matches && filtered ? filtered.and(matches) : (matches ?? filtered);
    const total = set ? set.count() : size;
    if (offset >= total || limit <= 0) return { total, iris: [] };

    const keep = set ?? Bitset.full(size);
    const order = request.sort === undefined ? undefined : this.sorts[request.sort.key];
    let ids: number[];
    if (fixesOrder || request.sort === undefined) {
      ids = keep.slice(offset, limit);
    } else if (order === undefined) {
      ids = request.sort.direction === 'asc' ? keep.slice(offset, limit) : keep.sliceDescending(offset, limit);
    } else {
      ids = pageOf(order, request.sort.direction, (id) => keep.has(id), offset, limit);
    }
    return { total, iris: ids.map((id) => this.table.iris[id]!) };
  }
}
