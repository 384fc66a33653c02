/**
 * Benchmark of the hot path at first touch (issue "The hot path at first touch") for one collection size
 * (`--objects N`): the real app (createApp over a StoreManager on the bench generation, rate limit off, logs
 * at info to /dev/null as a deployment writes them) on real ports of 127.0.0.1, every client in a child
 * process (http-load.ts). Two apps, each on its own REST store worker: the record cache off (RECORD_CACHE_SIZE=0,
 * every request queries and frames) and on (the default). Each figure beside a baseline of the same run:
 *   1. cold pages: `fullRecord=true&itemsPerPage=100` on pages nobody asked for before, beside the bare store
 *      CONSTRUCT of the same 100 records (one query, N-Quads out) and the page's SELECT as TSV (what the
 *      endpoint asks); then the same pages warm (cache on, second pass);
 *   2. single records, uncached and cached: autocannon, 10 connections, random pids, requests/s;
 *   3. the HTTP floor: `/healthz` through the whole middleware stack beside a bare node:http server answering
 *      the same body in this process, sequential p50 and autocannon requests/s.
 * Start-up, SPARQL and search have their own modules (startup.ts, sparql.ts, search.ts).
 * Figures only; nothing is asserted. Run through run.ts, or alone: npx tsx test/bench/hotpath.ts --objects N
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import type { AppContext } from '../../src/engine/app-context.js';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/config/logger.js';
import { Metrics } from '../../src/http/metrics.js';
import { listen } from '../../src/http/server-lifecycle.js';
import { QueryLibrary } from '../../src/queries/library.js';
import { StoreManager } from '../../src/store/store-manager.js';
import { Iris } from '../../src/vocab/iris.js';
import { BENCH_BASE_URL, benchGeneration } from './bench-data.js';
import type { AutocannonResult, SequentialResult } from './http-load.js';
import { runLoadClient } from './load-client.js';
import { emitResult, log, objectsArg, quantile, type BenchRow } from './report.js';
import { KIND_NAMES } from '../../src/kinds/index.js';

const objects = objectsArg();
const PAGES = 20;
const CANNON_SECONDS = 8;
const CONNECTIONS = 10;
const startedAt = new Date().toISOString();
const rows: BenchRow[] = [];
const details: Record<string, unknown> = { loadavgAtStart: loadavg(), pages: PAGES, cannonSeconds: CANNON_SECONDS, connections: CONNECTIONS };

const data = await benchGeneration(objects);
const queries = new QueryLibrary();
const iris = new Iris(BENCH_BASE_URL);
// One REST store per app: an app's record cache belongs to its store (records.ts, sharedRecords).
const stores: StoreManager[] = [];

async function startApp(recordCacheSize: string): Promise<{ origin: string; close: () => void; store: StoreManager }> {
  const store = new StoreManager({ includeNonPublic: true });
  await store.start(data.generation.dir);
  stores.push(store);
  const env = { BASE_URL: BENCH_BASE_URL, DATA_DIR: data.dataDir, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'info', RECORD_CACHE_SIZE: recordCacheSize };
  const config = loadConfig(env);
  const logger = createLogger(config, pino.destination({ dest: '/dev/null', sync: false }));
  const ctx: AppContext = { config, iris, store, logger, metrics: new Metrics(), queries, kinds: KIND_NAMES };
  const server = await listen(createApp(ctx), 0, '127.0.0.1');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Builds the collection indexes of every kind and the record statuses before anything is measured.
  for (const path of ['objects', 'agents', 'exhibitions', 'concepts'].map((kind) => `/v2/id/${kind}`).concat('/v2/id/object/0001')) {
    await runLoadClient<SequentialResult>({ mode: 'sequential', origin, paths: [path], requests: 1 });
  }
  return { origin, close: () => server.close(), store };
}

const cold = await startApp('0');
const warm = await startApp('');
const listed = ((await (await fetch(`${warm.origin}/v2/id/objects`)).json()) as { 'hydra:totalItems': number })['hydra:totalItems'];
const pages = Math.floor(listed / 100);
const pagePaths = Array.from({ length: PAGES }, (_, i) => `/v2/id/objects?fullRecord=true&itemsPerPage=100&page=${1 + ((i * 7919) % pages)}`);

// 1. Cold pages, then the bare CONSTRUCT and the page SELECT of the same records.
log('cold pages');
const coldPages = await runLoadClient<SequentialResult>({ mode: 'sequential', origin: cold.origin, paths: pagePaths, requests: PAGES });
const pageIds: string[][] = [];
for (const path of pagePaths) {
  const body = (await (await fetch(`${warm.origin}${path}`)).json()) as { 'hydra:member': { '@id': string }[] };
  pageIds.push(body['hydra:member'].map((m) => m['@id']));
}
const construct: number[] = [];
const select: number[] = [];
for (const ids of pageIds) {
  const values = ids.map((id) => `<${id}>`).join(' ');
  let t = performance.now();
  await cold.store.query(`CONSTRUCT { ?s ?p ?o } WHERE { VALUES ?record { ${values} } GRAPH ?record { ?s ?p ?o } }`, { format: 'application/n-quads' });
  construct.push(performance.now() - t);
  t = performance.now();
  await cold.store.query(queries.bind('records/page-records', ids.map((record) => ({ record }))), { format: 'text/tab-separated-values' });
  select.push(performance.now() - t);
}
const coldP50 = quantile(coldPages.latencies, 0.5);
const constructP50 = quantile(construct, 0.5);
rows.push({
  figure: '100 full records, never requested before: p50',
  value: coldP50,
  unit: 'ms',
  baselineName: 'bare 100-record CONSTRUCT p50',
  baseline: constructP50,
  ratio: coldP50 / constructP50,
  goal: '≤ 50 ms and ≤ 1.5× the CONSTRUCT (at 50k)',
  met: coldP50 <= 50 && coldP50 <= 1.5 * constructP50,
  note: `${PAGES} distinct pages; p90 ${quantile(coldPages.latencies, 0.9).toFixed(1)} ms; the page's own SELECT as TSV p50 ${quantile(select, 0.5).toFixed(1)} ms; statuses ${JSON.stringify(coldPages.statuses)}`,
});
const warmPages = await runLoadClient<SequentialResult>({ mode: 'sequential', origin: warm.origin, paths: pagePaths, requests: PAGES });
rows.push({ figure: '100 full records, record cache on (second pass): p50', value: quantile(warmPages.latencies, 0.5), unit: 'ms', baselineName: 'cold p50', baseline: coldP50, ratio: quantile(warmPages.latencies, 0.5) / coldP50 });

// 2. Single records.
log('single records');
const pids = pageIds.flat().slice(0, 2000);
const recordPaths = pids.map((iri) => new URL(iri).pathname);
const cannon = (origin: string, paths: string[]): Promise<AutocannonResult> => runLoadClient<AutocannonResult>({ mode: 'autocannon', origin, paths, connections: CONNECTIONS, seconds: CANNON_SECONDS });
// A first run warms the store worker's WebAssembly (tier-up) and the JIT, which no cache on the records does:
// the cold app keeps no record, so the measured run still queries and frames every one.
await runLoadClient<AutocannonResult>({ mode: 'autocannon', origin: cold.origin, paths: recordPaths, connections: CONNECTIONS, seconds: 3 });
const uncached = await cannon(cold.origin, recordPaths);
await runLoadClient<SequentialResult>({ mode: 'sequential', origin: warm.origin, paths: recordPaths, requests: recordPaths.length });
const cached = await cannon(warm.origin, recordPaths);
rows.push({
  figure: 'single records, record cache off',
  value: uncached.requestsPerSecond,
  unit: 'req/s',
  baselineName: 'record cache on',
  baseline: cached.requestsPerSecond,
  ratio: uncached.requestsPerSecond / cached.requestsPerSecond,
  goal: '≥ 2,000 req/s on 2 cores',
  met: uncached.requestsPerSecond >= 2000,
  note: `${recordPaths.length} distinct records, ${CONNECTIONS} connections, ${CANNON_SECONDS} s; off p50 ${uncached.p50} ms p99 ${uncached.p99} ms; on p50 ${cached.p50} ms p99 ${cached.p99} ms; non-2xx ${uncached.non2xx}/${cached.non2xx}`,
});

// 3. The HTTP floor.
log('HTTP floor');
const body = JSON.stringify({ status: 'ok' });
const bare = createServer((_req, res) => {
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.end(body);
});
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
const bareOrigin = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
const floorSeq = await runLoadClient<SequentialResult>({ mode: 'sequential', origin: warm.origin, paths: ['/healthz'], requests: 3000 });
const bareSeq = await runLoadClient<SequentialResult>({ mode: 'sequential', origin: bareOrigin, paths: ['/healthz'], requests: 3000 });
const floorCannon = await cannon(warm.origin, ['/healthz']);
const bareCannon = await cannon(bareOrigin, ['/healthz']);
rows.push({
  figure: 'HTTP floor: /healthz through the middleware stack, sequential p50',
  value: quantile(floorSeq.latencies, 0.5),
  unit: 'ms',
  baselineName: 'bare node:http p50',
  baseline: quantile(bareSeq.latencies, 0.5),
  ratio: quantile(floorSeq.latencies, 0.5) / quantile(bareSeq.latencies, 0.5),
  goal: 'half of 0.6–0.8 ms (issue baseline)',
  met: quantile(floorSeq.latencies, 0.5) <= 0.35,
  note: `p99 ${quantile(floorSeq.latencies, 0.99).toFixed(3)} ms (bare ${quantile(bareSeq.latencies, 0.99).toFixed(3)} ms)`,
});
rows.push({
  figure: 'HTTP floor: /healthz, requests/s',
  value: floorCannon.requestsPerSecond,
  unit: 'req/s',
  baselineName: 'bare node:http',
  baseline: bareCannon.requestsPerSecond,
  ratio: floorCannon.requestsPerSecond / bareCannon.requestsPerSecond,
});
details.runs = { coldPages: coldPages.latencies, construct, select, uncached, cached, floorCannon, bareCannon };

bare.close();
cold.close();
warm.close();
for (const store of stores) await store.close();
emitResult({ benchmark: 'hotpath', objects, startedAt, seconds: (Date.now() - Date.parse(startedAt)) / 1000, rows, details });
process.exit(0);
