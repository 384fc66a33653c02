import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { renderImages } from '../../src/iiif/render.js';
import { renderedImagePath } from '../../src/iiif/rendered-files.js';
import type { ImageSpec } from '../../src/iiif/image-list.js';

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
    const generic = join(dir, 'generic');
    const list2 = join(dir, 'generic.jsonl');
    await writeFile(list2, jsonl([{ ...TEAPOT, shape: 'generic' }]));
    await renderImages(list2, generic);
    const [a, b] = await Promise.all([renderedImagePath(out, TEAPOT.id), renderedImagePath(generic, TEAPOT.id)].map((f) => sharp(f).raw().toBuffer()));
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
