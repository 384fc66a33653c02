/**
 * Benchmark of the serving foundation (issue 5) for one collection size (`--objects N`): the single-object
 * endpoint of the real app (createApp over the embedded store as server.ts makes it: the REST view of two
 * workers that share the work, src/store/shared-store.ts; rate limit off, silent logs) on real ports of
 * 127.0.0.1, driven by a client in a child process (http-load.ts), beside the store CONSTRUCT of the same
 * records and CONSTRUCT + framing.
 *
 * Two apps share the one REST store: cold (RECORD_CACHE_SIZE=0: every request queries and frames) and warm
 * (the default cache, filled with the sampled records first). The "2-second store query elsewhere" is a
 * client's query on the SPARQL view of the same workers (it runs on one; REST queries go to the other), then,
 * for contrast, the service's own query on the REST view (it shares both workers with the REST requests).
 * `--no-direct` skips the in-process Oxigraph store (another copy of the data in memory).
 * Figures only; nothing is asserted. Run through run.ts, or alone: npx tsx test/bench/object.ts --objects N
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import oxigraph from 'oxigraph';
import type { AppContext } from '../../src/engine/app-context.js';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/config/logger.js';
import { Metrics } from '../../src/http/metrics.js';
import { listen } from '../../src/http/server-lifecycle.js';
import { QueryLibrary } from '../../src/queries/library.js';
import { parseGraph } from '../../src/shaping/record-graph.js';
import { Records } from '../../src/records/records.js';
import { OBJECTS } from '../../src/kinds/objects/kind.js';
import { StatusIndex } from '../../src/records/status-index.js';
import { fileChunks } from '../../src/store/file-feed.js';
import { generationFiles } from '../../src/store/generations.js';
import { sharedEmbeddedStores } from '../../src/store/shared-store.js';
import type { QueryStore } from '../../src/store/types.js';
import { Iris } from '../../src/vocab/iris.js';
import { BENCH_BASE_URL, benchGeneration, samplePids, servablePids } from './bench-data.js';
import type { AutocannonResult, SequentialResult } from './http-load.js';
import { runLoadClient } from './load-client.js';
import { storeOfItsOwn } from '../helpers/store-view.js';
import { emitResult, log, objectsArg, quantile, rssMiB, type BenchRow } from './report.js';
import { KIND_NAMES } from '../../src/kinds/index.js';

const objects = objectsArg();
const direct = !process.argv.includes('--no-direct');
const SAMPLE = 1000;
const CANNON_SECONDS = 10;
const CONNECTIONS = 10;
const SLOW_QUERY_MS = 2000;
const startedAt = new Date().toISOString();
const rows: BenchRow[] = [];
const details: Record<string, unknown> = { loadavgAtStart: loadavg(), sample: SAMPLE, connections: CONNECTIONS, cannonSeconds: CANNON_SECONDS };
const at100k = objects >= 100_000;

const data = await benchGeneration(objects);
const pids = samplePids(servablePids(data.sourceDir), SAMPLE);
const paths = pids.map((pid) => `/v2/id/object/${encodeURIComponent(pid)}`);
details.generation = { dir: data.generation.dir, counts: data.generation.manifest.counts };

/** Latency statistics of a list of ms figures. */
const stats = (ms: number[]): { p50: number; p90: number; p99: number; mean: number } => ({
  p50: quantile(ms, 0.5),
  p90: quantile(ms, 0.9),
  p99: quantile(ms, 0.99),
  mean: ms.reduce((a, b) => a + b, 0) / ms.length,
});

const runClient = runLoadClient;

/** Times `run` once per pid, sequentially, after a short warm-up; returns ms per call. */
async function timeEach(run: (pid: string) => Promise<unknown>): Promise<number[]> {
  for (const pid of pids.slice(0, 50)) await run(pid);
  const ms: number[] = [];
  for (const pid of pids) {
    const started = performance.now();
    await run(pid);
    ms.push(performance.now() - started);
  }
  return ms;
}

