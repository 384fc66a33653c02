/**
 * Memory accounted (issue 26): `/metrics` reports each store worker's memory as it last reported it: the REST
 * store's serving worker, and the SPARQL store's serving and standby workers, each with its V8 heap in use, its
 * external memory (Oxigraph's WebAssembly memory) and its ArrayBuffers. The figures come from the workers
 * themselves (process.memoryUsage() in a worker thread counts its own isolate), so two workers on the same
 * generation report about the same, and the WebAssembly memory dwarfs the heap.
 */
import request from 'supertest';
import { createApp } from '../../src/app.js';
import type { AppContext } from '../../src/engine/app-context.js';
import { loadConfig } from '../../src/config/config.js';
import { Metrics } from '../../src/http/metrics.js';
import { QueryLibrary } from '../../src/queries/library.js';
import { sharedEmbeddedStores } from '../../src/store/shared-store.js';
import { StoreManager } from '../../src/store/store-manager.js';
import { Iris } from '../../src/vocab/iris.js';
import { memoryLogger } from '../helpers/http-context.js';
import { makeSmallGeneration } from '../helpers/small-generation.js';
import { tempDir } from '../unit/store-fixtures.js';
import { KIND_NAMES } from '../../src/kinds/index.js';

const BASE = 'http://localhost:3000';

it('reports the memory of every store worker at /metrics: REST serving, SPARQL serving and standby', async () => {
  const { dir, remove } = await tempDir('worker-memory-');
  const rest = new StoreManager({ includeNonPublic: true });
  const sparql = new StoreManager({ includeNonPublic: false, standby: true });
  try {
    const config = loadConfig({ BASE_URL: BASE, DATA_DIR: `${dir}/data`, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'silent' });
    const generation = await makeSmallGeneration(config, dir, { seed: 1, publish: false });
    await Promise.all([rest.start(generation.dir), sparql.start(generation.dir)]);
    const ctx: AppContext = { config, iris: new Iris(BASE), store: rest, logger: memoryLogger('fatal').logger, metrics: new Metrics(), queries: new QueryLibrary(), kinds: KIND_NAMES };
    const app = createApp(ctx, { sparqlStore: sparql });
    // The standby reports once it has loaded.
    for (let i = 0; i < 100 && !sparql.standbyReady(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sparql.standbyReady()).toBe(true);

    const text = (await request(app).get('/metrics')).text;
    const gauge = new Map<string, number>();
    for (const match of text.matchAll(/^store_worker_memory_bytes\{store="(\w+)",worker="(\w+)",kind="(\w+)"\} (\d+(?:\.\d+)?(?:e\+\d+)?)$/gm)) {
      gauge.set(`${match[1]}/${match[2]}/${match[3]}`, Number(match[4]));
    }
    const workers = ['rest/serving', 'sparql/serving', 'sparql/standby'];
    expect([...new Set([...gauge.keys()].map((key) => key.slice(0, key.lastIndexOf('/'))))].sort()).toEqual(workers.sort());
    for (const worker of workers) {
      for (const kind of ['heap_used', 'external', 'array_buffers']) expect([worker, kind, (gauge.get(`${worker}/${kind}`) ?? -1) >= 0]).toEqual([worker, kind, true]);
      // Oxigraph's WebAssembly memory is counted as external, and is larger than the worker's JavaScript heap.
      expect([worker, gauge.get(`${worker}/external`)! > gauge.get(`${worker}/heap_used`)!]).toEqual([worker, true]);
    }
    // The two SPARQL workers hold the same generation: within a fifth of each other.
    const [a, b] = [gauge.get('sparql/serving/external')!, gauge.get('sparql/standby/external')!];
    expect(Math.abs(a - b) / Math.max(a, b)).toBeLessThan(0.2);
  } finally {
    await Promise.all([rest.close(), sparql.close()]);
    await remove();
  }
}, 120_000);

it('reports the two shared workers of the embedded store once, under rest, and the queries each has answered: both answer the REST requests', async () => {
  const { dir, remove } = await tempDir('worker-answers-');
  const { rest, sparql, manager } = sharedEmbeddedStores();
  try {
    const config = loadConfig({ BASE_URL: BASE, DATA_DIR: `${dir}/data`, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'silent', RECORD_CACHE_SIZE: '0' });
    const generation = await makeSmallGeneration(config, dir, { seed: 1, publish: false });
    await Promise.all([rest.start(generation.dir), sparql.start(generation.dir)]);
    for (let i = 0; i < 100 && !manager.standbyReady(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(manager.standbyReady()).toBe(true);
    const ctx: AppContext = { config, iris: new Iris(BASE), store: rest, logger: memoryLogger('fatal').logger, metrics: new Metrics(), queries: new QueryLibrary(), kinds: KIND_NAMES };
    const app = createApp(ctx, { sparqlStore: sparql });
    const answers = async (): Promise<Map<string, number>> => {
      const text = (await request(app).get('/metrics')).text;
      return new Map([...text.matchAll(/^store_worker_answers\{store="(\w+)",worker="(\w+)"\} (\d+)$/gm)].map((m) => [`${m[1]}/${m[2]}`, Number(m[3])]));
    };
    const before = await answers();
    expect([...before.keys()].sort()).toEqual(['rest/serving', 'rest/standby']);
    // Requests at once: their store queries go to whichever worker has fewer waiting.
    const pages = await Promise.all([1, 2, 3, 1, 2, 3, 1, 2].map((page) => request(app).get('/v2/id/objects').query({ page: String(page), itemsPerPage: '5', fullRecord: 'true' })));
    expect(pages.map((res) => res.status)).toEqual(Array(8).fill(200));
    const after = await answers();
    for (const worker of ['rest/serving', 'rest/standby']) expect([worker, after.get(worker)! > before.get(worker)!]).toEqual([worker, true]);
  } finally {
    await Promise.all([rest.close(), sparql.close()]);
    await remove();
  }
}, 120_000);
