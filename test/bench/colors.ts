/**
 * Benchmark of colour extraction and the colour index endpoints for one collection size (`--objects N`), each
 * figure beside a baseline measured in the same run.
 *
 * Images: the demo's own. The bench generator gives its objects the demo image pool (the same images.jsonl as
 * the demo collection of seed 1: 300 images, of which the IIIF server answers the "ok" ones), rendered once into
 * `.cache/bench-images/` and served by the real IIIF router on 127.0.0.1 (bench-data.ts, `serveBenchImages`).
 * Every image is fetched once as the harvest fetches it (`full/max/0/default.jpg`, a JPEG the router transcodes
 * from the rendered PNG); those bytes are what is analysed below.
 *
 *   1. Extraction throughput (images/s, median of 3 timed passes after a warm-up pass): bare sharp decode+resize
 *      to the analysis size (`decodeForAnalysis`, the baseline) at 1, 2 and 4 images in flight; `analyseImage`
 *      in this thread at 1 and 2 in flight; `ColorPool` with 2 workers (default perWorker 2, started and warmed
 *      before timing), and a new pool's first pass in seconds (start-up and cold JIT included, as a harvest
 *      pays them). `inFlight`/`imageRate` are colors-probe.ts's.
 *   2. The harvest's colour step, `analyseImageColors` (poolSize 2), over the same images served from memory by
 *      a bare HTTP server (fetch, hash, cache lookup, analysis, cache write): cold (a new empty ColorCache each
 *      pass, so it includes the pool's start-up, as a harvest does) beside the bare decode of the same images
 *      (the note gives a new ColorPool's first pass, to show what the step adds to the pool), then warm (every
 *      image already in the cache: no pool, no decode) beside the cold pass. Once more through the IIIF router,
 *      as the demo harvest runs (each fetch is a full-size transcode), beside fetching alone.
 *   3. HTTP latency of `/v2/id/colors` and `/v2/id/colors/dominant` at the bench size: the real app on a real
 *      port, client in its own process, one keep-alive connection (as indexes.ts): first touch (the first
 *      request of the generation for that document; the objects collection index is built by an earlier
 *      request, reported on its own) and warm p50/p99 over 300 requests, beside GET /healthz in the same process.
 *      The dominant rows' notes add the in-process cost of ranking that many postings (the route sorts a colour's
 *      postings on every request), on synthetic values.
 *
 * Colour data: the plain bench collection has none (it is harvested without image checks, so without colour
 * analysis). Part 3 therefore runs on its colour variant (bench-data.ts, `benchColorGeneration`): the same
 * source export harvested as the demo is, with image validation and colour analysis against the IIIF router
 * serving these images, so every object's colour statements are the real analysis of the images the generator
 * gave it (failed images dropped, as in the demo). It is built once per size under `.cache/bench-<N>-colors/`
 * (run.ts builds it before this module); the plain collection, and so every other module's data, is unchanged.
 * Caveat: a pool of 300 images bounds the distinct tones, so `/v2/id/colors` lists fewer tones than a real
 * collection of N objects with N distinct images would; counts and dominance postings do grow with N.
 *
 * Figures only; nothing is asserted. `npm run bench -- --only colors --objects 10000`, or alone:
 * npx tsx test/bench/colors.ts --objects N
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { AppContext } from '../../src/engine/app-context.js';
import { createApp } from '../../src/app.js';
import { decodeForAnalysis } from '../../src/colors/decode.js';
import { analyseImage, DEFAULT_ANALYSE_OPTIONS } from '../../src/colors/extract.js';
import { namedColors } from '../../src/colors/named-colors.js';
import { ColorPool } from '../../src/colors/pool.js';
import { loadConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/config/logger.js';
import { analyseImageColors, type ColorAnalysisResult } from '../../src/harvest/image-colors.js';
import { IMAGES_FILE } from '../../src/harvest/schema.js';
import { Metrics } from '../../src/http/metrics.js';
import { listen } from '../../src/http/server-lifecycle.js';
import { readImageList } from '../../src/iiif/image-list.js';
import { imageServiceUrl, imageUrls } from '../../src/iiif/urls.js';
import { QueryLibrary } from '../../src/queries/library.js';
import { StoreManager } from '../../src/store/store-manager.js';
import { Iris } from '../../src/vocab/iris.js';
import { BENCH_BASE_URL, benchColorGeneration, serveBenchImages } from './bench-data.js';
import { imageRate, inFlight } from './colors-probe.js';
import type { SequentialResult } from './http-load.js';
import { runLoadClient } from './load-client.js';
import { emitResult, log, objectsArg, quantile, type BenchResult, type BenchRow } from './report.js';
import { KIND_NAMES } from '../../src/kinds/index.js';

const objects = objectsArg();
const startedAt = new Date().toISOString();
const ROUNDS = 3;
const POOL = 2;
const SEQUENTIAL = 300;
const FETCH_CONCURRENCY = 8; // analyseImageColors' default
const rows: BenchRow[] = [];
const details: Record<string, unknown> = { loadavgAtStart: loadavg(), cores: availableParallelism(), sharpConcurrency: sharp.concurrency(), rounds: ROUNDS, pool: POOL, sequential: SEQUENTIAL };

const data = await benchColorGeneration(objects);
details.colorVariant = { generation: data.generation.id, build: data.build, harvest: data.harvest };

// ---------------------------------------------------------------- the demo images, as the harvest fetches them

log('demo images: rendering (when changed) and serving them with the IIIF router');
const iiif = await serveBenchImages(data.sourceDir);
const ids = [...(await readImageList(join(data.sourceDir, IMAGES_FILE))).values()].filter((image) => image.status === 'ok').map((image) => image.id);
const urlsAt = (origin: string): string[] => ids.map((id) => imageUrls(imageServiceUrl(origin, id)).full);
const jpegs: Buffer[] = new Array<Buffer>(ids.length);
let fetchStarted = performance.now();
{
  const urls = urlsAt(iiif.origin);
  let next = 0;
  await Promise.all(
    Array.from({ length: FETCH_CONCURRENCY }, async () => {
      for (let k = next++; k < urls.length; k = next++) {
        const response = await fetch(urls[k]!);
        if (response.status !== 200) throw new Error(`${urls[k]} answered ${response.status}`);
        jpegs[k] = Buffer.from(await response.arrayBuffer());
      }
    }),
  );
}
const iiifFetchSeconds = (performance.now() - fetchStarted) / 1000;
const n = jpegs.length;
const meta = await Promise.all(jpegs.map((b) => sharp(b).metadata()));
details.images = {
  count: n,
  rendered: iiif.rendered,
  meanKB: jpegs.reduce((s, b) => s + b.length, 0) / n / 1024,
  meanMegapixels: meta.reduce((s, m) => s + (m.width ?? 0) * (m.height ?? 0), 0) / n / 1e6,
  iiifFetchSeconds,
};
log(`${n} JPEGs fetched through the IIIF router in ${iiifFetchSeconds.toFixed(1)} s`);

// ---------------------------------------------------------------- 1. extraction throughput

const decode = (parallel: number): Promise<{ label: string; perSecond: number }> =>
  imageRate(n, `sharp decode+resize, ${parallel} in flight`, () => inFlight(jpegs, parallel, (b) => decodeForAnalysis(b, DEFAULT_ANALYSE_OPTIONS.maxSize)), ROUNDS);

log('extraction: decode baselines');
namedColors();
const decode1 = await decode(1);
const decode2 = await decode(2);
const decode4 = await decode(4);
log('extraction: analyseImage in this thread');
const analyse1 = await imageRate(n, 'analyseImage, main thread, 1 in flight', () => inFlight(jpegs, 1, (b) => analyseImage(b)), ROUNDS);
const analyse2 = await imageRate(n, 'analyseImage, main thread, 2 in flight', () => inFlight(jpegs, 2, (b) => analyseImage(b)), ROUNDS);
log('extraction: ColorPool');
const poolStarted = performance.now();
const pool = new ColorPool({ size: POOL });
await Promise.all(jpegs.slice(0, POOL * 2).map((b) => pool.analyse(b))); // start-up and warm-up
const poolStartSeconds = (performance.now() - poolStarted) / 1000;
const pooled = await imageRate(n, `ColorPool size ${POOL}, perWorker 2 (default)`, () => Promise.all(jpegs.map((b) => pool.analyse(b))), ROUNDS);
await pool.close();
details.poolStartSeconds = poolStartSeconds;
// A harvest starts a new pool: its first pass pays the workers' start-up and their cold JIT.
const freshPool: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const started = performance.now();
  const fresh = new ColorPool({ size: POOL });
  await Promise.all(jpegs.map((b) => fresh.analyse(b)));
  freshPool.push((performance.now() - started) / 1000);
  await fresh.close();
}

const median = (values: number[]): number => quantile(values, 0.5);
const rateRow = (figure: string, value: number, baseline: { label: string; perSecond: number }, note?: string): BenchRow => ({
  figure,
  value,
  unit: 'images/s',
  baselineName: baseline.label,
  baseline: baseline.perSecond,
  ratio: value / baseline.perSecond,
  ...(note === undefined ? {} : { note }),
});
rows.push({ figure: decode1.label, value: decode1.perSecond, unit: 'images/s', note: `baseline of extraction: ${n} demo JPEGs (${(details.images as { meanKB: number }).meanKB.toFixed(0)} KB, ${(details.images as { meanMegapixels: number }).meanMegapixels.toFixed(1)} Mpx on average) shrunk to ${DEFAULT_ANALYSE_OPTIONS.maxSize} px` });
rows.push(rateRow(decode2.label, decode2.perSecond, decode1));
rows.push(rateRow(decode4.label, decode4.perSecond, decode1));
rows.push(rateRow(analyse1.label, analyse1.perSecond, decode1));
rows.push(rateRow(analyse2.label, analyse2.perSecond, decode2));
rows.push(rateRow(pooled.label, pooled.perSecond, decode4, `pool start-up and first ${POOL * 2} images ${poolStartSeconds.toFixed(1)} s (not in the rate)`));
rows.push({
  figure: `ColorPool size ${POOL}, new pool: one pass over ${n} images, start-up included`,
  value: median(freshPool),
  unit: 's',
  baselineName: 'decode+resize of the same images, 4 in flight',
  baseline: n / decode4.perSecond,
  ratio: median(freshPool) / (n / decode4.perSecond),
  note: `${(n / median(freshPool)).toFixed(0)} images/s; passes ${freshPool.map((s) => s.toFixed(2)).join(' / ')} s (new workers: start-up and cold JIT)`,
});

// ---------------------------------------------------------------- 2. the harvest's colour step, cold and warm

const memory: Server = createServer((req, res) => {
  const k = Number(/^\/img\/(\d+)\.jpg$/.exec(req.url ?? '')?.[1] ?? NaN);
  const body = jpegs[k];
  if (body === undefined) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'Content-Type': 'image/jpeg', 'Content-Length': body.length }).end(body);
});
await new Promise<void>((resolve) => memory.listen(0, '127.0.0.1', () => resolve()));
const memoryUrls = jpegs.map((_, k) => `http://127.0.0.1:${(memory.address() as AddressInfo).port}/img/${k}.jpg`);

const cacheDirs: string[] = [];
const newCacheDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-colors-'));
  cacheDirs.push(dir);
  return dir;
};
/** One pass of analyseImageColors over `urls` with `cacheDir`; seconds, and what it did. */
async function colourStep(urls: string[], cacheDir: string): Promise<{ seconds: number; result: ColorAnalysisResult }> {
  const started = performance.now();
  const result = await analyseImageColors(urls, { cacheDir, poolSize: POOL });
  return { seconds: (performance.now() - started) / 1000, result };
}
const counts = (r: ColorAnalysisResult): string => `analysed ${r.analysed}, cached ${r.cached}, failed ${r.failed}`;

