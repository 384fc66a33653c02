/**
 * Benchmark of the agents, exhibitions and concepts kinds for one collection size (`--objects N`): each HTTP
 * figure beside the raw store query it rests on, measured through the same store worker in the same run.
 *
 * The real app (createApp, rate limit off, silent logs) runs twice on real ports of 127.0.0.1 over one REST
 * StoreManager: with RECORD_CACHE_SIZE=0 (cache off: every request queries and shapes) and with the default
 * cache (cache on). Each app sees the store through a view of its own, because the apps keep their record
 * caches, stub caches, status and collection indexes per store object (sharedRecords, sharedIndexes): two
 * apps on the very same object would share one Records and so the cache size of whichever was made first.
 * The HTTP client is a child process (http-load.ts, one keep-alive connection, one request at a time).
 *
 * Per kind (agent, exhibition, concept):
 *   - single record: the record CONSTRUCT (`records/record`) through the store worker for a sample of
 *     servable pids, then GET /v2/id/<kind>/<pid> with the cache off and warm (filled by a first pass);
 *   - collection: the raw page queries (`records/page-labels` CONSTRUCT for the 10 ids of each page,
 *     `records/page-records` SELECT for 100 ids), then 10 stubs on page 1, 10 stubs on 200 pages spread over
 *     the collection, a filtered page, `q=` a common word, and 100 full records (cache off; cache on first
 *     touch, each page once and before any single record is asked of that app; cache on warm);
 *   - the collection index build (BuildReport of buildCollectionIndex) with its JS heap after GC, and the
 *     record counts.
 * The exact ids of each HTTP page come from an index built here on the same generation, so each baseline
 * queries the very ids the request pages. Figures only; nothing is asserted.
 * Run through run.ts (`npm run bench -- --only kinds --objects 10000,50000`), or alone:
 * npx tsx test/bench/kinds.ts --objects N
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { AppContext } from '../../src/engine/app-context.js';
import { createApp } from '../../src/app.js';
import { buildCollectionIndex } from '../../src/collection-index/build.js';
import type { BuildReport, CollectionIndex } from '../../src/collection-index/collection-index.js';
import type { RecordTable } from '../../src/collection-index/record-table.js';
import { STOP_WORDS, tokenize } from '../../src/collection-index/text/analysis.js';
import { loadConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/config/logger.js';
import { parseCollectionQuery } from '../../src/endpoints/collection-params.js';
import type { RecordDeclaration, ResourceKind } from '../../src/engine/kind.js';
import { Metrics } from '../../src/http/metrics.js';
import { listen } from '../../src/http/server-lifecycle.js';
import { KIND_NAMES, AGENTS, CONCEPTS, EXHIBITIONS } from '../../src/kinds/index.js';
import type { AgentTable } from '../../src/kinds/agents/table.js';
import type { ConceptTable } from '../../src/kinds/concepts/kind.js';
import type { ExhibitionTable } from '../../src/kinds/exhibitions/kind.js';
import { QueryLibrary } from '../../src/queries/library.js';
import { Records } from '../../src/records/records.js';
import { StatusIndex } from '../../src/records/status-index.js';
import { SOURCE_FILES } from '../../src/harvest/schema.js';
import { StoreManager } from '../../src/store/store-manager.js';
import { Iris, type RecordKind } from '../../src/vocab/iris.js';
import { BENCH_BASE_URL, benchGeneration, samplePids } from './bench-data.js';
import type { SequentialResult } from './http-load.js';
import { runLoadClient } from './load-client.js';
import { storeOfItsOwn } from '../helpers/store-view.js';
import { formatNumber, log, objectsArg, quantile, rssMiB, type BenchResult, type BenchRow } from './report.js';

const objects = objectsArg();
/** Servable pids per kind asked one by one (fewer when the kind has fewer). */
const SAMPLE = 500;
/** Requests of each sequential HTTP case (at least one per path). */
const SEQUENTIAL = 300;
/** Pages of 10 stubs spread over the collection. */
const SPREAD_PAGES = 200;
/** Distinct pages of 100 full records (first touch needs pages never asked before). */
const FULL_PAGES = 20;
const startedAt = new Date().toISOString();
const rows: BenchRow[] = [];
const details: Record<string, unknown> = { loadavgAtStart: loadavg(), sample: SAMPLE, sequential: SEQUENTIAL, spreadPages: SPREAD_PAGES, fullPages: FULL_PAGES };
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapMiB = (): number => process.memoryUsage().heapUsed / 2 ** 20;

