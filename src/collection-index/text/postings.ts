/**
 * The text index's postings in typed arrays: per term and field, the record ids that have the term and how
 * often, with each field's lengths and the numbers BM25 reads. They are what MiniSearch's `add` would index
 * (the same tokens, terms, term frequencies, field lengths and running average field lengths, computed the
 * same way to the last bit), built without MiniSearch: MiniSearch keeps a Map of Maps per term in a radix tree
 * (about 57 bytes a posting: 253 MiB for the objects of a 100,000-object collection, 4.4M postings, and 9.4 s to
 * build); here a posting is a 4-byte id and a 1-byte frequency (wider when a frequency needs it): 22 MB
 * (docs/collection-index.md, "Memory"). The property tests (test/unit/text-search.test.ts) hold every score
 * computed on them to MiniSearch's own search.
 */
import { setImmediate as turn } from 'node:timers/promises';

export interface Bm25 {
  readonly k: number;
  readonly b: number;
  readonly d: number;
}

/** One field's postings of a term: entries `start` … `end - 1` of the lists' `ids` and `freqs`. */
export interface FieldPostings {
  readonly term: string;
  readonly field: string;
  readonly fieldId: number;
  readonly start: number;
  readonly end: number;
}

/**
 * MiniSearch's BM25+ parameters (its documented defaults, `searchOptions.bm25`, which the text index never
 * changes); the property tests hold the scores to MiniSearch's, so a change of them in an upgrade shows there.
 */
const MINISEARCH_BM25: Bm25 = { k: 1.2, b: 0.7, d: 0.5 };

/** How MiniSearch's `add` analyses a field: its tokens, then each token's terms (none, one or several). */
export interface FieldAnalysis {
  readonly name: string;
  tokenize(text: string): string[];
  processTerm(token: string): string | string[] | null | undefined | false;
  text(id: number): string | undefined;
}

/** Records indexed between two yields to the event loop. */
const RECORDS_PER_TURN = 1000;
/** Terms packed between two yields. */
const TERMS_PER_TURN = 5000;

/** One field's postings of a term while building: ids in ascending order and their frequencies. */
interface Growing {
  ids: number[];
  freqs: number[];
}

export class PostingLists {
  private constructor(
    /** Term → its number; the term's segments are termStart[n] … termStart[n + 1] - 1. */
    private readonly terms: ReadonlyMap<string, number>,
    private readonly termStart: Uint32Array,
    /** Per segment (one field of one term): the field id, and where its postings start (one more entry: the end). */
    private readonly segmentField: Uint8Array,
    private readonly segmentStart: Uint32Array,
    /** The postings: record id and term frequency. */
    readonly ids: Uint32Array,
    readonly freqs: Uint8Array | Uint16Array | Uint32Array,
    readonly fieldIds: Readonly<Record<string, number>>,
    /** Per field id, every record's length of the field (0 where the record has none). */
    readonly lengths: readonly Uint32Array[],
    readonly avgFieldLength: readonly number[],
    readonly documentCount: number,
    readonly bm25: Bm25,
  ) {}

  /**
   * The postings of records 0 … size - 1 over `fields` (field ids in that order), as MiniSearch's `add` indexes
   * documents added in id order: per field that a record has, its tokens; the field's length is the number of
   * distinct tokens, and the running average is MiniSearch's (avg × n + length) / (n + 1), n the records before
   * this one; each term of each token counts once more. Yields to the event loop between chunks.
   */
  static async build(size: number, fields: readonly FieldAnalysis[]): Promise<PostingLists> {
    if (fields.length > 256) throw new Error('a text index has at most 256 fields');
    const growing = new Map<string, Growing[]>();
    const lengths = fields.map(() => new Uint32Array(size));
    const avgFieldLength: number[] = [];
    let postings = 0;
    let maxFreq = 0;
    for (let id = 0; id < size; id++) {
      for (const [fieldId, field] of fields.entries()) {
        const text = field.text(id);
        if (text === undefined || text === null) continue;
        const tokens = field.tokenize(text);
        const length = new Set(tokens).size;
        lengths[fieldId]![id] = length;
        avgFieldLength[fieldId] = ((avgFieldLength[fieldId] || 0) * id + length) / (id + 1);
        const add = (term: string): void => {
          let perField = growing.get(term);
          if (perField === undefined) growing.set(term, (perField = []));
          let list = perField[fieldId];
          if (list === undefined) list = perField[fieldId] = { ids: [], freqs: [] };
          const last = list.ids.length - 1;
          if (last >= 0 && list.ids[last] === id) {
            const freq = ++list.freqs[last]!;
            if (freq > maxFreq) maxFreq = freq;
          } else {
            list.ids.push(id);
            list.freqs.push(1);
            postings++;
            if (maxFreq === 0) maxFreq = 1;
          }
        };
        for (const token of tokens) {
          const terms = field.processTerm(token);
          if (Array.isArray(terms)) for (const term of terms) add(term);
          else if (terms) add(terms);
        }
      }
      if ((id + 1) % RECORDS_PER_TURN === 0) await turn();
    }

    let segments = 0;
    for (const perField of growing.values()) for (const list of perField) if (list !== undefined) segments++;
    const terms = new Map<string, number>();
    const termStart = new Uint32Array(growing.size + 1);
    const segmentField = new Uint8Array(segments);
    const segmentStart = new Uint32Array(segments + 1);
    const ids = new Uint32Array(postings);
    const freqs = maxFreq <= 0xff ? new Uint8Array(postings) : maxFreq <= 0xffff ? new Uint16Array(postings) : new Uint32Array(postings);
    let term = 0;
    let segment = 0;
    let at = 0;
    for (const [text, perField] of growing) {
      terms.set(text, term);
      termStart[term++] = segment;
      for (const [fieldId, list] of perField.entries()) {
        if (list === undefined) continue;
        segmentField[segment] = fieldId;
        segmentStart[segment++] = at;
        ids.set(list.ids, at);
        freqs.set(list.freqs, at);
        at += list.ids.length;
      }
      // The growing lists are garbage from here.
      growing.set(text, []);
      if (term % TERMS_PER_TURN === 0) await turn();
    }
    termStart[term] = segment;
    segmentStart[segment] = at;
    const fieldIds = Object.fromEntries(fields.map((field, id) => [field.name, id]));
    return new PostingLists(terms, termStart, segmentField, segmentStart, ids, freqs, fieldIds, lengths, avgFieldLength, size, MINISEARCH_BM25);
  }

  /** The postings of `term` in the field named `field`, if any record has it there. */
  segment(term: string, field: string): FieldPostings | undefined {
    const fieldId = this.fieldIds[field];
    const n = this.terms.get(term);
    if (fieldId === undefined || n === undefined) return undefined;
    for (let s = this.termStart[n]!; s < this.termStart[n + 1]!; s++) {
      if (this.segmentField[s] !== fieldId) continue;
      const start = this.segmentStart[s]!;
      const end = this.segmentStart[s + 1]!;
      return end > start ? { term, field, fieldId, start, end } : undefined;
    }
    return undefined;
  }

  /** Bytes of the typed arrays (the term Map aside). */
  get bytes(): number {
    const arrays = [this.termStart, this.segmentField, this.segmentStart, this.ids, this.freqs, ...this.lengths];
    return arrays.reduce((sum, array) => sum + array.byteLength, 0);
  }
}
