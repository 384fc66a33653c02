/**
 * Where rendered demo images live on disk: `<dir>/<id>.png`, plus an index of the recipe each file was
 * drawn from, so a second start re-renders only images whose recipe changed.
 */
import { createHash } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ImageSpec } from './image-list.js';

/** Bump when the drawing code changes, so existing files are redrawn. */
export const RENDERER_VERSION = 2;
const INDEX_FILE = '.render-index.json';

/** The rendered file of image `id` (ids are validated against IMAGE_ID, so they are safe file names). */
export function renderedImagePath(dir: string, id: string): string {
  return join(dir, `${id}.png`);
}

/** Fingerprint of everything that decides an image's pixels. */
export function recipeHash(spec: ImageSpec): string {
  const { width, height, shape, colors, background, transparent, backdrop, pattern } = spec;
  const recipe = JSON.stringify([RENDERER_VERSION, width, height, shape, colors, background, transparent, backdrop ?? null, pattern ?? null]);
  return createHash('sha256').update(recipe).digest('hex').slice(0, 16);
}

/** The recipe hashes of the files in `dir`; empty when there is no (readable) index. */
export async function readRenderIndex(dir: string): Promise<Map<string, string>> {
  try {
    const json: unknown = JSON.parse(await readFile(join(dir, INDEX_FILE), 'utf8'));
    if (typeof json !== 'object' || json === null) return new Map();
    return new Map(Object.entries(json).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return new Map();
  }
}

/** Writes the index atomically (temp file and rename), so a crash never leaves half an index. */
export async function writeRenderIndex(dir: string, index: ReadonlyMap<string, string>): Promise<void> {
  const target = join(dir, INDEX_FILE);
  const temp = `${target}.${process.pid}.tmp`;
  await writeFile(temp, JSON.stringify(Object.fromEntries([...index].sort(([a], [b]) => a.localeCompare(b)))));
  await rename(temp, target);
}
