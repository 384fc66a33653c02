/**
 * Benchmark of the pages for people (issue 43: cards, key facts and linked records) for one collection size
 * (`--objects N`): the real app (createApp over a StoreManager on the bench generation, rate limit off, logs at
 * info to /dev/null) on a real port of 127.0.0.1, every client in a child process (http-load.ts). Each figure
 * beside a baseline of the same run, first touch (pages and records nobody asked for before: distinct pages for
 * each case) and warm (the same requests again):
 *   1. a search page for people (`format=html`: its members as cards, made from the full records) beside the
 *      JSON-LD page of stubs and the JSON-LD page of full records it is made from;
 *   2. an agent's page for people (key facts and the cards of up to 12 of its objects) beside its JSON-LD;
 *   3. a collection narrowed by three filters (three immutable sets intersected, each a new set) beside the
 *      collection unfiltered.
 * Figures only; nothing is asserted. Run through run.ts, or alone: npx tsx test/bench/pages.ts --objects N
 */
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { pino } from 'pino';
import type { AppContext } from '../../src/engine/app-context.js';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/config/logger.js';
import { Metrics } from '../../src/http/metrics.js';
import { listen } from '../../src/http/server-lifecycle.js';
import { KIND_NAMES } from '../../src/kinds/index.js';
import { QueryLibrary } from '../../src/queries/library.js';
import { StoreManager } from '../../src/store/store-manager.js';
import { Iris } from '../../src/vocab/iris.js';
import { BENCH_BASE_URL, benchGeneration } from './bench-data.js';
import type { SequentialResult } from './http-load.js';
import { runLoadClient } from './load-client.js';
import { emitResult, log, objectsArg, quantile, type BenchRow } from './report.js';

const objects = objectsArg();
/** Requests per case and pass. */
const N = 20;
const startedAt = new Date().toISOString();
const rows: BenchRow[] = [];
const details: Record<string, unknown> = { loadavgAtStart: loadavg(), requestsPerCase: N };

const data = await benchGeneration(objects);
const store = new StoreManager({ includeNonPublic: true });
await store.start(data.generation.dir);
const config = loadConfig({ BASE_URL: BENCH_BASE_URL, DATA_DIR: data.dataDir, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'info' });
const logger = createLogger(config, pino.destination({ dest: '/dev/null', sync: false }));
const ctx: AppContext = { config, iris: new Iris(BENCH_BASE_URL), store, logger, metrics: new Metrics(), queries: new QueryLibrary(), kinds: KIND_NAMES };
const server = await listen(createApp(ctx), 0, '127.0.0.1');
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const run = (paths: string[]): Promise<SequentialResult> => runLoadClient<SequentialResult>({ mode: 'sequential', origin, paths, requests: paths.length });
const p50 = (result: SequentialResult): number => quantile(result.latencies, 0.5);
// Builds every kind's collection index and the record statuses before anything is measured.
await run(['/v2/id/objects', '/v2/id/agents', '/v2/id/exhibitions', '/v2/id/concepts']);

const total = ((await (await fetch(`${origin}/v2/id/objects`)).json()) as { 'hydra:totalItems': number })['hydra:totalItems'];
const lastPage = Math.floor(total / 10);
/** N distinct pages of 10 objects for case `k` of 3, spread over the collection. */
const pagesOf = (k: number): number[] => Array.from({ length: N }, (_, i) => 1 + ((3 * i + k) * 7919) % lastPage);

/** A case measured first touch, then warm, beside its baselines of the same run. */
function compare(figure: string, measured: [SequentialResult, SequentialResult], baselines: [string, SequentialResult, SequentialResult][], note: string): void {
  for (const [pass, i] of [['first touch', 0], ['warm', 1]] as const) {
    for (const [name, first, warm] of baselines) {
      const baseline = p50(i === 0 ? first : warm);
      rows.push({ figure: `${figure}, ${pass}: p50`, value: p50(measured[i]), unit: 'ms', baselineName: `${name}, ${pass}`, baseline, ratio: p50(measured[i]) / baseline, note });
    }
  }
}

// 1. Search pages for people.
log('search pages');
const stubs = pagesOf(0).map((p) => `/v2/id/objects?page=${p}`);
const full = pagesOf(1).map((p) => `/v2/id/objects?fullRecord=true&page=${p}`);
const cards = pagesOf(2).map((p) => `/v2/id/objects?format=html&page=${p}`);
const first = { stubs: await run(stubs), full: await run(full), cards: await run(cards) };
const warm = { stubs: await run(stubs), full: await run(full), cards: await run(cards) };
compare('objects page for people (10 cards)', [first.cards, warm.cards], [['JSON-LD page of stubs', first.stubs, warm.stubs], ['JSON-LD page of full records', first.full, warm.full]], `${N} distinct pages per case; statuses ${JSON.stringify(first.cards.statuses)}`);

// 2. Agent pages: the agents with a role, in two disjoint halves.
log('agent pages');
const agents = ((await (await fetch(`${origin}/v2/id/agents?role=designer&itemsPerPage=${2 * N}`)).json()) as { 'hydra:member': { '@id': string }[] })['hydra:member'].map((m) => new URL(m['@id']).pathname);
const agentJson = agents.slice(0, N);
const agentPages = agents.slice(N, 2 * N).map((path) => `${path}?format=html`);
const agentFirst = { json: await run(agentJson), page: await run(agentPages) };
const agentWarm = { json: await run(agentJson), page: await run(agentPages) };
compare('agent page for people (key facts, up to 12 object cards)', [agentFirst.page, agentWarm.page], [['agent JSON-LD', agentFirst.json, agentWarm.json]], `${agentJson.length} + ${agentPages.length} distinct designers; statuses ${JSON.stringify(agentFirst.page.statuses)}`);

// 3. Three filters, each a new set (the immutable Bitset), beside no filter; warm (stubs cached), many times.
log('filters');
const type = ((await (await fetch(`${origin}/v2/id/types`)).json()) as { 'hydra:member': { 'rdfs:label': string }[] })['hydra:member'][0]!['rdfs:label'];
const filtered = Array.from({ length: 10 * N }, () => `/v2/id/objects?type=${encodeURIComponent(type)}&hasImages=true&koepels=exclude`);
const plain = Array.from({ length: 10 * N }, () => '/v2/id/objects');
await run(filtered.slice(0, 1));
const filteredRun = await run(filtered);
const plainRun = await run(plain);
rows.push({ figure: 'objects page, three filters (warm): p50', value: p50(filteredRun), unit: 'ms', baselineName: 'objects page, no filter (warm)', baseline: p50(plainRun), ratio: p50(filteredRun) / p50(plainRun), note: `type=${type}&hasImages=true&koepels=exclude, ${filtered.length} requests each` });

emitResult({ benchmark: 'pages', objects, startedAt, seconds: (Date.now() - Date.parse(startedAt)) / 1000, rows, details });
server.close();
await store.close();
process.exit(0);
