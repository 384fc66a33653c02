/**
 * The answers of the text index (text-index.ts): the records a query matches and, when it was asked ranked,
 * its pages in relevance order: by score with a bounded selection, in pid order for a query of only
 * exclusions, or walked along the reference evaluation's full ranking.
 */
import type { Bitset } from '../bitset.js';
import { pageOf } from '../sort-orders.js';
import { topRanked, type Ranked } from './hits.js';

/** The records a text query matches and, when it was asked ranked, its pages in relevance order. */
export interface TextMatches {
  readonly matches: Bitset;
  /**
   * Up to `limit` of the matches that are also in `keep` (every match when undefined), best first and ties by
   * pid (pid order for a query of only exclusions), from the `offset`-th.
   */
  page(keep: Bitset | undefined, offset: number, limit: number): number[];
}

/** The scores behind a ranking by `find` (undefined for pid order or the reference's ranking), for tests. */
export function scoresOf(matches: TextMatches): ReadonlyMap<number, number> | undefined {
  if (!(matches instanceof ScoredMatches)) return undefined;
  const { ids, scores } = matches.ranked;
  return new Map(Array.from(ids, (id) => [id, scores[id]!]));
}

/** Matches ranked by score (ties by pid), paged with a bounded selection. */
export class ScoredMatches implements TextMatches {
  constructor(
    readonly matches: Bitset,
    readonly ranked: Ranked,
  ) {}

  page(keep: Bitset | undefined, offset: number, limit: number): number[] {
    return topRanked(this.ranked.ids, this.ranked.scores, keep, offset, limit);
  }
}

/** A query of only exclusions: its matches in pid order. */
export class PidOrderMatches implements TextMatches {
  constructor(readonly matches: Bitset) {}

  page(keep: Bitset | undefined, offset: number, limit: number): number[] {
    return (keep ? this.matches.and(keep) : this.matches).slice(offset, limit);
  }
}

/** Matches found without ranking (`find(…, false)`): a set, no order. */
export class UnrankedMatches implements TextMatches {
  constructor(readonly matches: Bitset) {}

  page(): number[] {
    throw new Error('these text matches were found without ranking');
  }
}

/** The reference's answer as TextMatches: its full ranking, walked. */
export function referenceMatches({ ranked, matches }: { ranked: Uint32Array; matches: Bitset }, rank: boolean): TextMatches {
  if (!rank) return new UnrankedMatches(matches);
  return {
    matches,
    page: (keep, offset, limit) => pageOf({ order: ranked, present: ranked.length }, 'asc', (id) => (keep ?? matches).has(id), offset, limit),
  };
}
