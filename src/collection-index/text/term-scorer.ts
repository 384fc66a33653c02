/**
 * Query-time reading of the text index's postings (postings.ts): for one term in some fields, the ids that
 * have it and their BM25 scores, computed as MiniSearch's own search computes them (the same formula on the
 * same numbers, fields added in the same order) but into typed arrays, without MiniSearch's result objects
 * (per match: an entry, its term list and match map, then a copy with the stored fields and a sort of all).
 * The property test (test/unit/text-search.test.ts) holds this equal to MiniSearch's search.
 */
import type { Accumulator } from './hits.js';
import type { FieldPostings, PostingLists } from './postings.js';

export type { FieldPostings } from './postings.js';

/** A field's postings of a term as arrays: ids in MiniSearch's order, each with its weighted score. */
interface ScoredPostings {
  readonly ids: Uint32Array;
  readonly scores: Float64Array;
}

/** Lists at least this long are scored once into arrays and kept (TermScorer.cached). */
const CACHED_FROM = 1024;
/** Cached entries (12 bytes each) per record of the index. */
const CACHED_PER_RECORD = 8;

/** The size of a field's postings of a term. */
const sizeOf = (list: FieldPostings): number => list.end - list.start;

export class TermScorer {
  private readonly orders = new Map<string, string[]>();
  /** Scored postings of long lists, by field id and term, least recently used first (cached). */
  private readonly scoredLists = new Map<string, ScoredPostings>();
  private cachedEntries = 0;

  constructor(
    private readonly lists: PostingLists,
    /** Field boosts as the text index passes them to MiniSearch's search. */
    private readonly boost: Readonly<Record<string, number>>,
    private readonly size: number,
  ) {}

  /** Whether any record has `term` in `field`. */
  has(term: string, field: string): boolean {
    return this.lists.segment(term, field) !== undefined;
  }

  /**
   * The postings of `term` in `fields`, in the order MiniSearch's termResults visits the fields (fields
   * without the term left out).
   */
  postings(term: string, fields: readonly string[]): FieldPostings[] {
    // MiniSearch drops empty terms before looking them up.
    if (!term) return [];
    const out: FieldPostings[] = [];
    for (const field of this.fieldOrder(fields)) {
      const list = this.lists.segment(term, field);
      if (list !== undefined) out.push(list);
    }
    return out;
  }

  /**
   * Adds one field's postings to `target`: ids only, or (with `term`, the term's number in the query item) each
   * id's weighted BM25 score as MiniSearch's termResults computes it, added to what the id holds already, and
   * the term's bit.
   */
  addTo(target: Accumulator, list: FieldPostings, term: number | undefined): void {
    if (term === undefined) {
      const { ids } = this.lists;
      for (let i = list.start; i < list.end; i++) target.addId(ids[i]!);
      return;
    }
    // The term's bit in word `word` of the accumulator's masks (hits.ts).
    const mask = (1 << (term & 31)) >>> 0;
    const word = term >>> 5;
    const scored = sizeOf(list) >= CACHED_FROM ? this.cached(list) : undefined;
    if (scored !== undefined) {
      const { ids, scores } = scored;
      for (let i = 0; i < ids.length; i++) target.add(ids[i]!, scores[i]!, mask, word);
      return;
    }
    this.score(list, (id, score) => target.add(id, score, mask, word));
  }

  /**
   * Each id of `list` with its weighted BM25 score, as MiniSearch's termResults computes it: termWeight *
   * termBoost * fieldBoost * docBoost * rawScore, every factor but fieldBoost and rawScore being 1 here, and
   * rawScore calcBM25Score written as MiniSearch writes it (its inverse document frequency is the same for
   * every id of the list).
   */
  private score({ field, fieldId, start, end }: FieldPostings, visit: (id: number, score: number) => void): void {
    const fieldBoost = (Object.prototype.hasOwnProperty.call(this.boost, field) ? this.boost[field] : undefined) || 1;
    const { ids, freqs, bm25, documentCount: totalCount } = this.lists;
    const { k, b, d } = bm25;
    const matchingCount = end - start;
    const avgFieldLength = this.lists.avgFieldLength[fieldId]!;
    const lengths = this.lists.lengths[fieldId]!;
    const invDocFreq = Math.log(1 + (totalCount - matchingCount + 0.5) / (matchingCount + 0.5));
    for (let i = start; i < end; i++) {
      const id = ids[i]!;
      const termFreq = freqs[i]!;
      const fieldLength = lengths[id]!;
      const rawScore = invDocFreq * (d + termFreq * (k + 1) / (termFreq + k * (1 - b + b * fieldLength / avgFieldLength)));
      visit(id, fieldBoost * rawScore);
    }
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
      if (scored.ids.length === sizeOf(list)) {
        this.scoredLists.set(key, scored);
        return scored;
      }
      this.cachedEntries -= scored.ids.length;
    }
    const ids = new Uint32Array(sizeOf(list));
    const scores = new Float64Array(sizeOf(list));
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
