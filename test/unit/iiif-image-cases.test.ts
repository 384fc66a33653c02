/**
 * The demo images show the cases colour analysis has to handle (plain and busy backdrops, transparency, one
 * dominant colour, many small colour regions, near-greys): the generator covers each from every seed, the
 * fixed images listed in src/iiif/README.md show them under seed-independent ids, and their pixels are what
 * the image list promises.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { FIXED_IMAGES } from '../../src/generator/anchors.js';
import { buildImagePool, type DemoImage } from '../../src/generator/images.js';
import { IMAGE_CASES, MANY_COLOURS, NEAR_GREY_SPREAD, imageCases, rgbSpread, type ImageCase } from '../../src/iiif/image-list.js';
import { renderImages } from '../../src/iiif/render.js';
import { renderedImagePath } from '../../src/iiif/rendered-files.js';

const README = new URL('../../src/iiif/README.md', import.meta.url);

interface Row {
  id: string;
  object: string;
  shape: string;
  cases: string[];
}

/** The fixed-image table of the README: id, object, shape and cases (without the notes in brackets). */
async function readmeRows(): Promise<Row[]> {
  const text = await readFile(README, 'utf8');
  const rows: Row[] = [];
  for (const [, id, object, shape, cases] of text.matchAll(/^ *\| `([0-9a-f]{32}-transcode-\d{4})` \| (\S+) \| (\w+) \| (.+?) \|$/gm)) {
    rows.push({ id: id as string, object: object as string, shape: shape as string, cases: (cases as string).replace(/\([^)]*\)/g, '').split(',').map((c) => c.trim()) });
  }
  return rows;
}

const hexOf = (data: Buffer, p: number): string => `#${[data[p], data[p + 1], data[p + 2]].map((v) => (v as number).toString(16).padStart(2, '0')).join('')}`;

interface Pixels {
  counts: Map<string, number>;
  total: number;
  border: Set<string>;
}

/** Colour counts (`transparent` for alpha 0, `partial` for any other alpha below 255) and border colours. */
async function pixels(file: string): Promise<Pixels> {
  const { data, info } = await sharp(file).raw().toBuffer({ resolveWithObject: true });
  const { width, height, channels } = info;
  // Numeric keys while counting (rgb, or -1 transparent, -2 partial), names at the end: far faster than strings.
  const code = (p: number): number => {
    const alpha = channels === 4 ? (data[p + 3] as number) : 255;
    return alpha === 0 ? -1 : alpha < 255 ? -2 : ((data[p] as number) << 16) | ((data[p + 1] as number) << 8) | (data[p + 2] as number);
  };
  const name = (k: number): string => (k === -1 ? 'transparent' : k === -2 ? 'partial' : `#${k.toString(16).padStart(6, '0')}`);
  const numeric = new Map<number, number>();
  const border = new Set<string>();
  for (let y = 0, p = 0; y < height; y++) {
    for (let x = 0; x < width; x++, p += channels) {
      const k = code(p);
      numeric.set(k, (numeric.get(k) ?? 0) + 1);
      if (x === 0 || y === 0 || x === width - 1 || y === height - 1) border.add(name(k));
    }
  }
  return { counts: new Map([...numeric].map(([k, n]) => [name(k), n])), total: width * height, border };
}

/** Connected regions (4-neighbours) of one colour, by colour, in an RGB(A) PNG. */
async function regions(file: string): Promise<Map<string, number>> {
  const { data, info } = await sharp(file).raw().toBuffer({ resolveWithObject: true });
  const { width, height, channels } = info;
  const same = (a: number, b: number): boolean => {
    for (let c = 0; c < channels; c++) if (data[a * channels + c] !== data[b * channels + c]) return false;
    return true;
  };
  const seen = new Uint8Array(width * height);
  const stack = new Int32Array(width * height);
  const result = new Map<string, number>();
  for (let start = 0; start < width * height; start++) {
    if (seen[start]) continue;
    seen[start] = 1;
    let top = 0;
    stack[top++] = start;
    while (top > 0) {
      const p = stack[--top] as number;
      const x = p % width;
      for (const q of [x > 0 ? p - 1 : -1, x < width - 1 ? p + 1 : -1, p - width, p + width]) {
        if (q >= 0 && q < width * height && !seen[q] && same(p, q)) {
          seen[q] = 1;
          stack[top++] = q;
        }
      }
    }
    const key = hexOf(data, start * channels);
    result.set(key, (result.get(key) ?? 0) + 1);
  }
  return result;
}

