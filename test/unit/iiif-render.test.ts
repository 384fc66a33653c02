import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { SHAPES } from '../../src/generator/vocabulary/families.js';
import { readImageList, type ImageSpec } from '../../src/iiif/image-list.js';
import { renderImages } from '../../src/iiif/render.js';
import { renderedImagePath } from '../../src/iiif/rendered-files.js';
import { KNOWN_SHAPES, hasOwnDrawing, imageSvg } from '../../src/iiif/shapes.js';

const VASE: ImageSpec = { id: 'vase-1', status: 'ok', width: 800, height: 600, shape: 'vase', colors: ['#c0392b', '#2c3e50', '#f1c40f'], background: '#f4f1ea', transparent: false };
const LAMP: ImageSpec = { id: 'lamp-1', status: 'ok', width: 500, height: 900, shape: 'lamp', colors: ['#16a085', '#7f8c8d'], background: '#ffffff', transparent: true };
const TILE: ImageSpec = { id: 'tile-1', status: 'restricted', width: 640, height: 640, shape: 'tile', colors: ['#2980b9', '#ecf0f1', '#e74c3c', '#8e44ad', '#d35400'], background: '#fdfdfd', transparent: false };
const GONE: ImageSpec = { id: 'poster-1', status: 'missing', width: 600, height: 800, shape: 'poster', colors: ['#000000'], background: '#ffffff', transparent: false };
const TEAPOT: ImageSpec = { id: 'teapot-1', status: 'ok', width: 700, height: 700, shape: 'Teapot', colors: ['#6c3483', '#f5b041'], background: '#fbfcfc', transparent: false };
const ALL = [VASE, LAMP, TILE, GONE, TEAPOT];

const jsonl = (images: ImageSpec[]): string => images.map((i) => JSON.stringify(i)).join('\n') + '\n';
const rgb = (hex: string): number[] => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));

