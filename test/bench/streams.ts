/**
 * Benchmark of the event streams (docs/changes.md, "The event streams") for one collection size (`--objects N`):
 * the real app over a StoreManager on the bench generation, whose change log holds one block (one Create per
 * public record), on a real port, one keep-alive client process, sequential requests.
 *
 *   - The first request of the objects stream's view after start: the log indexed per kind (its blocks scanned
 *     once per served generation).
 *   - Pages of 100 versions, each asked once (first touch: the streams keep no cache), in N-Quads, JSON-LD and
 *     Turtle; beside them, in the same run, the raw store query that reads the same records' graphs (the kind's
 *     page query, 100 VALUES rows) and the collection page of 100 full records, first touch and warm; and the
 *     longest wait of the service's event loop while each was written.
 *
 * Run through run.ts (`npm run bench -- --only streams --objects N`), or alone: npx tsx test/bench/streams.ts --objects N
 */
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createApp } from '../../src/app.js';
import type { AppContext } from '../../src/engine/app-context.js';
import { loadConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/config/logger.js';
import { Metrics } from '../../src/http/metrics.js';
import { KIND_NAMES } from '../../src/kinds/index.js';
import { QueryLibrary } from '../../src/queries/library.js';
import { StoreManager } from '../../src/store/store-manager.js';
import { Iris } from '../../src/vocab/iris.js';
import { untilIndexesBuilt } from '../helpers/ready-app.js';
import { BENCH_BASE_URL, benchGeneration } from './bench-data.js';
import type { SequentialResult } from './http-load.js';
import { runLoadClient } from './load-client.js';
import { emitResult, log, objectsArg, quantile, type BenchRow } from './report.js';

const objects = objectsArg();
const startedAt = new Date().toISOString();
const rows: BenchRow[] = [];
const details: Record<string, unknown> = { loadavgAtStart: loadavg() };
/** Pages asked once each per syntax (at most: a small collection has fewer). */
const PAGES = 20;

const data = await benchGeneration(objects);
const store = new StoreManager({ includeNonPublic: true });
await store.start(data.generation.dir);
const iris = new Iris(BENCH_BASE_URL);
const queries = new QueryLibrary();
const config = loadConfig({ BASE_URL: BENCH_BASE_URL, DATA_DIR: data.dataDir, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'silent' });
const ctx: AppContext = { config, iris, store, logger: createLogger(config), metrics: new Metrics(), queries, kinds: KIND_NAMES };
const server = createApp(ctx).listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

/** Each path once, in order, with `accept`: the latencies (ms) and the statuses. */
const once = async (paths: string[], accept?: string): Promise<number[]> => {
  const result = await runLoadClient<SequentialResult>({ mode: 'sequential', origin, paths, requests: paths.length, ...(accept === undefined ? {} : { headers: { accept } }) });
  if (Object.keys(result.statuses).some((s) => s !== '200')) throw new Error(`${paths[0]}…: ${JSON.stringify(result.statuses)}`);
  return result.latencies;
};
const p50 = (latencies: number[]): number => quantile(latencies, 0.5);

try {
  // The collection indexes first (the collection pages answer 503 until they are built): not in any figure below.
  await untilIndexesBuilt(ctx);
  log('streams: view (first request: the log indexed per kind)');
  const [firstView] = await once(['/v2/streams/objects/view'], 'application/n-quads');
  const warmView = await once(Array(20).fill('/v2/streams/objects/view'), 'application/n-quads');
  const total = Math.ceil((await (await fetch(`${origin}/v2/id/objects`)).json() as { 'hydra:totalItems': number })['hydra:totalItems'] / 100);
  const pages = Array.from({ length: Math.min(PAGES, total) }, (_, i) => i + 1);
  details.pagesAsked = pages.length;
  rows.push({ figure: 'stream view, first request after start (log indexed per kind)', value: firstView ?? NaN, unit: 'ms', baselineName: 'the view again, p50', baseline: p50(warmView), ratio: (firstView ?? NaN) / p50(warmView) });

  // The raw store query of a page's records: the kind's page query with 100 VALUES rows.
  const table = (await (await fetch(`${origin}/v2/id/objects?itemsPerPage=100&page=1`)).json()) as { 'hydra:member': { '@id': string }[] };
  const sample = table['hydra:member'].map((m) => ({ record: m['@id'] }));
  const raw: number[] = [];
  for (let i = 0; i < pages.length; i++) {
    const t0 = performance.now();
    await store.query(queries.bound(KIND_NAMES.get('object').page.records, sample), { format: 'text/tab-separated-values' });
    raw.push(performance.now() - t0);
  }
  details.rawQueryRecords = sample.length;
  log(`streams: ${pages.length} pages of 100 versions in three syntaxes, beside the collection pages of 100 full records`);
  const streamPaths = pages.map((p) => `/v2/streams/objects/pages/${p}`);
  const collectionPaths = pages.map((p) => `/v2/id/objects?itemsPerPage=100&fullRecord=true&page=${p}`);
  // The longest the service's event loop waited (it runs in this process), while each kind of page was written.
  const loopDelay = monitorEventLoopDelay({ resolution: 5 });
  const maxDelayMs = async (run: () => Promise<number[]>): Promise<[number[], number]> => {
    loopDelay.reset();
    loopDelay.enable();
    const latencies = await run();
    loopDelay.disable();
    return [latencies, loopDelay.max / 1e6];
  };
  const [collectionFirst, collectionDelay] = await maxDelayMs(() => once(collectionPaths));
  const collectionWarm = await once(collectionPaths);
  for (const [name, accept] of [
    ['N-Quads', 'application/n-quads'],
    ['JSON-LD', 'application/ld+json'],
    ['Turtle', 'text/turtle'],
  ] as const) {
    const [latencies, delay] = await maxDelayMs(() => once(streamPaths, accept));
    rows.push({
      figure: `longest event-loop delay while stream pages were written, ${name}`,
      value: delay,
      unit: 'ms',
      baselineName: 'while collection pages of 100 full records were, first touch',
      baseline: collectionDelay,
      ratio: delay / collectionDelay,
    });
    rows.push({
      figure: `stream page of 100 versions, ${name}, p50 (each page once: no cache)`,
      value: p50(latencies),
      unit: 'ms',
      baselineName: 'raw store query of 100 records\' graphs, p50',
      baseline: p50(raw),
      ratio: p50(latencies) / p50(raw),
      note: `p99 ${quantile(latencies, 0.99).toFixed(1)} ms; collection page of 100 full records: first touch p50 ${p50(collectionFirst).toFixed(1)} ms, warm p50 ${p50(collectionWarm).toFixed(1)} ms`,
    });
  }
  rows.push({ figure: 'collection page of 100 full records, first touch, p50', value: p50(collectionFirst), unit: 'ms', baselineName: 'warm, p50', baseline: p50(collectionWarm), ratio: p50(collectionFirst) / p50(collectionWarm) });
} finally {
  server.close();
  await store.close();
}
emitResult({ benchmark: 'streams', objects, startedAt, seconds: (Date.now() - Date.parse(startedAt)) / 1000, rows, details });
