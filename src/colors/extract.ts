/**
 * Colour extraction from one object image (spec "Object record": background removed, foreground pixels
 * clustered with k-means, each cluster named by its nearest named colour and mapped to a base colour).
 * The method and its figures are in docs/colors.md.
 */
import { findForeground, type BackgroundMethod, type Foreground } from './background.js';
import { baseColorOf, type BaseColor } from './base-colors.js';
import { clusterColors } from './cluster.js';
import { linearToHex, rgbaToLab, type Lab } from './color-space.js';
import { decodeForAnalysis, type Pixels } from './decode.js';
import { nearestColorName } from './named-colors.js';

/** Settings of the analysis; every one is part of the analysis key. */
export interface AnalyseOptions {
  /** Longest side of the analysed image in pixels (it is never enlarged). */
  maxSize: number;
  /** ΔE00 from the background model below which a border-connected pixel is background. */
  backgroundTolerance: number;
  /** Take soft shadows on the backdrop for backdrop too (off: it also eats smoothly shaded objects of the backdrop's hue). */
  shadows: boolean;
  /** Clusters k-means starts from. */
  k: number;
  /** Seed of the pixel sample and of k-means++. */
  seed: number;
  /** Object pixels k-means runs on, at most (all object pixels are assigned afterwards). */
  sampleSize: number;
  /** Clusters closer than this ΔE00 are merged. */
  mergeDistance: number;
  /** Clusters covering less than this share of the object are dropped. */
  minShare: number;
}

export const DEFAULT_ANALYSE_OPTIONS: Readonly<AnalyseOptions> = Object.freeze({
  maxSize: 200,
  backgroundTolerance: 8,
  shadows: false,
  k: 8,
  seed: 1,
  sampleSize: 1500,
  mergeDistance: 6,
  minShare: 0.015,
});

/** Bumped whenever the method changes in a way that changes results: cached results then expire. */
export const ANALYSIS_VERSION = 4;

/** One dominant colour of an image. */
export interface ImageColor {
  /** The cluster's colour, `#rrggbb`. */
  hex: string;
  /** The same colour in CIELAB (D65), rounded to 0.01. */
  lab: Lab;
  /** Share of the object's pixels, 0..1 (rounded to 1e-4 so that the shares of an image sum to exactly 1). */
  share: number;
  /** Nearest `color-name-list` name by ΔE00. */
  name: string;
  /** That name's own colour. */
  nameHex: string;
  base: BaseColor;
}

/** The colours of one image, heaviest first. */
export interface ImageColors {
  /** Method version and settings (`analysisKey`), so that a stored result can be recognised as current. */
  analysis: string;
  /** Size of the analysed (downscaled) image. */
  width: number;
  height: number;
  /** How the background was told apart. */
  background: BackgroundMethod;
  /** Share of the analysed pixels that are the object, 0..1 (rounded to 1e-4). */
  foregroundShare: number;
  colors: ImageColor[];
}

/** A full result with the object mask, for tests and diagnostics. */
export interface PixelAnalysis {
  colors: ImageColors;
  foreground: Foreground;
}

/** Options with defaults filled in; rejects values outside their domain. */
export function resolveOptions(options: Partial<AnalyseOptions> = {}): AnalyseOptions {
  const o = { ...DEFAULT_ANALYSE_OPTIONS, ...options };
  const check = (ok: boolean, what: string): void => {
    if (!ok) throw new RangeError(`colour analysis option ${what}`);
  };
  check(Number.isInteger(o.maxSize) && o.maxSize >= 16 && o.maxSize <= 2048, `maxSize must be an integer in 16..2048: ${o.maxSize}`);
  check(Number.isInteger(o.k) && o.k >= 1 && o.k <= 32, `k must be an integer in 1..32: ${o.k}`);
  check(Number.isInteger(o.seed), `seed must be an integer: ${o.seed}`);
  check(Number.isInteger(o.sampleSize) && o.sampleSize >= o.k, `sampleSize must be an integer >= k: ${o.sampleSize}`);
  check(o.backgroundTolerance > 0, `backgroundTolerance must be positive: ${o.backgroundTolerance}`);
  check(typeof o.shadows === 'boolean', `shadows must be a boolean: ${String(o.shadows)}`);
  check(o.mergeDistance >= 0, `mergeDistance must be >= 0: ${o.mergeDistance}`);
  check(o.minShare >= 0 && o.minShare < 1, `minShare must be in [0, 1): ${o.minShare}`);
  return o;
}

