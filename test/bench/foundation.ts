/**
 * Benchmark of the data foundation (issue 4) for one collection size (`--objects N`):
 *   1. time from this process's start to a ready generation (StoreManager.start on the cached bench
 *      generation) and RSS after the store worker has loaded it — first, so that nothing else is in memory;
 *   2. generate and harvest the same collection afresh into a scratch folder;
 *   3. raw `store.load` of the harvest's N-Quads (in a worker thread, ended afterwards) as the baseline of
 *      harvest, load and start-up;
 *   4. `npm run load`'s path (loadNQuadsFile) on the same N-Quads file; 5. dump (dumpCurrent).
 * Figures only; nothing is asserted. Run through run.ts, or alone: npx tsx test/bench/foundation.ts --objects N
 */
import { createReadStream, createWriteStream, mkdirSync, rmSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { collectionSizes, streamCollection } from '../../src/generator/collection.js';
import { writeCollection } from '../../src/generator/write.js';
import { harvestExport } from '../../src/harvest/harvest.js';
import { dumpCurrent } from '../../src/store/dump.js';
import { createGeneration, generationFiles, type Generation } from '../../src/store/generations.js';
import { loadNQuadsFile } from '../../src/store/load.js';
import { StoreManager } from '../../src/store/store-manager.js';
import { startTsWorker } from '../../src/threads/ts-worker.js';
import { BENCH_BASE_URL, BENCH_SEED, benchGeneration } from './bench-data.js';
import type { RawLoadReply, RawLoadRequest } from './raw-load-worker.js';
import { emitResult, log, objectsArg, rssMiB, type BenchRow } from './report.js';
import { KIND_NAMES } from '../../src/kinds/index.js';

const objects = objectsArg();
const startedAt = new Date().toISOString();
const rows: BenchRow[] = [];
const details: Record<string, unknown> = { loadavgAtStart: loadavg(), pid: process.pid };
const seconds = (ms: number): number => ms / 1000;

/** Runs one step; a failure becomes a row note and the benchmark goes on with the next step. */
async function step<T>(name: string, run: () => Promise<T>): Promise<T | undefined> {
  log(`${name}…`);
  try {
    return await run();
  } catch (err) {
    const message = (err as Error).message ?? String(err);
    log(`${name} FAILED: ${message}`);
    rows.push({ figure: name, value: NaN, unit: '', note: `failed: ${message.slice(0, 300)}` });
    return undefined;
  }
}

async function rawLoad(request: RawLoadRequest): Promise<{ ms: number; quads: number; rssMiB: number }> {
  const worker = startTsWorker<RawLoadRequest>(new URL('./raw-load-worker.ts', import.meta.url), request);
  try {
    const reply = await new Promise<RawLoadReply>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`raw load worker exited with code ${code}`)));
    });
    if (!reply.ok) {
      throw new Error(`${reply.message} after ${(reply.ms / 1000).toFixed(1)} s and ${reply.lines} N-Quads lines fed; process RSS ${reply.rssMiB.toFixed(0)} MiB`);
    }
    return reply;
  } finally {
    await worker.terminate();
  }
}

// 1. Start-up: the cached generation (built by run.ts before this process) served by a store worker.
const dataStarted = performance.now();
const data = await benchGeneration(objects);
const buildMs = performance.now() - dataStarted;
const generation = data.generation;
const quadsInGeneration = generation.manifest.counts.publicQuads + generation.manifest.counts.nonPublicQuads;
details.generation = { dir: generation.dir, counts: generation.manifest.counts, bytes: generation.manifest.bytes };
const rssBefore = rssMiB();
// Normally run.ts has built the data beforehand; reading the cached generation takes milliseconds.
const builtHere = buildMs > 2000;
await step('start to ready generation', async () => {
  const manager = new StoreManager({ includeNonPublic: true });
  const manifest = await manager.start(generation.dir);
  const readyMs = performance.now();
  const rssAfter = rssMiB();
  const count = await manager.query('SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }');
  await manager.close();
  const goal = objects >= 100_000 ? '≤ 40 s at 100k' : undefined;
  rows.push({
    figure: 'start to ready generation',
    value: seconds(readyMs),
    unit: 's',
    goal,
    met: goal ? seconds(readyMs) <= 40 : undefined,
    note: `from process start (tsx start-up included) to StoreManager.start resolved; ${manifest.counts.publicQuads + manifest.counts.nonPublicQuads} quads${builtHere ? '; INCLUDES building the bench data' : ''}`,
  });
  rows.push({ figure: 'RSS after load (store worker)', value: rssAfter, unit: 'MiB', note: `whole process; ${rssBefore.toFixed(0)} MiB before the worker started` });
  details.readyCountCheck = count.length < 200 ? count : `${count.slice(0, 200)}…`;
});

// 2. Generate and harvest afresh, into scratch (byte-identical to the cached export).
const scratch = join(data.root, 'scratch');
rmSync(scratch, { recursive: true, force: true });
mkdirSync(scratch, { recursive: true });
const sizes = collectionSizes(objects);
const records = sizes.objects + sizes.agents + sizes.exhibitions + sizes.concepts;
details.records = { ...sizes, total: records };
const sourceDir = join(scratch, 'source');
await step('generate', async () => {
  const started = performance.now();
  writeCollection(sourceDir, streamCollection({ objects, seed: BENCH_SEED, iiifBase: 'http://localhost:3000' }));
  const ms = performance.now() - started;
  rows.push({ figure: 'generate', value: seconds(ms), unit: 's', note: `${records} records (${Math.round(records / seconds(ms))} records/s)` });
});

