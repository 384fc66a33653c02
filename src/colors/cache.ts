/**
 * Content-addressed store of colour analyses on disk, so that a re-harvest analyses only new or changed
 * images: one JSON file per image, named by the SHA-256 of the image bytes, under a two-hex-digit
 * subfolder (`<dir>/ab/abcdef….json`). Files are written to a temporary name and renamed, so a reader
 * never sees half a file. An entry that does not parse, does not match the schema, belongs to another
 * image or to another analysis key (another method version or other settings) counts as missing, and
 * the next `put` replaces it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { BASE_COLORS } from './base-colors.js';
import { analysisKey, type ImageColors } from './extract.js';

/** SHA-256 of the image bytes, lower-case hex: the cache key. */
export function imageHash(input: Uint8Array): string {
  return createHash('sha256').update(input).digest('hex');
}

const hex = z.string().regex(/^#[0-9a-f]{6}$/);
const share = z.number().min(0).max(1);

const ImageColorsSchema = z.object({
  analysis: z.string(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  background: z.enum(['alpha', 'border', 'none']),
  foregroundShare: share,
  colors: z.array(
    z.object({
      hex,
      lab: z.object({ l: z.number(), a: z.number(), b: z.number() }),
      share,
      name: z.string(),
      nameHex: hex,
      base: z.enum(BASE_COLORS),
    }),
  ),
});

const EntrySchema = z.object({ hash: z.string(), colors: ImageColorsSchema });

const HASH = /^[0-9a-f]{64}$/;

/** What a cache has answered since it was opened. */
export interface ColorCacheStats {
  hits: number;
  misses: number;
  /** Entries that existed but could not be used (corrupt, other image, other analysis key). */
  unusable: number;
  writes: number;
}

/** Analyses stored by image hash in one directory. */
export class ColorCache {
  readonly stats: ColorCacheStats = { hits: 0, misses: 0, unusable: 0, writes: 0 };

  /**
   * @param dir folder of the cache (created on first write)
   * @param analysis the analysis key entries must carry to count (default: the default settings')
   */
  constructor(
    readonly dir: string,
    readonly analysis: string = analysisKey(),
  ) {}

  /** Path of the entry for a hash. */
  pathOf(hash: string): string {
    if (!HASH.test(hash)) throw new Error(`not a SHA-256 hex digest: ${hash}`);
    return path.join(this.dir, hash.slice(0, 2), `${hash}.json`);
  }

  /** The stored analysis for `hash`, or undefined when there is none that can be used. */
  async get(hash: string): Promise<ImageColors | undefined> {
    let text: string;
    try {
      text = await readFile(this.pathOf(hash), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      this.stats.misses++;
      return undefined;
    }
    let parsed: z.infer<typeof EntrySchema> | undefined;
    try {
      const result = EntrySchema.safeParse(JSON.parse(text));
      if (result.success) parsed = result.data;
    } catch {
      // Not JSON: a corrupt entry, the same as a missing one.
    }
    if (!parsed || parsed.hash !== hash || parsed.colors.analysis !== this.analysis) {
      this.stats.unusable++;
      this.stats.misses++;
      return undefined;
    }
    this.stats.hits++;
    return parsed.colors;
  }

  /** Stores the analysis of the image with this hash (atomically: temporary file, then rename). */
  async put(hash: string, colors: ImageColors): Promise<void> {
    if (colors.analysis !== this.analysis) throw new Error(`analysis key ${colors.analysis} is not this cache's (${this.analysis})`);
    const file = this.pathOf(hash);
    await mkdir(path.dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temp, `${JSON.stringify({ hash, colors })}\n`);
      await rename(temp, file);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
    this.stats.writes++;
  }

  /** The stored analysis of `input`, or a fresh one from `analyse` that is then stored. */
  async analyse(input: Uint8Array, analyse: (input: Uint8Array) => Promise<ImageColors>): Promise<{ hash: string; colors: ImageColors; cached: boolean }> {
    const hash = imageHash(input);
    const stored = await this.get(hash);
    if (stored) return { hash, colors: stored, cached: true };
    const colors = await analyse(input);
    await this.put(hash, colors);
    return { hash, colors, cached: false };
  }
}