/** A SELECT of about `SLOW_QUERY_MS` on `manager`: a counted cross product, sized by one trial run. */
async function calibrateSlowQuery(manager: QueryStore): Promise<string> {
  const query = (rows: number): string =>
    `SELECT (COUNT(*) AS ?n) WHERE { { SELECT ?a WHERE { GRAPH ?g { ?a ?p ?o } } LIMIT ${rows} } { SELECT ?b WHERE { GRAPH ?h { ?b ?q ?r } } LIMIT 1000 } }`;
  let rows = 1000;
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    await manager.query(query(rows));
    const ms = performance.now() - started;
    rows = Math.max(100, Math.round((rows * SLOW_QUERY_MS) / ms));
  }
  return query(rows);
}

/** Sends `sparql` to `manager` back to back until `stop` is set; returns the durations. */
async function keepQuerying(manager: QueryStore, sparql: string, stop: { now: boolean }): Promise<number[]> {
  const ms: number[] = [];
  while (!stop.now) {
    const started = performance.now();
    await manager.query(sparql);
    ms.push(performance.now() - started);
  }
  return ms;
}

// The REST store and two apps on it.
const rssStart = rssMiB();
const { rest: store, sparql: sparqlStore, manager } = sharedEmbeddedStores();
const started = performance.now();
try {
  await Promise.all([store.start(data.generation.dir), sparqlStore.start(data.generation.dir)]);
} catch (err) {
  // Nothing else can be measured without the store; report why, with the memory it had reached.
  const message = (err as Error).message;
  log(`REST store failed to start: ${message}`);
  rows.push({ figure: 'REST store start', value: (performance.now() - started) / 1000, unit: 's', note: `failed: ${message}; process RSS now ${rssMiB().toFixed(0)} MiB` });
  emitResult({ benchmark: 'object', objects, startedAt, seconds: performance.now() / 1000, rows, details });
  process.exit(1);
}
const storeStartMs = performance.now() - started;
const rssLoaded = rssMiB();
// The figures are of both workers serving: the first serves after one load, the second loads behind it.
while (!manager.standbyReady()) await new Promise((resolve) => setTimeout(resolve, 50));
const bothLoadedMs = performance.now() - started;
rows.push({
  figure: 'RSS after the store load (two workers)',
  value: rssMiB(),
  unit: 'MiB',
  note: `whole process, ${rssStart.toFixed(0)} MiB before, ${rssLoaded.toFixed(0)} MiB when the first worker served (after ${(storeStartMs / 1000).toFixed(1)} s); both loaded after ${(bothLoadedMs / 1000).toFixed(1)} s`,
});