/** The analysis key: version and settings. Results with another key are stale. */
export function analysisKey(options: Partial<AnalyseOptions> = {}): string {
  const o = resolveOptions(options);
  return `colors/${ANALYSIS_VERSION} size=${o.maxSize} bg=${o.backgroundTolerance}${o.shadows ? ' shadows' : ''} k=${o.k} seed=${o.seed} sample=${o.sampleSize} merge=${o.mergeDistance} min=${o.minShare}`;
}

const round2 = (x: number): number => Math.round(x * 100) / 100;
const round4 = (x: number): number => Math.round(x * 10_000) / 10_000;

/**
 * Shares rounded to 1e-4 that still sum to exactly 1 (largest remainder): rounding each on its own can make
 * three clusters of one base colour add up to 100.01 %.
 */
export function apportionShares(shares: readonly number[]): number[] {
  const UNITS = 10_000;
  const total = shares.reduce((sum, x) => sum + x, 0);
  if (total <= 0) return shares.map(() => 0);
  const exact = shares.map((x) => (x / total) * UNITS);
  const units = exact.map(Math.floor);
  let left = UNITS - units.reduce((sum, x) => sum + x, 0);
  const order = exact.map((x, i) => ({ i, rest: x - Math.floor(x) })).sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of order) {
    if (left-- <= 0) break;
    units[i]! += 1;
  }
  return units.map((u) => u / UNITS);
}

/** Analyses decoded pixels (synchronous; `analyseImage` decodes first). */
export function analysePixels(pixels: Pixels, options: Partial<AnalyseOptions> = {}): PixelAnalysis {
  const o = resolveOptions(options);
  const n = pixels.width * pixels.height;
  const lab = rgbaToLab(pixels.rgba, n);
  const foreground = findForeground(pixels, lab, { tolerance: o.backgroundTolerance, shadows: o.shadows });
  const clusters = clusterColors(pixels, lab, foreground.mask, o);
  const shares = apportionShares(clusters.map((c) => c.share));
  const colors = clusters.map((c, i): ImageColor => {
    const match = nearestColorName(c.lab);
    return {
      hex: linearToHex(c.linear),
      lab: { l: round2(c.lab.l), a: round2(c.lab.a), b: round2(c.lab.b) },
      share: shares[i]!,
      name: match.name,
      nameHex: match.hex,
      base: baseColorOf(c.lab),
    };
  });
  return {
    colors: {
      analysis: analysisKey(o),
      width: pixels.width,
      height: pixels.height,
      background: foreground.method,
      foregroundShare: round4(foreground.count / n),
      colors,
    },
    foreground,
  };
}

/** Decodes `input` (any format sharp reads) and returns its dominant colours; rejects with ImageDecodeError. */
export async function analyseImage(input: Uint8Array, options: Partial<AnalyseOptions> = {}): Promise<ImageColors> {
  const o = resolveOptions(options);
  const pixels = await decodeForAnalysis(input, o.maxSize);
  return analysePixels(pixels, o).colors;
}

/** The colours of an image aggregated by base colour, heaviest first (the `/colors/base` feature). */
export function baseColorShares(colors: readonly ImageColor[]): { base: BaseColor; share: number }[] {
  const shares = new Map<BaseColor, number>();
  for (const c of colors) shares.set(c.base, (shares.get(c.base) ?? 0) + c.share);
  return [...shares].map(([base, share]) => ({ base, share: round4(share) })).sort((x, y) => y.share - x.share || x.base.localeCompare(y.base));
}
