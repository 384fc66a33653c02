/**
 * The benchmark collections: N generated objects (seed 1), harvested without image checks into a generation.
 * Built once per size under `.cache/bench-<N>/` (`source/`, `data/`, a `ready` marker) and shared read-only by
 * every benchmark; a lock directory holding the builder's pid keeps two processes from building it twice.
 *
 * Run alone (`npx tsx test/bench/bench-data.ts --objects N`) it builds the collection if missing; run.ts does
 * this before the benchmarks, so that their figures never include the build.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { streamCollection } from '../../src/generator/collection.js';
import { writeCollection } from '../../src/generator/write.js';
import { harvestExport } from '../../src/harvest/harvest.js';
import { SOURCE_FILES, type ObjectRecord } from '../../src/harvest/schema.js';
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
  const lock = `${root}.lock`;
  for (;;) {
    if (existsSync(ready)) return await readReady(root, ready);
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
      const data = await build(root, objects);
      writeFileSync(ready, JSON.stringify({ build: data.build }));
      return data;
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

async function build(root: string, objects: number): Promise<BenchData> {
  rmSync(root, { recursive: true, force: true });
  const sourceDir = join(root, 'source');
  const dataDir = join(root, 'data');
  log(`bench data: generating ${objects} objects into ${sourceDir}`);
  let started = performance.now();
  writeCollection(sourceDir, streamCollection({ objects, seed: BENCH_SEED, iiifBase: IIIF_BASE }));
  const generateSeconds = (performance.now() - started) / 1000;
  log(`bench data: generated in ${generateSeconds.toFixed(1)} s; harvesting`);
  started = performance.now();
  const generation = await createGeneration(dataDir, { source: { kind: 'harvest', path: sourceDir }, baseUrl: BENCH_BASE_URL }, async (out) => ({
    details: { ...(await harvestExport(sourceDir, out, { baseUrl: BENCH_BASE_URL, imageHosts: [], validateImages: false })) },
  }));
  const harvestSeconds = (performance.now() - started) / 1000;
  log(`bench data: harvested in ${harvestSeconds.toFixed(1)} s (${generation.manifest.counts.publicQuads} public quads)`);
  return { root, dataDir, sourceDir, generation, build: { generateSeconds, harvestSeconds, builtAt: new Date().toISOString() } };
}

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

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const data = await benchGeneration(objectsArg());
  log(`bench data ready: ${data.generation.dir}`);
}
