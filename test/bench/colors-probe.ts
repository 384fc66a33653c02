/**
 * `npx tsx test/bench/colors-probe.ts [--images 48] [--pool 2] [--noise 4]`: images/s of colour analysis
 * on generated 1000×800 JPEGs (the accuracy scenes with Gaussian grain of the given σ; more grain makes
 * larger files that decode slower), beside a bare sharp decode-and-resize of the same files (the floor).
 * Prints one table; asserts nothing.
 */
import { availableParallelism } from 'node:os';
import sharp from 'sharp';
import { decodeForAnalysis } from '../../src/colors/decode.js';
import { analyseImage, DEFAULT_ANALYSE_OPTIONS } from '../../src/colors/extract.js';
import { namedColors } from '../../src/colors/named-colors.js';
import { ColorPool } from '../../src/colors/pool.js';
import { renderScene, SCENES } from '../helpers/color-scenes.js';

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

async function rate(label: string, run: () => Promise<unknown>): Promise<{ label: string; perSecond: number }> {
  await run(); // warm-up round
  const started = performance.now();
  await run();
  return { label, perSecond: (images.length / (performance.now() - started)) * 1000 };
}

/** Runs `work` over all images with at most `parallel` in flight. */
async function inFlight(parallel: number, work: (b: Buffer) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < images.length) await work(images[next++] as Buffer);
    }),
  );
}

namedColors();
const rows = [
  await rate('sharp decode+resize, 1 in flight', () => inFlight(1, (b) => decodeForAnalysis(b, DEFAULT_ANALYSE_OPTIONS.maxSize))),
  await rate(`sharp decode+resize, ${poolSize * 2} in flight`, () => inFlight(poolSize * 2, (b) => decodeForAnalysis(b, DEFAULT_ANALYSE_OPTIONS.maxSize))),
  await rate('analyseImage, main thread, 1 in flight', () => inFlight(1, (b) => analyseImage(b))),
  await rate('analyseImage, main thread, 2 in flight', () => inFlight(2, (b) => analyseImage(b))),
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
