/**
 * The demo image list (`images.jsonl`, IMAGES_FILE in the source export): one line per distinct image
 * with its access status, pixel size and the recipe the renderer draws it from.
 *
 * `backdrop` and `pattern` are optional, so a list written before they existed still reads, and means the same.
 */
import { z } from 'zod';
import { readJsonLines } from './json-lines.js';

/** Image ids become file names and URL path segments, so only a safe alphabet is accepted. */
export const IMAGE_ID = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,127}$/;
const hex = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'colour: #rrggbb');
const side = z.number().int().min(1).max(10_000);

/**
 * A busy backdrop: the colours it adds to `background`. Every pixel of it is `background` or one of these.
 * gradient: horizontal bands of equal height from `background` at the top through `colors` in order (a
 *   stepped gradient, so the colours stay exact);
 * texture: a fine noise of square specks in `colors` on `background`;
 * floor: `background` is the wall and `colors[0]` the floor, from a horizon behind the object downwards.
 */
export const Backdrop = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('gradient'), colors: z.array(hex).min(1).max(15) }),
  z.strictObject({ kind: z.literal('texture'), colors: z.array(hex).min(1).max(3) }),
  z.strictObject({ kind: z.literal('floor'), colors: z.array(hex).length(1) }),
]);
export type Backdrop = z.infer<typeof Backdrop>;

/**
 * How the object's body shows all of `colors` instead of one body colour with bands: vertical stripes,
 * checks, or dots in colours 2.. on a ground of the first colour. Parts keep their colours.
 */
export const BODY_PATTERNS = ['stripes', 'checks', 'dots'] as const;
export const BodyPattern = z.enum(BODY_PATTERNS);
export type BodyPattern = z.infer<typeof BodyPattern>;

export const ImageSpec = z.object({
  id: z.string().regex(IMAGE_ID, 'image id: letters, digits and ._+- only'),
  /** ok: served; restricted: exists but answers 403; missing: answers 404 (no file). */
  status: z.enum(['ok', 'restricted', 'missing']),
  width: side,
  height: side,
  /** What to draw (vase, chair, tile, ...); unknown shapes fall back to a generic object. */
  shape: z.string(),
  /** The object's colours: the first is the body, further ones parts and bands (or the pattern's colours). */
  colors: z.array(hex),
  /** The backdrop's main colour: all of it when there is no `backdrop`; unused for transparent images. */
  background: hex,
  /** No backdrop at all: an RGBA image whose background is fully transparent. */
  transparent: z.boolean(),
  /** Absent: a plain backdrop of `background`. Ignored for transparent images. */
  backdrop: Backdrop.optional(),
  /** Absent: the body is `colors[0]`, with colours beyond the shape's parts as bands. */
  pattern: BodyPattern.optional(),
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

/**
 * The cases the demo images cover, so tests (colour extraction, say) can pick images and know what to expect:
 * plain-background: opaque, every backdrop pixel is `background`;
 * busy-background: opaque, with a gradient, texture or floor backdrop;
 * transparent: fully transparent backdrop;
 * dominant-colour: the whole object is one colour (`colors` has one entry);
 * many-colours: a patterned body of at least MANY_COLOURS distinct colours, in many small regions;
 * near-grey: every object colour is a grey or off-white (NEAR_GREY_SPREAD).
 */
export const IMAGE_CASES = ['plain-background', 'busy-background', 'transparent', 'dominant-colour', 'many-colours', 'near-grey'] as const;
export type ImageCase = (typeof IMAGE_CASES)[number];

export const MANY_COLOURS = 5;
/** Largest difference between the highest and lowest of R, G and B (0–255) that still counts as near-grey. */
export const NEAR_GREY_SPREAD = 20;

/** max(R, G, B) − min(R, G, B) of a #rrggbb colour: 0 for a pure grey. */
export function rgbSpread(color: string): number {
  const channels = [1, 3, 5].map((i) => Number.parseInt(color.slice(i, i + 2), 16));
  return Math.max(...channels) - Math.min(...channels);
}

/** The cases an image shows, in IMAGE_CASES order. */
export function imageCases(spec: Pick<ImageSpec, 'colors' | 'transparent' | 'backdrop' | 'pattern'>): ImageCase[] {
  const cases: ImageCase[] = [spec.transparent ? 'transparent' : spec.backdrop ? 'busy-background' : 'plain-background'];
  const distinct = new Set(spec.colors.map((c) => c.toLowerCase()));
  if (distinct.size === 1) cases.push('dominant-colour');
  if (spec.pattern && distinct.size >= MANY_COLOURS) cases.push('many-colours');
  if (distinct.size > 0 && [...distinct].every((c) => rgbSpread(c) <= NEAR_GREY_SPREAD)) cases.push('near-grey');
  return cases;
}
