/**
 * Benchmark of the objects collection (issue 6) for one collection size (`--objects N`): the real app
 * (createApp over a StoreManager on the bench generation, rate limit off, silent logs) on a real port of
 * 127.0.0.1, driven by a client in a child process (http-load.ts), each case beside the pure-SPARQL oracle
 * query for the same set (queries/objects/oracle-*.rq) run through the same store worker in the same run.
 * Also: index build time and memory. Cases: a default page of 10 stubs; fullRecord=true&itemsPerPage=100;
 * a q search; a type + dateFrom filtered count; the last page (deep offset), beside the first.
 * Figures only; nothing is asserted. Run through run.ts, or alone: npx tsx test/bench/collection.ts --objects N
 */
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { AppContext } from '../../src/engine/app-context.js';
import { createApp } from '../../src/app.js';
import { buildCollectionIndex } from '../../src/collection-index/build.js';
import { oracleQuery } from '../../src/collection-index/oracle.js';
import { OBJECTS } from '../../src/kinds/objects/kind.js';
import { loadConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/config/logger.js';
import { Metrics } from '../../src/http/metrics.js';
import { listen } from '../../src/http/server-lifecycle.js';
import { QueryLibrary } from '../../src/queries/library.js';
import { parseSelectJson } from '../../src/records/sparql-json.js';
import { StoreManager } from '../../src/store/store-manager.js';
import { Iris } from '../../src/vocab/iris.js';
import { BENCH_BASE_URL, benchGeneration } from './bench-data.js';
import type { AutocannonResult, SequentialResult } from './http-load.js';
import { runLoadClient } from './load-client.js';
import { emitResult, log, objectsArg, quantile, rssMiB, type BenchRow } from './report.js';
import { KIND_NAMES } from '../../src/kinds/index.js';

const objects = objectsArg();
const SEQUENTIAL = 300;
const CANNON_SECONDS = 5;
const CONNECTIONS = 10;
const ORACLE_RUNS = 15;
const ORACLE_BUDGET_MS = 15_000;
const startedAt = new Date().toISOString();
const rows: BenchRow[] = [];
const details: Record<string, unknown> = { loadavgAtStart: loadavg(), sequentialRequests: SEQUENTIAL, connections: CONNECTIONS, cannonSeconds: CANNON_SECONDS, oracleRuns: ORACLE_RUNS, oracleBudgetMs: ORACLE_BUDGET_MS };
const at100k = objects >= 100_000;
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const data = await benchGeneration(objects);
details.generation = { dir: data.generation.dir, counts: data.generation.manifest.counts };

const runClient = runLoadClient;

const heapMiB = (): number => process.memoryUsage().heapUsed / 2 ** 20;

// The REST store.
const store = new StoreManager({ includeNonPublic: true });
let started = performance.now();
await store.start(data.generation.dir);
rows.push({ figure: 'REST store load', value: (performance.now() - started) / 1000, unit: 's', note: `RSS ${rssMiB().toFixed(0)} MiB after` });

// Index build, in process, for its figures (the app builds its own below).
const queries = new QueryLibrary();
const iris = new Iris(BENCH_BASE_URL);
gc();
const heapBefore = heapMiB();
const rssBefore = rssMiB();
let probe: Awaited<ReturnType<typeof buildCollectionIndex>> | undefined = await buildCollectionIndex({ store, queries, iris }, OBJECTS.index, store.generation!.id);
gc();
const heapIndex = heapMiB() - heapBefore;
const report = probe.report;
details.indexBuild = report;
rows.push({
  figure: 'collection index build',
  value: report.ms.total / 1000,
  unit: 's',
  note: `SELECTs ${(report.ms.queries / 1000).toFixed(1)} s, table ${(report.ms.table / 1000).toFixed(1)} s, sort orders ${(report.ms.sorts / 1000).toFixed(1)} s, full-text ${(report.ms.text / 1000).toFixed(1)} s`,
});
rows.push({ figure: 'collection index memory (JS heap, after GC)', value: heapIndex, unit: 'MiB', note: `RSS +${(rssMiB() - rssBefore).toFixed(0)} MiB while building` });
const lastPage = Math.ceil(report.records / 10);
probe = undefined;
gc();

// The app, with its own index (built from the 'ready' state at start-up; the first request waits for it).
const config = loadConfig({ BASE_URL: BENCH_BASE_URL, DATA_DIR: data.dataDir, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'silent' });
const ctx: AppContext = { config, iris, store, logger: createLogger(config), metrics: new Metrics(), queries, kinds: KIND_NAMES };
started = performance.now();
const server = await listen(createApp(ctx), 0, '127.0.0.1');
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const firstRequest = await runClient<SequentialResult>({ mode: 'sequential', origin, paths: ['/v2/id/objects'] });
rows.push({ figure: 'first collection request after start (waits for the build)', value: (performance.now() - started) / 1000, unit: 's', note: `status ${JSON.stringify(firstRequest.statuses)}` });

/** A common type label of the generation and a year, for the filtered-count case. */
const typeRows = parseSelectJson(
  await store.query(
    'PREFIX crm: <http://www.cidoc-crm.org/cidoc-crm/> PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> SELECT ?label (COUNT(*) AS ?n) WHERE { GRAPH ?o { ?o a crm:E22_Human-Made_Object ; crm:P2_has_type ?t . ?t rdfs:label ?label } } GROUP BY ?label ORDER BY DESC(?n) LIMIT 1',
  ),
);
const type = typeRows[0]?.label ?? 'vaas';

interface Case {
  name: string;
  paths: string[];
  oracle: { params: Record<string, string>; limit?: number; offset?: number; text?: string };
  goal?: { ms: number; text: string };
}
const randomPages = Array.from({ length: 200 }, (_, i) => 1 + Math.floor(((i * 7919) % 1000) / 1000 * (lastPage - 1)));
const cases: Case[] = [
  { name: '10 stubs, page 1 (default)', paths: ['/v2/id/objects'], oracle: { params: {}, limit: 10 }, goal: { ms: 5, text: '< 5 ms p50' } },
  { name: '10 stubs, 200 pages spread over the collection', paths: randomPages.map((p) => `/v2/id/objects?page=${p}`), oracle: { params: {}, limit: 10, offset: Math.floor(lastPage / 2) * 10 } },
  { name: '100 full records, page 1', paths: ['/v2/id/objects?fullRecord=true&itemsPerPage=100'], oracle: { params: {}, limit: 100 }, goal: { ms: 100, text: '< 100 ms p50' } },
  {
    name: '100 full records, 20 pages spread (cold framing first)',
    paths: randomPages.slice(0, 20).map((p) => `/v2/id/objects?fullRecord=true&itemsPerPage=100&page=${Math.max(1, Math.floor(p / 10))}`),
    oracle: { params: {}, limit: 100, offset: 100 * Math.floor(lastPage / 20) },
  },
  { name: 'q search (vaas)', paths: ['/v2/id/objects?q=vaas'], oracle: { params: {}, text: 'vaas', limit: 10 }, goal: { ms: 10, text: '< 10 ms p50' } },
  {
    name: 'q search, 6 queries (words, OR, phrase, negation)',
    paths: ['vaas', 'stoelen', 'chaise', 'glas OR zilver', '"art deco"', 'lamp -metaal'].map((q) => `/v2/id/objects?q=${encodeURIComponent(q)}`),
    oracle: { params: {}, text: 'stoel', limit: 10 },
  },
  { name: `type + dateFrom filtered count (type=${type}&dateFrom=1950)`, paths: [`/v2/id/objects?type=${encodeURIComponent(type)}&dateFrom=1950`], oracle: { params: { type, dateFrom: '1950' } } },
  { name: `last page (page=${lastPage}, deep offset)`, paths: [`/v2/id/objects?page=${lastPage}`], oracle: { params: {}, limit: 10, offset: (lastPage - 1) * 10 } },
  { name: 'last page of a filter (hasImages, sortBy=titleNL desc)', paths: [`/v2/id/objects?hasImages=true&sortBy=titleNL&sortOrder=desc&page=${Math.floor(lastPage * 0.8)}`], oracle: { params: { hasImages: 'true' }, limit: 10, offset: (Math.floor(lastPage * 0.8) - 1) * 10 } },
];

/** The oracle's SPARQL for a case: the same filters, LIMIT/OFFSET for pages, a regex scan for q. */
function oracleSparql(c: Case['oracle']): string {
  const fragments = OBJECTS.oracle.filters(c.params, iris);
  if (c.text) fragments.push({ query: 'objects/oracle-filter-word', bindings: { pattern: `\\b${c.text}\\b` } });
  let sparql = oracleQuery(queries, iris, OBJECTS.oracle, { filters: fragments });
  if (c.limit !== undefined) sparql += ` LIMIT ${c.limit}`;
  if (c.offset !== undefined) sparql += ` OFFSET ${c.offset}`;
  return sparql;
}

const caseDetails: unknown[] = [];
details.cases = caseDetails;
for (const c of cases) {
  log(`case: ${c.name}`);
  const oracleMs: number[] = [];
  const sparql = oracleSparql(c.oracle);
  let oracleRows = 0;
  // Slow oracles (full scans of 100k objects) run at least once and stop after ORACLE_BUDGET_MS.
  const oracleStart = performance.now();
  for (let i = 0; i < ORACLE_RUNS && (i === 0 || performance.now() - oracleStart < ORACLE_BUDGET_MS); i++) {
    const t = performance.now();
    oracleRows = parseSelectJson(await store.query(sparql, { format: 'application/sparql-results+json', unionDefaultGraph: true })).length;
    oracleMs.push(performance.now() - t);
  }
  const seq = await runClient<SequentialResult>({ mode: 'sequential', origin, paths: c.paths, requests: Math.max(SEQUENTIAL, c.paths.length) });
  const cannon = await runClient<AutocannonResult>({ mode: 'autocannon', origin, paths: c.paths, connections: CONNECTIONS, seconds: CANNON_SECONDS });
  const p50 = quantile(seq.latencies, 0.5);
  const p99 = quantile(seq.latencies, 0.99);
  const o50 = quantile(oracleMs, 0.5);
  rows.push({
    figure: `${c.name}: p50`,
    value: p50,
    unit: 'ms',
    baselineName: 'SPARQL oracle p50',
    baseline: o50,
    ratio: p50 / o50,
    goal: c.goal ? `${c.goal.text}${at100k ? '' : ' (goal at 100k)'}` : undefined,
    met: c.goal ? p50 < c.goal.ms : undefined,
    note: `first pass over the ${c.paths.length} path(s) p50 ${quantile(seq.latencies.slice(0, c.paths.length), 0.5).toFixed(1)} ms; statuses ${JSON.stringify(seq.statuses)}; oracle ${oracleRows} rows, ${oracleMs.length} runs`,
  });
  rows.push({
    figure: `${c.name}: p99`,
    value: p99,
    unit: 'ms',
    baselineName: 'SPARQL oracle p99',
    baseline: quantile(oracleMs, 0.99),
    ratio: p99 / quantile(oracleMs, 0.99),
    note: `autocannon ${CONNECTIONS} conns: ${cannon.requestsPerSecond.toFixed(0)} req/s, p50 ${cannon.p50} ms, p99 ${cannon.p99} ms, non-2xx ${cannon.non2xx}, errors ${cannon.errors}`,
  });
  caseDetails.push({ name: c.name, paths: c.paths.slice(0, 3), sequential: { p50, p99, statuses: seq.statuses }, autocannon: cannon, oracleMs });
}
rows.push({ figure: 'RSS at the end', value: rssMiB(), unit: 'MiB' });

server.close();
await store.close();
emitResult({ benchmark: 'collection', objects, startedAt, seconds: (Date.now() - Date.parse(startedAt)) / 1000, rows, details });
process.exit(0);
