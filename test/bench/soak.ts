/**
 * Soak of the public set-up of issue 44 (`npm run bench -- --only soak --objects 100000 [--minutes 20]`; on
 * request only): the REST API and the public /sparql on two Virtuosos of their own (STORE_URL, SPARQL_STORE_URL,
 * bulk publication to both from one folder that both servers list in DirsAllowed), two replicas
 * (`node --import tsx src/server.ts`) on one DATA_DIR with their rate-limit counters in one Redis, and for
 * `--minutes` (default 20) a mixed load across both replicas, every HTTP load client in a process of its own
 * (http-load.ts):
 *   - REST at a steady rate (records, collection pages with filters, indexes), its p50/p99 beside the same mix
 *     measured idle first in the same run (goal: p99 ≤ 3× idle, no answer other than 2xx);
 *   - ordinary SPARQL queries; the hostile shapes of issue 44, refused by the cost check (400): a 12,000-branch
 *     UNION, 26 chained BIND(CONCAT(?x, ?x)) doublings, 3,000 sibling OPTIONALs; and queries that pass the check
 *     but are heavy (a cross product that runs to the deadline, ten doublings of every label, a sort of every
 *     literal);
 *   - `ASK {}` straight to each Virtuoso every second (answered within 1 s?);
 *   - in the middle: a harvest of a changed copy of the source (every tenth object's title changed), so the
 *     replicas swap generations under load (harvest-to-ready), then the SPARQL Virtuoso killed (SIGKILL) and
 *     started again 30 s later on its database (kill to the first 503 of /sparql, restart to its first 200).
 * Peak RSS of the replicas and the servers is sampled every second, and the replicas' warnings and errors are
 * counted from their logs. The rate limit is on (RATE_LIMIT_PER_MINUTE 1,000,000, the most the setting allows):
 * `0` would skip the limiter and with it Redis, which production runs on every request; the limit itself must
 * never be met by the one client address of the bench. The Virtuosos run the settings of docs/operations.md
 * ("A large collection": MaxQueryExecutionTime 15, MaxQueryCostEstimationTime 0, no row cap, buffers as the
 * remote bench). Figures only; nothing is asserted. Alone: npx tsx test/bench/soak.ts --objects N --minutes M
 */
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { finished } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { SOURCE_FILES } from '../../src/harvest/schema.js';
import { startRedis, type RedisServer } from '../helpers/redis.js';
import { startServerProcess } from '../helpers/server-process.js';
import { freePort, ISQL_BIN, startVirtuoso, type VirtuosoServer } from '../helpers/virtuoso.js';
import { BENCH_BASE_URL, benchGeneration, samplePids, servablePids } from './bench-data.js';
import type { SequentialResult } from './http-load.js';
import { runLoadClient } from './load-client.js';
import { emitResult, log, loggedRows, objectsArg, pidOfProcess, quantile, rssMiBOfPid, type BenchRow } from './report.js';
import { RUNAWAY } from './runaway.js';
import { readiness, runDataCommand } from './to-ready.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TSX_LOADER = join(ROOT, 'node_modules/tsx/dist/loader.mjs');
const objects = objectsArg(process.argv.slice(2), 100_000);
const minutes = minutesArg(process.argv.slice(2), 20);
const SOAK_MS = minutes * 60_000;
const IDLE_SECONDS = 30;
/** REST requests a second over both replicas, idle and under load alike. */
const REST_RATE = 20;
const REST_TIMEOUT_MS = 30_000;
/** One ordinary SPARQL query every so often, the replicas in turn. */
const SPARQL_EVERY_MS = 2000;
/** One hostile shape every so often (the three in turn), and one heavy query that passes the check. */
const HOSTILE_EVERY_MS = 5000;
const HEAVY_EVERY_MS = 20_000;
const SPARQL_TIMEOUT_MS = 60_000;
const PROBE_EVERY_MS = 1000;
const PROBE_TIMEOUT_MS = 10_000;
/** How long the SPARQL server stays down after its kill. */
const DOWN_MS = 30_000;
const OUTAGE_POLL_MS = 250;
const JSON_RESULTS = 'application/sparql-results+json';

