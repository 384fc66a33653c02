/**
 * The demo images (images.jsonl): a few hundred distinct image ids that the demo IIIF server knows, each with
 * what the renderer needs to draw it (shape, colours, light background and maybe a busy backdrop, a body
 * pattern, transparency) and whether the server answers it (ok), refuses it (restricted: 403) or lacks it
 * (missing: 404). Objects share these ids.
 *
 * Variety, all drawn from the seed: most objects are drawn plainly in two to four colours of their material;
 * some are patterned in five to eight colours, some are near-grey, some one colour only. Opaque images get a
 * plain light backdrop or now and then a busy one (stepped gradient, texture, wall and floor). The fixed
 * images (anchors.ts) show each of these cases with seed-independent ids (src/iiif/README.md lists them).
 */
import { z } from 'zod';
import { BODY_PATTERNS, Backdrop, BodyPattern } from '../iiif/image-list.js';
import { Rng, hash32, stableHex32 } from './rng.js';
import { FAMILIES, SHAPES, type Family, type Shape } from './vocabulary/families.js';
import { BACKGROUNDS, DECOR_COLORS, FLOORS, GRADIENT_ENDS, GROUP_COLORS, MATERIAL_COLORS, NEAR_GREYS } from './vocabulary/palettes.js';
import type { MaterialGroup } from './vocabulary/thesaurus.js';
import { BASE_CONCEPTS } from './vocabulary/thesaurus.js';

const hexColor = z.string().regex(/^#[0-9a-f]{6}$/, 'colour: #rrggbb');

/** One line of images.jsonl (the generator's stricter form of the reader's ImageSpec, src/iiif/image-list.ts). */
export const DemoImage = z
  .strictObject({
    id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'image id: path-safe token'),
    status: z.enum(['ok', 'restricted', 'missing']),
    width: z.number().int().positive(),
    height: z.number().int().positive(),
    shape: z.enum(SHAPES),
    colors: z.array(hexColor).min(1),
    background: hexColor,
    transparent: z.boolean(),
    backdrop: Backdrop.optional(),
    pattern: BodyPattern.optional(),
  })
  .refine((image) => !(image.transparent && image.backdrop), 'a transparent image has no backdrop')
  .refine((image) => !image.backdrop || image.backdrop.colors.every((c) => hexColor.safeParse(c).success && c !== image.background), 'backdrop colours: lower-case, not the background');
export type DemoImage = z.infer<typeof DemoImage>;
export type ImageStatus = DemoImage['status'];

/**
 * Images that belong to fixed records (the real objects and some anchors): ids do not depend on the seed.
 * `background` defaults to a light one drawn from the key.
 */
export interface FixedImage {
  key: string;
  shape: Shape;
  colors: readonly string[];
  transparent: boolean;
  background?: string;
  backdrop?: Backdrop;
  pattern?: BodyPattern;
}

export interface ImagePool {
  images: DemoImage[];
  byId: ReadonlyMap<string, DemoImage>;
  /** The id of a fixed image by its key. */
  fixed(key: string): string;
  /** The id of a fixed image by its key, if there is one. */
  fixedOf(key: string): string | undefined;
  /** An answered image of this shape, preferably of this material group, not among `exclude` when avoidable. */
  pickOk(rng: Rng, shape: Shape, group: MaterialGroup | undefined, exclude?: ReadonlySet<DemoImage>): DemoImage;
  /** An image the server does not answer (403 or 404), not among `exclude` when avoidable. */
  pickBad(rng: Rng, status?: Exclude<ImageStatus, 'ok'>, exclude?: ReadonlySet<DemoImage>): DemoImage;
}

const GROUP_OF_MATERIAL = new Map(BASE_CONCEPTS.filter((c) => c.facet === 'material' && c.group).map((c) => [c.nl, c.group as MaterialGroup]));

/** Size of the pool for a collection of `objects` objects: about a third of it, between 60 and 300. */
export function imagePoolSize(objects: number): number {
  return Math.min(300, Math.max(60, Math.round(objects / 3)));
}