log('harvest colour step: cold and warm, images from memory');
const cold: { seconds: number; result: ColorAnalysisResult }[] = [];
let warmDir = '';
for (let r = 0; r < ROUNDS; r++) {
  warmDir = newCacheDir();
  cold.push(await colourStep(memoryUrls, warmDir));
}
const warm: { seconds: number; result: ColorAnalysisResult }[] = [];
for (let r = 0; r < ROUNDS; r++) warm.push(await colourStep(memoryUrls, warmDir));
const coldSeconds = median(cold.map((c) => c.seconds));
const warmSeconds = median(warm.map((w) => w.seconds));
const decodeAllSeconds = n / decode4.perSecond;

log('harvest colour step through the IIIF router (the demo harvest as it runs)');
fetchStarted = performance.now();
await inFlight(urlsAt(iiif.origin), FETCH_CONCURRENCY, async (url) => (await fetch(url)).arrayBuffer());
const iiifFetchOnly = (performance.now() - fetchStarted) / 1000;
const iiifDir = newCacheDir();
const iiifCold = await colourStep(urlsAt(iiif.origin), iiifDir);
const iiifWarm = await colourStep(urlsAt(iiif.origin), iiifDir);
memory.close();
await iiif.close();
for (const dir of cacheDirs) rmSync(dir, { recursive: true, force: true });

