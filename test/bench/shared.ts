/**
 * Benchmark of the embedded store as the service runs it (issue 26; src/store/shared-store.ts): two workers that
 * each hold the whole generation and share the work, each the other's standby, seen as the REST and the SPARQL
 * store of the real app on real ports, every client in a child process (http-load.ts). Each figure beside a
 * baseline of the same run:
 *   1. ready (the first worker serves) and both workers loaded, beside one bare worker loading the same files;
 *   2. single records, record cache off, autocannon req/s beside the same app with its record cache filled;
 *   3. a page of 100 full records never requested before, p50, beside the bare queries of those records;
 *   4. a runaway SPARQL query: its 504 to the next 200 of /sparql, each worker ended in turn;
 *   5. REST p99 at a steady rate during a runaway SPARQL query (which holds one worker), beside idle;
 *   6. RSS of the process after the bench beside the process with one bare worker loaded.
 * Figures only; nothing is asserted. Run through run.ts (`--only shared`), or alone: npx tsx test/bench/shared.ts --objects N
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import type { AppContext } from '../../src/engine/app-context.js';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/config/logger.js';
import { Metrics } from '../../src/http/metrics.js';
import { listen } from '../../src/http/server-lifecycle.js';
import { KIND_NAMES, OBJECTS } from '../../src/kinds/index.js';
import { QueryLibrary } from '../../src/queries/library.js';
import { sharedEmbeddedStores } from '../../src/store/shared-store.js';
import { StoreManager } from '../../src/store/store-manager.js';
import { Iris } from '../../src/vocab/iris.js';
import { BENCH_BASE_URL, benchGeneration, samplePids, servablePids } from './bench-data.js';
import type { AutocannonResult, SequentialResult } from './http-load.js';
import { runLoadClient } from './load-client.js';
import { storeOfItsOwn } from '../helpers/store-view.js';
import { cpuMsSince, emitResult, log, objectsArg, quantile, rssMiB, type BenchRow } from './report.js';
import { RUNAWAY, runawayToAnswer, type RunawayToAnswer } from './runaway.js';

const objects = objectsArg();
const startedAt = new Date().toISOString();
const rows: BenchRow[] = [];
const details: Record<string, unknown> = { loadavgAtStart: loadavg() };
const CANNON_SECONDS = 8;
const CONNECTIONS = 10;
const DEADLINE_MS = 2000;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const at50k = objects >= 50_000;

const data = await benchGeneration(objects);
const iris = new Iris(BENCH_BASE_URL);
const queries = new QueryLibrary();

// 1. One bare worker on the same files: the baseline of the load time and of the memory.
log('one bare worker loading the generation (the baseline)…');
const rssBefore = rssMiB();
const bare = new StoreManager({ includeNonPublic: true });
let started = performance.now();
await bare.start(data.generation.dir);
const bareLoadMs = performance.now() - started;
const rssBare = rssMiB();
await bare.close();
await sleep(2000);
details.bare = { loadMs: bareLoadMs, rssBefore, rssBare, rssAfterClose: rssMiB() };

log('the shared stores: ready, then both workers loaded…');
const { rest, sparql, manager } = sharedEmbeddedStores();
started = performance.now();
await Promise.all([rest.start(data.generation.dir), sparql.start(data.generation.dir)]);
const readyMs = performance.now() - started;
while (!manager.standbyReady()) await sleep(50);
const bothMs = performance.now() - started;
const rssBoth = rssMiB();
rows.push({
  figure: 'ready: the first worker serves',
  value: readyMs / 1000,
  unit: 's',
  baselineName: 'one bare worker loading the same files (s)',
  baseline: bareLoadMs / 1000,
  ratio: readyMs / bareLoadMs,
  goal: `≤ 1.1×${at50k ? '' : ' (goal at 50k)'}`,
  met: readyMs / bareLoadMs <= 1.1,
  note: `both workers loaded after ${(bothMs / 1000).toFixed(1)} s; RSS then ${rssBoth.toFixed(0)} MiB`,
});

// The app: the REST store without and with its record cache (an identity of its own each: records.ts keeps a
// cache per store object), and /sparql on the SPARQL view.
const servers: Server[] = [];
async function startApp(recordCacheSize: string, withSparql: boolean, deadlineMs = DEADLINE_MS, shapeOnMainThread = false): Promise<string> {
  const config = loadConfig({ BASE_URL: BENCH_BASE_URL, DATA_DIR: data.dataDir, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'silent', RECORD_CACHE_SIZE: recordCacheSize, SPARQL_TIMEOUT_MS: String(deadlineMs), SPARQL_RESULT_CACHE_MB: '0' });
  const ctx: AppContext = { config, iris, store: storeOfItsOwn(rest, { shapeOnMainThread }), logger: createLogger(config), metrics: new Metrics(), queries, kinds: KIND_NAMES };
  const server = await listen(createApp(ctx, withSparql ? { sparqlStore: sparql } : {}), 0, '127.0.0.1');
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
const cold = await startApp('0', true);
const warm = await startApp('200000', false);
// The same run's baseline of issue 26's records shaped in the workers: the records shaped on the main thread.
const onMain = await startApp('0', false, DEADLINE_MS, true);
const pids = samplePids(servablePids(data.sourceDir), 400);
const paths = pids.map((pid) => `/v2/id/object/${pid}`);
await runLoadClient<SequentialResult>({ mode: 'sequential', origin: cold, paths: paths.slice(0, 1) });
await runLoadClient<SequentialResult>({ mode: 'sequential', origin: warm, paths, requests: paths.length });
await runLoadClient<SequentialResult>({ mode: 'sequential', origin: onMain, paths: paths.slice(0, 1) });

// 2. Single records.
log(`autocannon, ${CONNECTIONS} connections × ${CANNON_SECONDS} s, record cache off, then filled…`);
// The cores each side used: this process (main thread and both workers) and the load client's. The same run's
// baseline of issue 26's records shaped in the workers, the records shaped on the main thread, is measured in
// turn with them, two rounds each, so that neither gains from coming first or last on a machine whose speed drifts.
interface Round {
  ac: AutocannonResult;
  ms: number;
  cpuMs: number;
}
const cannonRound = async (origin: string): Promise<Round> => {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const ac = await runLoadClient<AutocannonResult>({ mode: 'autocannon', origin, paths, connections: CONNECTIONS, seconds: CANNON_SECONDS / 2 });
  return { ac, ms: performance.now() - started, cpuMs: cpuMsSince(cpu) };
};
const coldRounds: Round[] = [];
const mainRounds: Round[] = [];
for (let round = 0; round < 2; round++) {
  coldRounds.push(await cannonRound(cold));
  mainRounds.push(await cannonRound(onMain));
}
/** Rounds as one run: requests over time; p50 and p99 the worse round's. */
const merged = (rounds: Round[]): { rps: number; total: number; p50: number; p99: number; non2xx: number; ms: number; cpuMs: number; clientCpuMs: number } => {
  const sum = (f: (r: Round) => number): number => rounds.reduce((acc, r) => acc + f(r), 0);
  return {
    rps: (sum((r) => r.ac.total) / sum((r) => r.ms)) * 1000,
    total: sum((r) => r.ac.total),
    p50: Math.max(...rounds.map((r) => r.ac.p50)),
    p99: Math.max(...rounds.map((r) => r.ac.p99)),
    non2xx: sum((r) => r.ac.non2xx),
    ms: sum((r) => r.ms),
    cpuMs: sum((r) => r.cpuMs),
    clientCpuMs: sum((r) => r.ac.clientCpuMs),
  };
};
const acCold = merged(coldRounds);
const acMain = merged(mainRounds);
const acWarm = await runLoadClient<AutocannonResult>({ mode: 'autocannon', origin: warm, paths, connections: CONNECTIONS, seconds: CANNON_SECONDS });
rows.push({
  figure: 'single records, record cache off',
  value: acCold.rps,
  unit: 'req/s',
  baselineName: 'record cache filled (req/s)',
  baseline: acWarm.requestsPerSecond,
  ratio: acWarm.requestsPerSecond / acCold.rps,
  goal: `≥ 2,000 req/s${at50k ? '' : ' (goal at 50k)'}`,
  met: acCold.rps >= 2000,
  note:
    `rounds ${coldRounds.map((r) => r.ac.requestsPerSecond.toFixed(0)).join(', ')} req/s; p50 ${acCold.p50} ms, p99 ${acCold.p99} ms, non-2xx ${acCold.non2xx}; cached p50 ${acWarm.p50} ms; ` +
    `cores used with the cache off: the service ${(acCold.cpuMs / acCold.ms).toFixed(2)} (${(acCold.cpuMs / acCold.total).toFixed(2)} ms of CPU a request), ` +
    `the load client ${(acCold.clientCpuMs / acCold.ms).toFixed(2)}, of ${availableParallelism()}; ` +
    `records shaped on the main thread instead of the workers, in turn with them: ${acMain.rps.toFixed(0)} req/s (rounds ${mainRounds.map((r) => r.ac.requestsPerSecond.toFixed(0)).join(', ')}), ` +
    `p50 ${acMain.p50} ms, p99 ${acMain.p99} ms, ${(acMain.cpuMs / acMain.total).toFixed(2)} ms of CPU a request`,
});

