/**
 * Benchmark of the index endpoints for one collection size (`--objects N`): each endpoint's latency beside the
 * time to compute its answer once, in the same run.
 *
 *   - compute once (in process, on the generation's collection indexes): the label counts of types, materials
 *     (all and on display), nationalities and roles; the production density's preparation (every object's
 *     merged years, then the prefix sums of a population) and one default axis of buckets;
 *   - raw store baseline: the naive alternative of one SPARQL GROUP BY per request (types and materials), run
 *     through the same store worker;
 *   - HTTP (the real app on a real port, client in its own process, one keep-alive connection): first touch
 *     (the first request of the generation, which computes and keeps the document) and warm p50/p99; for the
 *     production density also requests whose axis was never asked before (bucket and yearFrom varied: no kept
 *     document, buckets computed from the prepared population), `onDisplay=true`, and `q=` a common word
 *     (population prepared per request from the text matches).
 * Figures only; nothing is asserted. `npm run bench -- --only indexes --objects 50000`, or alone:
 * npx tsx test/bench/indexes.ts --objects N
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import type { AppContext } from '../../src/engine/app-context.js';
import { createApp } from '../../src/app.js';
import { buildCollectionIndex } from '../../src/collection-index/build.js';
import { loadConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/config/logger.js';
import { SIMILAR_LIMIT, similarObjects } from '../../src/kinds/objects/similar.js';
import { DEFAULT_AXIS, termSets } from '../../src/kinds/objects/indexes.js';
import { Metrics } from '../../src/http/metrics.js';
import { listen } from '../../src/http/server-lifecycle.js';
import { countLabels } from '../../src/engine/label-index.js';
import { DensityPopulation, densityBuckets, objectYears } from '../../src/kinds/objects/production-density.js';
import { KIND_NAMES, AGENTS, OBJECTS } from '../../src/kinds/index.js';
import { AGENT_ROLES } from '../../src/kinds/agents/table.js';
import { QueryLibrary } from '../../src/queries/library.js';
import { StoreManager } from '../../src/store/store-manager.js';
import { Iris } from '../../src/vocab/iris.js';
import { BENCH_BASE_URL, benchGeneration } from './bench-data.js';
import type { SequentialResult } from './http-load.js';
import { runLoadClient } from './load-client.js';
import { emitResult, log, objectsArg, quantile, type BenchResult, type BenchRow } from './report.js';

const objects = objectsArg();
const startedAt = new Date().toISOString();
const SEQUENTIAL = 300;
const COMPUTE_RUNS = 30;
const rows: BenchRow[] = [];
const details: Record<string, unknown> = { loadavgAtStart: loadavg(), sequential: SEQUENTIAL, computeRuns: COMPUTE_RUNS };

const data = await benchGeneration(objects);
const store = new StoreManager({ includeNonPublic: true });
await store.start(data.generation.dir);
const generationId = store.generation!.id;
const queries = new QueryLibrary();
const iris = new Iris(BENCH_BASE_URL);

log('collection indexes (objects, agents)');
const objectIndex = await buildCollectionIndex({ store, queries, iris }, OBJECTS.index, generationId);
const agentIndex = await buildCollectionIndex({ store, queries, iris }, AGENTS.index, generationId);
details.indexBuildSeconds = { objects: objectIndex.report.ms.total / 1000, agents: agentIndex.report.ms.total / 1000 };
details.listed = { objects: objectIndex.table.size, agents: agentIndex.table.size };

/** Runs `run` `times` times; ms per run (p50, and the first run alone). */
function timeRuns(run: () => unknown, times = COMPUTE_RUNS): { p50: number; first: number } {
  const ms: number[] = [];
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    run();
    ms.push(performance.now() - t);
  }
  return { p50: quantile(ms, 0.5), first: ms[0]! };
}

const objectTable = objectIndex.table;
const agentTable = agentIndex.table;
const onDisplay = objectTable.onDisplay;
const compute = {
  types: timeRuns(() => countLabels(termSets(objectTable.typeTerms, objectTable.typeLabels, true))),
  materials: timeRuns(() => countLabels(termSets(objectTable.materialTerms, objectTable.materialLabels, false))),
  'materials?onDisplay=true': timeRuns(() => countLabels(termSets(objectTable.materialTerms, objectTable.materialLabels, false), onDisplay)),
  nationalities: timeRuns(() => countLabels([...agentTable.nationalityLabels].map(([key, label]) => ({ label, ids: agentTable.nationalities.get(key) ?? [] })))),
  roles: timeRuns(() => countLabels(AGENT_ROLES.map((role) => ({ label: role, ids: agentTable.roles[role] })))),
};
const years = timeRuns(() => objectYears(objectTable.size, objectTable.spans), 10);
const spans = objectYears(objectTable.size, objectTable.spans);
const allIds = Array.from({ length: objectTable.size }, (_, id) => id);
const population = timeRuns(() => new DensityPopulation(spans, allIds), 10);
const prepared = new DensityPopulation(spans, allIds);
const buckets = timeRuns(() => densityBuckets(prepared, DEFAULT_AXIS), 200);
details.production = { spans: objectTable.spans.object.length, intervals: spans.begin.length, datedObjects: prepared.size };