// The machine is shared (2 cores, other jobs may run): sample the 1-minute load average through the run.
const loadSamples: number[] = [];
const loadSampler = setInterval(() => loadSamples.push(loadavg()[0] as number), 5000);
loadSampler.unref();

const data = await benchGeneration(objects);
const counts = data.generation.manifest.counts;
details.generation = { dir: data.generation.dir, counts };

const store = new StoreManager({ includeNonPublic: true });
let started = performance.now();
await store.start(data.generation.dir);
details.storeStartMs = performance.now() - started;
details.rssAfterStoreMiB = rssMiB();
log(`store ready in ${((performance.now() - started) / 1000).toFixed(1)} s, RSS ${rssMiB().toFixed(0)} MiB`);
const generationId = store.generation!.id;
const queries = new QueryLibrary();
const iris = new Iris(BENCH_BASE_URL);

// ---------------------------------------------------------------------------------------------------------
// Per kind, before any app exists: the index build (its figures, and the ids of every page asked below).

type Query = Record<string, string>;

interface KindSpec<T extends RecordTable> {
  kind: ResourceKind<T>;
  source: keyof typeof SOURCE_FILES;
  /** The texts a common `q` word is picked from. */
  words(table: T): readonly (string | undefined)[];
  /** The filtered page's parameters, given the table (agents pick a common nationality). */
  filter(table: T): Query;
}

/** What the measurements need of a kind, once its index is dropped. */
interface Prepared {
  name: RecordKind;
  record: RecordDeclaration;
  collection: string;
  listed: number;
  sourceRecords: number;
  report: BuildReport;
  heapAfterGcMiB: number;
  /** Record IRIs in pid order (default page order). */
  iris: readonly string[];
  pids: string[];
  filter: { query: Query; total: number; ids: string[] };
  q: { word: string; total: number; ids: string[] };
}

const queryString = (query: Query): string => new URLSearchParams(query).toString();

/** The total and the page's ids of a collection request, from the index (as the handler computes them). */
function pageOf<T extends RecordTable>(index: CollectionIndex<T>, spec: KindSpec<T>, query: Query): { total: number; ids: string[] } {
  const parsed = parseCollectionQuery(query, spec.kind.index);
  const offset = (parsed.page - 1) * parsed.itemsPerPage;
  const slice = index.select({ filters: parsed.filters, text: parsed.text, sort: parsed.sort, offset, limit: parsed.itemsPerPage });
  return { total: slice.total, ids: slice.iris };
}

/** The most frequent word of at least 4 letters (stop words aside) in `texts`. */
function commonWord(texts: readonly (string | undefined)[]): string {
  const seen = new Map<string, number>();
  for (const text of texts) {
    for (const token of new Set(tokenize(text ?? ''))) {
      if (token.length < 4 || /\d/.test(token) || STOP_WORDS.has(token)) continue;
      seen.set(token, (seen.get(token) ?? 0) + 1);
    }
  }
  return [...seen].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? 'de';
}

const sourceCount = (file: string): number => readFileSync(join(data.sourceDir, file), 'utf8').split('\n').filter((line) => line !== '').length;

