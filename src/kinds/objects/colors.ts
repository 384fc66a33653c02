/**
 * The colours of one generation's listed objects, from the `objects/index-colors` rows (one per colour note
 * of an analysed image). An object's dominance of a colour is the largest percentage of it over the object's
 * images: "objects containing the color" are those with any image showing it, and the filters `color` and
 * `cssColor` select exactly them, so the colour index's counts are the filters' totals.
 */
import { Bitset } from '../../collection-index/bitset.js';
import { forEachListed, type Row } from '../../collection-index/record-table.js';
import { BASE_COLORS, baseColorOf, type BaseColor } from '../../colors/base-colors.js';
import { hexToLab } from '../../colors/color-space.js';

/** One colour (a base colour or a named tone) across the collection. */
export interface ColorPostings {
  /** The colour's value as the index lists it (a base colour, or the tone's name as written). */
  readonly label: string;
  /** Object id → percentage of the object covered by the colour (largest over its images). */
  readonly dominance: ReadonlyMap<number, number>;
  /** Ascending ids of the objects that show the colour. */
  readonly ids: Uint32Array;
}

/** A named tone: its postings, and every occurrence (cluster colour, coverage, object) for its centroid and base. */
export interface TonePostings extends ColorPostings {
  readonly occurrences: readonly { readonly hex: string; readonly percent: number; readonly object: number; readonly base: BaseColor }[];
}

export interface ColorFacts {
  /** Objects with at least one analysed image. */
  readonly hasColors: Bitset;
  readonly bases: ReadonlyMap<BaseColor, ColorPostings>;
  /** Lower-cased tone name → tone. */
  readonly tones: ReadonlyMap<string, TonePostings>;
}

const BASE_SUFFIX = '/colors/base';
const HEX_SUFFIX = '/colors/hex';

function postings(label: string, dominance: Map<number, number>): ColorPostings {
  return { label, dominance, ids: Uint32Array.from(dominance.keys()).sort() };
}

/** Builds the colour facts from the index rows of one generation. */
export function buildColorFacts(size: number, rows: readonly Row[], idOf: ReadonlyMap<string, number>): ColorFacts {
  const hasColors = new Bitset(size);
  const bases = new Map<BaseColor, Map<number, number>>();
  const tones = new Map<string, { label: string; dominance: Map<number, number>; occurrences: TonePostings['occurrences'][number][] }>();
  const baseOfHex = new Map<string, BaseColor>();
  const keep = (map: Map<number, number>, id: number, percent: number): void => {
    if (!(map.get(id)! >= percent)) map.set(id, percent);
  };
  forEachListed(rows, idOf, (id, row) => {
    const percent = Number(row.percent);
    if (!row.feature || !row.value || !Number.isFinite(percent) || percent <= 0) return;
    hasColors.add(id);
    if (row.feature.endsWith(BASE_SUFFIX)) {
      if (!(BASE_COLORS as readonly string[]).includes(row.value)) return;
      const base = row.value as BaseColor;
      let map = bases.get(base);
      if (!map) bases.set(base, (map = new Map()));
      keep(map, id, percent);
    } else if (row.feature.endsWith(HEX_SUFFIX) && row.label !== undefined) {
      const key = row.label.toLowerCase();
      let tone = tones.get(key);
      if (!tone) tones.set(key, (tone = { label: row.label, dominance: new Map(), occurrences: [] }));
      else if (row.label < tone.label) tone.label = row.label;
      keep(tone.dominance, id, percent);
      let base = baseOfHex.get(row.value);
      if (base === undefined) baseOfHex.set(row.value, (base = baseColorOf(hexToLab(row.value))));
      tone.occurrences.push({ hex: row.value, percent, object: id, base });
    }
  }, 'object');
  return {
    hasColors,
    bases: new Map([...bases].map(([base, map]) => [base, postings(base, map)])),
    tones: new Map([...tones].map(([key, tone]) => [key, { ...postings(tone.label, tone.dominance), occurrences: tone.occurrences }])),
  };
}