/** Pixel counts by colour key `r,g,b` (or `r,g,b,a` with alpha). */
async function histogram(file: string): Promise<{ counts: Map<string, number>; total: number; channels: number }> {
  const { data, info } = await sharp(file).raw().toBuffer({ resolveWithObject: true });
  const counts = new Map<string, number>();
  for (let p = 0; p < data.length; p += info.channels) {
    const key = [...data.subarray(p, p + info.channels)].join(',');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return { counts, total: info.width * info.height, channels: info.channels };
}

let dir: string;
let list: string;
let out: string;
let first: { rendered: number; skipped: number };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'iiif-render-'));
  list = join(dir, 'images.jsonl');
  out = join(dir, 'out');
  await writeFile(list, jsonl(ALL));
  first = await renderImages(list, out);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('renderImages', () => {
  it('renders the ok and restricted images and no missing one', () => {
    expect(first).toEqual({ rendered: 4, skipped: 0 });
    for (const image of [VASE, LAMP, TILE, TEAPOT]) expect(existsSync(renderedImagePath(out, image.id))).toBe(true);
    expect(existsSync(renderedImagePath(out, GONE.id))).toBe(false);
  });

  it('draws each image at its listed size, opaque images without alpha and transparent ones with it', async () => {
    for (const image of [VASE, LAMP, TILE, TEAPOT]) {
      const meta = await sharp(renderedImagePath(out, image.id)).metadata();
      expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual(['png', image.width, image.height, image.transparent]);
    }
  });

  it('paints only the background and the listed colours, each of them visibly, with the background on the border', async () => {
    for (const image of [VASE, TILE, TEAPOT]) {
      const { counts, total } = await histogram(renderedImagePath(out, image.id));
      const expected = [image.background, ...image.colors].map((hex) => rgb(hex).join(','));
      expect([...counts.keys()].sort()).toEqual([...expected].sort());
      for (const key of expected) expect(counts.get(key) ?? 0).toBeGreaterThan(total * 0.005);
      const { data, info } = await sharp(renderedImagePath(out, image.id)).raw().toBuffer({ resolveWithObject: true });
      const at = (x: number, y: number): string => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)].join(',');
      for (const [x, y] of [[0, 0], [image.width - 1, 0], [0, image.height - 1], [image.width - 1, image.height - 1]] as const) {
        expect(at(x, y)).toBe(rgb(image.background).join(','));
      }
    }
  });

  it('leaves the background of a transparent image fully transparent and the object fully opaque', async () => {
    const { counts } = await histogram(renderedImagePath(out, LAMP.id));
    const expected = ['0,0,0,0', ...LAMP.colors.map((hex) => [...rgb(hex), 255].join(','))];
    expect([...counts.keys()].sort()).toEqual(expected.sort());
  });

  it('draws an unknown shape as the generic object', async () => {
    const unknown = join(dir, 'unknown');
    const generic = join(dir, 'generic');
    await writeFile(join(dir, 'unknown.jsonl'), jsonl([{ ...TEAPOT, shape: 'Spaceship' }]));
    await writeFile(join(dir, 'generic.jsonl'), jsonl([{ ...TEAPOT, shape: 'generic' }]));
    await renderImages(join(dir, 'unknown.jsonl'), unknown);
    await renderImages(join(dir, 'generic.jsonl'), generic);
    const [a, b] = await Promise.all([renderedImagePath(unknown, TEAPOT.id), renderedImagePath(generic, TEAPOT.id)].map((f) => sharp(f).raw().toBuffer()));
    expect(a?.equals(b as Buffer)).toBe(true);
  });

  it('is deterministic: rendering the same list elsewhere gives the same files byte for byte', async () => {
    const again = join(dir, 'again');
    await renderImages(list, again, { concurrency: 1 });
    for (const image of [VASE, LAMP, TILE, TEAPOT]) {
      const [a, b] = await Promise.all([readFile(renderedImagePath(out, image.id)), readFile(renderedImagePath(again, image.id))]);
      expect(a.equals(b)).toBe(true);
    }
  });

  it('skips every image on a second run and leaves the files untouched', async () => {
    const before = await stat(renderedImagePath(out, VASE.id));
    expect(await renderImages(list, out)).toEqual({ rendered: 0, skipped: 4 });
    expect((await stat(renderedImagePath(out, VASE.id))).mtimeMs).toBe(before.mtimeMs);
  });

  it('redraws an image whose recipe changed or whose file has another size', async () => {
    const dir2 = join(dir, 'changes');
    const list2 = join(dir, 'changes.jsonl');
    await writeFile(list2, jsonl(ALL));
    await renderImages(list2, dir2);

    await writeFile(list2, jsonl([{ ...VASE, colors: ['#000000'] }, LAMP, TILE, GONE, TEAPOT]));
    expect(await renderImages(list2, dir2)).toEqual({ rendered: 1, skipped: 3 });
    const { counts } = await histogram(renderedImagePath(dir2, VASE.id));
    expect(counts.has('0,0,0')).toBe(true);

    await sharp({ create: { width: 10, height: 10, channels: 3, background: '#ff0000' } }).png().toFile(renderedImagePath(dir2, TILE.id));
    expect(await renderImages(list2, dir2)).toEqual({ rendered: 1, skipped: 3 });
    expect((await sharp(renderedImagePath(dir2, TILE.id)).metadata()).width).toBe(TILE.width);
  });

  it('rejects a list with a bad line and names the line', async () => {
    const bad = join(dir, 'bad.jsonl');
    await writeFile(bad, `${JSON.stringify(VASE)}\n${JSON.stringify({ ...LAMP, id: '../etc/passwd' })}\n`);
    await expect(renderImages(bad, join(dir, 'bad'))).rejects.toThrow(/bad\.jsonl:2: id/);
  });
});

