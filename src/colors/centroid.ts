/**
 * Weighted centroid of colours averaged in linear light (linear sRGB): the colour index's rule for the hex
 * of a named tone ("a weighted centroid of all occurrences of the tone, weighted by image coverage,
 * averaged in linear light"). Averaging light rather than gamma-encoded values is what mixing the colours
 * optically would give: black and white in equal parts average to #bcbcbc, not #808080.
 */
import { hexToLinear, linearToHex, type LinearRgb } from './color-space.js';

/** One occurrence of a colour and its weight (for the index: the share of the image it covers). */
export interface WeightedColor {
  hex: string;
  weight: number;
}

/** Linear-light weighted mean, or undefined when the weights sum to zero. Negative weights are refused. */
export function linearLightMean(colors: readonly WeightedColor[]): LinearRgb | undefined {
  let total = 0;
  const sum: LinearRgb = [0, 0, 0];
  for (const { hex, weight } of colors) {
    if (!(weight >= 0) || !Number.isFinite(weight)) throw new RangeError(`colour weight must be finite and non-negative: ${weight}`);
    if (weight === 0) continue;
    const [r, g, b] = hexToLinear(hex);
    sum[0] += r * weight;
    sum[1] += g * weight;
    sum[2] += b * weight;
    total += weight;
  }
  if (total === 0) return undefined;
  return [sum[0] / total, sum[1] / total, sum[2] / total];
}

/** `#rrggbb` of the linear-light weighted centroid, or null when there is nothing to average. */
export function linearLightCentroid(colors: readonly WeightedColor[]): string | null {
  const mean = linearLightMean(colors);
  return mean ? linearToHex(mean) : null;
}
