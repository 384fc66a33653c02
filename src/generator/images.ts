/**
 * The demo images (images.jsonl): a few hundred distinct image ids that the demo IIIF server knows, each with
 * what the renderer needs to draw it (shape, colours, plain light background, transparency) and whether the
 * server answers it (ok), refuses it (restricted: 403) or lacks it (missing: 404). Objects share these ids.
 */
import { z } from 'zod';
import { Rng, hash32, stableHex32 } from './rng.js';
import { FAMILIES, SHAPES, type Family, type Shape } from './vocabulary/families.js';
import { BACKGROUNDS, GROUP_COLORS, MATERIAL_COLORS } from './vocabulary/palettes.js';
import type { MaterialGroup } from './vocabulary/thesaurus.js';
import { BASE_CONCEPTS } from './vocabulary/thesaurus.js';

const hexColor = z.string().regex(/^#[0-9a-f]{6}$/, 'colour: #rrggbb');

/** One line of images.jsonl. */
export const DemoImage = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'image id: path-safe token'),
  status: z.enum(['ok', 'restricted', 'missing']),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  shape: z.enum(SHAPES),
  colors: z.array(hexColor).min(1),
  background: hexColor,
  transparent: z.boolean(),
});
export type DemoImage = z.infer<typeof DemoImage>;
export type ImageStatus = DemoImage['status'];

/** Images that belong to fixed records (the real objects): ids do not depend on the seed. */
export interface FixedImage {
  key: string;
  shape: Shape;
  colors: readonly string[];
  transparent: boolean;
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

/** Builds the pool: fixed images first, then seeded ones covering every family shape. */
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
    images.push({ id, status: 'ok', width, height, shape: f.shape, colors: [...f.colors], background: own.pick(BACKGROUNDS), transparent: f.transparent });
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
    const colors = rng.sample(palette, rng.int(Math.min(2, palette.length), Math.min(4, palette.length)));
    const [width, height] = dimensionsFor(rng, family.shape);
    const image: DemoImage = {
      id: newId(),
      status: 'ok',
      width,
      height,
      shape: family.shape,
      colors,
      background: rng.pick(BACKGROUNDS),
      transparent: group === 'glass' || material === 'plexiglas' || material === 'polyetherimide',
    };
    groupOf.set(image.id, group);
    return image;
  };

  const guaranteed: DemoImage[] = [];
  for (const family of FAMILIES) for (let i = 0; i < 2; i++) guaranteed.push(objectImage(family));
  const galleries = Math.max(3, Math.round(size * 0.03));
  for (let i = 0; i < galleries; i++) {
    const [width, height] = dimensionsFor(rng, 'gallery');
    guaranteed.push({ id: newId(), status: 'ok', width, height, shape: 'gallery', colors: rng.sample(['#ffffff', '#d9d4cc', '#8c8c8c', '#3a3a3a'], 2), background: rng.pick(BACKGROUNDS), transparent: false });
  }
  images.push(...guaranteed);
  const weights = FAMILIES.map((f) => [f, f.weight] as const);
  const extra: DemoImage[] = [];
  while (images.length + extra.length < size) extra.push(objectImage(rng.weighted(weights)));
  images.push(...extra);

  // Statuses only on the extra images, so every shape keeps answered images.
  const bad = rng.sample(extra, Math.max(6, Math.round(size * 0.13)));
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