const pool = buildImagePool(1, 300, FIXED_IMAGES);
const fixedImages = pool.images.slice(0, FIXED_IMAGES.length);

let dir: string;
const rendered = new Map<string, Pixels>();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'iiif-cases-'));
  await writeFile(join(dir, 'images.jsonl'), fixedImages.map((i) => JSON.stringify(i)).join('\n') + '\n');
  await renderImages(join(dir, 'images.jsonl'), join(dir, 'out'));
  for (const image of fixedImages) rendered.set(image.id, await pixels(renderedImagePath(join(dir, 'out'), image.id)));
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('image cases in the image list', () => {
  it('derives the cases from the recipe', () => {
    const base = { colors: ['#c0392b', '#2c3e50'], transparent: false };
    expect(imageCases(base)).toEqual(['plain-background']);
    expect(imageCases({ ...base, transparent: true, backdrop: { kind: 'floor', colors: ['#8c8c8c'] } })).toEqual(['transparent']);
    expect(imageCases({ ...base, backdrop: { kind: 'texture', colors: ['#e0e0e0'] } })).toEqual(['busy-background']);
    expect(imageCases({ ...base, colors: ['#C0392B', '#c0392b'] })).toEqual(['plain-background', 'dominant-colour']);
    expect(imageCases({ ...base, colors: ['#111111', '#222222', '#333333', '#444444', '#555555'], pattern: 'dots' })).toEqual(['plain-background', 'many-colours', 'near-grey']);
    expect(imageCases({ ...base, colors: ['#111111', '#222222', '#333333', '#444444', '#555555'] })).toEqual(['plain-background', 'near-grey']);
    expect(imageCases({ ...base, colors: ['#f0f0dc'] })).toEqual(['plain-background', 'dominant-colour', 'near-grey']);
    expect(imageCases({ ...base, colors: ['#f0f0db'] })).toEqual(['plain-background', 'dominant-colour']);
  });

  it.each([1, 2, 7])('covers every case among the seeded answered images of seed %i, at least three times each', (seed) => {
    const seeded = buildImagePool(seed, 300, FIXED_IMAGES).images.slice(FIXED_IMAGES.length).filter((i) => i.status === 'ok');
    const counts = new Map<ImageCase, number>();
    for (const image of seeded) for (const c of imageCases(image)) counts.set(c, (counts.get(c) ?? 0) + 1);
    for (const c of IMAGE_CASES) expect([c, (counts.get(c) ?? 0) >= 3]).toEqual([c, true]);
    const kinds = new Set(seeded.map((i) => i.backdrop?.kind));
    expect(kinds).toEqual(new Set([undefined, 'gradient', 'texture', 'floor']));
    expect(new Set(seeded.map((i) => i.pattern))).toEqual(new Set([undefined, 'stripes', 'checks', 'dots']));
  });

  it('draws the pool deterministically from the seed, and the fixed images independently of it', () => {
    const again = buildImagePool(1, 300, FIXED_IMAGES).images;
    expect(JSON.stringify(again)).toBe(JSON.stringify(pool.images));
    const other = buildImagePool(2, 300, FIXED_IMAGES).images;
    expect(JSON.stringify(other.slice(0, FIXED_IMAGES.length))).toBe(JSON.stringify(fixedImages));
    expect(JSON.stringify(other)).not.toBe(JSON.stringify(pool.images));
  });

  it('keeps plain images in the older JSON form (no backdrop or pattern keys)', () => {
    const plain = pool.images.find((i) => !i.backdrop && !i.pattern) as DemoImage;
    expect(Object.keys(plain)).toEqual(['id', 'status', 'width', 'height', 'shape', 'colors', 'background', 'transparent']);
  });

  it('lists in the README every fixed image with its object, shape and cases, and every case there', async () => {
    const rows = await readmeRows();
    expect(rows.map((r) => r.id)).toEqual(fixedImages.map((i) => i.id));
    for (const row of rows) {
      const image = pool.byId.get(row.id) as DemoImage;
      expect([row.id, pool.fixedOf(row.object), row.shape, row.cases]).toEqual([row.id, row.id, image.shape, imageCases(image)]);
    }
    for (const c of IMAGE_CASES) expect([c, rows.some((r) => r.cases.includes(c))]).toEqual([c, true]);
  });
});

