import { availableParallelism } from 'node:os';
import { analyseImage } from '../../src/colors/extract.js';
import { ColorAnalysisError, ColorPool } from '../../src/colors/pool.js';
import { renderScene, SCENES } from '../helpers/color-scenes.js';

describe('colour worker pool', () => {
  let images: Buffer[];
  let pool: ColorPool;

  beforeAll(async () => {
    images = await Promise.all(SCENES.slice(0, 4).map(async (s) => (await renderScene(s)).image));
    pool = new ColorPool({ size: 2 });
  });
  afterAll(async () => {
    await pool.close();
  });

  it('gives the same results as analysis in this thread, for images sent at once', async () => {
    const fromPool = await Promise.all([...images, ...images].map((b) => pool.analyse(b)));
    const here: unknown[] = [];
    for (const b of images) here.push(await analyseImage(b));
    expect(fromPool).toEqual([...here, ...here]);
  });

  it('rejects an undecodable image with a clear message and keeps working', async () => {
    const bad = pool.analyse(Buffer.from('this is not an image'));
    await expect(bad).rejects.toThrow(ColorAnalysisError);
    await expect(pool.analyse(Buffer.from('this is not an image'))).rejects.toThrow(/^cannot decode image: Input buffer contains unsupported image format/);
    await expect(pool.analyse(images[0] as Buffer)).resolves.toMatchObject({ background: 'border' });
  });

  it('uses every core by default and refuses a size that is not a positive integer', async () => {
    const defaults = new ColorPool({ size: undefined, perWorker: 1 });
    expect(defaults.size).toBe(availableParallelism());
    await defaults.close();
    expect(() => new ColorPool({ size: 0 })).toThrow(RangeError);
    expect(() => new ColorPool({ analyse: { k: 0 } })).toThrow(RangeError);
  });

  it('finishes queued images on close, then refuses new ones', async () => {
    const small = new ColorPool({ size: 1 });
    const pending = images.map((b) => small.analyse(b));
    const closed = small.close();
    await expect(Promise.all(pending)).resolves.toHaveLength(images.length);
    await closed;
    await expect(small.analyse(images[0] as Buffer)).rejects.toThrow(/closed/);
  });
});