describe('shapes', () => {
  const COLORS = ['#c0392b', '#2c3e50', '#f1c40f', '#16a085', '#8e44ad'];
  // Landscape and portrait sizes in turn, one of them odd, so placement never relies on round numbers.
  const specs: ImageSpec[] = SHAPES.map((shape, i) => ({
    id: `shape-${shape}`,
    status: 'ok',
    width: i % 2 === 0 ? 640 : 455,
    height: i % 2 === 0 ? 455 : 640,
    shape,
    colors: COLORS,
    background: '#f4f1ea',
    transparent: false,
  }));
  let shapeDir: string;

  beforeAll(async () => {
    shapeDir = join(dir, 'shapes');
    const list2 = join(dir, 'shapes.jsonl');
    const generics = specs.map((spec) => ({ ...spec, id: `generic-${spec.shape}`, shape: 'generic' }));
    await writeFile(list2, jsonl([...specs, ...generics]));
    await renderImages(list2, shapeDir);
  });

  it('has a drawing of its own for every shape the generator names', () => {
    expect(KNOWN_SHAPES).toContain('generic');
    for (const shape of SHAPES) expect([shape, hasOwnDrawing(shape)]).toEqual([shape, true]);
    expect(hasOwnDrawing('generic')).toBe(false);
    expect(hasOwnDrawing('spaceship')).toBe(false);
    const svgs = specs.map((spec) => imageSvg(spec));
    expect(new Set(svgs).size).toBe(SHAPES.length);
    for (const [i, spec] of specs.entries()) expect(svgs[i]).not.toBe(imageSvg({ ...spec, shape: 'generic' }));
  });

  it('renders every shape to a PNG of the requested size, unlike the generic object, in exactly the listed colours', async () => {
    for (const spec of specs) {
      const file = renderedImagePath(shapeDir, spec.id);
      const meta = await sharp(file).metadata();
      expect([spec.shape, meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual([spec.shape, 'png', spec.width, spec.height, false]);
      const [own, generic] = await Promise.all([file, renderedImagePath(shapeDir, `generic-${spec.shape}`)].map((f) => sharp(f).raw().toBuffer()));
      expect([spec.shape, own?.equals(generic as Buffer)]).toEqual([spec.shape, false]);
      const { counts, total } = await histogram(file);
      const expected = [spec.background, ...spec.colors].map((hex) => rgb(hex).join(','));
      expect([spec.shape, [...counts.keys()].sort()]).toEqual([spec.shape, [...expected].sort()]);
      // The object fills a fair part of the frame and the background shows round it.
      const back = counts.get(rgb(spec.background).join(',')) ?? 0;
      expect([spec.shape, back > total * 0.25 && back < total * 0.95]).toEqual([spec.shape, true]);
    }
  });
});

describe('backdrops and patterns', () => {
  const BASE: ImageSpec = { id: 'x', status: 'ok', width: 700, height: 900, shape: 'vase', colors: ['#c0392b', '#2c3e50', '#f1c40f'], background: '#f4f2ee', transparent: false };
  const GRADIENT: ImageSpec = { ...BASE, id: 'gradient', backdrop: { kind: 'gradient', colors: ['#ebe8e2', '#e2ded6', '#d9d4cb'] } };
  const TEXTURE: ImageSpec = { ...BASE, id: 'texture', shape: 'jewel', width: 901, height: 777, backdrop: { kind: 'texture', colors: ['#e2ddd4', '#d6d0c5'] } };
  const FLOOR: ImageSpec = { ...BASE, id: 'floor', shape: 'chair', backdrop: { kind: 'floor', colors: ['#a88b68'] } };
  const COLORFUL = ['#e8412c', '#f6d02f', '#1d5fbf', '#202020', '#3aa655', '#f06292', '#f4f1ea'];
  const STRIPES: ImageSpec = { ...BASE, id: 'stripes', shape: 'poster', colors: COLORFUL, pattern: 'stripes' };
  const CHECKS: ImageSpec = { ...BASE, id: 'checks', shape: 'tile', width: 801, height: 799, colors: COLORFUL.slice(0, 5), pattern: 'checks' };
  const DOTS: ImageSpec = { ...BASE, id: 'dots', shape: 'cabinet', colors: COLORFUL, pattern: 'dots', backdrop: { kind: 'texture', colors: ['#e9e6e0'] } };
  const GLASS: ImageSpec = { ...BASE, id: 'glass', shape: 'glass', transparent: true, backdrop: { kind: 'floor', colors: ['#a88b68'] }, pattern: 'stripes', colors: COLORFUL.slice(0, 5) };
  const SPECS = [GRADIENT, TEXTURE, FLOOR, STRIPES, CHECKS, DOTS, GLASS];
  let lookDir: string;
  const file = (spec: ImageSpec): string => renderedImagePath(lookDir, spec.id);
  /** The colour keys of a row of pixels, and how often the colour changes along it. */
  async function row(spec: ImageSpec, y: number): Promise<{ keys: string[]; changes: number }> {
    const { data, info } = await sharp(file(spec)).raw().toBuffer({ resolveWithObject: true });
    const keys = Array.from({ length: info.width }, (_v, x) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x + 1) * info.channels)].join(','));
    return { keys, changes: keys.filter((k, x) => x > 0 && k !== keys[x - 1]).length };
  }

  beforeAll(async () => {
    lookDir = join(dir, 'looks');
    await writeFile(join(dir, 'looks.jsonl'), jsonl(SPECS));
    await renderImages(join(dir, 'looks.jsonl'), lookDir);
  });

  it('paints every pixel of an opaque image in the background, a backdrop colour or an object colour, and shows them all', async () => {
    for (const spec of SPECS.filter((s) => !s.transparent)) {
      const { counts, total } = await histogram(file(spec));
      const expected = [spec.background, ...(spec.backdrop?.colors ?? []), ...spec.colors].map((hex) => rgb(hex).join(','));
      expect([spec.id, [...counts.keys()].sort()]).toEqual([spec.id, [...new Set(expected)].sort()]);
      for (const key of expected) expect([spec.id, key, (counts.get(key) ?? 0) > total * 0.001]).toEqual([spec.id, key, true]);
    }
  });

  it('steps a gradient down from the background, and puts a floor under the wall', async () => {
    const top = await row(GRADIENT, 0);
    const bottom = await row(GRADIENT, GRADIENT.height - 1);
    expect(new Set(top.keys)).toEqual(new Set([rgb(GRADIENT.background).join(',')]));
    expect(new Set(bottom.keys)).toEqual(new Set([rgb('#d9d4cb').join(',')]));
    expect(new Set((await row(FLOOR, 0)).keys)).toEqual(new Set([rgb(FLOOR.background).join(',')]));
    expect(new Set((await row(FLOOR, FLOOR.height - 1)).keys)).toEqual(new Set([rgb('#a88b68').join(',')]));
  });

  it('makes a texture busy along every border and patterns of many small regions', async () => {
    const edge = await row(TEXTURE, 0);
    expect(new Set(edge.keys).size).toBe(3);
    expect(edge.changes).toBeGreaterThan(50);
    for (const spec of [STRIPES, CHECKS, DOTS]) {
      // A quarter down the image runs through the patterned body of each of these shapes.
      const across = await row(spec, Math.round(spec.height / 4));
      expect([spec.id, across.changes > 12]).toEqual([spec.id, true]);
    }
  });

  it('leaves out the backdrop of a transparent image but keeps its pattern', async () => {
    const { counts } = await histogram(file(GLASS));
    const expected = ['0,0,0,0', ...GLASS.colors.map((hex) => [...rgb(hex), 255].join(','))];
    expect([...counts.keys()].sort()).toEqual(expected.sort());
  });

  it('redraws an image when its backdrop or pattern changes', async () => {
    const list2 = join(dir, 'looks-changed.jsonl');
    await writeFile(list2, jsonl([{ ...GRADIENT, backdrop: { kind: 'floor', colors: ['#8c8c8c'] } }, { ...STRIPES, pattern: 'checks' }, ...SPECS.filter((s) => s !== GRADIENT && s !== STRIPES)]));
    expect(await renderImages(list2, lookDir)).toEqual({ rendered: 2, skipped: SPECS.length - 2 });
  });
});

describe('readImageList', () => {
  it('reads lines without backdrop and pattern (the older form) and rejects a bad backdrop, naming the line', async () => {
    const old = join(dir, 'old.jsonl');
    await writeFile(old, jsonl([VASE, TILE]));
    const images = await readImageList(old);
    expect(images.get(VASE.id)).toEqual(VASE);
    const bad = join(dir, 'bad-backdrop.jsonl');
    await writeFile(bad, `${JSON.stringify(VASE)}\n${JSON.stringify({ ...TILE, backdrop: { kind: 'floor', colors: ['#111111', '#222222'] } })}\n`);
    await expect(readImageList(bad)).rejects.toThrow(/bad-backdrop\.jsonl:2: backdrop/);
    await writeFile(bad, `${JSON.stringify({ ...VASE, pattern: 'paisley' })}\n`);
    await expect(readImageList(bad)).rejects.toThrow(/bad-backdrop\.jsonl:1: pattern/);
  });
});