rows.push({
  figure: `analyseImageColors (harvest colour step), pool ${POOL}, cold cache: images/s`,
  value: n / coldSeconds,
  unit: 'images/s',
  baselineName: decode4.label,
  baseline: decode4.perSecond,
  ratio: n / coldSeconds / decode4.perSecond,
  note: `median of ${ROUNDS} passes, each with a new empty cache and a new pool (start-up included, as in a harvest); images from memory over HTTP, ${FETCH_CONCURRENCY} fetches at once; ${counts(cold[0]!.result)}`,
});
rows.push({
  figure: `analyseImageColors, cold cache: ${n} images`,
  value: coldSeconds,
  unit: 's',
  baselineName: `decode+resize of the same images, 4 in flight`,
  baseline: decodeAllSeconds,
  ratio: coldSeconds / decodeAllSeconds,
  note: `passes ${cold.map((c) => c.seconds.toFixed(2)).join(' / ')} s; a new ColorPool's first pass alone: ${median(freshPool).toFixed(2)} s`,
});
rows.push({
  figure: `analyseImageColors, warm cache (re-harvest): ${n} images`,
  value: warmSeconds,
  unit: 's',
  baselineName: 'cold cache, same run',
  baseline: coldSeconds,
  ratio: warmSeconds / coldSeconds,
  note: `${(n / warmSeconds).toFixed(0)} images/s; passes ${warm.map((w) => w.seconds.toFixed(2)).join(' / ')} s; ${counts(warm[0]!.result)} (no pool started, nothing decoded)`,
});
rows.push({
  figure: `analyseImageColors via the IIIF router, cold cache: ${n} images`,
  value: iiifCold.seconds,
  unit: 's',
  baselineName: `fetching the same JPEGs alone, ${FETCH_CONCURRENCY} at once`,
  baseline: iiifFetchOnly,
  ratio: iiifCold.seconds / iiifFetchOnly,
  note: `the demo harvest as it runs: every fetch is a full-size transcode by the router in this process; one pass; ${counts(iiifCold.result)}`,
});
rows.push({
  figure: `analyseImageColors via the IIIF router, warm cache: ${n} images`,
  value: iiifWarm.seconds,
  unit: 's',
  baselineName: 'via the router, cold cache',
  baseline: iiifCold.seconds,
  ratio: iiifWarm.seconds / iiifCold.seconds,
  note: `one pass; ${counts(iiifWarm.result)}; fetching alone took ${iiifFetchOnly.toFixed(2)} s`,
});

