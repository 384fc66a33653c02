/**
 * The benchmark collections: N generated objects (seed 1), harvested without image checks into a generation.
 * Built once per size under `.cache/bench-<N>/` (`source/`, `data/`, a `ready` marker) and shared read-only by
 * every benchmark; a lock directory holding the builder's pid keeps two processes from building it twice.
 *
 * The colour variant (`benchColorGeneration`, for colors.ts) is the same source export harvested as the demo is:
 * with image validation and colour analysis. The bench generator already gives its objects the demo's image
 * pool (the same images.jsonl as the demo collection of seed 1: at most 300 distinct images, picked per object by
 * the generator's seeded rules), so the variant renders those images (`.cache/bench-images/`, shared by every
 * size), serves them with the real IIIF router on 127.0.0.1, and runs the real harvest against it: each distinct
 * image is HEAD-checked, fetched as the harvest fetches it (`full/max` JPEG), analysed once, and every object
 * showing it gets its colour statements. Only the host differs: the records name `http://localhost:3000/iiif/…`,
 * so during the build `fetch` sends those URLs to the router's port (a port-3000 server could not be relied
 * on). As in the demo, images the router refuses (restricted 403, missing 404) are dropped from the records.
 * Kept in `.cache/bench-<N>-colors/` (`data/`, `color-cache/`) beside the plain collection, which stays as it
 * was, so the other benchmarks' figures stay comparable with earlier runs. Its `ready` marker names
 * COLOR_VARIANT_VERSION and a hash of the code the colour statements come from (src/colors, src/harvest,
 * src/iiif): a variant built by other code is rebuilt, colour cache included.
 *
 * Run alone (`npx tsx test/bench/bench-data.ts --objects N [--colors | --source-only]`) it builds the collection
 * (and with `--colors` its colour variant; with `--source-only` the source export alone) if missing; run.ts does
 * this before the benchmarks, so that their figures never include the build.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { pino } from 'pino';
import { streamCollection } from '../../src/generator/collection.js';
import { writeCollection } from '../../src/generator/write.js';
import { writeGenerationIndex } from '../../src/engine/generation-index.js';
import { harvestExport, type HarvestReport } from '../../src/harvest/harvest.js';
import { IMAGES_FILE, SOURCE_FILES, type ObjectRecord } from '../../src/harvest/schema.js';
import { errorHandler } from '../../src/endpoints/error-handler.js';
import { renderImages } from '../../src/iiif/render.js';
import { createIiifRouter } from '../../src/iiif/router.js';
import { KIND_NAMES, KINDS } from '../../src/kinds/index.js';
import { createGeneration, currentGeneration, type Generation } from '../../src/store/generations.js';
import { log, objectsArg } from './report.js';

export const BENCH_SEED = 1;
/** Record IRIs of every benchmark generation; the benchmark apps use it as BASE_URL whatever port they use. */
export const BENCH_BASE_URL = 'http://localhost:3000';
const IIIF_BASE = 'http://localhost:3000';

export interface BenchData {
  root: string;
  dataDir: string;
  sourceDir: string;
  generation: Generation;
  /** How long the build took when it happened (seconds), for the record. */
  build: { generateSeconds: number; harvestSeconds: number; builtAt: string };
}

const CACHE = fileURLToPath(new URL('../../.cache/', import.meta.url));
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Folder of the benchmark collection of `objects` objects. */
export const benchRoot = (objects: number): string => join(CACHE, `bench-${objects}`);

/** The benchmark collection of `objects` objects, built on first use. */
export async function benchGeneration(objects: number): Promise<BenchData> {
  const root = benchRoot(objects);
  const ready = join(root, 'ready');
  await builtOnce(root, () => existsSync(ready), async () => {
    const data = await build(root, objects);
    writeFileSync(ready, JSON.stringify({ build: data.build }));
  });
  return await readReady(root, ready);
}

/**
 * Runs `build` unless `isReady()`, under a lock directory `<root>.lock` holding the builder's pid, so that two
 * processes never build the same folder; a process that finds the lock taken waits for it (or takes it over
 * from a dead holder) and checks again.
 */