log('raw store baselines (GROUP BY per request)');
const groupBy = (property: string): string => `PREFIX crm: <http://www.cidoc-crm.org/cidoc-crm/>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
SELECT ?label (COUNT(DISTINCT ?object) AS ?n) WHERE { GRAPH ?object { ?object a crm:E22_Human-Made_Object ; ${property} ?c . ?c rdfs:label ?label } } GROUP BY ?label ORDER BY DESC(?n)`;
const rawRuns = async (sparql: string, times = 5): Promise<number> => {
  const ms: number[] = [];
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    await store.query(sparql, { format: 'application/sparql-results+json', label: 'bench/group-by' });
    ms.push(performance.now() - t);
  }
  return quantile(ms, 0.5);
};
const raw = { types: await rawRuns(groupBy('crm:P2_has_type')), materials: await rawRuns(groupBy('crm:P45_consists_of')) };

log('HTTP');
const config = loadConfig({ BASE_URL: BENCH_BASE_URL, DATA_DIR: data.dataDir, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'silent' });
const ctx: AppContext = { config, iris, store, logger: createLogger(config), metrics: new Metrics(), queries, kinds: KIND_NAMES };
const server: Server = await listen(createApp(ctx), 0, '127.0.0.1');
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const sequential = (paths: string[], requests = paths.length): Promise<SequentialResult> => runLoadClient<SequentialResult>({ mode: 'sequential', origin, paths, requests });
// The app's own collection indexes first, so no build runs under a measurement.
await sequential(['/v2/id/objects?itemsPerPage=1', '/v2/id/agents?itemsPerPage=1']);
const floor = await sequential(['/healthz'], SEQUENTIAL);

const word = 'stoel';
const endpoints: { path: string; compute: { p50: number; first: number }; computeName: string; raw?: number }[] = [
  { path: '/v2/id/types', compute: compute.types, computeName: 'count labels once', raw: raw.types },
  { path: '/v2/id/materials', compute: compute.materials, computeName: 'count labels once', raw: raw.materials },
  { path: '/v2/id/materials?onDisplay=true', compute: compute['materials?onDisplay=true'], computeName: 'count labels once' },
  { path: '/v2/id/nationalities', compute: compute.nationalities, computeName: 'count labels once' },
  { path: '/v2/id/roles', compute: compute.roles, computeName: 'count labels once' },
  { path: '/v2/id/production', compute: { p50: years.p50 + population.p50 + buckets.p50, first: years.first + population.first + buckets.first }, computeName: 'years + population + buckets once' },
];
const statusNote = (...results: SequentialResult[]): string => {
  const bad = results.flatMap((r) => Object.entries(r.statuses).filter(([status]) => status !== '200'));
  return bad.length === 0 ? '' : `; statuses ${JSON.stringify(bad)}`;
};
for (const endpoint of endpoints) {
  const first = await sequential([endpoint.path]);
  const warm = await sequential([endpoint.path], SEQUENTIAL);
  const note = `first touch ${first.latencies[0]!.toFixed(2)} ms; warm p99 ${quantile(warm.latencies, 0.99).toFixed(2)} ms; compute once: first run ${endpoint.compute.first.toFixed(2)} ms, p50 of ${COMPUTE_RUNS} ${endpoint.compute.p50.toFixed(2)} ms${endpoint.raw === undefined ? '' : `; raw store GROUP BY p50 ${endpoint.raw.toFixed(0)} ms`}${statusNote(first, warm)}`;
  rows.push({ figure: `${endpoint.path}: first touch`, value: first.latencies[0]!, unit: 'ms', baselineName: endpoint.computeName, baseline: endpoint.compute.first, ratio: first.latencies[0]! / endpoint.compute.first });
  rows.push({ figure: `${endpoint.path}: warm p50`, value: quantile(warm.latencies, 0.5), unit: 'ms', baselineName: 'GET /healthz p50', baseline: quantile(floor.latencies, 0.5), ratio: quantile(warm.latencies, 0.5) / quantile(floor.latencies, 0.5), note });
  if (endpoint.raw !== undefined) rows.push({ figure: `${endpoint.path}: raw store GROUP BY (naive per-request)`, value: endpoint.raw, unit: 'ms' });
}

