/**
 * Colour analysis of the harvest's kept images (issue "Colours"; method in docs/colors.md). Each distinct
 * image URL is fetched once (GET, the URL that passed validation, on a host the deployment names), hashed,
 * and looked up in the colour cache by content hash; only images the cache does not know are decoded and
 * analysed, in a worker pool over every core (started on the first miss, so a re-harvest of unchanged
 * images decodes nothing). An image that cannot be fetched or decoded simply has no colours; the harvest
 * goes on and reports it.
 */
import { ColorCache } from '../colors/cache.js';
import type { ImageColors } from '../colors/extract.js';
import { ColorPool } from '../colors/pool.js';

/** The colour cache's folder under DATA_DIR (beside `generations/`). */
export const COLOR_CACHE_DIR = 'color-cache';

export interface ColorAnalysisOptions {
  /** Folder of the colour cache (kept across harvests, e.g. `DATA_DIR/color-cache`). */
  cacheDir: string;
  /** Worker threads of the analysis pool (default: every core). */
  poolSize?: number;
  /** Images fetched at once (default 8). */
  fetchConcurrency?: number;
  timeoutMs?: number;
  onProgress?: (done: number, total: number) => void;
}

export interface ColorAnalysisResult {
  /** Colours per full image URL, for the images that could be analysed. */
  colors: Map<string, ImageColors>;
  /** Images decoded and analysed in this harvest. */
  analysed: number;
  /** Images whose analysis came from the cache (same content as before). */
  cached: number;
  /** Images that could not be fetched or decoded. */
  failed: number;
}

async function fetchBytes(url: string, timeoutMs: number): Promise<Uint8Array | undefined> {
  try {
    const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    if (response.status !== 200) {
      await response.body?.cancel();
      return undefined;
    }
    return new Uint8Array(await response.arrayBuffer());
  } catch {
    return undefined;
  }
}

/** Analyses the colours of every distinct URL of `urls`. */
export async function analyseImageColors(urls: Iterable<string>, options: ColorAnalysisOptions): Promise<ColorAnalysisResult> {
  const list = [...new Set(urls)];
  const cache = new ColorCache(options.cacheDir);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const result: ColorAnalysisResult = { colors: new Map(), analysed: 0, cached: 0, failed: 0 };
  let pool: ColorPool | undefined;
  const analyse = (input: Uint8Array): Promise<ImageColors> => {
    pool ??= new ColorPool(options.poolSize === undefined ? {} : { size: options.poolSize });
    return pool.analyse(input);
  };

  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    while (next < list.length) {
      const url = list[next++]!;
      const bytes = await fetchBytes(url, timeoutMs);
      if (bytes === undefined) result.failed += 1;
      else {
        try {
          const { colors, cached } = await cache.analyse(bytes, analyse);
          result.colors.set(url, colors);
          if (cached) result.cached += 1;
          else result.analysed += 1;
        } catch {
          // Not decodable (or the worker died on it): the image keeps no colours.
          result.failed += 1;
        }
      }
      done += 1;
      options.onProgress?.(done, list.length);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, options.fetchConcurrency ?? 8) }, worker));
  } finally {
    await pool?.close();
  }
  return result;
}
