/**
 * Benchmark of full-text search on the objects collection (`q`, issue "The hot path at first touch": p99 of q
 * at 50k objects ≤ 10 ms for common words) for one collection size (`--objects N`). The real app (createApp
 * over a StoreManager on the bench generation, rate limit off, silent logs) on a real port of 127.0.0.1,
 * driven by a client in a child process (http-load.ts, one keep-alive connection, one request at a time).
 *
 * The words come from the bench data itself: the words most records have (titles and descriptions, any
 * language, stop words left out), the most common two-word phrases of the descriptions, words of middling
 * frequency, and rare words (5 to 20 records). Cases: common words alone, two common words (AND), common
 * phrases, OR, a negation, common words with sortBy and with filters, a deep page and the last page, 100 per
 * page, middling words, rare words, and `vaas` (collection.ts's case).
 *
 * For each case, in the same run: HTTP p50/p99 (each path asked once first, so that the page's members are
 * cached as they are for repeated requests; that first pass is reported apart) beside
 *   (a) the same requests' index call in process, without HTTP (CollectionIndex.select), and
 *   (b) the previous select (test/unit/search-reference.ts previousSelect: MiniSearch's search, every match
 *       scored and sorted), over HTTP too (CollectionIndex.prototype.select swapped for it while that case's
 *       old-path requests run) and in process;
 * and the `/healthz` floor (HTTP round trip of the same client to the same server, nothing searched) at the
 * start, middle and end. Figures only; nothing is asserted.
 * Run through run.ts, or alone: npx tsx test/bench/search.ts --objects N
 */
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { AppContext } from '../../src/engine/app-context.js';
import { createApp } from '../../src/app.js';
import { CollectionIndex, type CollectionRequest, type CollectionSlice } from '../../src/collection-index/collection-index.js';
import { STOP_WORDS, tokenize } from '../../src/collection-index/text/analysis.js';
import { parseTextQuery } from '../../src/collection-index/text/query-parser.js';
import { TextIndex } from '../../src/collection-index/text/text-index.js';
import { loadConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/config/logger.js';
import { parseCollectionQuery } from '../../src/endpoints/collection-params.js';
import { sharedIndexes } from '../../src/engine/indexes.js';
import { Metrics } from '../../src/http/metrics.js';
import { listen } from '../../src/http/server-lifecycle.js';
import { OBJECTS } from '../../src/kinds/objects/kind.js';
import type { ObjectTable } from '../../src/kinds/objects/table.js';
import { QueryLibrary } from '../../src/queries/library.js';
import { StoreManager } from '../../src/store/store-manager.js';
import { Iris } from '../../src/vocab/iris.js';
import { previousSelect } from '../unit/search-reference.js';
import { BENCH_BASE_URL, benchGeneration } from './bench-data.js';
import type { SequentialResult } from './http-load.js';
import { runLoadClient } from './load-client.js';
import { emitResult, log, objectsArg, quantile, rssMiB, type BenchRow } from './report.js';
import { KIND_NAMES } from '../../src/kinds/index.js';

const objects = objectsArg();
/** Timed HTTP requests per case on the new path (after one untimed pass over the case's paths). */
const SEQUENTIAL = 300;
/** … and on the previous path, which is slower; at most this many, and at most OLD_BUDGET_MS of them. */
const OLD_SEQUENTIAL = 100;
const OLD_BUDGET_MS = 20_000;
/** In-process calls per case (cycling through its requests). */
const IN_PROCESS = 300;
const HEALTH = 500;
const GOAL_MS = 10;
const startedAt = new Date().toISOString();
const rows: BenchRow[] = [];
const details: Record<string, unknown> = { loadavgAtStart: loadavg(), sequentialRequests: SEQUENTIAL, oldSequentialRequests: OLD_SEQUENTIAL, inProcessCalls: IN_PROCESS };
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const data = await benchGeneration(objects);
details.generation = { dir: data.generation.dir, counts: data.generation.manifest.counts };

const store = new StoreManager({ includeNonPublic: true });
let started = performance.now();
await store.start(data.generation.dir);
rows.push({ figure: 'REST store load', value: (performance.now() - started) / 1000, unit: 's', note: `RSS ${rssMiB().toFixed(0)} MiB after` });

const iris = new Iris(BENCH_BASE_URL);
const config = loadConfig({ BASE_URL: BENCH_BASE_URL, DATA_DIR: data.dataDir, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'silent' });
const ctx: AppContext = { config, iris, store, logger: createLogger(config), metrics: new Metrics(), queries: new QueryLibrary(), kinds: KIND_NAMES };
started = performance.now();
const server = await listen(createApp(ctx), 0, '127.0.0.1');
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const first = await runLoadClient<SequentialResult>({ mode: 'sequential', origin, paths: ['/v2/id/objects'] });
rows.push({ figure: 'first collection request after start (waits for the build)', value: (performance.now() - started) / 1000, unit: 's', note: `status ${JSON.stringify(first.statuses)}` });
// The app's own index (shared per store), for the in-process figures.
const index = (await sharedIndexes(ctx, OBJECTS).current()) as CollectionIndex<ObjectTable>;

/**
 * Memory and build time of the objects' text index: as served (postings in typed arrays, built without
 * MiniSearch) beside MiniSearch itself, which the index was until 2026-11-27 (built here for the reference
 * search that the previous select below uses). Heap and ArrayBuffer growth after a GC.
 */
async function textIndexMemory(): Promise<void> {
  // ArrayBuffers are freed by a sweeper after the GC: wait for it.
  const held = async (): Promise<number> => {
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const { heapUsed, arrayBuffers } = process.memoryUsage();
    return heapUsed + arrayBuffers;
  };
  const fields = OBJECTS.index.textFields(index.table);
  let t = performance.now();
  let served: TextIndex | undefined = await TextIndex.build(index.table.size, fields);
  const servedMs = performance.now() - t;
  // What it holds: the memory with it, less the memory once it is dropped (anything else freed meanwhile, such as
  // the stored index the app's build read, is then not counted). Read after the measurement, so that it is alive.
  const withServed = await held();
  const postingBytes = served.postingBytes ?? 0;
  served = undefined;
  const servedBytes = withServed - (await held());
  const before = await held();
  t = performance.now();
  // The app's own index: its reference MiniSearch is built now, as the previous select below needs it.
  index.text.findReference(parseTextQuery(words.common[0]!), index.table.size);
  const referenceMs = performance.now() - t;
  const referenceBytes = (await held()) - before;
  rows.push({
    figure: 'objects text index held: postings in typed arrays (as served)',
    value: servedBytes / 2 ** 20,
    unit: 'MiB',
    baselineName: 'MiniSearch (as served before), MiB',
    baseline: referenceBytes / 2 ** 20,
    ratio: servedBytes / referenceBytes,
    note: `arrays ${(postingBytes / 2 ** 20).toFixed(1)} MiB; built in ${(servedMs / 1000).toFixed(2)} s against ${(referenceMs / 1000).toFixed(2)} s for MiniSearch`,
  });
}

/** Words by how many records have them, phrases by how many descriptions have them. */
function vocabulary(): { common: string[]; middling: string[]; rare: string[]; phrases: string[] } {
  const fields = OBJECTS.index.textFields(index.table).filter((field) => field.analysis !== 'identifier');
  const words = new Map<string, number>();
  const pairs = new Map<string, number>();
  for (let id = 0; id < index.table.size; id++) {
    const seenWords = new Set<string>();
    const seenPairs = new Set<string>();
    for (const field of fields) {
      const text = field.text(id);
      if (text === undefined) continue;
      for (const line of text.split('\n')) {
        const tokens = tokenize(line);
        tokens.forEach((token, i) => {
          seenWords.add(token);
          const next = tokens[i + 1];
          if (next !== undefined && field.name.startsWith('description') && !(STOP_WORDS.has(token) && STOP_WORDS.has(next))) seenPairs.add(`${token} ${next}`);
        });
      }
    }
    for (const word of seenWords) words.set(word, (words.get(word) ?? 0) + 1);
    for (const pair of seenPairs) pairs.set(pair, (pairs.get(pair) ?? 0) + 1);
  }
  const byCount = (map: Map<string, number>): [string, number][] => [...map].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const ranked = byCount(words).filter(([word]) => !STOP_WORDS.has(word) && !/^\d+$/.test(word));
  details.vocabulary = { words: words.size, top: ranked.slice(0, 20), phrases: byCount(pairs).slice(0, 10) };
  return {
    common: ranked.slice(0, 6).map(([word]) => word),
    middling: ranked.slice(200, 206).map(([word]) => word),
    rare: ranked.filter(([, n]) => n >= 5 && n <= 20).slice(0, 6).map(([word]) => word),
    phrases: byCount(pairs).slice(0, 3).map(([pair]) => pair),
  };
}

const words = vocabulary();
log(`words: ${JSON.stringify(words)}`);
await textIndexMemory();
const [c1, c2, c3, c4, c5, c6] = words.common as [string, string, string, string, string, string];
const q = (text: string, extra = ''): string => `/v2/id/objects?q=${encodeURIComponent(text)}${extra}`;

/** The request CollectionIndex.select gets for `path`, parsed as the endpoint parses it. */
function requestOf(path: string): CollectionRequest<ObjectTable> {
  const query = Object.fromEntries(new URL(path, origin).searchParams);
  const parsed = parseCollectionQuery(query, OBJECTS.index, OBJECTS.record.view?.param);
  return { filters: parsed.filters, text: parsed.text, sort: parsed.sort, offset: (parsed.page - 1) * parsed.itemsPerPage, limit: parsed.itemsPerPage };
}

const totalOf = (path: string): number => index.select(requestOf(path)).total;
const lastPageOf = (path: string, perPage = 10): number => Math.max(1, Math.ceil(totalOf(path) / perPage));

interface Case {
  name: string;
  paths: string[];
  /** Common words: held to the goal. */
  common: boolean;
}
const cases: Case[] = [
  { name: `common words (${words.common.join(', ')})`, paths: words.common.map((w) => q(w)), common: true },
  { name: 'two common words (AND)', paths: [`${c1} ${c2}`, `${c3} ${c4}`, `${c5} ${c6}`, `${c1} ${c4}`].map((t) => q(t)), common: true },
  { name: `common phrases (${words.phrases.map((p) => `"${p}"`).join(', ')})`, paths: words.phrases.map((p) => q(`"${p}"`)), common: true },
  { name: 'common words OR', paths: [`${c1} OR ${c2}`, `${c3} OR ${c5}`].map((t) => q(t)), common: true },
  { name: 'common word with a negation', paths: [`${c1} -${c2}`, `${c2} -${c1}`].map((t) => q(t)), common: true },
  { name: 'common words, sortBy (titleNL, modified desc, dateBegin)', paths: [q(c1, '&sortBy=titleNL'), q(c2, '&sortBy=modified&sortOrder=desc'), q(c3, '&sortBy=dateBegin')], common: true },
  { name: 'common words with filters (hasImages, language=ENG&onDisplay=true, koepels=exclude)', paths: [q(c1, '&hasImages=true'), q(c2, '&language=ENG&onDisplay=true'), q(c3, '&koepels=exclude')], common: true },
  { name: 'common words, 100 per page', paths: [q(c1, '&itemsPerPage=100'), q(c2, '&itemsPerPage=100')], common: true },
  {
    name: 'common words, a middle page and the last page',
    paths: [q(c1, `&page=${Math.ceil(lastPageOf(q(c1)) / 2)}`), q(c1, `&page=${lastPageOf(q(c1))}`), q(c2, `&page=${lastPageOf(q(c2))}`)],
    common: true,
  },
  { name: `middling words (${words.middling.join(', ')})`, paths: words.middling.map((w) => q(w)), common: false },
  { name: `rare words (${words.rare.join(', ')})`, paths: words.rare.map((w) => q(w)), common: false },
  { name: 'vaas (collection.ts case)', paths: [q('vaas')], common: false },
];

async function http(paths: string[], requests: number): Promise<SequentialResult> {
  return runLoadClient<SequentialResult>({ mode: 'sequential', origin, paths, requests });
}

function inProcess(paths: string[], select: (request: CollectionRequest<ObjectTable>) => CollectionSlice, calls: number, budgetMs = Infinity): number[] {
  const requests = paths.map(requestOf);
  const times: number[] = [];
  const begin = performance.now();
  for (let i = 0; i < calls && performance.now() - begin < budgetMs; i++) {
    const t = performance.now();
    select(requests[i % requests.length]!);
    times.push(performance.now() - t);
  }
  return times;
}

const healthFloors: { at: string; p50: number; p99: number }[] = [];
async function healthFloor(at: string): Promise<void> {
  const result = await http(['/healthz'], HEALTH);
  healthFloors.push({ at, p50: quantile(result.latencies, 0.5), p99: quantile(result.latencies, 0.99) });
}

const originalSelect = CollectionIndex.prototype.select;
const oldSelect = function (this: CollectionIndex, request: CollectionRequest): CollectionSlice {
  return previousSelect(this, request);
};

await healthFloor('start');
const caseDetails: unknown[] = [];
details.cases = caseDetails;
for (const [n, c] of cases.entries()) {
  log(`case: ${c.name}`);
  const totals = c.paths.map(totalOf);
  gc();
  // New path: one pass (members fetched and cached, phrase tables made on first use), then timed.
  const coldPass = await http(c.paths, c.paths.length);
  const fresh = await http(c.paths, Math.max(SEQUENTIAL, c.paths.length));
  const inNew = inProcess(c.paths, (request) => index.select(request), IN_PROCESS);
  // Previous path, same paths (members already cached), over HTTP and in process.
  gc();
  CollectionIndex.prototype.select = oldSelect;
  let old: SequentialResult;
  let inOld: number[];
  try {
    const probe = inProcess(c.paths, (request) => previousSelect(index, request), c.paths.length);
    const each = Math.max(1, quantile(probe, 0.5));
    old = await http(c.paths, Math.max(c.paths.length, Math.min(OLD_SEQUENTIAL, Math.floor(OLD_BUDGET_MS / each))));
    inOld = inProcess(c.paths, (request) => previousSelect(index, request), IN_PROCESS, OLD_BUDGET_MS);
  } finally {
    CollectionIndex.prototype.select = originalSelect;
  }
  const p = (values: number[], at: number): number => quantile(values, at);
  const floor = healthFloors[healthFloors.length - 1]!;
  const note = `${c.paths.length} path(s), totals ${totals.join('/')}; first pass (members not cached yet) p50 ${p(coldPass.latencies, 0.5).toFixed(1)} ms, max ${Math.max(...coldPass.latencies).toFixed(1)} ms; /healthz floor p50 ${floor.p50.toFixed(2)} ms, p99 ${floor.p99.toFixed(2)} ms; statuses ${JSON.stringify(fresh.statuses)}`;
  rows.push({
    figure: `${c.name}: HTTP p50`,
    value: p(fresh.latencies, 0.5),
    unit: 'ms',
    baselineName: 'previous select over HTTP, p50',
    baseline: p(old.latencies, 0.5),
    ratio: p(fresh.latencies, 0.5) / p(old.latencies, 0.5),
    note,
  });
  rows.push({
    figure: `${c.name}: HTTP p99`,
    value: p(fresh.latencies, 0.99),
    unit: 'ms',
    baselineName: `previous select over HTTP, p99 of ${old.latencies.length}`,
    baseline: p(old.latencies, 0.99),
    ratio: p(fresh.latencies, 0.99) / p(old.latencies, 0.99),
    goal: c.common ? `≤ ${GOAL_MS} ms p99${objects === 50_000 ? '' : ' (goal at 50k)'}` : undefined,
    met: c.common ? p(fresh.latencies, 0.99) <= GOAL_MS : undefined,
  });
  rows.push({
    figure: `${c.name}: in process (select) p50 / p99`,
    value: p(inNew, 0.5),
    unit: 'ms',
    baselineName: 'previous select in process, p50',
    baseline: p(inOld, 0.5),
    ratio: p(inNew, 0.5) / p(inOld, 0.5),
    note: `p99 ${p(inNew, 0.99).toFixed(2)} ms (previous ${p(inOld, 0.99).toFixed(2)} ms, ${inOld.length} calls)`,
  });
  caseDetails.push({
    name: c.name,
    paths: c.paths,
    totals,
    http: { p50: p(fresh.latencies, 0.5), p99: p(fresh.latencies, 0.99), max: Math.max(...fresh.latencies), requests: fresh.latencies.length },
    firstPass: coldPass.latencies,
    httpPrevious: { p50: p(old.latencies, 0.5), p99: p(old.latencies, 0.99), requests: old.latencies.length, statuses: old.statuses },
    inProcess: { p50: p(inNew, 0.5), p99: p(inNew, 0.99) },
    inProcessPrevious: { p50: p(inOld, 0.5), p99: p(inOld, 0.99), calls: inOld.length },
  });
  if (n === Math.floor(cases.length / 2)) await healthFloor('middle');
}
await healthFloor('end');
for (const floor of healthFloors) rows.push({ figure: `/healthz floor (${floor.at}): p50`, value: floor.p50, unit: 'ms', note: `p99 ${floor.p99.toFixed(2)} ms over ${HEALTH} requests` });
details.healthFloors = healthFloors;
details.loadavgAtEnd = loadavg();
rows.push({ figure: 'RSS at the end', value: rssMiB(), unit: 'MiB' });

server.close();
await store.close();
emitResult({ benchmark: 'search', objects, startedAt, seconds: (Date.now() - Date.parse(startedAt)) / 1000, rows, details });
process.exit(0);