// 3. Pages of 100 full records never requested before, beside the bare queries of the same records (every other
// page asked first, so that neither side always finds the store's memory warmed by the other).
log('pages of 100 full records never requested before…');
const PAGE = 100;
const pageCount = 10;
const pageMs: number[] = [];
const bareMs: number[] = [];
const total = ((await (await fetch(`${cold}/v2/id/objects`)).json()) as { 'hydra:totalItems'?: number })['hydra:totalItems'] ?? objects;
const membersOf = async (page: number): Promise<string[]> =>
  (((await (await fetch(`${warm}/v2/id/objects?page=${page}&itemsPerPage=${PAGE}`)).json()) as { 'hydra:member'?: { '@id': string }[] })['hydra:member'] ?? []).map((m) => m['@id']);
// Which worker answered the pages' queries (issue 26: a page is fetched from both workers at once).
const answeredBy = (): Record<string, number> => Object.fromEntries((rest.workerMemory?.() ?? []).map((w) => [w.worker, w.answered]));
const pageAnswers: Record<string, number> = {};
// The CPU the process (main thread and both workers) spends on a page and on its bare queries: on two cores a
// page takes at least half its CPU time.
const pageCpuMs: number[] = [];
const bareCpuMs: number[] = [];
/** The time to a page of full records, read whole, from the app at `origin`. */
const fetchPage = async (origin: string, page: number): Promise<number> => {
  const t = performance.now();
  await (await fetch(`${origin}/v2/id/objects?page=${page}&itemsPerPage=${PAGE}&fullRecord=true`)).arrayBuffer();
  return performance.now() - t;
};
const timePage = async (page: number): Promise<void> => {
  const before = answeredBy();
  const cpu = process.cpuUsage();
  pageMs.push(await fetchPage(cold, page));
  pageCpuMs.push(cpuMsSince(cpu));
  for (const [worker, answered] of Object.entries(answeredBy())) pageAnswers[worker] = (pageAnswers[worker] ?? 0) + answered - (before[worker] ?? 0);
};
const timeBare = async (members: string[]): Promise<void> => {
  // The page's records as the page asks them of the store (queries of `recordsPerQuery`), all at once.
  const size = rest.recordsPerQuery ?? 25;
  const cpu = process.cpuUsage();
  const t = performance.now();
  const batches: Promise<string>[] = [];
  for (let j = 0; j < members.length; j += size) {
    batches.push(rest.query(queries.bound(OBJECTS.page.records, members.slice(j, j + size).map((record) => ({ record }))), { format: 'text/tab-separated-values' }));
  }
  await Promise.all(batches);
  bareMs.push(performance.now() - t);
  bareCpuMs.push(cpuMsSince(cpu));
};
// The same run's baseline of the records shaped in the workers: a page of other records never requested
// before, shaped on the main thread (an app whose store view hides `shapesRecords`), first or last in turn.
const onMainPageMs: number[] = [];
const timePageOnMain = async (page: number): Promise<void> => {
  onMainPageMs.push(await fetchPage(onMain, page));
};
for (let i = 0; i < pageCount; i++) {
  const page = 2 + Math.floor(((i + 0.5) / pageCount) * Math.floor(total / PAGE - 2));
  const members = await membersOf(page);
  if (i % 2 === 0) {
    await timePage(page);
    await timeBare(members);
    await timePageOnMain(page + 1);
  } else {
    await timePageOnMain(page + 1);
    await timeBare(members);
    await timePage(page);
  }
}
rows.push({
  figure: `${PAGE} full records never requested before, p50 of ${pageCount} pages`,
  value: quantile(pageMs, 0.5),
  unit: 'ms',
  baselineName: 'the bare queries of those records (ms)',
  baseline: quantile(bareMs, 0.5),
  ratio: quantile(pageMs, 0.5) / quantile(bareMs, 0.5),
  goal: '≤ 2×',
  met: quantile(pageMs, 0.5) / quantile(bareMs, 0.5) <= 2,
  note: `pages ${pageMs.map((ms) => ms.toFixed(0)).join(', ')} ms; bare ${bareMs.map((ms) => ms.toFixed(0)).join(', ')} ms (in turn first and second); the pages' store queries answered by ${JSON.stringify(pageAnswers)}; CPU of the process p50: a page ${quantile(pageCpuMs, 0.5).toFixed(0)} ms, its bare queries ${quantile(bareCpuMs, 0.5).toFixed(0)} ms; shaped on the main thread instead, p50 ${quantile(onMainPageMs, 0.5).toFixed(1)} ms (${onMainPageMs.map((ms) => ms.toFixed(0)).join(', ')})`,
});