/** Builds the pool: fixed images first, then seeded ones covering every family shape, then extra ones (some failing). */
export function buildImagePool(seed: number, size: number, fixed: readonly FixedImage[]): ImagePool {
  const rng = new Rng(seed, 'images');
  const images: DemoImage[] = [];
  const groupOf = new Map<string, MaterialGroup | undefined>();
  const fixedIds = new Map<string, string>();
  const ids = new Set<string>();

  for (const f of fixed) {
    // Fixed images draw from a seed-independent stream: the real objects look the same in every collection.
    const own = new Rng(0, `fixed-image:${f.key}`);
    const id = `${stableHex32(`fixed-image:${f.key}`)}-transcode-${String(hash32(f.key) % 10000).padStart(4, '0')}`;
    const [width, height] = dimensionsFor(own, f.shape);
    const background = own.pick(BACKGROUNDS);
    images.push(
      withLook(
        { id, status: 'ok', width, height, shape: f.shape, colors: [...f.colors], background: f.background ?? background, transparent: f.transparent },
        f.backdrop,
        f.pattern,
      ),
    );
    fixedIds.set(f.key, id);
    ids.add(id);
  }

  const newId = (): string => {
    for (;;) {
      const id = `${rng.hex(32)}-transcode-${String(rng.int(1, 9999)).padStart(4, '0')}`;
      if (!ids.has(id)) {
        ids.add(id);
        return id;
      }
    }
  };
  const objectImage = (family: Family): DemoImage => {
    const material = rng.pick(family.materials);
    const group = GROUP_OF_MATERIAL.get(material);
    const palette = MATERIAL_COLORS[material] ?? (group ? GROUP_COLORS[group] : BACKGROUNDS);
    let colors = rng.sample(palette, rng.int(Math.min(2, palette.length), Math.min(4, palette.length)));
    const [width, height] = dimensionsFor(rng, family.shape);
    const id = newId();
    const background = rng.pick(BACKGROUNDS);
    const transparent = group === 'glass' || material === 'plexiglas' || material === 'polyetherimide';
    let pattern: BodyPattern | undefined;
    switch (rng.weighted(lookWeights(family))) {
      case 'pattern':
        colors = patternColors(rng, palette);
        pattern = rng.pick(BODY_PATTERNS);
        break;
      case 'grey':
        colors = rng.sample(NEAR_GREYS, rng.int(2, 3));
        break;
      case 'one':
        colors = colors.slice(0, 1);
        break;
      default:
    }
    const backdrop = transparent ? undefined : busyBackdrop(rng, background, BACKDROP_WEIGHTS);
    const image = withLook({ id, status: 'ok', width, height, shape: family.shape, colors, background, transparent }, backdrop, pattern);
    groupOf.set(image.id, group);
    return image;
  };

  const guaranteed: DemoImage[] = [];
  for (const family of FAMILIES) for (let i = 0; i < 2; i++) guaranteed.push(objectImage(family));
  const galleries = Math.max(3, Math.round(size * 0.03));
  for (let i = 0; i < galleries; i++) {
    const [width, height] = dimensionsFor(rng, 'gallery');
    const id = newId();
    const colors = rng.sample(['#ffffff', '#d9d4cc', '#8c8c8c', '#3a3a3a'], 2);
    const background = rng.pick(BACKGROUNDS);
    // Installation views: a wall and floor as often as not.
    guaranteed.push(withLook({ id, status: 'ok', width, height, shape: 'gallery', colors, background, transparent: false }, busyBackdrop(rng, background, GALLERY_BACKDROP_WEIGHTS)));
  }
  images.push(...guaranteed);
  const weights = FAMILIES.map((f) => [f, f.weight] as const);
  const extra: DemoImage[] = [];
  const badCount = Math.max(6, Math.round(size * 0.13));
  // A small pool may grow past `size`, so that there are extra images to fail.
  while (images.length + extra.length < size || extra.length < badCount) extra.push(objectImage(rng.weighted(weights)));
  images.push(...extra);

  // Statuses only on the extra images, so every shape keeps answered images.
  const bad = rng.sample(extra, badCount);
  bad.forEach((image, i) => {
    image.status = i % 2 === 0 ? 'missing' : 'restricted';
  });

  for (const image of images) DemoImage.parse(image);
  const okByShape = new Map<string, DemoImage[]>();
  const badByStatus = new Map<string, DemoImage[]>();
  for (const image of images) {
    if (image.status === 'ok') {
      for (const key of [image.shape, `${image.shape}|${groupOf.get(image.id) ?? ''}`]) {
        const list = okByShape.get(key) ?? [];
        list.push(image);
        okByShape.set(key, list);
      }
    } else {
      const list = badByStatus.get(image.status) ?? [];
      list.push(image);
      badByStatus.set(image.status, list);
    }
  }
  const allBad = [...(badByStatus.get('missing') ?? []), ...(badByStatus.get('restricted') ?? [])];
  if (allBad.length === 0) throw new Error('image pool has no failing images');
  const byId = new Map(images.map((i) => [i.id, i]));
  return {
    images,
    byId,
    fixed(key: string): string {
      const id = fixedIds.get(key);
      if (!id) throw new Error(`no fixed image ${key}`);
      return id;
    },
    fixedOf(key: string): string | undefined {
      return fixedIds.get(key);
    },
    pickOk(r: Rng, shape: Shape, group: MaterialGroup | undefined, exclude?: ReadonlySet<DemoImage>): DemoImage {
      return pickFrom(r, [okByShape.get(`${shape}|${group ?? ''}`), okByShape.get(shape), okByShape.get('vase')], exclude);
    },
    pickBad(r: Rng, status?: Exclude<ImageStatus, 'ok'>, exclude?: ReadonlySet<DemoImage>): DemoImage {
      return pickFrom(r, [status ? badByStatus.get(status) : allBad, allBad], exclude);
    },
  };
}