describe('the fixed case images as rendered', () => {
  const withCase = (c: ImageCase): DemoImage[] => fixedImages.filter((i) => imageCases(i).includes(c));

  it('paint every pixel in a listed colour, fully opaque or fully transparent', () => {
    for (const image of fixedImages) {
      const { counts } = rendered.get(image.id) as Pixels;
      const allowed = new Set([...image.colors, ...(image.transparent ? ['transparent'] : [image.background, ...(image.backdrop?.colors ?? [])])]);
      expect([image.id, [...counts.keys()].filter((k) => !allowed.has(k))]).toEqual([image.id, []]);
      expect([image.id, [...allowed].filter((k) => !counts.has(k))]).toEqual([image.id, []]);
    }
  });

  it('plain: the border is the background; busy: the border has several colours; transparent: it is transparent', () => {
    for (const image of withCase('plain-background')) expect([image.id, [...(rendered.get(image.id) as Pixels).border]]).toEqual([image.id, [image.background]]);
    for (const image of withCase('busy-background')) expect([image.id, (rendered.get(image.id) as Pixels).border.size >= 2]).toEqual([image.id, true]);
    for (const image of withCase('transparent')) expect([image.id, [...(rendered.get(image.id) as Pixels).border]]).toEqual([image.id, ['transparent']]);
  });

  it('dominant colour: the object is one colour, and in the cabinet 0559 it covers over half the image', () => {
    const images = withCase('dominant-colour');
    expect(images.length).toBeGreaterThan(0);
    for (const image of images) {
      const { counts, total } = rendered.get(image.id) as Pixels;
      const object = total - (counts.get(image.background) ?? 0) - (image.backdrop?.colors ?? []).reduce((n, c) => n + (counts.get(c) ?? 0), 0);
      expect(counts.get(image.colors[0] as string)).toBe(object);
    }
    const cabinet = rendered.get(pool.fixed('0559')) as Pixels;
    expect(cabinet.counts.get('#8a3b26') ?? 0).toBeGreaterThan(cabinet.total * 0.5);
  });

  it('many colours: at least five colours, each in many small regions', async () => {
    const images = withCase('many-colours');
    expect(images.length).toBeGreaterThanOrEqual(3);
    for (const image of images) {
      const { counts, total } = rendered.get(image.id) as Pixels;
      const byColour = await regions(renderedImagePath(join(dir, 'out'), image.id));
      const visible = image.colors.filter((c) => (counts.get(c) ?? 0) > total * 0.002);
      expect([image.id, visible.length >= MANY_COLOURS]).toEqual([image.id, true]);
      const objectRegions = image.colors.reduce((n, c) => n + (byColour.get(c) ?? 0), 0);
      expect([image.id, objectRegions >= 60]).toEqual([image.id, true]);
      for (const c of visible) expect([image.id, c, (byColour.get(c) ?? 0) >= 5]).toEqual([image.id, c, true]);
    }
  }, 30_000);

  it('near-grey: every object pixel has a low chroma, on a background that is not far off', () => {
    const images = withCase('near-grey');
    expect(images.length).toBeGreaterThanOrEqual(2);
    for (const image of images) {
      const { counts } = rendered.get(image.id) as Pixels;
      const backdrop = new Set(['transparent', image.background, ...(image.backdrop?.colors ?? [])]);
      for (const color of counts.keys()) if (!backdrop.has(color)) expect([image.id, color, rgbSpread(color) <= NEAR_GREY_SPREAD]).toEqual([image.id, color, true]);
    }
  });
});