/** `--minutes M` (a positive number, fractions allowed for short trials). */
function minutesArg(argv: string[], fallback: number): number {
  const at = argv.indexOf('--minutes');
  const raw = at >= 0 ? argv[at + 1] : argv.find((a) => a.startsWith('--minutes='))?.slice('--minutes='.length);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--minutes must be a positive number, got ${raw}`);
  return n;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const count = (into: Record<string, number>, key: string): void => {
  into[key] = (into[key] ?? 0) + 1;
};
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

// ---------------------------------------------------------------- the queries

const CRM = 'PREFIX crm: <http://www.cidoc-crm.org/cidoc-crm/> PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>';

/** The shapes of issue 44 that took a museum offline; the cost check refuses each with 400. */
const HOSTILE: { name: string; query: string }[] = [
  // Short branches, so the text stays below the 256 kB cap (the issue's was 253 kB): refused, not 413.
  { name: '12,000-branch UNION', query: `SELECT * WHERE { ${Array.from({ length: 12_000 }, (_, i) => `{?s ?p ${i}}`).join('UNION')} }` },
  {
    name: '26 chained BIND(CONCAT(?x, ?x)) doublings',
    query: `${CRM} SELECT ?x27 WHERE { ?s rdfs:label ?x1 . ${Array.from({ length: 26 }, (_, i) => `BIND(CONCAT(?x${i + 1}, ?x${i + 1}) AS ?x${i + 2})`).join(' ')} }`,
  },
  { name: '3,000 sibling OPTIONALs', query: `SELECT * WHERE { ?s ?p ?o . ${Array.from({ length: 3000 }, (_, i) => `OPTIONAL { ?s ?p ?o${i} }`).join(' ')} }` },
];

/** Queries within every limit of the check whose cost lies in the data: each may run to the deadline. */
const heavy = (i: number): { name: string; query: string } =>
  [
    { name: 'cross product of every statement', query: RUNAWAY },
    {
      name: 'ten doublings of every label (growth 1,024, the limit)',
      query: `${CRM} SELECT (MAX(STRLEN(?x11)) AS ?n) WHERE { ?s rdfs:label ?x1 . ${Array.from({ length: 10 }, (_, j) => `BIND(CONCAT(?x${j + 1}, ?x${j + 1}) AS ?x${j + 2})`).join(' ')} }`,
    },
    // The LIMIT changes each time: an answer within the deadline would otherwise come from the result cache.
    { name: 'sort of every literal', query: `SELECT ?o WHERE { ?s ?p ?o FILTER(isLiteral(?o)) } ORDER BY DESC(STR(?o)) LIMIT ${10 + i}` },
  ][i % 3] as { name: string; query: string };

/** Ordinary queries, each different from the last (no answer from the result cache). */
function ordinary(i: number, pids: string[]): { name: string; query: string; accept: string } {
  const pid = pids[(i * 7919) % pids.length] as string;
  const iri = `<${BENCH_BASE_URL}/v2/id/object/${pid}>`;
  switch (i % 4) {
    case 0:
      return { name: 'a page of objects', query: `${CRM} SELECT ?o WHERE { ?o a crm:E22_Human-Made_Object } LIMIT 20 OFFSET ${(i * 37) % Math.max(1, objects - 20)}`, accept: JSON_RESULTS };
    case 1:
      return { name: 'an object\'s statements', query: `CONSTRUCT { ${iri} ?p ?x } WHERE { ${iri} ?p ?x }`, accept: 'text/turtle' };
    case 2:
      return { name: 'ASK an object', query: `${CRM} ASK { ${iri} a crm:E22_Human-Made_Object }`, accept: JSON_RESULTS };
    default:
      return {
        name: 'objects per type',
        query: `${CRM} SELECT ?type (COUNT(?o) AS ?n) WHERE { ?o a crm:E22_Human-Made_Object ; crm:P2_has_type ?type } GROUP BY ?type HAVING (COUNT(?o) > ${i % 1000}) ORDER BY DESC(?n) LIMIT 10`,
        accept: JSON_RESULTS,
      };
  }
}

interface SparqlAnswer {
  /** ms since the soak began. */
  at: number;
  replica: string;
  kind: string;
  name: string;
  /** HTTP status, or `timeout` / `error`. */
  status: string;
  retryAfter: boolean;
  ms: number;
}

/** One query to a replica's /sparql (POST, the body the query), timed. */
async function sparqlTo(origin: string, query: string, accept: string): Promise<{ status: string; retryAfter: boolean; ms: number }> {
  const started = performance.now();
  try {
    const res = await fetch(`${origin}/sparql`, { method: 'POST', headers: { 'content-type': 'application/sparql-query', accept }, body: query, signal: AbortSignal.timeout(SPARQL_TIMEOUT_MS) });
    await res.arrayBuffer();
    return { status: String(res.status), retryAfter: res.headers.get('retry-after') !== null, ms: performance.now() - started };
  } catch (err) {
    return { status: (err as Error).name === 'TimeoutError' ? 'timeout' : 'error', retryAfter: false, ms: performance.now() - started };
  }
}

// ---------------------------------------------------------------- processes and their memory

/** The highest RSS seen of one process, found again by `find` when it is gone (a restarted server). */
class PeakRss {
  private pid: number | undefined;
  peak: number | undefined;
  constructor(private readonly find: () => number | undefined) {}
  sample(): void {
    let rss = rssMiBOfPid(this.pid);
    if (rss === undefined) {
      this.pid = this.find();
      rss = rssMiBOfPid(this.pid);
    }
    if (rss !== undefined) this.peak = Math.max(this.peak ?? 0, rss);
  }
}

interface Replica {
  name: string;
  origin: string;
  dir: string;
  stop(): Promise<void>;
}

/** Warnings and errors of the replicas' logs (pino JSON lines at LOG_LEVEL=warn), counted by message. */
const replicaLog: Record<string, number> = {};
const replicaLogFirst: string[] = [];
function logLines(replica: string): (text: string) => void {
  let partial = '';
  return (text) => {
    const lines = (partial + text).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (line.trim() === '') continue;
      let key = `${replica}: ${line.slice(0, 160)}`;
      try {
        const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string }; status?: number; path?: string };
        const level = entry.level === undefined ? '?' : entry.level >= 50 ? 'error' : entry.level >= 40 ? 'warn' : 'info';
        // A request's line (a 4xx or 5xx answer) by status and route, not one key per path.
        const what = entry.msg === 'request' ? `request ${entry.status ?? '?'} ${(entry.path ?? '').split('/').slice(0, 4).join('/')}` : (entry.msg ?? '');
        key = `${level}: ${what}${entry.err?.message ? ` (${entry.err.message.slice(0, 120)})` : ''}`;
      } catch {
        // Not JSON: kept as it is.
      }
      if (replicaLog[key] === undefined && replicaLogFirst.length < 20) replicaLogFirst.push(`${seconds(performance.now())} ${replica}: ${line.slice(0, 600)}`);
      count(replicaLog, key);
    }
  };
}

async function startReplica(name: string, work: string, env: Record<string, string>, timeoutMs: number): Promise<Replica> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const dir = await mkdtemp(join(work, `replica-${name}-`));
  const stop = await startServerProcess({
    name: `replica ${name} (src/server.ts)`,
    bin: process.execPath,
    args: ['--import', TSX_LOADER, join(ROOT, 'src/server.ts')],
    dir,
    env: { ...env, PORT: String(port), NODE_OPTIONS: undefined },
    ready: async () => (await fetch(`${origin}/readyz`, { signal: AbortSignal.timeout(2000) })).ok,
    readyWhat: `answer ${origin}/readyz with 200`,
    timeoutMs,
    pollMs: 500,
    onOutput: logLines(name),
  });
  return { name, origin, dir, stop };
}

/**
 * Resolves once `ready()` is true (checked every `pollMs`), with the ms it took; NaN after `timeoutMs`, or as soon
 * as `failed()` says the work waited for has failed.
 */
async function timeUntil(ready: () => Promise<boolean>, timeoutMs: number, pollMs = 250, failed: () => boolean = () => false): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs && !failed()) {
    if (await ready().catch(() => false)) return performance.now() - started;
    await sleep(pollMs);
  }
  return NaN;
}

/** True once every replica serves a ready generation other than `not`, and a page of objects from it. */
async function allServeOther(replicas: Replica[], not: string | null): Promise<boolean> {
  for (const replica of replicas) {
    const r = await readiness(replica.origin);
    if (r?.status !== 'ready' || r.generation === null || r.generation === not) return false;
    const page = await fetch(`${replica.origin}/v2/id/objects`, { signal: AbortSignal.timeout(10_000) });
    await page.arrayBuffer();
    if (page.status !== 200) return false;
  }
  return true;
}

/** A copy of the source export in which every tenth object's titles end in " (herzien)": a changed harvest. */
async function changedSource(sourceDir: string, into: string): Promise<void> {
  await cp(sourceDir, into, { recursive: true });
  const file = join(into, SOURCE_FILES.objects);
  const changed = `${file}.changed`;
  const out = createWriteStream(changed);
  let i = 0;
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    if (line === '') continue;
    const record = JSON.parse(line) as { titles?: Record<string, string> };
    if (i++ % 10 === 0 && record.titles) for (const lang of Object.keys(record.titles)) record.titles[lang] = `${record.titles[lang]} (herzien)`;
    if (!out.write(`${JSON.stringify(record)}\n`)) await once(out, 'drain');
  }
  out.end();
  await finished(out);
  await rm(file);
  await cp(changed, file);
  await rm(changed);
}

/** Strings under keys that name a label, anywhere in a JSON document (an index's entries). */
function labelsIn(doc: unknown, into: string[] = []): string[] {
  if (Array.isArray(doc)) for (const item of doc) labelsIn(item, into);
  else if (doc !== null && typeof doc === 'object') {
    for (const [key, value] of Object.entries(doc)) {
      if (/label/i.test(key) && typeof value === 'string') into.push(value);
      else labelsIn(value, into);
    }
  }
  return into;
}

async function labelsOf(origin: string, path: string): Promise<string[]> {
  try {
    return [...new Set(labelsIn(await (await fetch(`${origin}${path}`, { signal: AbortSignal.timeout(30_000) })).json()))];
  } catch {
    return [];
  }
}

/** The REST mix: records 60 %, collection pages (filters, search, full records) 25 %, indexes 15 %. */
async function restPaths(origin: string, sourceDir: string): Promise<string[]> {
  const records = samplePids(servablePids(sourceDir), 3000, 44).map((pid) => `/v2/id/object/${pid}`);
  const listed = ((await (await fetch(`${origin}/v2/id/objects`)).json()) as { 'hydra:totalItems'?: number })['hydra:totalItems'] ?? objects;
  const lastPage = Math.max(1, Math.ceil(listed / 10));
  const types = (await labelsOf(origin, '/v2/id/types')).slice(0, 10);
  const materials = (await labelsOf(origin, '/v2/id/materials')).slice(0, 10);
  const pick = <T>(list: T[], i: number, fallback: T): T => (list.length === 0 ? fallback : (list[i % list.length] as T));
  const words = ['vaas', 'stoel', 'lamp', 'glas', 'hout', 'tafel', 'affiche', 'zilver'];
  const pageShapes = [
    (i: number) => `/v2/id/objects?page=${1 + ((i * 7919) % lastPage)}`,
    (i: number) => `/v2/id/objects?type=${encodeURIComponent(pick(types, i, 'vaas'))}`,
    (i: number) => `/v2/id/objects?material=${encodeURIComponent(pick(materials, i, 'glas'))}&page=${1 + (i % 3)}`,
    (i: number) => `/v2/id/objects?q=${pick(words, i, 'vaas')}`,
    (i: number) => `/v2/id/objects?fullRecord=true&itemsPerPage=20&page=${1 + ((i * 104_729) % Math.max(1, Math.floor(lastPage / 2)))}`,
    (i: number) => `/v2/id/objects?type=${encodeURIComponent(pick(types, i, 'vaas'))}&dateFrom=${1900 + (i % 100)}`,
    (i: number) => `/v2/id/objects?hasImages=true&sortBy=titleNL&sortOrder=desc&page=${1 + ((i * 31) % Math.max(1, Math.floor(lastPage / 2)))}`,
    (i: number) => `/v2/id/agents?page=${1 + (i % 20)}`,
    (i: number) => `/v2/id/agents?role=${i % 2 === 0 ? 'designer' : 'producer'}`,
    (i: number) => `/v2/id/exhibitions?page=${1 + (i % 5)}`,
    (i: number) => `/v2/id/concepts?page=${1 + (i % 10)}`,
  ];
  const pages = Array.from({ length: 1250 }, (_, i) => (pageShapes[i % pageShapes.length] as (i: number) => string)(Math.floor(i / pageShapes.length)));
  const indexShapes = ['/v2/id/types', '/v2/id/materials', '/v2/id/materials?onDisplay=true', '/v2/id/nationalities', '/v2/id/roles', '/v2/id/production', '/v2/id/production?onDisplay=true'];
  const indexes = Array.from({ length: 750 }, (_, i) => indexShapes[i % indexShapes.length] as string);
  return [...records, ...pages, ...indexes];
}

// ---------------------------------------------------------------- the run

const startedAt = new Date().toISOString();
const rows: BenchRow[] = loggedRows();
const details: Record<string, unknown> = { loadavgAtStart: loadavg(), minutes, restRate: REST_RATE, sparqlEveryMs: SPARQL_EVERY_MS, hostileEveryMs: HOSTILE_EVERY_MS, heavyEveryMs: HEAVY_EVERY_MS };
/** Undone in reverse order on the way out, however the run ends. */
const cleanups: (() => Promise<unknown>)[] = [];
const loadClients = new AbortController();
let cleaning: Promise<void> | undefined;
const cleanUp = (): Promise<void> =>
  (cleaning ??= (async () => {
    loadClients.abort();
    for (const undo of cleanups.reverse()) await undo().catch((err: unknown) => log(`clean-up: ${(err as Error).message}`));
  })());
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping the servers and removing the folders`);
    void cleanUp().finally(() => process.exit(130));
  });
}