// ---------------------------------------------------------------- 3. the colour index endpoints

log('HTTP: colour index endpoints on the colour variant');
const store = new StoreManager({ includeNonPublic: true });
await store.start(data.generation.dir);
const config = loadConfig({ BASE_URL: BENCH_BASE_URL, DATA_DIR: data.dataDir, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'silent' });
const ctx: AppContext = { config, iris: new Iris(BENCH_BASE_URL), store, logger: createLogger(config), metrics: new Metrics(), queries: new QueryLibrary(), kinds: KIND_NAMES };
const server = await listen(createApp(ctx), 0, '127.0.0.1');
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const sequential = (paths: string[], requests = paths.length): Promise<SequentialResult> => runLoadClient<SequentialResult>({ mode: 'sequential', origin, paths, requests });
const statusNote = (...results: SequentialResult[]): string => {
  const bad = results.flatMap((r) => Object.entries(r.statuses).filter(([status]) => status !== '200'));
  return bad.length === 0 ? '' : `; statuses ${JSON.stringify(bad)}`;
};
/** The body of `path` as JSON, fetched from this process (not timed). */
const getJson = async <T>(path: string): Promise<{ body: T; bytes: number }> => {
  const text = await (await fetch(`${origin}${path}`)).text();
  return { body: JSON.parse(text) as T, bytes: Buffer.byteLength(text) };
};

// The app's own objects collection index first (colour postings included), so no build runs under a measurement.
const indexBuild = await sequential(['/v2/id/objects?itemsPerPage=1']);
const floor = await sequential(['/healthz'], SEQUENTIAL);
const floorP50 = quantile(floor.latencies, 0.5);
const floorP99 = quantile(floor.latencies, 0.99);

