/**
 * The colours of one generation's listed objects, from the `objects/index-colors` rows (one per colour note
 * of an analysed image). An object's dominance of a colour is the largest percentage of it over the object's
 * images: "objects containing the color" are those with any image showing it, and the filters `color` and
 * `cssColor` select exactly them, so the colour index's counts are the filters' totals.
 */
import { Bitset, BitsetBuilder } from '../../collection-index/bitset.js';
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

/** One colour cluster of one image: the palette entry of the dominant-objects record. */
export interface PaletteColor {
  readonly hex: string;
  /** The tone's name, as the harvest wrote it. */
  readonly css: string;
  readonly base: BaseColor;
  /** Percentage of the image's object the cluster covers. */
  readonly percent: number;
}

/** The colours of one analysed image of an object. */
export interface ImagePalette {
  /** Base colour → percentage of the object covered (the image's `/colors/base` notes). */
  readonly bases: ReadonlyMap<BaseColor, number>;
  /** The clusters (`/colors/hex` notes), heaviest first. */
  readonly colors: readonly PaletteColor[];
}

export interface ColorFacts {
  /** Objects with at least one analysed image. */
  readonly hasColors: Bitset;
  readonly bases: ReadonlyMap<BaseColor, ColorPostings>;
  /** Lower-cased tone name → tone. */
  readonly tones: ReadonlyMap<string, ColorPostings>;
  /** Object id → its analysed images, in the order of their visual items. */
  readonly images: ReadonlyMap<number, readonly ImagePalette[]>;
}

/** A colour asked for: a base colour, or a tone by its lower-cased name. */
export type ShownColor = { base: BaseColor } | { tone: string };

const BASE_SUFFIX = '/colors/base';
const HEX_SUFFIX = '/colors/hex';

/** The share of an image's object covered by a colour: its base note, or the sum of the clusters named after the tone. */
export function imageShare(image: ImagePalette, color: ShownColor): number {
  if ('base' in color) return image.bases.get(color.base) ?? 0;
  let sum = 0;
  for (const c of image.colors) if (c.css.toLowerCase() === color.tone) sum += c.percent;
  return sum;
}

/** The image of an object that shows a colour most (the first of equals), or undefined when none shows it. */
export function imageShowing(images: readonly ImagePalette[], color: ShownColor): ImagePalette | undefined {
  let best: ImagePalette | undefined;
  let bestShare = 0;
  for (const image of images) {
    const share = imageShare(image, color);
    if (share > bestShare) [best, bestShare] = [image, share];
  }
  return best;
}

function postings(label: string, dominance: Map<number, number>): ColorPostings {
  return { label, dominance, ids: Uint32Array.from(dominance.keys()).sort() };
}

/** Digit-wise order of visual item IRIs (`…/image/2` before `…/image/10`). */
const itemOrder = (a: string, b: string): number => a.localeCompare(b, 'en', { numeric: true });

/**
 * Builds the colour facts from the index rows of one generation. An object's dominance of a colour is the
 * largest share of it over the object's images; within one image a tone's share is the sum of its clusters
 * (two clusters may carry one name) and a base colour's share is the image's base note.
 */
export function buildColorFacts(size: number, rows: readonly Row[], idOf: ReadonlyMap<string, number>): ColorFacts {
  const hasColors = new BitsetBuilder(size);
  const baseOfHex = new Map<string, BaseColor>();
  // Object id → visual item IRI → the image's notes as read.
  const read = new Map<number, Map<string, { bases: Map<BaseColor, number>; colors: PaletteColor[] }>>();
  forEachListed(rows, idOf, (id, row) => {
    const percent = Number(row.percent);
    if (!row.item || !row.feature || !row.value || !Number.isFinite(percent) || percent <= 0) return;
    let items = read.get(id);
    if (!items) read.set(id, (items = new Map()));
    let image = items.get(row.item);
    if (!image) items.set(row.item, (image = { bases: new Map(), colors: [] }));
    if (row.feature.endsWith(BASE_SUFFIX)) {
      if ((BASE_COLORS as readonly string[]).includes(row.value)) image.bases.set(row.value as BaseColor, percent);
    } else if (row.feature.endsWith(HEX_SUFFIX) && row.label !== undefined) {
      let base = baseOfHex.get(row.value);
      if (base === undefined) baseOfHex.set(row.value, (base = baseColorOf(hexToLab(row.value))));
      image.colors.push({ hex: row.value, css: row.label, base, percent });
    }
  }, 'object');

  const bases = new Map<BaseColor, Map<number, number>>();
  const tones = new Map<string, { label: string; dominance: Map<number, number> }>();
  const images = new Map<number, ImagePalette[]>();
  const keep = (map: Map<number, number>, id: number, percent: number): void => {
    if (!(map.get(id)! >= percent)) map.set(id, percent);
  };
  for (const [id, items] of read) {
    const palettes: ImagePalette[] = [];
    for (const item of [...items.keys()].sort(itemOrder)) {
      const image = items.get(item)!;
      if (image.bases.size === 0 && image.colors.length === 0) continue;
      image.colors.sort((a, b) => b.percent - a.percent || (a.hex < b.hex ? -1 : 1));
      palettes.push(image);
      for (const [base, percent] of image.bases) {
        let map = bases.get(base);
        if (!map) bases.set(base, (map = new Map()));
        keep(map, id, percent);
      }
      const toneShares = new Map<string, number>();
      for (const color of image.colors) {
        const key = color.css.toLowerCase();
        let tone = tones.get(key);
        if (!tone) tones.set(key, (tone = { label: color.css, dominance: new Map() }));
        else if (color.css < tone.label) tone.label = color.css;
        toneShares.set(key, (toneShares.get(key) ?? 0) + color.percent);
      }
      for (const [key, share] of toneShares) keep(tones.get(key)!.dominance, id, round2(share));
    }
    if (palettes.length === 0) continue;
    hasColors.add(id);
    images.set(id, palettes);
  }
  return {
    hasColors: hasColors.build(),
    bases: new Map([...bases].map(([base, map]) => [base, postings(base, map)])),
    tones: new Map([...tones].map(([key, tone]) => [key, postings(tone.label, tone.dominance)])),
    images,
  };
}

/** Percentages as the harvest writes them (two decimals): a sum of two clusters stays comparable with one. */
const round2 = (n: number): number => Math.round(n * 100) / 100;
