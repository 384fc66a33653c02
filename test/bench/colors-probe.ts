/**
 * `npx tsx test/bench/colors-probe.ts [--images 48] [--pool 2] [--noise 4]`: images/s of colour analysis
 * on generated 1000×800 JPEGs (the accuracy scenes with Gaussian grain of the given σ; more grain makes
 * larger files that decode slower), beside a bare sharp decode-and-resize of the same files (the floor).
 * Prints one table; asserts nothing. `inFlight` and `imageRate` are shared with colors.ts (the same figures
 * on the demo images).
 */
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { decodeForAnalysis } from '../../src/colors/decode.js';
import { analyseImage, DEFAULT_ANALYSE_OPTIONS } from '../../src/colors/extract.js';
import { namedColors } from '../../src/colors/named-colors.js';
import { ColorPool } from '../../src/colors/pool.js';
import { renderScene, SCENES } from '../helpers/color-scenes.js';

/** Runs `work` over all `images` with at most `parallel` in flight. */
export async function inFlight<T>(images: readonly T[], parallel: number, work: (image: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < images.length) await work(images[next++] as T);
    }),
  );
}

/**
 * Images/s of `run` (one pass over `count` images): one warm-up pass, then `rounds` timed passes; the median
 * rate of the timed passes (one pass unless asked).
 */
export async function imageRate(count: number, label: string, run: () => Promise<unknown>, rounds = 1): Promise<{ label: string; perSecond: number }> {
  await run(); // warm-up round
  const rates: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const started = performance.now();
    await run();
    rates.push((count / (performance.now() - started)) * 1000);
  }
  rates.sort((a, b) => a - b);
  return { label, perSecond: rates[Math.floor((rates.length - 1) / 2)] as number };
}

async function main(): Promise<void> {
  const arg = (name: string, fallback: number): number => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? Number(process.argv[i + 1]) : fallback;
  };
  const count = arg('images', 48);
  const poolSize = arg('pool', availableParallelism());
  const grain = arg('noise', 4);

  const images: Buffer[] = [];
  for (let k = 0; k < count; k++) {
    const base = SCENES[k % SCENES.length] as (typeof SCENES)[number];
    if (base.background.kind === 'transparent') continue;
    images.push((await renderScene({ ...base, noise: Math.max(base.noise ?? 0, grain), seed: k + 1 })).image);
  }
  const megabytes = images.reduce((s, b) => s + b.length, 0) / images.length / 1e6;

  const rate = (label: string, run: () => Promise<unknown>): Promise<{ label: string; perSecond: number }> => imageRate(images.length, label, run);

  namedColors();
  const rows = [
    await rate('sharp decode+resize, 1 in flight', () => inFlight(images, 1, (b) => decodeForAnalysis(b, DEFAULT_ANALYSE_OPTIONS.maxSize))),
    await rate(`sharp decode+resize, ${poolSize * 2} in flight`, () => inFlight(images, poolSize * 2, (b) => decodeForAnalysis(b, DEFAULT_ANALYSE_OPTIONS.maxSize))),
    await rate('analyseImage, main thread, 1 in flight', () => inFlight(images, 1, (b) => analyseImage(b))),
    await rate('analyseImage, main thread, 2 in flight', () => inFlight(images, 2, (b) => analyseImage(b))),
  ];
  for (const perWorker of [1, 2]) {
    const pool = new ColorPool({ size: poolSize, perWorker });
    await Promise.all(images.slice(0, poolSize * 2).map((b) => pool.analyse(b))); // start-up and warm-up
    rows.push(await rate(`ColorPool size ${poolSize}, perWorker ${perWorker}`, () => Promise.all(images.map((b) => pool.analyse(b)))));
    await pool.close();
  }

  console.log(`${images.length} JPEGs 1000x800, grain σ ${grain}, mean ${megabytes.toFixed(2)} MB; cores ${availableParallelism()}; sharp concurrency ${sharp.concurrency()}; analysed at ${DEFAULT_ANALYSE_OPTIONS.maxSize} px`);
  const floor = rows[0]?.perSecond ?? 1;
  for (const { label, perSecond } of rows) console.log(`${label.padEnd(44)} ${perSecond.toFixed(1).padStart(7)} images/s  ${(perSecond / floor).toFixed(2)}x of 1-in-flight decode`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
