/**
 * Colour extraction from object images (docs/colors.md): the public API of src/colors.
 *
 * - `analyseImage(buffer, options?)`: dominant colours of one image, in this thread.
 * - `ColorPool`: the same on worker threads; `ColorCache`/`imageHash`: analyses stored by content hash.
 * - `nearestColorName(lab)`, `baseColorOf(lab)`: naming of any colour; `linearLightCentroid`: the colour
 *   index's weighted tone hex; `baseColorShares`: an image's colours aggregated by base colour.
 */
export { ColorCache, imageHash, type ColorCacheStats } from './cache.js';
export { linearLightCentroid, linearLightMean, type WeightedColor } from './centroid.js';
export { hexToLab, labToHex, type Lab } from './color-space.js';
export { deltaE00 } from './delta-e.js';
export { ImageDecodeError } from './decode.js';
export { BASE_COLORS, BASE_COLOR_RULE, baseColorOf, type BaseColor } from './base-colors.js';
export { namedColors, nearestColorName, NamedColorIndex, type ColorName, type NameMatch } from './named-colors.js';
export {
  analyseImage,
  analysisKey,
  ANALYSIS_VERSION,
  baseColorShares,
  DEFAULT_ANALYSE_OPTIONS,
  type AnalyseOptions,
  type ImageColor,
  type ImageColors,
} from './extract.js';
export { ColorAnalysisError, ColorPool, type ColorPoolOptions } from './pool.js';
