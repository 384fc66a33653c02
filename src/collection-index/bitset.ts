/**
 * A fixed-size set of record ids (0 … size-1) as 32-bit words. Filters intersect in a few thousand word
 * operations at 100k objects, counting is a popcount per word, and the n-th member is found word by word,
 * so neither a total nor a deep page costs more than one pass over size/32 words.
 *
 * A Bitset never changes once made: every set operation answers a new set. A generation's tables hand their
 * sets (role sets, flags, language sets, …) to every request, so a set that an operation could change in
 * place would let one request change the answers of every later one (docs/architecture.md, "Answers
 * independent of history"). Sets are made by `Bitset.of`, `Bitset.full`, `Bitset.empty` or a BitsetBuilder.
 */
let fromWords: (size: number, words: Uint32Array) => Bitset;

export class Bitset {
  readonly #words: Uint32Array;

  static {
    // Only this module makes a set from words it hands over (BitsetBuilder.build).
    fromWords = (size, words) => new Bitset(size, words);
  }

  private constructor(readonly size: number, words: Uint32Array) {
    this.#words = words;
  }

  /** No id. */
  static empty(size: number): Bitset {
    return new Bitset(size, new Uint32Array(wordCount(size)));
  }

  /** Every id from 0 to size-1. */
  static full(size: number): Bitset {
    const words = new Uint32Array(wordCount(size)).fill(0xffffffff);
    const tail = size % 32;
    if (tail !== 0) words[words.length - 1] = (1 << tail) - 1;
    return new Bitset(size, words);
  }

  /** The ids of `ids` (any order, duplicates allowed). */
  static of(size: number, ids: Iterable<number> | ArrayLike<number>): Bitset {
    const builder = new BitsetBuilder(size);
    builder.addAll(ids);
    return builder.build();
  }

  has(id: number): boolean {
    return (this.#words[id >>> 5]! & (1 << (id & 31))) !== 0;
  }

  /** The ids in both sets (a new set). */
  and(other: Bitset): Bitset {
    return this.combine(other, (a, b) => a & b);
  }

  /** The ids in either set (a new set). */
  or(other: Bitset): Bitset {
    return this.combine(other, (a, b) => a | b);
  }

  /** The ids of this set that are not in `other` (a new set). */
  andNot(other: Bitset): Bitset {
    return this.combine(other, (a, b) => a & ~b);
  }

  /** Every id not in the set (a new set). */
  complement(): Bitset {
    return Bitset.full(this.size).andNot(this);
  }

  /** Number of ids in the set. */
  count(): number {
    let total = 0;
    for (const word of this.#words) total += popcount(word);
    return total;
  }

  /** Number of ids in both sets, without making their intersection. */
  countAnd(other: Bitset): number {
    const a = this.#words;
    const b = other.#words;
    let total = 0;
    for (let i = 0; i < a.length; i++) total += popcount(a[i]! & b[i]!);
    return total;
  }

  /**
   * Up to `limit` ids in ascending order, starting at the `offset`-th member (0-based). Whole words are
   * skipped by their popcount, so a deep offset costs size/32 steps, not offset steps.
   */
  slice(offset: number, limit: number): number[] {
    const out: number[] = [];
    let skip = offset;
    const words = this.#words;
    for (let w = 0; w < words.length && out.length < limit; w++) {
      let word = words[w]!;
      if (word === 0) continue;
      const bits = popcount(word);
      if (skip >= bits) {
        skip -= bits;
        continue;
      }
      while (word !== 0 && out.length < limit) {
        const low = word & -word;
        if (skip > 0) skip--;
        else out.push(w * 32 + 31 - Math.clz32(low));
        word ^= low;
      }
    }
    return out;
  }

  /** Like slice, counted from the highest id down (descending order). */
  sliceDescending(offset: number, limit: number): number[] {
    const out: number[] = [];
    let skip = offset;
    const words = this.#words;
    for (let w = words.length - 1; w >= 0 && out.length < limit; w--) {
      let word = words[w]!;
      if (word === 0) continue;
      const bits = popcount(word);
      if (skip >= bits) {
        skip -= bits;
        continue;
      }
      while (word !== 0 && out.length < limit) {
        const bit = 31 - Math.clz32(word);
        if (skip > 0) skip--;
        else out.push(w * 32 + bit);
        word ^= 1 << bit;
      }
    }
    return out;
  }

  /** All ids in ascending order. */
  toArray(): number[] {
    return this.slice(0, this.size);
  }

  private combine(other: Bitset, op: (a: number, b: number) => number): Bitset {
    if (other.size !== this.size) throw new RangeError(`Bitsets of ${this.size} and ${other.size} ids do not combine`);
    const a = this.#words;
    const b = other.#words;
    const out = new Uint32Array(a.length);
    for (let i = 0; i < a.length; i++) out[i] = op(a[i]!, b[i]!);
    return new Bitset(this.size, out);
  }
}

/**
 * Fills a set id by id, once: `build` hands the words to the Bitset it makes and the builder refuses any
 * further change, so nothing keeps a way to change a built set.
 */
export class BitsetBuilder {
  #words: Uint32Array | undefined;

  constructor(readonly size: number) {
    this.#words = new Uint32Array(wordCount(size));
  }

  add(id: number): void {
    const words = this.open();
    words[id >>> 5]! |= 1 << (id & 31);
  }

  /** Adds every id of `ids`. */
  addAll(ids: Iterable<number> | ArrayLike<number>): void {
    const words = this.open();
    if (isArrayLike(ids)) for (let i = 0; i < ids.length; i++) words[ids[i]! >>> 5]! |= 1 << (ids[i]! & 31);
    else for (const id of ids) words[id >>> 5]! |= 1 << (id & 31);
  }

  has(id: number): boolean {
    return (this.open()[id >>> 5]! & (1 << (id & 31))) !== 0;
  }

  /** The finished set; the builder is spent. */
  build(): Bitset {
    const words = this.open();
    this.#words = undefined;
    return fromWords(this.size, words);
  }

  private open(): Uint32Array {
    if (this.#words === undefined) throw new Error('BitsetBuilder: the set was already built');
    return this.#words;
  }
}

const wordCount = (size: number): number => Math.ceil(size / 32);

const isArrayLike = (ids: Iterable<number> | ArrayLike<number>): ids is ArrayLike<number> => typeof (ids as ArrayLike<number>).length === 'number';

/** Number of set bits of a 32-bit word. */
export function popcount(word: number): number {
  let v = word - ((word >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