type Look = 'plain' | 'pattern' | 'grey' | 'one';

/** How an object image is coloured: mostly plainly, sometimes patterned (more often when decorated), near-grey or in one colour. */
function lookWeights(family: Family): readonly (readonly [Look, number])[] {
  return [
    ['plain', 76],
    ['pattern', family.decorated ? 14 : 6],
    ['grey', 7],
    ['one', 7],
  ];
}

type BackdropKind = 'plain' | Backdrop['kind'];
const BACKDROP_WEIGHTS: readonly (readonly [BackdropKind, number])[] = [
  ['plain', 64],
  ['gradient', 12],
  ['texture', 12],
  ['floor', 12],
];
const GALLERY_BACKDROP_WEIGHTS: readonly (readonly [BackdropKind, number])[] = [
  ['plain', 50],
  ['floor', 50],
];

/** The image with its optional fields set only when present, so plain images keep their old JSON form. */
function withLook(image: DemoImage, backdrop?: Backdrop, pattern?: BodyPattern): DemoImage {
  if (backdrop) image.backdrop = { kind: backdrop.kind, colors: [...backdrop.colors] } as Backdrop;
  if (pattern) image.pattern = pattern;
  return image;
}

/** Five to eight distinct colours: the material's first, then decoration colours. */
function patternColors(rng: Rng, palette: readonly string[]): string[] {
  const n = rng.int(5, 8);
  const colors = [...new Set(rng.sample(palette, Math.min(palette.length, n - 2)))];
  for (const c of rng.sample(DECOR_COLORS, DECOR_COLORS.length)) if (colors.length < n && !colors.includes(c)) colors.push(c);
  return colors;
}

/** A busy backdrop on `background`, or none (plain). */
function busyBackdrop(rng: Rng, background: string, weights: readonly (readonly [BackdropKind, number])[]): Backdrop | undefined {
  const distinct = (colors: string[]): string[] => [...new Set(colors)].filter((c) => c !== background);
  switch (rng.weighted(weights)) {
    case 'gradient': {
      const end = rng.pick(GRADIENT_ENDS);
      const steps = rng.int(3, 7);
      return { kind: 'gradient', colors: distinct(Array.from({ length: steps }, (_v, i) => mix(background, end, (i + 1) / steps))) };
    }
    case 'texture': {
      const tones = rng.int(1, 2);
      return { kind: 'texture', colors: distinct(Array.from({ length: tones }, (_v, i) => mix(background, '#000000', 0.05 * (i + 1)))) };
    }
    case 'floor':
      return { kind: 'floor', colors: [rng.pick(FLOORS)] };
    default:
      return undefined;
  }
}

/** `a` moved towards `b` by `t` (0..1), per sRGB channel, as #rrggbb. */
function mix(a: string, b: string, t: number): string {
  const channel = (hex: string, i: number): number => Number.parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16);
  return `#${[0, 1, 2].map((i) => Math.round(channel(a, i) + (channel(b, i) - channel(a, i)) * t).toString(16).padStart(2, '0')).join('')}`;
}

/** From the first list that still has an image outside `exclude`; from the first non-empty list otherwise. */
function pickFrom(rng: Rng, lists: readonly (readonly DemoImage[] | undefined)[], exclude: ReadonlySet<DemoImage> | undefined): DemoImage {
  for (const list of lists) {
    const left = list?.filter((image) => !exclude?.has(image));
    if (left && left.length > 0) return rng.pick(left);
  }
  const first = lists.find((list) => list && list.length > 0);
  if (!first) throw new Error('image pool: no image to pick');
  return rng.pick(first);
}

/** Pixel size of a photograph of a thing of this shape. */
function dimensionsFor(rng: Rng, shape: Shape): [number, number] {
  const base = rng.int(16, 26) * 100;
  switch (shape) {
    case 'tile':
    case 'plate':
    case 'bowl':
    case 'jewel':
      return [base, base + rng.int(-1, 1) * 100];
    case 'table':
    case 'textile':
    case 'cutlery':
    case 'box':
    case 'gallery':
      return [base + 800, Math.round((base + 800) * (0.6 + rng.int(0, 2) * 0.08))];
    default:
      return [base, Math.round(base * (1.2 + rng.int(0, 3) * 0.1))];
  }
}