async function builtOnce(root: string, isReady: () => boolean, build: () => Promise<void>): Promise<void> {
  const lock = `${root}.lock`;
  for (;;) {
    if (isReady()) return;
    mkdirSync(CACHE, { recursive: true });
    try {
      mkdirSync(lock);
    } catch {
      if (!lockHolderAlive(lock)) rmSync(lock, { recursive: true, force: true });
      await sleep(1000);
      continue;
    }
    try {
      writeFileSync(join(lock, 'pid'), String(process.pid));
      if (!isReady()) await build();
      return;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

/** A lock whose pid file is missing (just created) counts as alive; one naming a dead process does not. */
function lockHolderAlive(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
  } catch {
    return true;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readReady(root: string, ready: string): Promise<BenchData> {
  const { build: built } = JSON.parse(readFileSync(ready, 'utf8')) as Pick<BenchData, 'build'>;
  const dataDir = join(root, 'data');
  const generation = await currentGeneration(dataDir);
  if (!generation) throw new Error(`${dataDir} has no generation although ${ready} exists; delete ${root}`);
  return { root, dataDir, sourceDir: join(root, 'source'), generation, build: built };
}

/** Marker of a source export built alone ({@link benchSource}): the seconds its generation took. */
const sourceMarker = (root: string): string => join(root, 'source-ready');

/**
 * The source export of `objects` objects alone, built on first use (or taken from the full collection's folder):
 * for the to-ready benchmark (ready.ts), which harvests it itself and never needs the bench generation, whose
 * build alone takes most of an hour at a million objects.
 */
export async function benchSource(objects: number): Promise<string> {
  const root = benchRoot(objects);
  await builtOnce(root, () => existsSync(sourceMarker(root)) || existsSync(join(root, 'ready')), async () => {
    rmSync(root, { recursive: true, force: true });
    await generateSource(root, objects);
  });
  return join(root, 'source');
}

/** Writes the source export under `root/source` and its marker; the seconds it took. */
async function generateSource(root: string, objects: number): Promise<number> {
  const sourceDir = join(root, 'source');
  log(`bench data: generating ${objects} objects into ${sourceDir}`);
  const started = performance.now();
  writeCollection(sourceDir, streamCollection({ objects, seed: BENCH_SEED, iiifBase: IIIF_BASE }));
  const generateSeconds = (performance.now() - started) / 1000;
  writeFileSync(sourceMarker(root), JSON.stringify({ generateSeconds }));
  log(`bench data: generated in ${generateSeconds.toFixed(1)} s`);
  return generateSeconds;
}

async function build(root: string, objects: number): Promise<BenchData> {
  const sourceDir = join(root, 'source');
  const dataDir = join(root, 'data');
  // A source export built alone is kept: the generation is harvested from it.
  let generateSeconds: number;
  if (existsSync(sourceMarker(root))) {
    generateSeconds = (JSON.parse(readFileSync(sourceMarker(root), 'utf8')) as { generateSeconds: number }).generateSeconds;
    rmSync(dataDir, { recursive: true, force: true });
  } else {
    rmSync(root, { recursive: true, force: true });
    generateSeconds = await generateSource(root, objects);
  }
  log('bench data: harvesting');
  let started = performance.now();
  const generation = await createGeneration(dataDir, { source: { kind: 'harvest', path: sourceDir }, baseUrl: BENCH_BASE_URL, kinds: KIND_NAMES }, async (out) => ({
    details: { ...(await harvestExport(sourceDir, out, { baseUrl: BENCH_BASE_URL, imageHosts: [], validateImages: false })) },
  }));
  const harvestSeconds = (performance.now() - started) / 1000;
  log(`bench data: harvested in ${harvestSeconds.toFixed(1)} s (${generation.manifest.counts.publicQuads} public quads)`);
  // The stored index, as `npm run harvest` writes it: without it every service started on the bench data builds
  // its collection indexes from the store (minutes on a server at 250k objects; impossible past the embedded limit).
  started = performance.now();
  const stored = await writeGenerationIndex(generation, { baseUrl: BENCH_BASE_URL, kinds: KINDS });
  log(`bench data: stored index written in ${((performance.now() - started) / 1000).toFixed(1)} s (${stored.answers} answers)`);
  return { root, dataDir, sourceDir, generation, build: { generateSeconds, harvestSeconds, builtAt: new Date().toISOString() } };
}

// ---------------------------------------------------------------- the colour variant

/** Bump when the colour variant is built differently: a `ready` marker with another version is rebuilt. */
export const COLOR_VARIANT_VERSION = 1;

/** Hash of the sources the colour statements depend on (a base-colour rule can change without a new analysis key). */
function colorCodeHash(): string {
  const hash = createHash('sha256');
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) hash.update(entry.name).update(readFileSync(path));
    }
  };
  for (const dir of ['colors', 'harvest', 'iiif']) walk(fileURLToPath(new URL(`../../src/${dir}`, import.meta.url)));
  return hash.digest('hex').slice(0, 16);
}

/** Rendered images of the bench image pool (the demo's), shared by every size: renderImages only draws what changed. */
export const BENCH_IMAGE_DIR = join(CACHE, 'bench-images');

export interface BenchColorData extends BenchData {
  /** The colour cache the variant's harvest filled (by image content). */
  colorCacheDir: string;
  /** The variant's harvest report: image checks and colour analysis counts. */
  harvest: HarvestReport;
}

/** Folder of the colour variant of the benchmark collection of `objects` objects. */
export const benchColorRoot = (objects: number): string => join(CACHE, `bench-${objects}-colors`);

/**
 * The bench image pool rendered to `BENCH_IMAGE_DIR` and served by the real IIIF router on a free port of
 * 127.0.0.1 (with the app's error handler, so refusals answer 403/404 as in the service). `close` stops it.
 */
export async function serveBenchImages(sourceDir: string): Promise<{ origin: string; imageDir: string; rendered: number; close: () => Promise<void> }> {
  const { rendered } = await renderImages(join(sourceDir, IMAGES_FILE), BENCH_IMAGE_DIR);
  const app = express();
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  app.use('/iiif', createIiifRouter({ imageDir: BENCH_IMAGE_DIR, sourceDir, baseUrl: origin }));
  app.use(errorHandler(pino({ level: 'silent' })));
  const close = (): Promise<void> => new Promise((resolve) => server.close(() => resolve()));
  return { origin, imageDir: BENCH_IMAGE_DIR, rendered, close };
}

/** The colour variant of the benchmark collection of `objects` objects (see the header), built on first use. */
export async function benchColorGeneration(objects: number): Promise<BenchColorData> {
  const plain = await benchGeneration(objects);
  const root = benchColorRoot(objects);
  const ready = join(root, 'ready');
  const code = colorCodeHash();
  const current = (): boolean => {
    if (!existsSync(ready)) return false;
    const marker = JSON.parse(readFileSync(ready, 'utf8')) as { version?: number; code?: string };
    return marker.version === COLOR_VARIANT_VERSION && marker.code === code;
  };
  await builtOnce(root, current, async () => {
    const built = await buildColors(root, plain.sourceDir);
    writeFileSync(ready, JSON.stringify({ version: COLOR_VARIANT_VERSION, code, ...built }));
  });
  const { build: built, harvest } = JSON.parse(readFileSync(ready, 'utf8')) as Pick<BenchColorData, 'build' | 'harvest'>;
  const dataDir = join(root, 'data');
  const generation = await currentGeneration(dataDir);
  if (!generation) throw new Error(`${dataDir} has no generation although ${ready} exists; delete ${root}`);
  return { root, dataDir, sourceDir: plain.sourceDir, generation, build: built, colorCacheDir: join(root, 'color-cache'), harvest };
}

async function buildColors(root: string, sourceDir: string): Promise<Pick<BenchColorData, 'build' | 'harvest'>> {
  rmSync(root, { recursive: true, force: true });
  const dataDir = join(root, 'data');
  let started = performance.now();
  log(`bench data: rendering the image pool into ${BENCH_IMAGE_DIR}`);
  const images = await serveBenchImages(sourceDir);
  // `generateSeconds` of the variant: rendering the image pool (the source export is the plain collection's).
  const generateSeconds = (performance.now() - started) / 1000;
  log(`bench data: ${images.rendered} images rendered in ${generateSeconds.toFixed(1)} s; harvesting with colours`);
  // The records name the images at IIIF_BASE; during the build, fetch takes those URLs to the router's port.
  const original = globalThis.fetch;
  const redirected = `${IIIF_BASE}/iiif/`;
  globalThis.fetch = (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    return original(url.startsWith(redirected) ? `${images.origin}/iiif/${url.slice(redirected.length)}` : input, init);
  };
  started = performance.now();
  let harvest: HarvestReport | undefined;
  try {
    const generation = await createGeneration(dataDir, { source: { kind: 'harvest', path: sourceDir }, baseUrl: BENCH_BASE_URL, kinds: KIND_NAMES }, async (out) => {
      harvest = await harvestExport(sourceDir, out, { baseUrl: BENCH_BASE_URL, imageHosts: [new URL(IIIF_BASE).host], colors: { cacheDir: join(root, 'color-cache') } });
      return { details: { ...harvest } };
    });
    log(`bench data: colour variant harvested in ${((performance.now() - started) / 1000).toFixed(1)} s (${generation.manifest.counts.publicQuads} public quads; colours ${JSON.stringify(harvest?.colors)})`);
  } finally {
    globalThis.fetch = original;
    await images.close();
  }
  const harvestSeconds = (performance.now() - started) / 1000;
  return { build: { generateSeconds, harvestSeconds, builtAt: new Date().toISOString() }, harvest: harvest! };
}

// ---------------------------------------------------------------- helpers of the benchmarks

/** Object numbers of the export that the service answers with 200 (public, healthy, current). */
export function servablePids(sourceDir: string): string[] {
  const pids: string[] = [];
  for (const line of readFileSync(join(sourceDir, SOURCE_FILES.objects), 'utf8').split('\n')) {
    if (line === '') continue;
    const o = JSON.parse(line) as ObjectRecord;
    if (o.public && o.healthy && o.state.kind === 'current') pids.push(o.objectNumber);
  }
  return pids;
}

/** `count` distinct items of `items`, picked by a seeded generator (the same run after run). */
export function samplePids(items: string[], count: number, seed = 42): string[] {
  let state = seed >>> 0 || 1;
  const next = (): number => {
    // xorshift32: enough to scatter picks over the collection.
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 2 ** 32;
  };
  const pool = [...items];
  const picked: string[] = [];
  for (let i = 0; i < Math.min(count, pool.length); i++) {
    const j = i + Math.floor(next() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j] as string, pool[i] as string];
    picked.push(pool[i] as string);
  }
  return picked;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1] && process.argv.includes('--source-only')) {
  log(`bench source export ready: ${await benchSource(objectsArg())}`);
} else if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const data = await benchGeneration(objectsArg());
  log(`bench data ready: ${data.generation.dir}`);
  if (process.argv.includes('--colors')) {
    const colors = await benchColorGeneration(objectsArg());
    log(`bench colour variant ready: ${colors.generation.dir}`);
  }
}
