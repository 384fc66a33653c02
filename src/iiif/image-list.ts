/**
 * The demo image list (`images.jsonl`, IMAGES_FILE in the source export): one line per distinct image
 * with its access status, pixel size and the recipe the renderer draws it from.
 */
import { z } from 'zod';
import { readJsonLines } from './json-lines.js';

/** Image ids become file names and URL path segments, so only a safe alphabet is accepted. */
export const IMAGE_ID = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,127}$/;
const hex = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'colour: #rrggbb');
const side = z.number().int().min(1).max(10_000);

export const ImageSpec = z.object({
  id: z.string().regex(IMAGE_ID, 'image id: letters, digits and ._+- only'),
  /** ok: served; restricted: exists but answers 403; missing: answers 404 (no file). */
  status: z.enum(['ok', 'restricted', 'missing']),
  width: side,
  height: side,
  /** What to draw (vase, chair, tile, ...); unknown shapes fall back to a generic object. */
  shape: z.string(),
  colors: z.array(hex),
  background: hex,
  transparent: z.boolean(),
});
export type ImageSpec = z.infer<typeof ImageSpec>;

/** Reads images.jsonl into a map by id; throws with the line number on a bad line or a repeated id. */
export async function readImageList(path: string): Promise<Map<string, ImageSpec>> {
  const images = new Map<string, ImageSpec>();
  for await (const { value, line } of readJsonLines(path, ImageSpec)) {
    if (images.has(value.id)) throw new Error(`${path}:${line}: image id ${value.id} repeated`);
    images.set(value.id, value);
  }
  return images;
}
