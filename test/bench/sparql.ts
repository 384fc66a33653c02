/**
 * Benchmark of the SPARQL endpoint and the dumps (issue 7) for one collection size (`--objects N`), on the
 * real app (createApp with a REST store and a SPARQL store on the bench generation) on 127.0.0.1, with every
 * HTTP client in a child process so that it never shares the server's event loop:
 *   1. endpoint overhead: a SELECT and a CONSTRUCT (one record each, 300 records) through HTTP beside the same
 *      query on the SPARQL store in this process (worker round trip included). Goal: ≤ 1.3× + 1 ms.
 *   2. REST single-object p99 under a steady open-loop load, idle and while four runaway SPARQL queries in a
 *      row hit their deadline (each ends the SPARQL worker, which is then respawned). Goal: ≤ 2× idle.
 *   3. time to respawn the SPARQL worker after a deadline (504 to ready), beside its first start.
 *   4. dump download throughput over HTTP beside a plain read of the same file. Goal: ≥ ½ of the plain read.
 * Flags: `--deadline-ms D` (default 5000), `--rest-rate R` (default 50 req/s).
 * Figures only; nothing is asserted. Run through run.ts, or alone: npx tsx test/bench/sparql.ts --objects N
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import type { AppContext } from '../../src/app-context.js';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/config/logger.js';
import { Metrics } from '../../src/http/metrics.js';
import { listen } from '../../src/http/server-lifecycle.js';
import { QueryCatalogue } from '../../src/queries/catalogue.js';
import { generationFiles } from '../../src/store/generations.js';
import { StoreManager } from '../../src/store/store-manager.js';
import type { QueryResultFormat } from '../../src/store/types.js';
import { Iris } from '../../src/vocab/iris.js';
import { BENCH_BASE_URL, benchGeneration, samplePids, servablePids } from './bench-data.js';
import type { SequentialResult } from './http-load.js';
import { runChild, runLoadClient } from './load-client.js';
import { emitResult, log, objectsArg, quantile, rssMiB, type BenchRow } from './report.js';

const flag = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(name);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  return Number.isFinite(value) && value > 0 ? value : fallback;
};

const objects = objectsArg();
const DEADLINE_MS = flag('--deadline-ms', 5000);
const REST_RATE = flag('--rest-rate', 50);
const SAMPLE = 300;
const RUNAWAYS = 4;
const RUNAWAY = 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }';
const startedAt = new Date().toISOString();
const rows: BenchRow[] = [];
const details: Record<string, unknown> = { loadavgAtStart: loadavg(), deadlineMs: DEADLINE_MS, restRate: REST_RATE, sample: SAMPLE };
const at100k = objects >= 100_000;
const goalNote = at100k ? '' : ' (goal at 100k)';
const stats = (ms: number[]): { p50: number; p99: number } => ({ p50: quantile(ms, 0.5), p99: quantile(ms, 0.99) });
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const data = await benchGeneration(objects);
const pids = samplePids(servablePids(data.sourceDir), SAMPLE);
details.generation = { dir: data.generation.dir, counts: data.generation.manifest.counts, bytes: data.generation.manifest.bytes };

const runClient = runLoadClient;

// Reads a URL (http) or a file to the end, discarding it; prints bytes and ms.
const READER = `
const [target] = process.argv.slice(1);
const started = performance.now();
let bytes = 0;
const done = () => console.log(JSON.stringify({ bytes, ms: performance.now() - started }));
if (target.startsWith('http')) {
  require('node:http').get(target, (res) => { res.on('data', (c) => { bytes += c.length; }); res.on('end', done); });
} else {
  require('node:fs').createReadStream(target, { highWaterMark: 1 << 16 }).on('data', (c) => { bytes += c.length; }).on('end', done);
}`;
const read = (target: string): Promise<{ bytes: number; ms: number }> => runChild(['-e', READER, target]);

// The stores: REST first, then SPARQL (one at a time, as server.ts starts them).
const rssStart = rssMiB();
const store = new StoreManager({ includeNonPublic: true });
await store.start(data.generation.dir);
const sparqlStore = new StoreManager({ includeNonPublic: false });
const started = performance.now();
await sparqlStore.start(data.generation.dir);
const sparqlStartMs = performance.now() - started;
rows.push({ figure: 'RSS with REST and SPARQL stores', value: rssMiB(), unit: 'MiB', note: `whole process; ${rssStart.toFixed(0)} MiB before` });

const config = loadConfig({
  BASE_URL: BENCH_BASE_URL,
  DATA_DIR: data.dataDir,
  RATE_LIMIT_PER_MINUTE: '0',
  LOG_LEVEL: 'silent',
  SPARQL_TIMEOUT_MS: String(DEADLINE_MS),
});
const ctx: AppContext = { config, iris: new Iris(config.baseUrl), store, logger: createLogger(config), metrics: new Metrics(), queries: new QueryCatalogue() };
const server: Server = await listen(createApp(ctx, { sparqlStore }), 0, '127.0.0.1');
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const iris = new Iris(BENCH_BASE_URL);

// 1. Endpoint overhead.
const selectOf = (pid: string): string => `SELECT ?p ?o WHERE { GRAPH <${iris.object(pid)}> { <${iris.object(pid)}> ?p ?o } }`;
const constructOf = (pid: string): string => `CONSTRUCT { ?s ?p ?o } WHERE { GRAPH <${iris.object(pid)}> { ?s ?p ?o } }`;
async function overhead(name: string, queryOf: (pid: string) => string, format: QueryResultFormat): Promise<void> {
  log(`endpoint overhead: ${name}…`);
  const onStore = async (): Promise<number[]> => {
    const ms: number[] = [];
    for (const pid of pids) {
      const t = performance.now();
      await sparqlStore.query(queryOf(pid), { format, unionDefaultGraph: true });
      ms.push(performance.now() - t);
    }
    return ms;
  };
  const paths = pids.map((pid) => `/sparql?query=${encodeURIComponent(queryOf(pid))}`);
  await onStore();
  await runClient<SequentialResult>({ mode: 'sequential', origin, paths, requests: paths.length });
  const store1 = stats(await onStore());
  const http = await runClient<SequentialResult>({ mode: 'sequential', origin, paths, requests: paths.length });
  const h = stats(http.latencies);
  const limit = 1.3 * store1.p50 + 1;
  rows.push({
    figure: `${name} via HTTP p50`,
    value: h.p50,
    unit: 'ms',
    baselineName: 'same query on the store',
    baseline: store1.p50,
    ratio: h.p50 / store1.p50,
    goal: `≤ 1.3× + 1 ms (${limit.toFixed(2)} ms)${goalNote}`,
    met: h.p50 <= limit,
    note: `p99 ${h.p99.toFixed(2)} ms vs store p99 ${store1.p99.toFixed(2)} ms; statuses ${JSON.stringify(http.statuses)}; default format ${format}`,
  });
}
// The floor: an HTTP round trip through the same middleware to a handler that does nothing (/healthz).
{
  const floorPaths = Array.from({ length: SAMPLE }, () => '/healthz');
  await runClient<SequentialResult>({ mode: 'sequential', origin, paths: floorPaths, requests: SAMPLE });
  const floor = stats((await runClient<SequentialResult>({ mode: 'sequential', origin, paths: floorPaths, requests: SAMPLE })).latencies);
  rows.push({ figure: 'HTTP floor: GET /healthz p50', value: floor.p50, unit: 'ms', note: `p99 ${floor.p99.toFixed(2)} ms; the part of every figure below that is HTTP and middleware alone` });
}
await overhead('SELECT of one record', selectOf, 'application/sparql-results+json');
await overhead('CONSTRUCT of one record', constructOf, 'text/turtle');

// 2. REST p99, idle and while runaway queries hit their deadline; 3. respawn time.
const restPaths = pids.map((pid) => `/v2/id/object/${encodeURIComponent(pid)}`);
await runClient<SequentialResult>({ mode: 'sequential', origin, paths: restPaths, requests: restPaths.length });
log(`REST at ${REST_RATE} req/s, idle…`);
const idleSeconds = 15;
const idle = await runClient<SequentialResult>({ mode: 'steady', origin, paths: restPaths, seconds: idleSeconds, rate: REST_RATE });
const idleStats = stats(idle.latencies);
rows.push({ figure: `REST object p99 at ${REST_RATE} req/s, idle`, value: idleStats.p99, unit: 'ms', note: `p50 ${idleStats.p50.toFixed(2)} ms; statuses ${JSON.stringify(idle.statuses)}` });

/** Sends one runaway query after another, each after the SPARQL worker is back, until `RUNAWAYS` hit the deadline. */
async function runaways(): Promise<{ statuses: number[]; respawnMs: number[] }> {
  const statuses: number[] = [];
  const respawnMs: number[] = [];
  while (statuses.filter((s) => s === 504).length < RUNAWAYS) {
    const res = await fetch(`${origin}/sparql?query=${encodeURIComponent(RUNAWAY)}`);
    await res.arrayBuffer();
    statuses.push(res.status);
    const t = performance.now();
    await sleep(5);
    while (!sparqlStore.ready()) await sleep(20);
    if (res.status === 504) respawnMs.push(performance.now() - t);
  }
  return { statuses, respawnMs };
}
const windowSeconds = Math.ceil((RUNAWAYS * (DEADLINE_MS + sparqlStartMs * 1.2)) / 1000) + 5;
log(`REST at ${REST_RATE} req/s for ${windowSeconds} s while ${RUNAWAYS} runaway SPARQL queries hit their ${DEADLINE_MS} ms deadline…`);
const [busy, runs] = await Promise.all([
  runClient<SequentialResult>({ mode: 'steady', origin, paths: restPaths, seconds: windowSeconds, rate: REST_RATE }),
  runaways(),
]);
const busyStats = stats(busy.latencies);
details.runaways = runs;
rows.push({
  figure: `REST object p99 at ${REST_RATE} req/s, ${RUNAWAYS} runaway SPARQL queries`,
  value: busyStats.p99,
  unit: 'ms',
  baselineName: 'idle',
  baseline: idleStats.p99,
  ratio: busyStats.p99 / idleStats.p99,
  goal: `≤ 2× idle${goalNote}`,
  met: busyStats.p99 <= 2 * idleStats.p99,
  note: `p50 ${busyStats.p50.toFixed(2)} ms; statuses ${JSON.stringify(busy.statuses)}; SPARQL statuses ${runs.statuses.join(',')}; window ${windowSeconds} s`,
});
const respawn = runs.respawnMs.reduce((a, b) => a + b, 0) / Math.max(1, runs.respawnMs.length);
rows.push({
  figure: 'SPARQL worker respawn (504 to ready), mean',
  value: respawn / 1000,
  unit: 's',
  baselineName: 'first start of the SPARQL store',
  baseline: sparqlStartMs / 1000,
  ratio: respawn / sparqlStartMs,
  note: `each: ${runs.respawnMs.map((ms) => (ms / 1000).toFixed(2)).join(', ')} s`,
});