// 4. Runaway queries: each ends the serving worker; the other serves at once.
log('runaway queries, each worker ended in turn…');
const kills: RunawayToAnswer[] = [];
const reloadMs: number[] = [];
for (let i = 0; i < 2; i++) {
  const t = performance.now();
  while (!manager.standbyReady()) await sleep(50);
  if (i > 0) reloadMs.push(performance.now() - t);
  kills.push(await runawayToAnswer(cold));
}
const worstKill = Math.max(...kills.map((k) => k.ms));
rows.push({
  figure: 'runaway query: its 504 to the next 200 of /sparql (worst of 2)',
  value: worstKill / 1000,
  unit: 's',
  goal: '≤ 5 s',
  met: worstKill <= 5000,
  note: `${kills.map((k) => `${k.ms.toFixed(0)} ms (runaway ${k.runaway}, probes ${JSON.stringify(k.statuses)})`).join('; ')}; deadline ${DEADLINE_MS} ms; the ended worker loaded again in ${reloadMs.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ') || 'n/a'}`,
});

// 5. REST at a steady rate, idle and during a runaway SPARQL query (an app whose deadline outlasts the run: the
// figure is the runaway's time, not the ended worker's reload, which takes a core for one load's time after),
// with the runaway's worker thread yielding (thread-priority.ts, as the service runs) and, for contrast, not.
const RUNAWAY_DEADLINE_MS = (CANNON_SECONDS + 3) * 1000;
while (!manager.standbyReady()) await sleep(50);
const long = await startApp('0', true, RUNAWAY_DEADLINE_MS);
// A new app builds its record statuses and change times on its first request, and its code paths warm up over
// the next ones: neither is part of either run (at 50k, the idle run of a new app after one request had a p99
// of 1-2 s over a p50 of 2 ms).
const rate = Math.max(20, Math.round(0.3 * acCold.rps));
const restPaths = samplePids(servablePids(data.sourceDir), 3000, 7).map((pid) => `/v2/id/object/${pid}`);
await runLoadClient<SequentialResult>({ mode: 'sequential', origin: long, paths, requests: paths.length });
await runLoadClient<SequentialResult>({ mode: 'steady', origin: long, paths, seconds: 2, rate });
log(`REST at ${rate} req/s, idle…`);
const idle = await runLoadClient<SequentialResult>({ mode: 'steady', origin: long, paths: restPaths.slice(0, 1000), seconds: CANNON_SECONDS, rate });
const p99 = (latencies: number[]): number => quantile(latencies, 0.99);
const duringRunaway = async (yieldCpu: boolean, restSlice: string[]): Promise<{ run: SequentialResult; runaway: number; running: string }> => {
  while (!manager.standbyReady()) await sleep(50);
  manager.yieldClientQueries = yieldCpu;
  log(`REST at ${rate} req/s during a runaway SPARQL query (its thread ${yieldCpu ? 'yielding' : 'at the usual priority'})…`);
  const runaway = fetch(`${long}/sparql?query=${encodeURIComponent(RUNAWAY)}`).then(async (res) => {
    await res.arrayBuffer();
    return res.status;
  });
  await sleep(200);
  const run = await runLoadClient<SequentialResult>({ mode: 'steady', origin: long, paths: restSlice, seconds: CANNON_SECONDS, rate });
  const running = !manager.standbyReady() ? 'ended before the run did' : 'still running at the end of the run';
  const status = await runaway;
  manager.yieldClientQueries = true;
  return { run, runaway: status, running };
};
const yielding = await duringRunaway(true, restPaths.slice(1000, 2000));
const usual = await duringRunaway(false, restPaths.slice(2000));
const during = yielding.run;
rows.push({
  figure: `REST p99 (record cache off) at ${rate} req/s during a runaway SPARQL query`,
  value: p99(during.latencies),
  unit: 'ms',
  baselineName: 'idle (ms)',
  baseline: p99(idle.latencies),
  ratio: p99(during.latencies) / p99(idle.latencies),
  goal: '≤ 2×',
  met: p99(during.latencies) / p99(idle.latencies) <= 2,
  note: `the runaway ${yielding.running} (${yielding.runaway}); p50 ${quantile(during.latencies, 0.5).toFixed(1)} ms (idle ${quantile(idle.latencies, 0.5).toFixed(1)} ms); statuses ${JSON.stringify(during.statuses)} (idle ${JSON.stringify(idle.statuses)})`,
});
rows.push({
  figure: 'the same, the runaway\'s thread at the usual priority (no yield)',
  value: p99(usual.run.latencies),
  unit: 'ms',
  baselineName: 'idle (ms)',
  baseline: p99(idle.latencies),
  ratio: p99(usual.run.latencies) / p99(idle.latencies),
  note: `the runaway ${usual.running} (${usual.runaway}); p50 ${quantile(usual.run.latencies, 0.5).toFixed(1)} ms; statuses ${JSON.stringify(usual.run.statuses)}`,
});
details.runawayStatuses = [yielding.runaway, usual.runaway];

// 6. Memory.
while (!manager.standbyReady()) await sleep(50);
const rssAfter = rssMiB();
rows.push({
  figure: 'RSS after the bench (two workers, two apps)',
  value: rssAfter,
  unit: 'MiB',
  baselineName: 'the process with one bare worker loaded (MiB)',
  baseline: rssBare,
  ratio: rssAfter / rssBare,
  goal: '≤ 2.2×',
  met: rssAfter / rssBare <= 2.2,
  note: `${rssBefore.toFixed(0)} MiB before any store; both workers loaded ${rssBoth.toFixed(0)} MiB; workers ${JSON.stringify(rest.workerMemory?.().map((w) => ({ worker: w.worker, externalMiB: Math.round(w.external / 2 ** 20) })))}`,
});

for (const server of servers) server.close();
await Promise.all([rest.close(), sparql.close()]);
emitResult({ benchmark: 'shared', objects, startedAt, seconds: performance.now() / 1000, rows, details });
