import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ColorCache, imageHash } from '../../src/colors/cache.js';
import { analysisKey, type ImageColors } from '../../src/colors/extract.js';

const sample = (analysis = analysisKey()): ImageColors => ({
  analysis,
  width: 200,
  height: 160,
  background: 'border',
  foregroundShare: 0.3,
  colors: [{ hex: '#c08081', lab: { l: 60.13, a: 24.79, b: 9.94 }, share: 1, name: 'Old Rose', nameHex: '#c08081', base: 'pink' }],
});

describe('colour cache: content hash', () => {
  it('is the SHA-256 of the bytes in lower-case hex', () => {
    // FIPS 180-2 test vector for "abc".
    expect(imageHash(Buffer.from('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(imageHash(new Uint8Array([1, 2, 3]))).toBe(imageHash(Buffer.from([1, 2, 3])));
  });
});

describe('colour cache: stored analyses by image hash', () => {
  let dir: string;
  const hash = imageHash(Buffer.from('image one'));

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'color-cache-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('answers undefined for an image it has not seen', async () => {
    const cache = new ColorCache(dir);
    expect(await cache.get(hash)).toBeUndefined();
    expect(cache.stats).toEqual({ hits: 0, misses: 1, unusable: 0, writes: 0 });
  });

  it('returns what was stored, from a file under a two-digit folder, with no temporary file left', async () => {
    const cache = new ColorCache(dir);
    await cache.put(hash, sample());
    expect(await cache.get(hash)).toEqual(sample());
    expect(await readdir(path.join(dir, hash.slice(0, 2)))).toEqual([`${hash}.json`]);
    expect(await new ColorCache(dir).get(hash)).toEqual(sample());
  });

  it('treats a corrupt entry as missing, and the next analysis replaces it', async () => {
    const cache = new ColorCache(dir);
    await cache.put(hash, sample());
    await writeFile(cache.pathOf(hash), '{"hash": "trunc');
    expect(await cache.get(hash)).toBeUndefined();
    let calls = 0;
    const analyse = async () => {
      calls++;
      return sample();
    };
    const fresh = await cache.analyse(Buffer.from('image one'), analyse);
    expect(fresh).toEqual({ hash, colors: sample(), cached: false });
    expect(JSON.parse(await readFile(cache.pathOf(hash), 'utf8'))).toEqual({ hash, colors: sample() });
    expect(calls).toBe(1);
    expect(cache.stats.unusable).toBe(2); // both reads of the corrupt entry
  });

  it('treats an entry of the wrong shape, of another image or of another analysis key as missing', async () => {
    const cache = new ColorCache(dir);
    await cache.put(hash, sample());
    await writeFile(cache.pathOf(hash), JSON.stringify({ hash, colors: { ...sample(), colors: [{ hex: 'red' }] } }));
    expect(await cache.get(hash)).toBeUndefined();
    const other = imageHash(Buffer.from('image two'));
    await cache.put(other, sample());
    await writeFile(cache.pathOf(hash), await readFile(cache.pathOf(other), 'utf8'));
    expect(await cache.get(hash)).toBeUndefined();
    const otherSettings = new ColorCache(dir, analysisKey({ k: 5 }));
    expect(await otherSettings.get(other)).toBeUndefined();
    expect(cache.stats.unusable + otherSettings.stats.unusable).toBe(3);
  });

  it('analyses an image once, then answers from disk', async () => {
    const cache = new ColorCache(dir);
    let calls = 0;
    const analyse = async () => {
      calls++;
      return sample();
    };
    const image = Buffer.from('image one');
    expect((await cache.analyse(image, analyse)).cached).toBe(false);
    expect(await cache.analyse(image, analyse)).toEqual({ hash, colors: sample(), cached: true });
    expect(calls).toBe(1);
    expect((await cache.analyse(Buffer.from('image one, changed'), analyse)).cached).toBe(false);
    expect(calls).toBe(2);
  });

  it('keeps one whole entry when the same image is stored concurrently', async () => {
    const cache = new ColorCache(dir);
    await Promise.all(Array.from({ length: 20 }, () => cache.put(hash, sample())));
    expect(await cache.get(hash)).toEqual(sample());
    expect(await readdir(path.join(dir, hash.slice(0, 2)))).toEqual([`${hash}.json`]);
  });

  it('refuses a key that is not a SHA-256 digest and results of another analysis key', async () => {
    const cache = new ColorCache(dir);
    expect(() => cache.pathOf('../../etc/passwd')).toThrow(/not a SHA-256/);
    await expect(cache.put(hash, sample('colors/0 other'))).rejects.toThrow(/analysis key/);
  });
});
