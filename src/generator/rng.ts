/**
 * Seeded pseudo-random numbers for the collection generator. sfc32 seeded through splitmix32; every purpose
 * (a record, a list) draws from its own named stream, so adding a draw in one place does not shift the
 * values anywhere else and an object's content does not depend on how many objects precede it.
 */

/** 32-bit FNV-1a hash of a string (stable across platforms). */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** 32 lower-case hex characters derived from a text only (no seed): ids that stay put across seeds. */
export function stableHex32(text: string): string {
  let out = '';
  for (let i = 0; i < 4; i++) out += splitmix(hash32(`${i}:${text}`)).toString(16).padStart(8, '0');
  return out;
}

function splitmix(x: number): number {
  let z = (x + 0x9e3779b9) >>> 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
  return (z ^ (z >>> 16)) >>> 0;
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** A stream named `stream` of the generator seeded with `seed` (any safe integer). */
  constructor(seed: number, stream: string) {
    const lo = seed >>> 0;
    const hi = Math.floor(seed / 4294967296) >>> 0;
    let s = (hash32(stream) ^ splitmix(lo) ^ Math.imul(splitmix(hi), 0x27d4eb2d)) >>> 0;
    const next = (): number => {
      s = (s + 0x6d2b79f5) >>> 0;
      return splitmix(s);
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 12; i++) this.uint32();
  }

  /** Next unsigned 32-bit integer (sfc32). */
  uint32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.uint32() / 4294967296;
  }

  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element; throws on an empty list because that is always a generator bug. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Rng.pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** One value by relative weight. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, w] of entries) total += w;
    let r = this.next() * total;
    for (const [value, w] of entries) {
      r -= w;
      if (r < 0) return value;
    }
    const last = entries[entries.length - 1];
    if (!last) throw new Error('Rng.weighted from an empty list');
    return last[0];
  }

  /** Up to k distinct elements in random order. */
  sample<T>(items: readonly T[], k: number): T[] {
    const copy = items.slice();
    const n = Math.min(k, copy.length);
    for (let i = 0; i < n; i++) {
      const j = i + Math.floor(this.next() * (copy.length - i));
      const tmp = copy[i] as T;
      copy[i] = copy[j] as T;
      copy[j] = tmp;
    }
    return copy.slice(0, n);
  }

  /** `n` lower-case hex characters. */
  hex(n: number): string {
    let out = '';
    while (out.length < n) out += this.uint32().toString(16).padStart(8, '0');
    return out.slice(0, n);
  }
}