// Production density: axes never asked before (each request computes its buckets), onDisplay, q.
const axes = Array.from({ length: SEQUENTIAL }, (_, i) => `/v2/id/production?bucket=${5 + (i % 96)}&yearFrom=${1 + ((i * 37) % 1900)}`);
const fresh = await sequential(axes);
rows.push({ figure: '/v2/id/production, new axis each request p50', value: quantile(fresh.latencies, 0.5), unit: 'ms', baselineName: 'buckets of the default axis, in process', baseline: buckets.p50, note: `p99 ${quantile(fresh.latencies, 0.99).toFixed(2)} ms${statusNote(fresh)}` });
const displayFirst = await sequential(['/v2/id/production?onDisplay=true']);
const displayWarm = await sequential(['/v2/id/production?onDisplay=true'], SEQUENTIAL);
rows.push({ figure: '/v2/id/production?onDisplay=true: first touch', value: displayFirst.latencies[0]!, unit: 'ms', note: `warm p50 ${quantile(displayWarm.latencies, 0.5).toFixed(2)} ms${statusNote(displayFirst, displayWarm)}` });
const qPaths = Array.from({ length: 60 }, (_, i) => `/v2/id/production?q=${word}&bucket=${5 + i}`);
const qRuns = await sequential(qPaths);
const qTotal = objectIndex.select({ filters: [], text: (await import('../../src/collection-index/text/query-parser.js')).parseTextQuery(word), offset: 0, limit: 0 }).total;
rows.push({ figure: `/v2/id/production?q=${word} p50 (population per request)`, value: quantile(qRuns.latencies, 0.5), unit: 'ms', baselineName: `/v2/id/objects?q=${word}&itemsPerPage=1`, baseline: quantile((await sequential([`/v2/id/objects?q=${word}&itemsPerPage=1`], 60)).latencies, 0.5), note: `${qTotal} matches; p99 ${quantile(qRuns.latencies, 0.99).toFixed(2)} ms${statusNote(qRuns)}` });
// Related objects: the reverse postings once per generation, then a ranking per object.
const similarPids = objectTable.pids.filter((_, id) => id % Math.max(1, Math.floor(objectTable.size / 200)) === 0).slice(0, 200);
const similarFirst = performance.now();
similarObjects(objectTable, 0, SIMILAR_LIMIT.max);
const similarBuild = performance.now() - similarFirst;
const similarCompute: number[] = [];
for (const pid of similarPids) {
  const t = performance.now();
  similarObjects(objectTable, objectTable.pids.indexOf(pid), SIMILAR_LIMIT.max);
  similarCompute.push(performance.now() - t);
}
const similarHttp = await sequential(similarPids.map((pid) => `/v2/id/object/${pid}/similar`));
rows.push({
  figure: '/v2/id/object/{pid}/similar p50 (200 objects, each asked once)',
  value: quantile(similarHttp.latencies, 0.5),
  unit: 'ms',
  baselineName: 'GET /healthz p50',
  baseline: quantile(floor.latencies, 0.5),
  ratio: quantile(similarHttp.latencies, 0.5) / quantile(floor.latencies, 0.5),
  goal: '≤ 5 ms p50 at 50k',
  met: quantile(similarHttp.latencies, 0.5) <= 5,
  note: `p99 ${quantile(similarHttp.latencies, 0.99).toFixed(2)} ms; ranking in process p50 ${quantile(similarCompute, 0.5).toFixed(2)} ms, p99 ${quantile(similarCompute, 0.99).toFixed(2)} ms; reverse postings once per generation ${similarBuild.toFixed(0)} ms (in the first request)${statusNote(similarHttp)}`,
});
rows.push({ figure: 'production: merged years of every object (once per generation)', value: years.p50, unit: 'ms', note: `first run ${years.first.toFixed(1)} ms` });
rows.push({ figure: 'production: prefix sums of all objects (once per generation and population)', value: population.p50, unit: 'ms', note: `first run ${population.first.toFixed(1)} ms` });
rows.push({ figure: 'production: buckets of the default axis (per request)', value: buckets.p50, unit: 'ms' });
rows.push({ figure: 'collection index builds the indexes rest on', value: (objectIndex.report.ms.total + agentIndex.report.ms.total) / 1000, unit: 's', note: `objects ${(objectIndex.report.ms.total / 1000).toFixed(1)} s, agents ${(agentIndex.report.ms.total / 1000).toFixed(1)} s` });
rows.push({ figure: 'HTTP floor: GET /healthz p50', value: quantile(floor.latencies, 0.5), unit: 'ms' });

server.close();
await store.close();
details.loadavgAtEnd = loadavg();
const result: BenchResult = { benchmark: 'indexes', objects, startedAt, seconds: (Date.now() - Date.parse(startedAt)) / 1000, rows, details };
emitResult(result);
process.exit(0);