// 4. Dump throughput.
log('dump throughput…');
const file = generationFiles(data.generation.dir).public;
const plain: number[] = [];
const overHttp: number[] = [];
for (let i = 0; i < 3; i++) {
  const p = await read(file);
  plain.push(p.bytes / 2 ** 20 / (p.ms / 1000));
  const h = await read(`${origin}/v2/dumps/collection.nq.gz`);
  if (h.bytes !== p.bytes) throw new Error(`the dump sent ${h.bytes} bytes, the file has ${p.bytes}`);
  overHttp.push(h.bytes / 2 ** 20 / (h.ms / 1000));
}
const bestPlain = Math.max(...plain);
const bestHttp = Math.max(...overHttp);
rows.push({
  figure: 'dump collection.nq.gz over HTTP',
  value: bestHttp,
  unit: 'MiB/s',
  baselineName: 'plain read of the file',
  baseline: bestPlain,
  ratio: bestHttp / bestPlain,
  goal: `≥ ½ of the plain read${goalNote}`,
  met: bestHttp >= bestPlain / 2,
  note: `best of 3 each (HTTP ${overHttp.map((v) => v.toFixed(0)).join(', ')}; plain ${plain.map((v) => v.toFixed(0)).join(', ')}); ${(data.generation.manifest.bytes.public / 2 ** 20).toFixed(0)} MiB file; page cache warm`,
});

await new Promise((resolve) => server.close(resolve));
await Promise.all([store.close(), sparqlStore.close()]);
emitResult({ benchmark: 'sparql', objects, startedAt, seconds: performance.now() / 1000, rows, details });
