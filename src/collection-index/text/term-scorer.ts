/**
 * Query-time reading of the MiniSearch index the text index builds: for one term in some fields, the ids that
 * have it and their BM25 scores, computed as MiniSearch's own search computes them (the same formula on the
 * same numbers, fields added in the same order) but into typed arrays, without MiniSearch's result objects
 * (per match: an entry, its term list and match map, then a copy with the stored fields and a sort of all).
 *
 * It reads MiniSearch's internal fields (version 7: `_index`, `_fieldIds`, `_fieldLength`, `_avgFieldLength`,
 * `_documentCount`, `_documentIds`, `_dirtCount`, `_options.searchOptions.bm25`), which MiniSearch's JSON
 * form also keeps. `TermScorer.of` checks once that they are there and that MiniSearch's short ids are the
 * record ids (documents added in id order, none removed); when not, the text index answers through
 * MiniSearch's search instead. The property test (test/unit/text-search.test.ts) holds both equal.
 */
import type { Accumulator } from './hits.js';

/** One field's postings of a term: short id (= record id) → term frequency. */
export interface FieldPostings {
  readonly term: string;
  readonly field: string;
  readonly fieldId: number;
  readonly freqs: ReadonlyMap<number, number>;
}

/** A field's postings of a term as arrays: ids in MiniSearch's order, each with its weighted score. */
interface ScoredPostings {
  readonly ids: Uint32Array;
  readonly scores: Float64Array;
}

/** Lists at least this long are scored once into arrays and kept (TermScorer.cached). */
const CACHED_FROM = 1024;
/** Cached entries (12 bytes each) per record of the index. */
const CACHED_PER_RECORD = 8;

/** term → field id → short id → term frequency */
type FieldTermData = ReadonlyMap<number, ReadonlyMap<number, number>>;

interface MiniSearchInternals {
  _index?: { get(term: string): FieldTermData | undefined };
  _fieldIds?: Readonly<Record<string, number>>;
  _fieldLength?: ReadonlyMap<number, readonly number[]>;
  _avgFieldLength?: readonly number[];
  _documentCount?: number;
  _documentIds?: ReadonlyMap<number, unknown>;
  _dirtCount?: number;
  _options?: { searchOptions?: { bm25?: { k: number; b: number; d: number } } };
}

interface Bm25 {
  k: number;
  b: number;
  d: number;
}

export class TermScorer {
  private readonly orders = new Map<string, string[]>();
  /** Field lengths per field id as typed arrays, made on first use (lengthsOf). */
  private readonly lengths: Float64Array[] = [];
  /** Scored postings of long lists, by field id and term, least recently used first (cached). */
  private readonly scoredLists = new Map<string, ScoredPostings>();
  private cachedEntries = 0;

  private constructor(
    private readonly index: NonNullable<MiniSearchInternals['_index']>,
    private readonly fieldIds: Readonly<Record<string, number>>,
    private readonly fieldLength: ReadonlyMap<number, readonly number[]>,
    private readonly avgFieldLength: readonly number[],
    private readonly documentCount: number,
    private readonly bm25: Bm25,
    /** Field boosts as the text index passes them to MiniSearch's search. */
    private readonly boost: Readonly<Record<string, number>>,
    private readonly size: number,
  ) {}

  /** A scorer over `search` (of `size` records), or undefined when its internals are not what this reads. */
  static of(search: object, size: number, boost: Readonly<Record<string, number>>): TermScorer | undefined {
    const m = search as unknown as MiniSearchInternals;
    const bm25 = m._options?.searchOptions?.bm25;
    if (!m._index || typeof m._index.get !== 'function' || !m._fieldIds || !m._fieldLength || !m._avgFieldLength || !m._documentIds || !bm25) return undefined;
    if (m._documentCount !== size || m._dirtCount !== 0 || m._documentIds.size !== size) return undefined;
    for (let id = 0; id < size; id++) if (m._documentIds.get(id) !== id) return undefined;
    return new TermScorer(m._index, m._fieldIds, m._fieldLength, m._avgFieldLength, m._documentCount, bm25, boost, size);
  }

  /** Whether any record has `term` in `field`. */
  has(term: string, field: string): boolean {
    const id = this.fieldIds[field];
    return id !== undefined && (this.index.get(term)?.get(id)?.size ?? 0) > 0;
  }

  /**
   * The postings of `term` in `fields`, in the order MiniSearch's termResults visits the fields (fields
   * without the term left out).
   */
  postings(term: string, fields: readonly string[]): FieldPostings[] {
    // MiniSearch drops empty terms before looking them up.
    if (!term) return [];
    const data = this.index.get(term);
    if (data === undefined) return [];
    const out: FieldPostings[] = [];
    for (const field of this.fieldOrder(fields)) {
      const fieldId = this.fieldIds[field];
      if (fieldId === undefined) continue;
      const freqs = data.get(fieldId);
      if (freqs !== undefined && freqs.size > 0) out.push({ term, field, fieldId, freqs });
    }
    return out;
  }

