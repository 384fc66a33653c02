/**
 * Dated spans of generated objects as the registrar writes them: EDTF labels (`1925`, `1920/1930`, `1925~`,
 * `1920~/1930`, `1850?/1900`, `1901%`) whose begin and end are the years with the markers stripped.
 */
import type { DateSpan } from '../harvest/schema.js';
import type { Dating } from './anchors.js';
import type { Rng } from './rng.js';

export const DATING_WEIGHTS: readonly (readonly [Dating, number])[] = [
  ['undated', 7],
  ['creationOnly', 5],
  ['several', 4],
  ['single', 38],
  ['range', 22],
  ['wide', 5],
  ['approx', 8],
  ['approxRange', 5],
  ['uncertain', 4],
  ['percent', 2],
];

/** A year in [lo, hi], favouring the nineteenth and twentieth centuries as a design collection does. */
export function sampleYear(rng: Rng, lo: number, hi: number): number {
  if (lo >= hi) return lo;
  const modernLo = Math.max(lo, 1880);
  if (modernLo < hi && rng.chance(0.7)) return rng.int(modernLo, hi);
  return rng.int(lo, hi);
}

const span = (label: string, begin: number, end: number): DateSpan => ({ label, begin, end });

/** A span of the given kind starting at (or, when wide, around) `year`, never ending after `hi`. */
export function makeSpan(rng: Rng, kind: Dating, year: number, hi: number): DateSpan {
  const until = (min: number, max: number): number => Math.min(hi, year + rng.int(min, max));
  switch (kind) {
    case 'range': {
      const end = until(2, 25);
      return end > year ? span(`${year}/${end}`, year, end) : span(`${year}`, year, year);
    }
    case 'wide': {
      const length = rng.int(50, 100);
      const end = Math.min(hi, year + Math.floor(length / 2));
      const begin = Math.max(1600, end - length);
      return begin < end ? span(`${begin}/${end}`, begin, end) : span(`${year}`, year, year);
    }
    case 'approx':
      return span(`${year}~`, year, year);
    case 'approxRange': {
      const end = until(5, 20);
      if (end <= year) return span(`${year}~`, year, year);
      return rng.chance(0.5) ? span(`${year}~/${end}`, year, end) : span(`${year}/${end}~`, year, end);
    }
    case 'uncertain': {
      const end = until(5, 50);
      return end > year && rng.chance(0.5) ? span(`${year}?/${end}`, year, end) : span(`${year}?`, year, year);
    }
    case 'percent': {
      const end = until(5, 20);
      return end > year && rng.chance(0.5) ? span(`${year}%/${end}`, year, end) : span(`${year}%`, year, year);
    }
    default:
      return span(`${year}`, year, year);
  }
}
