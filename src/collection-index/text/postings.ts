/**
 * The postings of a built MiniSearch index in typed arrays, so that the index itself can be dropped: per term
 * and field, the record ids that have the term and how often, in MiniSearch's own order, with each field's
 * lengths and the numbers BM25 reads. MiniSearch keeps a Map of Maps per term (about 57 bytes a posting: 253 MiB
 * for the objects of a 100,000-object collection, 4.4M postings); here a posting is a 4-byte id and a 1-byte
 * frequency (wider when a frequency needs it), 22 MB for the same postings (docs/collection-index.md, "Memory").
 *
 * Made from MiniSearch's internal fields (version 7: `_index`, `_fieldIds`, `_fieldLength`, `_avgFieldLength`,
 * `_documentCount`, `_documentIds`, `_dirtCount`, `_options.searchOptions.bm25`), which its JSON form also keeps.
 * `PostingLists.of` checks that they are there and that MiniSearch's short ids are the record ids (documents
 * added in id order, none removed); when not, it gives undefined and the text index keeps MiniSearch and answers
 * through its search.
 */

/** term → field id → short id → term frequency */
type FieldTermData = ReadonlyMap<number, ReadonlyMap<number, number>>;

interface MiniSearchInternals {
  _index?: { size: number; [Symbol.iterator](): Iterator<[string, FieldTermData]> };
  _fieldIds?: Readonly<Record<string, number>>;
  _fieldLength?: ReadonlyMap<number, readonly number[]>;
  _avgFieldLength?: readonly number[];
  _documentCount?: number;
  _documentIds?: ReadonlyMap<number, unknown>;
  _dirtCount?: number;
  _options?: { searchOptions?: { bm25?: { k: number; b: number; d: number } } };
}

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

/** Terms converted between two yields to the event loop. */
const TERMS_PER_TURN = 5000;

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

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
   * The postings of `search` (a built MiniSearch of `size` records), or undefined when its internals are not
   * what this reads. Yields to the event loop between chunks of terms.
   */
  static async of(search: object, size: number): Promise<PostingLists | undefined> {
    const m = search as unknown as MiniSearchInternals;
    const bm25 = m._options?.searchOptions?.bm25;
    const index = m._index;
    if (!index || typeof index[Symbol.iterator] !== 'function' || !m._fieldIds || !m._fieldLength || !m._avgFieldLength || !m._documentIds || !bm25) return undefined;
    if (m._documentCount !== size || m._dirtCount !== 0 || m._documentIds.size !== size) return undefined;
    for (let id = 0; id < size; id++) if (m._documentIds.get(id) !== id) return undefined;
    const fieldIds = Object.values(m._fieldIds);
    if (fieldIds.some((id) => !Number.isInteger(id) || id < 0 || id > 255)) return undefined;

    // First pass: how many segments and postings.
    let segments = 0;
    let postings = 0;
    for (const [, data] of index) {
      for (const [, list] of data) {
        segments++;
        postings += list.size;
      }
    }
    const terms = new Map<string, number>();
    const termStart = new Uint32Array(index.size + 1);
    const segmentField = new Uint8Array(segments);
    const segmentStart = new Uint32Array(segments + 1);
    const ids = new Uint32Array(postings);
    // A byte per frequency, widened if a frequency does not fit (a word more than 255 times in one field).
    let freqs: Uint8Array | Uint16Array | Uint32Array = new Uint8Array(postings);
    let maxFreq = 0xff;
    let term = 0;
    let segment = 0;
    let at = 0;
    const widen = (freq: number): void => {
      const wider = freq <= 0xffff ? new Uint16Array(postings) : new Uint32Array(postings);
      wider.set(freqs.subarray(0, at));
      freqs = wider;
      maxFreq = freq <= 0xffff ? 0xffff : 0xffffffff;
    };
    for (const [text, data] of index) {
      terms.set(text, term);
      termStart[term++] = segment;
      for (const [fieldId, list] of data) {
        segmentField[segment] = fieldId;
        segmentStart[segment++] = at;
        list.forEach((freq, id) => {
          if (freq > maxFreq) widen(freq);
          ids[at] = id;
          freqs[at++] = freq;
        });
      }
      if (term % TERMS_PER_TURN === 0) await turn();
    }
    termStart[term] = segment;
    segmentStart[segment] = at;
    if (term !== index.size || segment !== segments || at !== postings) return undefined;

    // Field lengths: MiniSearch keeps one small array per record in a Map (a lookup per posting when scoring).
    const lengths: Uint32Array[] = [];
    for (const id of fieldIds) lengths[id] = new Uint32Array(size);
    m._fieldLength.forEach((perField, id) => {
      if (id >= size) return;
      for (const field of fieldIds) {
        const length = perField[field];
        if (length !== undefined) lengths[field]![id] = length;
      }
    });
    return new PostingLists(terms, termStart, segmentField, segmentStart, ids, freqs, { ...m._fieldIds }, lengths, [...m._avgFieldLength], m._documentCount, { ...bm25 });
  }

  /** The postings of `term` in the field `fieldId`, if any record has it there. */
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
    const arrays = [this.termStart, this.segmentField, this.segmentStart, this.ids, this.freqs, ...this.lengths.filter((l) => l !== undefined)];
    return arrays.reduce((sum, array) => sum + array.byteLength, 0);
  }
}