const data = await benchGeneration(objects);
const work = await mkdtemp(join(tmpdir(), 'bench-soak-'));
cleanups.push(() => rm(work, { recursive: true, force: true }));
const bulkDir = join(work, 'bulk');
const dataDir = join(work, 'data');
await mkdir(bulkDir);
await mkdir(dataDir);

const peaks: Record<string, PeakRss> = {};
const sampler = setInterval(() => Object.values(peaks).forEach((p) => p.sample()), 1000);
cleanups.push(async () => clearInterval(sampler));

try {
  log('starting two Virtuosos (REST, SPARQL) and Redis');
  const virtuosoOptions = { resultSetMaxRows: null, numberOfBuffers: Math.min(680_000, Math.max(10_000, objects * 4)), startTimeoutMs: 120_000, maxQueryExecutionTime: 15, maxQueryCostEstimationTime: 0, dirsAllowed: [bulkDir] };
  const servers: { rest?: VirtuosoServer; sparql?: VirtuosoServer } = {};
  // Each pushed as soon as it runs: a failed start of the other still stops this one.
  const startServer = async (role: 'rest' | 'sparql'): Promise<VirtuosoServer> => {
    const server = await startVirtuoso(virtuosoOptions);
    cleanups.push(() => server.stop());
    servers[role] = server;
    peaks[`Virtuoso (${role === 'rest' ? 'REST' : 'SPARQL'})`] = new PeakRss(() => pidOfProcess(join(server.dir, 'virtuoso.ini')));
    return server;
  };
  const [rest, sparql] = await Promise.all([startServer('rest'), startServer('sparql')]);
  const redis: RedisServer = await startRedis();
  cleanups.push(() => redis.stop());
  const env: Record<string, string> = {
    BASE_URL: BENCH_BASE_URL,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    STORE_URL: rest.sparqlUrl,
    STORE_USER: rest.user,
    STORE_PASSWORD: rest.password,
    STORE_ROW_LIMIT: '0',
    SPARQL_STORE_URL: sparql.sparqlUrl,
    STORE_BULK_DIR: bulkDir,
    STORE_ISQL: `127.0.0.1:${rest.isqlPort}`,
    SPARQL_STORE_ISQL: `127.0.0.1:${sparql.isqlPort}`,
    STORE_ISQL_BIN: ISQL_BIN as string,
    // One loader: the REST server goes on serving while the second harvest loads into it, on the cores the
    // replicas share. With two (the default) the load took both, and the server's own time limit (15 s) ended
    // three record queries (the soak of 2026-11-29, 06:47). docs/configuration.md says the same to operators.
    STORE_BULK_LOADERS: '1',
    REDIS_URL: redis.url,
    RATE_LIMIT_PER_MINUTE: '1000000',
  };
  const harvest = (sourceDir: string): Promise<{ ms: number; output: string }> => runDataCommand(['--import', TSX_LOADER, join(ROOT, 'src/cli/harvest.ts')], [sourceDir, '--no-image-check'], env);

  // 1. The first harvest, published to both servers, and the replicas' start on it.
  log(`harvest of ${objects} objects, published to both servers`);
  const first = await harvest(data.sourceDir);
  const replicaStarted = performance.now();
  const readyTimeoutMs = Math.max(180_000, objects * 10);
  const replicas: Replica[] = [];
  await Promise.all(
    ['a', 'b'].map(async (name) => {
      const replica = await startReplica(name, work, env, readyTimeoutMs);
      cleanups.push(() => replica.stop());
      replicas.push(replica);
      peaks[`replica ${name}`] = new PeakRss(() => pidOfProcess('src/server.ts', replica.dir));
    }),
  );
  replicas.sort((x, y) => x.name.localeCompare(y.name));
  const replicasReadyMs = performance.now() - replicaStarted;
  const sparqlReadyMs = await timeUntil(async () => {
    for (const replica of replicas) if ((await sparqlTo(replica.origin, 'ASK {}', JSON_RESULTS)).status !== '200') return false;
    return true;
  }, readyTimeoutMs);
  const firstGeneration = (await readiness(replicas[0]!.origin))?.generation ?? null;
  rows.push({
    figure: `first harvest (${objects.toLocaleString('en')} objects, bulk publication to both servers)`,
    value: first.ms / 1000,
    unit: 's',
    note: `then both replicas' /readyz 200 ${seconds(replicasReadyMs)} after their start, /sparql 200 on both ${seconds(replicasReadyMs + sparqlReadyMs)} after it; generation ${firstGeneration}`,
  });

  // 2. The REST mix, warmed and then measured idle: the baseline.
  const paths = await restPaths(replicas[0]!.origin, data.sourceDir);
  const pids = samplePids(servablePids(data.sourceDir), 1000, 7);
  log(`REST mix of ${paths.length} paths; warming each replica`);
  // Each page shape and index a few times (the mix interleaves them), and a few records: a new app builds its
  // record statuses and collection indexes on its first requests, which are not part of either run.
  const warmPaths = [...new Set(paths.filter((p) => !p.startsWith('/v2/id/object/')))].slice(0, 100).concat(paths.slice(0, 20));
  for (const replica of replicas) await runLoadClient<SequentialResult>({ mode: 'sequential', origin: replica.origin, paths: warmPaths, requests: warmPaths.length }, loadClients.signal);

  // The ASK probes run from here to the end: their idle figures are the baseline of their loaded ones.
  interface Probe {
    at: number;
    ms: number;
    ok: boolean;
  }
  const probes: Record<'rest' | 'sparql', Probe[]> = { rest: [], sparql: [] };
  let soakStart = Infinity;
  let stopping = false;
  let stopNow = (): void => undefined;
  const stopped = new Promise<void>((resolve) => (stopNow = resolve));
  /** A sleep that ends early when the soak stops. */
  const pause = (ms: number): Promise<void> => Promise.race([sleep(ms), stopped]);
  const probeLoop = async (role: 'rest' | 'sparql', server: VirtuosoServer): Promise<void> => {
    while (!stopping) {
      const started = performance.now();
      let ok = false;
      try {
        const res = await fetch(`${server.sparqlUrl}?query=${encodeURIComponent('ASK {}')}`, { headers: { accept: JSON_RESULTS }, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
        await res.arrayBuffer();
        ok = res.ok;
      } catch {
        // A refused connection (the server killed) or no answer within the probe's timeout.
      }
      const ms = performance.now() - started;
      probes[role].push({ at: started, ms, ok });
      await pause(Math.max(0, PROBE_EVERY_MS - ms));
    }
  };
  const probing = [probeLoop('rest', rest), probeLoop('sparql', sparql)];

  log(`REST idle: ${REST_RATE} req/s over both replicas for ${IDLE_SECONDS} s`);
  const idleStart = performance.now();
  const idleRuns = await Promise.all(replicas.map((r) => runLoadClient<SequentialResult>({ mode: 'steady', origin: r.origin, paths, seconds: IDLE_SECONDS, rate: REST_RATE / replicas.length, timeoutMs: REST_TIMEOUT_MS }, loadClients.signal)));
  const idleEnd = performance.now();
  const idleLatencies = idleRuns.flatMap((r) => r.latencies);
  const idleStatuses: Record<string, number> = {};
  for (const run of idleRuns) for (const [status, n] of Object.entries(run.statuses)) idleStatuses[status] = (idleStatuses[status] ?? 0) + n;

  // 3. The soak.
  soakStart = performance.now();
  // The soak's own times ("first at 482.5 s") count from here; the log's, from the bench's start.
  log(`soak: ${minutes} min of mixed load on both replicas (soak time 0 s)`);
  const restRuns = Promise.all(
    replicas.map((r) =>
      runLoadClient<SequentialResult>({ mode: 'steady', origin: r.origin, paths, seconds: SOAK_MS / 1000, rate: REST_RATE / replicas.length, timeoutMs: REST_TIMEOUT_MS, timeline: true }, loadClients.signal),
    ),
  );
  const answers: SparqlAnswer[] = [];
  const inFlight = new Set<Promise<void>>();
  const send = (kind: string, n: number, q: { name: string; query: string; accept?: string }): void => {
    const replica = replicas[n % replicas.length] as Replica;
    const at = performance.now() - soakStart;
    const sent = sparqlTo(replica.origin, q.query, q.accept ?? JSON_RESULTS).then((a) => {
      answers.push({ at, replica: replica.name, kind, name: q.name, ...a });
    });
    inFlight.add(sent);
    void sent.finally(() => inFlight.delete(sent));
  };
  /** Sends `make(n)` every `everyMs` until the soak stops (open loop: a slow answer never delays the next). */
  const every = async (everyMs: number, offsetMs: number, make: (n: number) => void): Promise<void> => {
    await pause(offsetMs);
    for (let n = 0; !stopping; n++) {
      make(n);
      await pause(everyMs);
    }
  };
  const loops = [
    every(SPARQL_EVERY_MS, 0, (n) => send('ordinary', n, ordinary(n, pids))),
    every(HOSTILE_EVERY_MS, 1000, (n) => send('hostile', n, HOSTILE[n % HOSTILE.length]!)),
    every(HEAVY_EVERY_MS, 3000, (n) => send('heavy', n, heavy(n))),
  ];

  // The events in the middle, one after the other.
  const events: Record<string, unknown> = {};
  const windows: { name: string; from: number; to: number }[] = [];
  const outage: { at: number; replica: string; status: string; retryAfter: boolean }[] = [];
  const eventsDone = (async (): Promise<void> => {
    await sleep(0.2 * SOAK_MS);
    log('the second harvest (every tenth object changed), under load');
    const changedDir = join(work, 'source-changed');
    await changedSource(data.sourceDir, changedDir);
    const harvestStart = performance.now();
    const harvesting = harvest(changedDir);
    let harvestFailed: unknown;
    harvesting.catch((err: unknown) => (harvestFailed = err));
    const toReadyMs = await timeUntil(() => allServeOther(replicas, firstGeneration), Math.max(10 * 60_000, objects * 30), 250, () => harvestFailed !== undefined);
    const harvested = await harvesting.catch((err: unknown) => ({ ms: NaN, output: String(err) }));
    windows.push({ name: 'the second harvest, to both replicas serving it', from: harvestStart - soakStart, to: performance.now() - soakStart });
    events.secondHarvest = { toReadyMs, harvestMs: harvested.ms, output: harvested.output.slice(-2000), generation: (await readiness(replicas[0]!.origin))?.generation, failed: harvestFailed === undefined ? undefined : String(harvestFailed) };
    log(`second harvest: both replicas serve its generation ${seconds(toReadyMs)} after its start (harvest process ${seconds(harvested.ms)})`);

    await sleep(Math.max(5000, soakStart + 0.5 * SOAK_MS - performance.now()));
    log('SIGKILL of the SPARQL Virtuoso');
    let polling = true;
    const pollOutage = async (replica: Replica): Promise<void> => {
      for (let n = 0; polling; n++) {
        const a = await sparqlTo(replica.origin, `ASK { ?s ?p "outage probe ${replica.name} ${n}" }`, JSON_RESULTS);
        outage.push({ at: performance.now(), replica: replica.name, status: a.status, retryAfter: a.retryAfter });
        await sleep(OUTAGE_POLL_MS);
      }
    };
    const killAt = performance.now();
    await sparql.kill();
    const outagePolls = replicas.map(pollOutage);
    await sleep(DOWN_MS);
    log('restarting the SPARQL Virtuoso on its database');
    const restartAt = performance.now();
    await sparql.restart();
    const answeringAt = performance.now();
    const firstOk = async (replica: Replica): Promise<number> => {
      const deadline = performance.now() + 180_000;
      for (;;) {
        const ok = outage.find((o) => o.replica === replica.name && o.at > restartAt && o.status === '200');
        if (ok !== undefined || performance.now() > deadline) return ok?.at ?? NaN;
        await sleep(OUTAGE_POLL_MS);
      }
    };
    const backAt = await Promise.all(replicas.map(firstOk));
    polling = false;
    await Promise.all(outagePolls);
    const recoveredAt = Math.max(...backAt);
    windows.push({ name: 'the SPARQL server killed, to /sparql 200 again on both', from: killAt - soakStart, to: recoveredAt - soakStart });
    const first503 = replicas.map((r) => outage.find((o) => o.replica === r.name && o.at > killAt && o.status === '503' && o.retryAfter)?.at ?? NaN);
    events.kill = {
      killToFirst503Ms: first503.map((at) => at - killAt),
      restartToAnsweringMs: answeringAt - restartAt,
      restartTo200Ms: backAt.map((at) => at - restartAt),
      answeringTo200Ms: backAt.map((at) => at - answeringAt),
    };
    log(`SPARQL server back; /sparql 200 on both ${seconds(recoveredAt - restartAt)} after the restart began`);
  })();
  eventsDone.catch((err: unknown) => {
    events.error = (err as Error).stack ?? String(err);
    log(`the events stopped: ${(err as Error).message}`);
  });

  const [restDone] = await Promise.all([restRuns, eventsDone.catch(() => undefined)]);
  stopping = true;
  stopNow();
  await Promise.all([...loops, ...probing]);
  await Promise.all([...inFlight]);
  const soakMs = performance.now() - soakStart;
  log('soak done');

  // ---------------------------------------------------------------- figures
  const samples = restDone.flatMap((r, i) => (r.samples ?? []).map(([at, status, ms, path]) => [at, status, ms, path, replicas[i]?.name ?? '?'] as const));
  const during = (name: string): { from: number; to: number } | undefined => windows.find((w) => w.name === name);
  const windowOf = (at: number): string => windows.find((w) => at >= w.from && at <= w.to)?.name ?? 'otherwise';
  const loadLatencies = samples.filter(([, status]) => /^\d+$/.test(status)).map(([, , ms]) => ms);
  const restStatuses: Record<string, number> = {};
  for (const [, status] of samples) count(restStatuses, status);
  const non2xx = samples.filter(([, status]) => !/^2\d\d$/.test(status));
  const p = (values: number[], q: number): number => quantile(values, q);
  const idleP99 = p(idleLatencies, 0.99);
  const loadP99 = p(loadLatencies, 0.99);
  rows.push({
    figure: `REST p99 under load (${REST_RATE} req/s over both replicas, ${minutes} min)`,
    value: loadP99,
    unit: 'ms',
    baselineName: `idle, the same mix and rate for ${IDLE_SECONDS} s`,
    baseline: idleP99,
    ratio: loadP99 / idleP99,
    goal: '≤ 3×',
    met: loadP99 / idleP99 <= 3,
    note: `p50 ${p(loadLatencies, 0.5).toFixed(1)} ms (idle ${p(idleLatencies, 0.5).toFixed(1)} ms), max ${Math.max(...loadLatencies).toFixed(0)} ms; ${samples.length} requests (idle ${idleLatencies.length}, statuses ${JSON.stringify(idleStatuses)})`,
  });
  const non2xxByWindow: Record<string, Record<string, number>> = {};
  for (const [at, status] of non2xx) count((non2xxByWindow[windowOf(at)] ??= {}), status);
  rows.push({
    figure: 'REST answers other than 2xx under load',
    value: non2xx.length,
    unit: 'requests',
    goal: '0',
    met: non2xx.length === 0,
    note: `of ${samples.length} sent; statuses ${JSON.stringify(restStatuses)}${non2xx.length === 0 ? '' : `; by window ${JSON.stringify(non2xxByWindow)}; first at ${non2xx.slice(0, 5).map(([at, status]) => `${seconds(at)} (${status})`).join(', ')}`}`,
  });
  for (const w of windows) {
    const inside = samples.filter(([at, status]) => at >= w.from && at <= w.to && /^\d+$/.test(status)).map(([, , ms]) => ms);
    if (inside.length === 0) continue;
    rows.push({ figure: `REST p99 during ${w.name}`, value: p(inside, 0.99), unit: 'ms', baselineName: 'idle', baseline: idleP99, ratio: p(inside, 0.99) / idleP99, note: `${inside.length} requests from ${seconds(w.from)} to ${seconds(w.to)} of the soak; p50 ${p(inside, 0.5).toFixed(1)} ms` });
  }

  const outageWindow = during('the SPARQL server killed, to /sparql 200 again on both');
  const inOutage = (a: SparqlAnswer): boolean => outageWindow !== undefined && a.at >= outageWindow.from && a.at <= outageWindow.to;
  const tally = (list: SparqlAnswer[], by: (a: SparqlAnswer) => string = (a) => a.status): Record<string, number> => {
    const t: Record<string, number> = {};
    for (const a of list) count(t, by(a));
    return t;
  };
  const ordinaryOutside = answers.filter((a) => a.kind === 'ordinary' && !inOutage(a));
  const ordinaryOk = ordinaryOutside.filter((a) => a.status === '200');
  rows.push({
    figure: 'ordinary /sparql queries answered 200 (outside the SPARQL server\'s outage)',
    value: ordinaryOutside.length === 0 ? NaN : (100 * ordinaryOk.length) / ordinaryOutside.length,
    unit: '%',
    goal: '100 %',
    met: ordinaryOk.length === ordinaryOutside.length,
    note: `statuses ${JSON.stringify(tally(ordinaryOutside))} of ${ordinaryOutside.length}; p50 ${p(ordinaryOk.map((a) => a.ms), 0.5).toFixed(0)} ms, p99 ${p(ordinaryOk.map((a) => a.ms), 0.99).toFixed(0)} ms; by query ${JSON.stringify(tally(ordinaryOutside, (a) => `${a.name} ${a.status}`))}; during the outage ${JSON.stringify(tally(answers.filter((a) => a.kind === 'ordinary' && inOutage(a)), (a) => `${a.status}${a.retryAfter ? ' Retry-After' : ''}`))}`,
  });
  const hostile = answers.filter((a) => a.kind === 'hostile' && !inOutage(a));
  const refused = hostile.filter((a) => a.status === '400');
  rows.push({
    figure: 'hostile shapes of issue 44 refused with 400 (outside the outage)',
    value: refused.length,
    unit: 'queries',
    baselineName: 'sent',
    baseline: hostile.length,
    goal: 'all',
    met: refused.length === hostile.length,
    note: `${HOSTILE.map((h) => `${h.name}: ${JSON.stringify(tally(hostile.filter((a) => a.name === h.name)))}, worst ${Math.max(0, ...hostile.filter((a) => a.name === h.name).map((a) => a.ms)).toFixed(0)} ms`).join('; ')}; during the outage ${JSON.stringify(tally(answers.filter((a) => a.kind === 'hostile' && inOutage(a))))}`,
  });
  const heavyAnswers = answers.filter((a) => a.kind === 'heavy' && !inOutage(a));
  rows.push({
    figure: 'heavy queries that pass the check: answered (200) or ended at the deadline (504) (outside the outage)',
    value: heavyAnswers.filter((a) => a.status === '200' || a.status === '504').length,
    unit: 'queries',
    baselineName: 'sent',
    baseline: heavyAnswers.length,
    note: `${[0, 1, 2].map((i) => heavy(i).name).map((name) => `${name}: ${JSON.stringify(tally(heavyAnswers.filter((a) => a.name === name)))}, worst ${Math.max(0, ...heavyAnswers.filter((a) => a.name === name).map((a) => a.ms)).toFixed(0)} ms`).join('; ')}; during the outage ${JSON.stringify(tally(answers.filter((a) => a.kind === 'heavy' && inOutage(a))))}`,
  });
  rows.push({ figure: '/sparql statuses, every query of the soak (outage probes apart)', value: answers.length, unit: 'queries', note: JSON.stringify(tally(answers, (a) => `${a.kind} ${a.status}`)) });

  for (const role of ['rest', 'sparql'] as const) {
    const idle = probes[role].filter((pr) => pr.at >= idleStart && pr.at <= idleEnd && pr.ok);
    const killedFrom = outageWindow === undefined ? Infinity : soakStart + outageWindow.from;
    const killedTo = outageWindow === undefined ? -Infinity : soakStart + outageWindow.to;
    const loaded = probes[role].filter((pr) => pr.at >= soakStart && !(role === 'sparql' && pr.at >= killedFrom && pr.at <= killedTo));
    const answered = loaded.filter((pr) => pr.ok);
    const slow = loaded.filter((pr) => !pr.ok || pr.ms > 1000);
    const worst = Math.max(...loaded.map((pr) => pr.ms));
    rows.push({
      figure: `ASK {} straight to the ${role === 'rest' ? 'REST' : 'SPARQL'} Virtuoso every second: worst under load`,
      value: worst,
      unit: 'ms',
      baselineName: 'worst idle',
      baseline: Math.max(...idle.map((pr) => pr.ms)),
      ratio: worst / Math.max(...idle.map((pr) => pr.ms)),
      goal: 'none over 1 s',
      met: slow.length === 0,
      note: `${slow.length} of ${loaded.length} probes over 1 s or unanswered (${loaded.length - answered.length} unanswered); p99 ${p(answered.map((pr) => pr.ms), 0.99).toFixed(0)} ms${role === 'sparql' ? '; the outage\'s probes apart' : ''}`,
    });
  }

  const second = events.secondHarvest as { toReadyMs: number; harvestMs: number; failed?: string } | undefined;
  rows.push({
    figure: 'harvest-to-ready of the second harvest, under load (start to both replicas serving its generation)',
    value: second === undefined ? NaN : second.toReadyMs / 1000,
    unit: 's',
    baselineName: 'the first harvest, idle (harvest process alone, s)',
    baseline: first.ms / 1000,
    ratio: second === undefined ? NaN : second.toReadyMs / first.ms,
    note: second === undefined ? 'not reached' : `harvest process ${seconds(second.harvestMs)}${second.failed ? `; failed: ${second.failed.slice(0, 300)}` : ''}`,
  });
  const kill = events.kill as { killToFirst503Ms: number[]; restartToAnsweringMs: number; restartTo200Ms: number[]; answeringTo200Ms: number[] } | undefined;
  const outageTally: Record<string, number> = {};
  for (const o of outage) count(outageTally, `${o.status}${o.retryAfter ? ' Retry-After' : ''}`);
  rows.push({
    figure: 'SPARQL server SIGKILL to the first /sparql 503 with Retry-After (worst replica)',
    value: kill === undefined ? NaN : Math.max(...kill.killToFirst503Ms) / 1000,
    unit: 's',
    note: kill === undefined ? 'not reached' : `per replica ${kill.killToFirst503Ms.map((ms) => seconds(ms)).join(', ')}; /sparql probes every ${OUTAGE_POLL_MS} ms from the kill to their first 200: ${JSON.stringify(outageTally)}`,
  });
  rows.push({
    figure: `restart of the SPARQL server (${DOWN_MS / 1000} s after the kill) to the first /sparql 200 (worst replica)`,
    value: kill === undefined ? NaN : Math.max(...kill.restartTo200Ms) / 1000,
    unit: 's',
    note: kill === undefined ? 'not reached' : `the server answered ASK {} ${seconds(kill.restartToAnsweringMs)} after its start; /sparql 200 ${kill.answeringTo200Ms.map((ms) => seconds(ms)).join(', ')} after that`,
  });
  for (const [name, peak] of Object.entries(peaks).sort(([a], [b]) => a.localeCompare(b))) rows.push({ figure: `peak RSS, ${name}`, value: peak.peak ?? NaN, unit: 'MiB', note: 'sampled every second from its start to the end' });
  const warnings = Object.values(replicaLog).reduce((a, b) => a + b, 0);
  rows.push({ figure: 'replica log lines at warn or above', value: warnings, unit: 'lines', note: JSON.stringify(replicaLog).slice(0, 1500) });
  // REST minute by minute: where in the run a tail or a failure came from.
  details.restPerMinute = Array.from({ length: Math.ceil(SOAK_MS / 60_000) }, (_, minute) => {
    const inside = samples.filter(([at]) => at >= minute * 60_000 && at < (minute + 1) * 60_000);
    const ms = inside.filter(([, status]) => /^\d+$/.test(status)).map(([, , took]) => took);
    return { minute, requests: inside.length, p50: p(ms, 0.5), p99: p(ms, 0.99), max: Math.max(0, ...ms), non2xx: inside.filter(([, status]) => !/^2\d\d$/.test(status)).length };
  });
  details.restNon2xx = non2xx.slice(0, 100).map(([at, status, ms, path, replica]) => ({ at: Math.round(at), window: windowOf(at), replica, path, status, ms: Math.round(ms) }));
  details.restSlowest = [...samples].sort((x, y) => y[2] - x[2]).slice(0, 40).map(([at, status, ms, path, replica]) => ({ at: Math.round(at), window: windowOf(at), replica, path, status, ms: Math.round(ms) }));
  details.soakMs = soakMs;
  details.events = events;
  details.windows = windows;
  details.replicaLog = replicaLog;
  details.replicaLogFirst = replicaLogFirst;
  details.firstHarvestOutput = first.output.slice(-2000);
  details.restStatuses = restStatuses;
  details.sparqlAnswers = answers.map((a) => [Math.round(a.at), a.replica, a.kind, a.name, a.status, Math.round(a.ms)]);
  details.probes = Object.fromEntries(Object.entries(probes).map(([role, list]) => [role, list.map((pr) => [Math.round(pr.at - soakStart), Math.round(pr.ms), pr.ok])]));
} catch (err) {
  // The rows measured so far are still reported.
  details.error = (err as Error).stack ?? String(err);
  log(`stopped: ${(err as Error).message}`);
} finally {
  await cleanUp();
}
emitResult({ benchmark: 'soak', objects, startedAt, seconds: (Date.now() - Date.parse(startedAt)) / 1000, rows, details });
process.exit(details.error === undefined ? 0 : 1);