let harvestMs = NaN;
const harvested: Generation | undefined = await step('harvest', async () => {
  const started = performance.now();
  const g = await createGeneration(join(scratch, 'harvest-data'), { source: { kind: 'harvest', path: sourceDir }, baseUrl: BENCH_BASE_URL, kinds: KIND_NAMES }, async (out) => ({
    details: { ...(await harvestExport(sourceDir, out, { baseUrl: BENCH_BASE_URL, imageHosts: [], validateImages: false })) },
  }));
  harvestMs = performance.now() - started;
  return g;
});

// 3. The harvest's quads as one plain N-Quads file: the input of the raw load and of loadNQuadsFile.
const allNq = join(scratch, 'all.nq');
let inputQuads = 0;
if (harvested) {
  const files = generationFiles(harvested.dir);
  await step('gunzip harvest output', async () => {
    async function* both(): AsyncGenerator<Buffer> {
      for (const file of [files.public, files.nonPublic]) yield* createReadStream(file).pipe(createGunzip()) as AsyncIterable<Buffer>;
    }
    await pipeline(Readable.from(both()), createWriteStream(allNq));
    inputQuads = harvested.manifest.counts.publicQuads + harvested.manifest.counts.nonPublicQuads;
    details.inputFile = { bytes: statSync(allNq).size, quads: inputQuads };
  });
}

const raw = await step('raw store.load (plain .nq)', () => rawLoad({ files: [allNq], via: 'plain' }));
if (raw) {
  rows.push({
    figure: 'raw store.load, plain .nq',
    value: raw.quads / seconds(raw.ms),
    unit: 'quads/s',
    note: `${seconds(raw.ms).toFixed(1)} s for ${raw.quads} quads, lenient; process RSS ${raw.rssMiB.toFixed(0)} MiB with it loaded`,
  });
}
if (harvested) {
  const perSecond = records / seconds(harvestMs);
  rows.push({
    figure: 'harvest (records/s)',
    value: perSecond,
    unit: 'records/s',
    baselineName: 'raw store.load of its output',
    baseline: raw ? records / seconds(raw.ms) : undefined,
    ratio: raw ? harvestMs / raw.ms : undefined,
    goal: '≥ 2,000 records/s',
    met: perSecond >= 2000,
    note: `${seconds(harvestMs).toFixed(1)} s incl. gzip and read-back check (${Math.round(inputQuads / seconds(harvestMs))} quads/s); baseline = records / raw load time of the same quads`,
  });
}

const rawGz = await step('raw store.load (generation .gz via reader thread)', () =>
  rawLoad({ files: [generationFiles(generation.dir).public, generationFiles(generation.dir).nonPublic], via: 'feed' }),
);
if (rawGz) {
  rows.push({
    figure: 'raw store.load, generation .nq.gz',
    value: rawGz.quads / seconds(rawGz.ms),
    unit: 'quads/s',
    note: `${seconds(rawGz.ms).toFixed(1)} s: what a store worker does at start (gunzip in a reader thread)`,
  });
  const ready = rows.find((r) => r.figure === 'start to ready generation');
  if (ready && Number.isFinite(ready.value)) {
    ready.baselineName = 'raw load of its .gz';
    ready.baseline = seconds(rawGz.ms);
    ready.ratio = ready.value / seconds(rawGz.ms);
  }
}

// 4. `npm run load` path on the same file.
const loadDir = join(scratch, 'load-data');
const loaded = await step('load (loadNQuadsFile)', async () => {
  const started = performance.now();
  const g = await loadNQuadsFile(loadDir, allNq, { kinds: KIND_NAMES });
  const ms = performance.now() - started;
  const quads = g.manifest.counts.publicQuads + g.manifest.counts.nonPublicQuads;
  const goal = 'within 1.25× of raw store.load';
  rows.push({
    figure: 'load (npm run load path)',
    value: quads / seconds(ms),
    unit: 'quads/s',
    baselineName: 'raw store.load',
    baseline: raw ? raw.quads / seconds(raw.ms) : undefined,
    ratio: raw ? ms / raw.ms : undefined,
    goal,
    met: raw ? ms / raw.ms <= 1.25 : undefined,
    note: `${seconds(ms).toFixed(1)} s for ${quads} quads (two passes over the file, split, gzip, read-back check); ratio = time / raw time`,
  });
  return g;
});

// 5. Dumps of the loaded generation.
if (loaded) {
  const publicQuads = loaded.manifest.counts.publicQuads;
  for (const [name, file] of [
    ['dump .nq.gz', join(scratch, 'dump.nq.gz')],
    ['dump .nq', join(scratch, 'dump.nq')],
  ] as const) {
    await step(name, async () => {
      const started = performance.now();
      await dumpCurrent(loadDir, file);
      const ms = performance.now() - started;
      rows.push({
        figure: name,
        value: publicQuads / seconds(ms),
        unit: 'quads/s',
        note: `${seconds(ms).toFixed(2)} s, ${(statSync(file).size / 2 ** 20).toFixed(0)} MiB${name.endsWith('.gz') ? ' (the stored gzip copied as is)' : ' (gunzipped on the way)'}`,
      });
    });
  }
}

details.loadavgAtEnd = loadavg();
details.quadsInGeneration = quadsInGeneration;
rmSync(scratch, { recursive: true, force: true });
emitResult({ benchmark: 'foundation', objects, startedAt, seconds: performance.now() / 1000, rows, details });