/**
 * ms to rank `count` postings the way the dominant route does on every request (spread the postings, sort by
 * dominance, keep the first 20), on synthetic dominance values: median of 20 runs in this process.
 */
function rankingMs(count: number): number {
  const dominance = new Map<number, number>();
  let x = 1;
  for (let id = 0; id < count; id++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    dominance.set(id * 3, Math.round((x / 2 ** 32) * 10_000) / 100);
  }
  const ms: number[] = [];
  for (let r = 0; r < 20; r++) {
    const t = performance.now();
    [...dominance].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, 20);
    ms.push(performance.now() - t);
  }
  return quantile(ms, 0.5);
}

async function measure(path: string, extra = ''): Promise<void> {
  const first = await sequential([path]);
  const warmRuns = await sequential([path], SEQUENTIAL);
  const { bytes } = await getJson<unknown>(path);
  const p50 = quantile(warmRuns.latencies, 0.5);
  const p99 = quantile(warmRuns.latencies, 0.99);
  rows.push({ figure: `${path}: first touch`, value: first.latencies[0]!, unit: 'ms', baselineName: 'GET /healthz p50', baseline: floorP50, ratio: first.latencies[0]! / floorP50, note: `${(bytes / 1024).toFixed(1)} KB${statusNote(first)}` });
  rows.push({ figure: `${path}: warm p50`, value: p50, unit: 'ms', baselineName: 'GET /healthz p50', baseline: floorP50, ratio: p50 / floorP50, note: `warm p99 ${p99.toFixed(2)} ms${extra}${statusNote(warmRuns)}` });
  rows.push({ figure: `${path}: warm p99`, value: p99, unit: 'ms', baselineName: 'GET /healthz p99', baseline: floorP99, ratio: p99 / floorP99 });
}

interface ColorEntry {
  value: string;
  object_count: number;
}
await measure('/v2/id/colors');
const index = (await getJson<{ base_colors: ColorEntry[]; css_colors: ColorEntry[] }>('/v2/id/colors')).body;
const withColors = (await getJson<{ 'hydra:totalItems': number }>('/v2/id/objects?hasColors=true&itemsPerPage=1')).body['hydra:totalItems'];
const bases = [...index.base_colors].sort((a, b) => b.object_count - a.object_count || (a.value < b.value ? -1 : 1));
const commonest = bases[0];
const rarest = bases[bases.length - 1];
const topTone = [...index.css_colors].sort((a, b) => b.object_count - a.object_count || (a.value < b.value ? -1 : 1))[0];
details.colorData = {
  objectsWithColors: withColors,
  baseColors: bases.map((b) => [b.value, b.object_count]),
  tones: index.css_colors.length,
  topTone: topTone && [topTone.value, topTone.object_count],
};
await measure('/v2/id/colors?onDisplay=true');
if (commonest && rarest && topTone) {
  const ranking = (entry: ColorEntry): string => `; ranking ${entry.object_count.toLocaleString('en')} postings in process (synthetic values): ${rankingMs(entry.object_count).toFixed(2)} ms`;
  await measure(`/v2/id/colors/dominant?color=${commonest.value}`, ranking(commonest));
  await measure(`/v2/id/colors/dominant?color=${commonest.value}&limit=100`);
  await measure(`/v2/id/colors/dominant?color=${rarest.value}`, ranking(rarest));
  await measure(`/v2/id/colors/dominant?cssColor=${encodeURIComponent(topTone.value)}`, ranking(topTone));
} else {
  log('the colour variant has no colours: dominant endpoints not measured');
}
rows.push({
  figure: 'first /v2/id/objects request of the generation (builds the objects collection index, colours included)',
  value: indexBuild.latencies[0]!,
  unit: 'ms',
  note: `colour data: ${withColors.toLocaleString('en')} objects with colours; ${bases.length} base colours (${commonest?.value} on ${commonest?.object_count.toLocaleString('en')} objects … ${rarest?.value} on ${rarest?.object_count.toLocaleString('en')}); ${index.css_colors.length} tones${statusNote(indexBuild)}`,
});
rows.push({ figure: 'HTTP floor: GET /healthz p50', value: floorP50, unit: 'ms', note: `p99 ${floorP99.toFixed(2)} ms` });

server.close();
await store.close();
details.loadavgAtEnd = loadavg();
const result: BenchResult = { benchmark: 'colors', objects, startedAt, seconds: (Date.now() - Date.parse(startedAt)) / 1000, rows, details };
emitResult(result);
process.exit(0);