async function prepare<T extends RecordTable>(spec: KindSpec<T>): Promise<Prepared> {
  log(`${spec.kind.kind}: index build`);
  gc();
  const heapBefore = heapMiB();
  const index = await buildCollectionIndex({ store, queries, iris }, spec.kind.index, generationId);
  gc();
  const heapAfterGcMiB = heapMiB() - heapBefore;
  const { table } = index;
  const word = commonWord(spec.words(table));
  const filterQuery = spec.filter(table);
  return {
    name: spec.kind.kind,
    record: spec.kind.record,
    collection: spec.kind.collection,
    listed: table.size,
    sourceRecords: sourceCount(SOURCE_FILES[spec.source]),
    report: index.report,
    heapAfterGcMiB,
    iris: table.iris,
    pids: samplePids([...table.pids], SAMPLE),
    filter: { query: filterQuery, ...pageOf(index, spec, filterQuery) },
    q: { word, ...pageOf(index, spec, { q: word }) },
  };
}

/** The nationality (as written) with the most designers that have a biography. */
function commonNationality(table: AgentTable): string {
  const withBio = table.roles.designer.and(table.hasBio);
  let best: [string, number] = ['', -1];
  for (const [key, ids] of table.nationalities) {
    let n = 0;
    for (const id of ids) if (withBio.has(id)) n++;
    if (n > best[1] || (n === best[1] && key < best[0])) best = [key, n];
  }
  return table.nationalityLabels.get(best[0]) ?? best[0];
}

const agentSpec: KindSpec<AgentTable> = {
  kind: AGENTS,
  source: 'agents',
  words: (table) => table.names,
  filter: (table) => ({ role: 'designer', nationality: commonNationality(table), hasBio: 'true' }),
};
const exhibitionSpec: KindSpec<ExhibitionTable> = { kind: EXHIBITIONS, source: 'exhibitions', words: (table) => table.labels, filter: () => ({ language: 'ENG' }) };
const conceptSpec: KindSpec<ConceptTable> = { kind: CONCEPTS, source: 'concepts', words: (table) => table.labels, filter: () => ({ language: 'FRA' }) };

const kinds: Prepared[] = [await prepare(agentSpec), await prepare(exhibitionSpec), await prepare(conceptSpec)];
gc();

// ---------------------------------------------------------------------------------------------------------
// Two apps on the one store, each through its own view of it.