const queries = new QueryLibrary();
const servers: Server[] = [];
async function startApp(recordCacheSize: string): Promise<string> {
  const config = loadConfig({ BASE_URL: BENCH_BASE_URL, DATA_DIR: data.dataDir, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'silent', RECORD_CACHE_SIZE: recordCacheSize });
  const ctx: AppContext = { config, iris: new Iris(config.baseUrl), store: storeOfItsOwn(store), logger: createLogger(config), metrics: new Metrics(), queries, kinds: KIND_NAMES };
  const server = await listen(createApp(ctx), 0, '127.0.0.1');
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
const cold = await startApp('0');
const warm = await startApp('200000');
// The status index of each app is built by its first request.
const first = await runClient<SequentialResult>({ mode: 'sequential', origin: cold, paths: paths.slice(0, 1) });
await runClient<SequentialResult>({ mode: 'sequential', origin: warm, paths: paths.slice(0, 1) });
details.firstRequestMs = first.latencies[0];

// In-process baselines through the same store workers.
const iris = new Iris(BENCH_BASE_URL);
const records = new Records(OBJECTS, store, queries, iris, new StatusIndex(store, queries, iris), 0);
log('baselines: CONSTRUCT via StoreManager, CONSTRUCT + frame…');
const nquadsOf = new Map<string, string>();
const construct = stats(await timeEach(async (pid) => nquadsOf.set(pid, await records.constructRecord(iris.object(pid)))));
const quadsPerRecord = [...nquadsOf.values()].reduce((n, text) => n + text.split('\n').filter((l) => l !== '').length, 0) / nquadsOf.size;
const frameOnly = stats(await timeEach(async (pid) => JSON.stringify(await records.shape(parseGraph(nquadsOf.get(pid) as string), iris.object(pid)))));
const constructFrame = stats(
  await timeEach(async (pid) => {
    const iri = iris.object(pid);
    return JSON.stringify(await records.shape(parseGraph(await records.constructRecord(iri)), iri));
  }),
);
details.quadsPerRecord = quadsPerRecord;
details.frameOnlyMs = frameOnly;
rows.push({ figure: 'CONSTRUCT via StoreManager p50', value: construct.p50, unit: 'ms', note: `p99 ${construct.p99.toFixed(2)} ms; ${quadsPerRecord.toFixed(0)} quads per record; worker round trip included` });
rows.push({
  figure: 'CONSTRUCT + jsonld.frame p50',
  value: constructFrame.p50,
  unit: 'ms',
  baselineName: 'CONSTRUCT',
  baseline: construct.p50,
  ratio: constructFrame.p50 / construct.p50,
  note: `p99 ${constructFrame.p99.toFixed(2)} ms; frame + shape + stringify alone p50 ${frameOnly.p50.toFixed(2)} ms`,
});

// HTTP, one request at a time.
log('HTTP sequential, cold and warm…');
const seqCold = await runClient<SequentialResult>({ mode: 'sequential', origin: cold, paths, requests: paths.length });
await runClient<SequentialResult>({ mode: 'sequential', origin: warm, paths, requests: paths.length });
const seqWarm = await runClient<SequentialResult>({ mode: 'sequential', origin: warm, paths, requests: paths.length });
const sc = stats(seqCold.latencies);
const sw = stats(seqWarm.latencies);
details.sequentialStatuses = { cold: seqCold.statuses, warm: seqWarm.statuses };
const p50Goal = `< 5 ms and ≤ 1.5× baseline${at100k ? '' : ' (goal at 100k)'}`;
rows.push({
  figure: 'HTTP object p50, cold cache, 1 conn',
  value: sc.p50,
  unit: 'ms',
  baselineName: 'CONSTRUCT + frame',
  baseline: constructFrame.p50,
  ratio: sc.p50 / constructFrame.p50,
  goal: p50Goal,
  met: sc.p50 < 5 && sc.p50 / constructFrame.p50 <= 1.5,
  note: `statuses ${JSON.stringify(seqCold.statuses)}; client-side hrtime, keep-alive`,
});
rows.push({ figure: 'HTTP object p99, cold cache, 1 conn', value: sc.p99, unit: 'ms', baselineName: 'CONSTRUCT + frame', baseline: constructFrame.p99, ratio: sc.p99 / constructFrame.p99 });
rows.push({
  figure: 'HTTP object p50, warm cache, 1 conn',
  value: sw.p50,
  unit: 'ms',
  baselineName: 'CONSTRUCT + frame',
  baseline: constructFrame.p50,
  ratio: sw.p50 / constructFrame.p50,
  goal: p50Goal,
  met: sw.p50 < 5 && sw.p50 / constructFrame.p50 <= 1.5,
  note: `p99 ${sw.p99.toFixed(2)} ms; statuses ${JSON.stringify(seqWarm.statuses)}`,
});

// The page for people of the same records (`?format=html`: what a browser's Accept gets), beside the JSON-LD.
log('HTTP sequential, record pages for people, cold and warm…');
const pagePaths = paths.map((path) => `${path}?format=html`);
const pageCold = stats((await runClient<SequentialResult>({ mode: 'sequential', origin: cold, paths: pagePaths, requests: pagePaths.length })).latencies);
const pageWarm = stats((await runClient<SequentialResult>({ mode: 'sequential', origin: warm, paths: pagePaths, requests: pagePaths.length })).latencies);
for (const [state, page, json] of [
  ['cold', pageCold, sc],
  ['warm', pageWarm, sw],
] as const) {
  rows.push({
    figure: `HTML object page p50, ${state} cache, 1 conn`,
    value: page.p50,
    unit: 'ms',
    baselineName: `JSON-LD record p50, ${state} cache`,
    baseline: json.p50,
    ratio: page.p50 / json.p50,
    goal: '≤ 1.5× the JSON-LD record',
    met: page.p50 / json.p50 <= 1.5,
    note: `p99 ${page.p99.toFixed(2)} ms (JSON-LD ${json.p99.toFixed(2)} ms); rendered from the same finished record`,
  });
}

// HTTP under load.
const rpsGoal = `≥ 1,500 req/s${at100k ? '' : ' (goal at 100k)'}`;
log(`autocannon, ${CONNECTIONS} connections × ${CANNON_SECONDS} s, cold…`);
const acCold = await runClient<AutocannonResult>({ mode: 'autocannon', origin: cold, paths, connections: CONNECTIONS, seconds: CANNON_SECONDS });
log('autocannon, warm…');
const acWarm = await runClient<AutocannonResult>({ mode: 'autocannon', origin: warm, paths, connections: CONNECTIONS, seconds: CANNON_SECONDS });
details.autocannon = { cold: acCold, warm: acWarm };
const cannonNote = (r: AutocannonResult): string =>
  `p50 ${r.p50} ms, p99 ${r.p99} ms (autocannon, whole ms), ${r.total} requests, non-2xx ${r.non2xx}, errors ${r.errors}`;
rows.push({
  figure: 'HTTP object req/s, cold cache',
  value: acCold.requestsPerSecond,
  unit: 'req/s',
  baselineName: '1 / (CONSTRUCT + frame p50)',
  baseline: 1000 / constructFrame.p50,
  ratio: (1000 / constructFrame.p50) / acCold.requestsPerSecond,
  goal: rpsGoal,
  met: acCold.requestsPerSecond >= 1500,
  note: cannonNote(acCold),
});
rows.push({ figure: 'HTTP object req/s, warm cache', value: acWarm.requestsPerSecond, unit: 'req/s', goal: rpsGoal, met: acWarm.requestsPerSecond >= 1500, note: cannonNote(acWarm) });
const rssAfterHttp = rssMiB();

// REST p99 while a 2-second query runs elsewhere, at a fixed request rate well below saturation (a
// saturated run only measures queueing): p99 then moves only if something blocks the request path.
const steadyRate = Math.max(20, Math.round(0.3 * acCold.requestsPerSecond));
details.steadyRate = steadyRate;
let steadyBaseline: ReturnType<typeof stats> | undefined;
async function restUnder(label: string, target: QueryStore | undefined, sparql: string): Promise<void> {
  log(`REST at ${steadyRate} req/s, ${target ? `2-s query on ${label}` : 'no other query'}…`);
  const stop = { now: false };
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  // Main-thread stalls are either GC pauses or the OS giving the core to another process; this tells which.
  const gcPauses: number[] = [];
  const gc = new PerformanceObserver((list) => gcPauses.push(...list.getEntries().map((e) => e.duration)));
  gc.observe({ entryTypes: ['gc'] });
  const slow = target ? keepQuerying(target, sparql, stop) : Promise.resolve([]);
  const during = await runClient<SequentialResult>({ mode: 'steady', origin: cold, paths, seconds: CANNON_SECONDS, rate: steadyRate });
  stop.now = true;
  const slowMs = await slow;
  delay.disable();
  gc.disconnect();
  const s = stats(during.latencies);
  const loop = { p50: delay.percentile(50) / 1e6, p99: delay.percentile(99) / 1e6, max: delay.max / 1e6 };
  details[`steady REST, ${label}`] = { slowMs, latency: s, statuses: during.statuses, eventLoopDelayMs: loop };
  const gcNote = `GC ${gcPauses.length}× max ${Math.max(0, ...gcPauses).toFixed(0)} ms`;
  const loopNote = `event-loop delay p99 ${loop.p99.toFixed(1)} ms, max ${loop.max.toFixed(1)} ms, ${gcNote}; statuses ${JSON.stringify(during.statuses)}`;
  if (!target) {
    steadyBaseline = s;
    rows.push({ figure: `REST p99 (cold) at ${steadyRate} req/s`, value: s.p99, unit: 'ms', note: `p50 ${s.p50.toFixed(2)} ms; open-loop client; ${loopNote}` });
    return;
  }
  rows.push({
    figure: `REST p99 (cold) at ${steadyRate} req/s, 2-s query on ${label}`,
    value: s.p99,
    unit: 'ms',
    baselineName: 'no slow query',
    baseline: steadyBaseline?.p99,
    ratio: steadyBaseline ? s.p99 / steadyBaseline.p99 : undefined,
    note: `p50 ${s.p50.toFixed(2)} ms; slow query ran ${slowMs.length}× (median ${quantile(slowMs, 0.5).toFixed(0)} ms); ${loopNote}`,
  });
}
const slowQuery = await calibrateSlowQuery(sparqlStore);
details.slowQuery = slowQuery;
await restUnder('none', undefined, slowQuery);
await restUnder('the SPARQL view (a client query, on one worker)', sparqlStore, slowQuery);
await restUnder('the REST view (the service’s own, on either worker)', store, slowQuery);
rows.push({ figure: 'RSS with the REST and SPARQL views (two workers)', value: rssMiB(), unit: 'MiB', note: `after the HTTP runs: ${rssAfterHttp.toFixed(0)} MiB` });

for (const server of servers) server.close();

/** A store in this thread: the floor under the worker round trip. */
async function directBaselines(): Promise<void> {
  log('direct in-process Oxigraph store: loading…');
  try {
    const oxStore = new oxigraph.Store();
    const loadStarted = performance.now();
    const files = generationFiles(data.generation.dir);
    for (const file of [files.public, files.nonPublic]) oxStore.load(fileChunks(file), { format: 'application/n-quads', lenient: true });
    details.directLoadMs = performance.now() - loadStarted;
    const text = (pid: string): string => queries.bind('records/record', { record: iris.object(pid), admin: iris.adminGraph });
    const directConstruct = stats(await timeEach(async (pid) => String(oxStore.query(text(pid), { results_format: 'application/n-quads' }))));
    const directFrame = stats(
      await timeEach(async (pid) => {
        const nquads = String(oxStore.query(text(pid), { results_format: 'application/n-quads' }));
        return JSON.stringify(await records.shape(parseGraph(nquads), iris.object(pid)));
      }),
    );
    rows.push({
      figure: 'CONSTRUCT, in-process store p50',
      value: directConstruct.p50,
      unit: 'ms',
      note: `p99 ${directConstruct.p99.toFixed(2)} ms; the worker adds ${(construct.p50 - directConstruct.p50).toFixed(2)} ms at p50`,
    });
    rows.push({
      figure: 'HTTP cold p50 vs in-process CONSTRUCT + frame',
      value: sc.p50,
      unit: 'ms',
      baselineName: 'in-process CONSTRUCT + frame',
      baseline: directFrame.p50,
      ratio: sc.p50 / directFrame.p50,
      goal: p50Goal,
      met: sc.p50 < 5 && sc.p50 / directFrame.p50 <= 1.5,
      note: `in-process CONSTRUCT + frame p99 ${directFrame.p99.toFixed(2)} ms`,
    });
    rows.push({ figure: 'RSS with REST store + in-process store', value: rssMiB(), unit: 'MiB' });
  } catch (err) {
    rows.push({ figure: 'direct in-process store', value: NaN, unit: '', note: `failed: ${(err as Error).message}` });
  }
}
if (direct) await directBaselines();

await Promise.all([store.close(), sparqlStore.close()]);
details.loadavgAtEnd = loadavg();
emitResult({ benchmark: 'object', objects, startedAt, seconds: performance.now() / 1000, rows, details });
// The in-process store and the reader threads hold no handles, but end explicitly in case a socket lingers.
process.exit(0);