  /**
   * Adds one field's postings to `target`: ids only, or (with `mask`) each id's weighted BM25 score as
   * MiniSearch's termResults computes it, added to what the id holds already.
   */
  addTo(target: Accumulator, list: FieldPostings, mask: number | undefined): void {
    const scored = list.freqs.size >= CACHED_FROM ? this.cached(list) : undefined;
    if (scored !== undefined) {
      const { ids, scores } = scored;
      if (mask === undefined) for (let i = 0; i < ids.length; i++) target.addId(ids[i]!);
      else for (let i = 0; i < ids.length; i++) target.add(ids[i]!, scores[i]!, mask);
      return;
    }
    if (mask === undefined) {
      list.freqs.forEach((_termFreq, id) => target.addId(id));
      return;
    }
    this.score(list, (id, score) => target.add(id, score, mask));
  }

  /**
   * Each id of `list` with its weighted BM25 score, as MiniSearch's termResults computes it: termWeight *
   * termBoost * fieldBoost * docBoost * rawScore, every factor but fieldBoost and rawScore being 1 here, and
   * rawScore calcBM25Score written as MiniSearch writes it (its inverse document frequency is the same for
   * every id of the list).
   */
  private score({ field, fieldId, freqs }: FieldPostings, visit: (id: number, score: number) => void): void {
    const fieldBoost = (Object.prototype.hasOwnProperty.call(this.boost, field) ? this.boost[field] : undefined) || 1;
    const { k, b, d } = this.bm25;
    const matchingCount = freqs.size;
    const totalCount = this.documentCount;
    const avgFieldLength = this.avgFieldLength[fieldId]!;
    const lengths = this.lengthsOf(fieldId);
    const invDocFreq = Math.log(1 + (totalCount - matchingCount + 0.5) / (matchingCount + 0.5));
    freqs.forEach((termFreq, id) => {
      const fieldLength = lengths[id]!;
      const rawScore = invDocFreq * (d + termFreq * (k + 1) / (termFreq + k * (1 - b + b * fieldLength / avgFieldLength)));
      visit(id, fieldBoost * rawScore);
    });
  }

  /**
   * A long list's ids and scores as typed arrays (reading a Map of 30,000 entries costs ten times more than
   * reading the arrays), kept for the next queries of the same term: the lists of the most recently used
   * terms, at most CACHED_PER_RECORD entries a record in all (about 100 bytes a record; 5 MB at 50k records).
   */
  private cached(list: FieldPostings): ScoredPostings {
    const key = `${list.fieldId}\u0000${list.term}`;
    let scored = this.scoredLists.get(key);
    if (scored !== undefined) {
      // Most recently used last.
      this.scoredLists.delete(key);
      if (scored.ids.length === list.freqs.size) {
        this.scoredLists.set(key, scored);
        return scored;
      }
      this.cachedEntries -= scored.ids.length;
    }
    const ids = new Uint32Array(list.freqs.size);
    const scores = new Float64Array(list.freqs.size);
    let i = 0;
    this.score(list, (id, score) => {
      ids[i] = id;
      scores[i++] = score;
    });
    scored = { ids, scores };
    this.scoredLists.set(key, scored);
    this.cachedEntries += ids.length;
    for (const [oldest, old] of this.scoredLists) {
      if (this.cachedEntries <= CACHED_PER_RECORD * this.size || oldest === key) break;
      this.scoredLists.delete(oldest);
      this.cachedEntries -= old.ids.length;
    }
    return scored;
  }

  /**
   * Every record's length of field `fieldId` (MiniSearch keeps them as one small array per record in a Map,
   * a lookup per posting); copied into one typed array per field the first time a query is scored.
   */
  private lengthsOf(fieldId: number): Float64Array {
    if (this.lengths.length === 0) {
      // Every field at once: one pass over MiniSearch's Map.
      const fields = Object.values(this.fieldIds);
      for (const id of fields) this.lengths[id] = new Float64Array(this.size).fill(Number.NaN);
      this.fieldLength.forEach((perField, id) => {
        if (id >= this.size) return;
        for (const field of fields) {
          const length = perField[field];
          if (length !== undefined) this.lengths[field]![id] = length;
        }
      });
    }
    return this.lengths[fieldId]!;
  }

  /** The order MiniSearch visits `fields` in: the keys of an object built from them. */
  private fieldOrder(fields: readonly string[]): string[] {
    const key = fields.join('\u0000');
    let order = this.orders.get(key);
    if (order === undefined) {
      order = Object.keys(Object.fromEntries(fields.map((field) => [field, 1])));
      this.orders.set(key, order);
    }
    return order;
  }
}