const servers: Server[] = [];
async function startApp(recordCacheSize: string | undefined): Promise<string> {
  const config = loadConfig({
    BASE_URL: BENCH_BASE_URL,
    DATA_DIR: data.dataDir,
    RATE_LIMIT_PER_MINUTE: '0',
    LOG_LEVEL: 'silent',
    ...(recordCacheSize === undefined ? {} : { RECORD_CACHE_SIZE: recordCacheSize }),
  });
  const ctx: AppContext = { config, iris, store: storeOfItsOwn(store), logger: createLogger(config), metrics: new Metrics(), queries, kinds: KIND_NAMES };
  const server = await listen(createApp(ctx), 0, '127.0.0.1');
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
const apps = { off: await startApp('0'), on: await startApp(undefined) };
details.recordCacheSizeOn = loadConfig({ BASE_URL: BENCH_BASE_URL, DATA_DIR: data.dataDir }).recordCacheSize;

/** Sequential requests over `paths`, cycling (`requests` defaults to one per path). */
const sequential = (origin: string, paths: string[], requests = paths.length): Promise<SequentialResult> =>
  runLoadClient<SequentialResult>({ mode: 'sequential', origin, paths, requests });

// Each app builds its collection indexes (objects too) and its status index on first use; wait for them all,
// so that no build runs under a measurement. Indexes of one store are built one after the other.
started = performance.now();
for (const origin of [apps.off, apps.on]) {
  const paths = ['/v2/id/objects', ...kinds.map((k) => `/v2/id/${k.collection}?itemsPerPage=1&page=1000000`)];
  const statuses = (await sequential(origin, paths)).statuses;
  if (Object.keys(statuses).some((status) => status !== '200')) throw new Error(`app warm-up answered ${JSON.stringify(statuses)}`);
}
details.appIndexBuildsSeconds = (performance.now() - started) / 1000;
// The floor under every HTTP figure: the same client, connection and middleware, no store.
const floor = await sequential(apps.on, ['/healthz'], SEQUENTIAL);
details.healthzMs = { p50: quantile(floor.latencies, 0.5), p99: quantile(floor.latencies, 0.99) };
log(`apps ready (their index builds took ${((performance.now() - started) / 1000).toFixed(1)} s), RSS ${rssMiB().toFixed(0)} MiB`);

// ---------------------------------------------------------------------------------------------------------
// Measurements.

interface Stats {
  p50: number;
  p99: number;
  n: number;
}
const stats = (ms: number[]): Stats => ({ p50: quantile(ms, 0.5), p99: quantile(ms, 0.99), n: ms.length });

/** Times `run` once per item after a warm-up over the first few; ms per call. */
async function timeEach<I>(items: readonly I[], run: (item: I) => Promise<unknown>, warmUp = 20): Promise<number[]> {
  for (const item of items.slice(0, warmUp)) await run(item);
  const ms: number[] = [];
  for (const item of items) {
    const t = performance.now();
    await run(item);
    ms.push(performance.now() - t);
  }
  return ms;
}

const rowsOf = (ids: readonly string[]): { record: string }[] => ids.map((record) => ({ record }));
const pageLabels = (ids: readonly string[]): Promise<string> =>
  store.query(queries.bind('records/page-labels', rowsOf(ids)), { format: 'application/n-quads', label: 'records/page-labels' });
const pageRecords = (ids: readonly string[]): Promise<string> =>
  store.query(queries.bind('records/page-records', rowsOf(ids)), { format: 'application/sparql-results+json', label: 'records/page-records' });
/** `times` copies of each item, in order of rounds (a, b, c, a, b, c, …). */
const rounds = <I>(items: readonly I[], times: number): I[] => Array.from({ length: times }, () => items).flat();

/** One line of a kind's table: a figure with cache off and on, beside its raw baseline. */
interface Line {
  figure: string;
  baselineName: string;
  baseline: Stats;
  off?: Stats;
  on?: Stats;
  note?: string;
}

interface KindResult {
  kind: Prepared;
  lines: Line[];
}

function statusNote(...results: SequentialResult[]): string {
  const merged: Record<string, number> = {};
  for (const r of results) for (const [status, n] of Object.entries(r.statuses)) merged[status] = (merged[status] ?? 0) + n;
  return Object.keys(merged).every((status) => status === '200') ? '' : `statuses ${JSON.stringify(merged)}`;
}

async function measure(k: Prepared): Promise<KindResult> {
  const lines: Line[] = [];
  const page10 = (page: number): string[] => k.iris.slice((page - 1) * 10, page * 10) as string[];
  const lastPage10 = Math.max(1, Math.ceil(k.listed / 10));
  const spread = Array.from({ length: SPREAD_PAGES }, (_, i) => 1 + Math.floor((((i * 7919) % 1000) / 1000) * (lastPage10 - 1)));
  const lastPage100 = Math.max(1, Math.ceil(k.listed / 100));
  const fullPages = Array.from(new Set(Array.from({ length: Math.min(FULL_PAGES, lastPage100) }, (_, i) => 1 + Math.floor((i * lastPage100) / Math.min(FULL_PAGES, lastPage100)))));
  const collectionPath = `/v2/id/${k.collection}`;

  // Collection: raw page queries, then HTTP on both apps (stubs do not touch the record cache).
  log(`${k.name}: collection baselines`);
  const labelsPage1 = stats(await timeEach(rounds([page10(1)], 100), pageLabels));
  const labelsSpread = stats(await timeEach(spread.map(page10), pageLabels));
  const labelsFilter = stats(await timeEach(rounds([k.filter.ids], 100), pageLabels));
  const labelsQ = stats(await timeEach(rounds([k.q.ids], 100), pageLabels));
  const fullIds = fullPages.map((page) => k.iris.slice((page - 1) * 100, page * 100) as string[]);
  const records100 = stats(await timeEach(rounds(fullIds, Math.max(3, Math.ceil(60 / fullIds.length))), pageRecords, 5));
  const recordsPerFullPage = fullIds.reduce((n, ids) => n + ids.length, 0) / fullIds.length;

  const stubCase = async (figure: string, paths: string[], baselineName: string, baseline: Stats, note: string): Promise<void> => {
    log(`${k.name}: ${figure}`);
    const requests = Math.max(SEQUENTIAL, paths.length);
    const off = await sequential(apps.off, paths, requests);
    // Cache on: a first pass over every path fills the stub cache; the figure is the pass after it.
    const first = await sequential(apps.on, paths);
    const on = await sequential(apps.on, paths, requests);
    const extra = statusNote(off, first, on);
    const firstNote = `cache on: warm (first pass p50 ${quantile(first.latencies, 0.5).toFixed(2)} ms)`;
    lines.push({ figure, baselineName, baseline, off: stats(off.latencies), on: stats(on.latencies), note: [note, firstNote, extra].filter(Boolean).join('; ') });
  };
  await stubCase('10 stubs, page 1', [collectionPath], 'page-labels, 10 ids', labelsPage1, '');
  await stubCase(`10 stubs, ${SPREAD_PAGES} pages spread`, spread.map((p) => `${collectionPath}?page=${p}`), 'page-labels, 10 ids', labelsSpread, `${lastPage10} pages of 10`);
  await stubCase(`filtered (${queryString(k.filter.query)})`, [`${collectionPath}?${queryString(k.filter.query)}`], 'page-labels, its 10 ids', labelsFilter, `${k.filter.total} match`);
  await stubCase(`q=${k.q.word}`, [`${collectionPath}?${queryString({ q: k.q.word })}`], 'page-labels, its 10 ids', labelsQ, `${k.q.total} match`);

  log(`${k.name}: 100 full records`);
  const fullPaths = fullPages.map((p) => `${collectionPath}?fullRecord=true&itemsPerPage=100&page=${p}`);
  const fullOff = await sequential(apps.off, fullPaths, Math.max(60, fullPaths.length));
  // Cache on: every page once, before any record of this kind was asked of this app; then again, warm.
  const fullFirst = await sequential(apps.on, fullPaths);
  const fullWarm = await sequential(apps.on, fullPaths, Math.max(SEQUENTIAL, fullPaths.length));
  const fullNote = `${fullPaths.length} pages, ${recordsPerFullPage.toFixed(0)} records each; baseline: page-records SELECT only (no shaping)`;
  lines.push({ figure: '100 full records, first touch', baselineName: 'page-records, 100 ids', baseline: records100, off: stats(fullOff.latencies), on: stats(fullFirst.latencies), note: [`cache off: every request queries and shapes; ${fullNote}`, statusNote(fullOff, fullFirst)].filter(Boolean).join('; ') });
  lines.push({ figure: '100 full records, warm', baselineName: 'page-records, 100 ids', baseline: records100, on: stats(fullWarm.latencies), note: statusNote(fullWarm) });

  // Single record: the raw CONSTRUCT, then HTTP cache off, then cache on (a first pass fills it).
  log(`${k.name}: single record (${k.pids.length} pids)`);
  // The kind's own Records (cache 0), so the baseline runs the very CONSTRUCT the endpoint runs.
  const records = new Records({ kind: k.name, record: k.record }, store, queries, iris, new StatusIndex(store, queries, iris), 0);
  const quads = new Map<string, number>();
  const construct = stats(
    await timeEach(k.pids, async (pid) => {
      const nquads = await records.constructRecord(iris.record(k.name, pid));
      quads.set(pid, nquads.split('\n').filter((line) => line !== '').length);
    }),
  );
  const quadsPerRecord = [...quads.values()].reduce((a, b) => a + b, 0) / quads.size;
  const paths = k.pids.map((pid) => `/v2/id/${k.name}/${encodeURIComponent(pid)}`);
  const recordOff = await sequential(apps.off, paths);
  const fill = await sequential(apps.on, paths);
  const recordOn = await sequential(apps.on, paths);
  const off = stats(recordOff.latencies);
  const on = stats(recordOn.latencies);
  const recordNote = [`${k.pids.length} pids, ${quadsPerRecord.toFixed(0)} quads per record; cache on: second pass (first pass p50 ${quantile(fill.latencies, 0.5).toFixed(2)} ms)`, statusNote(recordOff, fill, recordOn)].filter(Boolean).join('; ');
  lines.unshift(
    { figure: 'single record p50', baselineName: 'records/record CONSTRUCT p50', baseline: construct, off, on, note: recordNote },
    {
      figure: 'single record p99',
      baselineName: 'records/record CONSTRUCT p99',
      baseline: { ...construct, p50: construct.p99 },
      off: { ...off, p50: off.p99 },
      on: { ...on, p50: on.p99 },
    },
  );
  return { kind: k, lines };
}

const results: KindResult[] = [];
for (const k of kinds) results.push(await measure(k));
details.rssAtEndMiB = rssMiB();

for (const server of servers) server.close();
await store.close();
clearInterval(loadSampler);
details.loadavgAtEnd = loadavg();
details.loadavg1mDuringRun = loadSamples.length === 0 ? undefined : { min: Math.min(...loadSamples), mean: loadSamples.reduce((a, b) => a + b, 0) / loadSamples.length, max: Math.max(...loadSamples), samples: loadSamples.length };

// ---------------------------------------------------------------------------------------------------------
// Rows (JSON) and markdown tables.

const ms = (value: number): string => `${formatNumber(value)} ms`;
const times = (value: number, baseline: number): string => `${(value / baseline).toFixed(2)}×`;

for (const { kind: k, lines } of results) {
  for (const line of lines) {
    for (const [cache, s] of [['cache off', line.off], ['cache on', line.on]] as const) {
      if (!s) continue;
      const p99 = line.figure.endsWith('p99');
      rows.push({
        figure: `${k.name}: ${line.figure}${p99 || line.figure.startsWith('single') ? '' : ' p50'}, ${cache}`,
        value: s.p50,
        unit: 'ms',
        baselineName: line.baselineName,
        baseline: line.baseline.p50,
        ratio: s.p50 / line.baseline.p50,
        note: [p99 || line.figure.startsWith('single') ? '' : `p99 ${s.p99.toFixed(2)} ms (baseline p99 ${line.baseline.p99.toFixed(2)} ms)`, line.note ?? ''].filter(Boolean).join('; '),
      });
    }
  }
  const r = k.report;
  rows.push({
    figure: `${k.name}: collection index build`,
    value: r.ms.total / 1000,
    unit: 's',
    note: `${r.records} records; SELECTs ${r.ms.queries.toFixed(0)} ms, table ${r.ms.table.toFixed(0)} ms, sorts ${r.ms.sorts.toFixed(0)} ms, text ${r.ms.text.toFixed(0)} ms, filters ${r.ms.filters.toFixed(0)} ms; heap Δ during build ${(r.heapUsedDeltaBytes / 2 ** 20).toFixed(1)} MiB`,
  });
  rows.push({ figure: `${k.name}: collection index memory (JS heap, after GC)`, value: k.heapAfterGcMiB, unit: 'MiB' });
}
rows.push({ figure: 'HTTP floor: GET /healthz p50', value: quantile(floor.latencies, 0.5), unit: 'ms', note: `p99 ${quantile(floor.latencies, 0.99).toFixed(2)} ms; same client, connection and app, no store` });

const out: string[] = [];
const seconds = (Date.now() - Date.parse(startedAt)) / 1000;
const load = details.loadavg1mDuringRun as { min: number; mean: number; max: number } | undefined;
out.push(`## kinds, ${objects.toLocaleString('en')} objects (${seconds.toFixed(0)} s)`);
out.push('');
out.push(
  `Machine load average (1/5/15 min) at start ${(details.loadavgAtStart as number[]).map((l) => l.toFixed(2)).join(' / ')}, at end ${(details.loadavgAtEnd as number[]).map((l) => l.toFixed(2)).join(' / ')}` +
    (load ? `; 1-min during the run min ${load.min.toFixed(2)}, mean ${load.mean.toFixed(2)}, max ${load.max.toFixed(2)}` : '') +
    `. RSS at end ${rssMiB().toFixed(0)} MiB. HTTP: one keep-alive connection, sequential, client in its own process; ratio = HTTP p50 ÷ raw store query p50 (same worker, same run); cache on = RECORD_CACHE_SIZE ${String(details.recordCacheSizeOn)}, figures after a first pass. ` +
    `HTTP floor (GET /healthz, same client and app, no store): p50 ${ms(quantile(floor.latencies, 0.5))}, p99 ${ms(quantile(floor.latencies, 0.99))}.`,
);
for (const { kind: k, lines } of results) {
  out.push('');
  out.push(`### ${k.name} (${k.listed.toLocaleString('en')} listed)`);
  out.push('');
  out.push('| figure | raw store (baseline) | HTTP cache off | ratio | HTTP cache on | ratio | p99 raw / off / on | notes |');
  out.push('|---|---|---|---|---|---|---|---|');
  for (const line of lines) {
    const b = line.baseline;
    const p99 = line.figure.endsWith('p99') || line.figure.startsWith('single') ? '' : [b, line.off, line.on].map((s) => (s ? formatNumber(s.p99) : '–')).join(' / ');
    out.push(
      `| ${line.figure} | ${ms(b.p50)} (${line.baselineName.replace(/ p(50|99)$/, '')}) | ${line.off ? ms(line.off.p50) : '–'} | ${line.off ? times(line.off.p50, b.p50) : ''} | ${line.on ? ms(line.on.p50) : '–'} | ${line.on ? times(line.on.p50, b.p50) : ''} | ${p99} | ${(line.note ?? '').replace(/\|/g, '\\|')} |`,
    );
  }
}
out.push('');
out.push('### collection index build and record counts');
out.push('');
out.push('| kind | source records | record graphs public / non-public | listed (index) | build | SELECTs | table | sorts | text | filters | JS heap after GC | heap Δ (BuildReport) |');
out.push('|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const { kind: k } of results) {
  const r = k.report;
  out.push(
    `| ${k.name} | ${k.sourceRecords.toLocaleString('en')} | ${(counts.publicRecords[k.name] ?? 0).toLocaleString('en')} / ${(counts.nonPublicRecords[k.name] ?? 0).toLocaleString('en')} | ${r.records.toLocaleString('en')} | ${formatNumber(r.ms.total / 1000)} s | ${ms(r.ms.queries)} | ${ms(r.ms.table)} | ${ms(r.ms.sorts)} | ${ms(r.ms.text)} | ${ms(r.ms.filters)} | ${formatNumber(k.heapAfterGcMiB)} MiB | ${formatNumber(r.heapUsedDeltaBytes / 2 ** 20)} MiB |`,
  );
}
out.push('');
out.push(`Each app also built its own indexes of every kind before the measurements (${formatNumber(details.appIndexBuildsSeconds as number)} s for both apps, objects included).`);
process.stdout.write(`${out.join('\n')}\n`);

details.kinds = results.map(({ kind: k, lines }) => ({
  kind: k.name,
  listed: k.listed,
  sourceRecords: k.sourceRecords,
  indexBuild: k.report,
  heapAfterGcMiB: k.heapAfterGcMiB,
  filter: { query: k.filter.query, total: k.filter.total },
  q: { word: k.q.word, total: k.q.total },
  lines,
}));
const result: BenchResult = { benchmark: 'kinds', objects, startedAt, seconds, rows, details };
// run.ts gathers the JSON result; the tables above are this module's markdown rather than formatTable's.
if (process.env.BENCH_RESULT_FILE) writeFileSync(process.env.BENCH_RESULT_FILE, `${JSON.stringify(result, null, 2)}\n`);
process.exit(0);
