/**
 * What /sparql remembers, on the demo generation: the policy's verdict per query text (which must never change a
 * verdict), and the per-generation result cache with its single flight (the same answer and headers without
 * the store, a format per entry, nothing kept across a generation swap, one store query for identical queries
 * asked at once, nothing kept of a failed or deadline-exceeded query, no answer above the size limit). The
 * app is the real one over the real SPARQL store, seen through a wrapper that counts (and, where a test needs
 * it, holds back) the queries that reach the store.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import request from 'supertest';
import type { Express } from 'express';
import { COMPRESSION_THRESHOLD, createApp } from '../../src/app.js';
import type { Config } from '../../src/config/config.js';
import { MAX_ROWS_HEADER } from '../../src/endpoints/sparql-endpoint.js';
import { Metrics } from '../../src/http/metrics.js';
import { BoundedLru } from '../../src/sparql/bounded-lru.js';
import { Cancellation } from '../../src/sparql/cancellation.js';
import { ResultCache } from '../../src/sparql/result-cache.js';
import { QueryDeadlineError } from '../../src/store/errors.js';
import { loadNQuadsFile } from '../../src/store/load.js';
import type { QueryOptions, QueryStore } from '../../src/store/types.js';
import { ensurePublished } from '../../src/store/stores.js';
import { startDemoApp, type DemoApp } from '../helpers/demo.js';
import { sampleValue } from '../helpers/prometheus.js';
import { agentGraph, objectGraph, tempDir, writeNQuads } from '../unit/store-fixtures.js';
import { KIND_NAMES } from '../../src/kinds/index.js';

const CRM = 'http://www.cidoc-crm.org/cidoc-crm/';
const COUNT = `SELECT (COUNT(?o) AS ?objects) WHERE { GRAPH ?o { ?o a <${CRM}E22_Human-Made_Object> } }`;
/** COUNT again, written differently: other layout, a comment, a prefix, `a` spelled out. */
const COUNT_REWRITTEN = `# objects in the collection
PREFIX crm: <${CRM}>
SELECT   (COUNT(?o) AS ?objects)
WHERE {
  GRAPH ?o {
    ?o <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> crm:E22_Human-Made_Object   # every object graph
  }
}`;
// A cube of every statement, each combination compared: long on any store (Virtuoso counts a bare cross
// product from its statistics at once).
const RUNAWAY = 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i FILTER(STR(?c) != STR(?f) && STR(?f) != STR(?i)) }';

/** The real SPARQL store, counting the queries that reach it; `hold` keeps them back, `fail` makes them fail. */
class ObservedStore implements QueryStore {
  readonly texts: string[] = [];
  hold: Promise<void> | undefined;
  fail: Error | undefined;

  constructor(private readonly inner: QueryStore) {}

  get generation(): QueryStore['generation'] {
    return this.inner.generation;
  }

  ready(): boolean {
    return this.inner.ready();
  }

  async query(sparql: string, opts?: QueryOptions): Promise<string> {
    this.texts.push(sparql);
    if (this.hold !== undefined) await this.hold;
    if (this.fail !== undefined) throw this.fail;
    return this.inner.query(sparql, opts);
  }
}

let demo: DemoApp;
beforeAll(async () => {
  demo = await startDemoApp({}, { sparql: true });
}, 600_000);
afterAll(() => demo.close());

/** A fresh app (fresh caches, fresh metrics) over the demo's SPARQL store, with `settings` changed. */
function appOver(settings: Partial<Config> = {}): { app: Express; store: ObservedStore; cacheSample: (outcome: string) => Promise<number> } {
  if (demo.sparqlStore === undefined) throw new Error('the demo app has no SPARQL store');
  const store = new ObservedStore(demo.sparqlStore);
  const metrics = new Metrics();
  const app = createApp({ ...demo.ctx, config: { ...demo.ctx.config, ...settings }, metrics }, { sparqlStore: store });
  const cacheSample = async (outcome: string): Promise<number> =>
    sampleValue((await request(app).get('/metrics')).text, 'sparql_result_cache_requests_total', { outcome }) ?? 0;
  return { app, store, cacheSample };
}

/** Until the SPARQL store answers clients' queries (the shared embedded store: both workers loaded). */
const untilReady = async (): Promise<void> => {
  while (!demo.sparqlStore?.ready()) await new Promise((resolve) => setTimeout(resolve, 50));
};

/** The headers a client relies on, without the per-response ones (Date, connection). */
const headersOf = (res: request.Response): Record<string, unknown> => {
  const { date: _date, connection: _connection, 'keep-alive': _keepAlive, ...rest } = res.headers as Record<string, unknown>;
  return rest;
};

describe('the policy verdict cached per query text', () => {
  const hostile: [string, number, RegExp][] = [
    ['SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }', 400, /^SERVICE is not allowed/],
    ['ASK { FILTER EXISTS { SERVICE <http://example.org/sparql> { ?s ?p ?o } } }', 400, /^SERVICE is not allowed/],
    ['DELETE WHERE { ?s ?p ?o }', 403, /^This SPARQL endpoint is read-only/],
    ['LOAD <http://example.org/data.ttl>', 403, /^This SPARQL endpoint is read-only/],
    ['SELECT * WHERE { ?s ?p ?o } ORDER BY ?nope(', 400, /^Invalid SPARQL query: /],
  ];

  it.each(hostile)('refuses %s every time it is asked, by GET and POST alike, without reaching the store', async (query, status, message) => {
    const { app, store } = appOver();
    const answers = [];
    for (let round = 0; round < 2; round++) {
      answers.push(
        await request(app).get('/sparql').query({ query }),
        await request(app).post('/sparql').type('form').send({ query }),
        await request(app).post('/sparql').set('Content-Type', 'application/sparql-query').send(query),
      );
    }
    for (const res of answers) {
      expect(res.status).toBe(status);
      expect(res.body.error).toMatch(message);
    }
    // The same words each time: the second answer is the first verdict, not a different one.
    expect(new Set(answers.map((res) => res.body.error)).size).toBe(1);
    expect(store.texts).toEqual([]);
  });

  it('allows again a query it allowed once, and sends the store the same text both times', async () => {
    const { app, store } = appOver({ sparqlResultCacheMb: 0 });
    const query = 'SELECT ?g WHERE { GRAPH ?g { } }';
    const first = await request(app).get('/sparql').query({ query });
    const second = await request(app).get('/sparql').query({ query });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body).toEqual(first.body);
    expect(first.headers[MAX_ROWS_HEADER.toLowerCase()]).toBe('10000');
    expect(headersOf(second)).toEqual(headersOf(first));
    expect(store.texts).toHaveLength(2);
    expect(store.texts[1]).toBe(store.texts[0]);
    expect(store.texts[0]).toMatch(/LIMIT 10000/);
  });

  it('decides per dataset: the same text with named-graph-uri is another verdict', async () => {
    const { app, store } = appOver({ sparqlResultCacheMb: 0 });
    const query = 'SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }';
    const union = await request(app).get('/sparql').query({ query });
    const none = await request(app).get('/sparql').query({ query, 'named-graph-uri': 'http://example.org/no-such-graph' });
    expect(Number(union.body.results.bindings[0].n.value)).toBeGreaterThan(0);
    expect(none.body.results.bindings[0].n.value).toBe('0');
    expect(store.texts[1]).not.toBe(store.texts[0]);
  });
});

describe('the result cache of the served generation', () => {
  it('answers a repeated query with the same body and headers without asking the store again', async () => {
    const { app, store, cacheSample } = appOver();
    const first = await request(app).get('/sparql').query({ query: COUNT });
    const second = await request(app).get('/sparql').query({ query: COUNT });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    expect(headersOf(second)).toEqual(headersOf(first));
    expect(store.texts).toHaveLength(1);
    expect([await cacheSample('miss'), await cacheSample('hit')]).toEqual([1, 1]);
    // The cached answer still revalidates: its ETag gives 304.
    const revalidated = await request(app).get('/sparql').query({ query: COUNT }).set('If-None-Match', String(first.headers.etag));
    expect(revalidated.status).toBe(304);
    expect(store.texts).toHaveLength(1);
  });

  it('takes a query written differently (layout, comments, prefixes) for the same one, and never two different ones', async () => {
    const { app, store } = appOver();
    const first = await request(app).get('/sparql').query({ query: COUNT });
    const rewritten = await request(app).get('/sparql').query({ query: COUNT_REWRITTEN });
    expect(rewritten.text).toBe(first.text);
    expect(store.texts).toHaveLength(1);
    // Another variable name, another class, DISTINCT: other queries, other answers.
    const others = [
      COUNT.replace('?objects', '?n'),
      COUNT.replace('E22_Human-Made_Object', 'E39_Actor'),
      COUNT.replace('COUNT(?o)', 'COUNT(DISTINCT ?o)'),
      COUNT.replace('{ GRAPH ?o', '{ VALUES ?o { <http://example.org/x> } GRAPH ?o'),
    ];
    for (const query of others) expect((await request(app).get('/sparql').query({ query })).status).toBe(200);
    expect(store.texts).toHaveLength(1 + others.length);
  });

  it('answers HEAD and gzip-accepting clients from the same entry, with the headers of a fresh answer', async () => {
    const { app, store } = appOver();
    // Five hundred graph IRIs: above the compression threshold.
    const LIST = 'SELECT ?g WHERE { GRAPH ?g { } } ORDER BY ?g LIMIT 500';
    // Uncompressed, as compression leaves HEAD alone.
    const head = await request(app).head('/sparql').query({ query: LIST }).set('Accept-Encoding', 'identity');
    const get = await request(app).get('/sparql').query({ query: LIST }).set('Accept-Encoding', 'identity');
    expect([head.status, get.status]).toEqual([200, 200]);
    expect(get.body.results.bindings).toHaveLength(500);
    expect(get.text.length).toBeGreaterThan(COMPRESSION_THRESHOLD);
    expect(headersOf(head)).toEqual(headersOf(get));
    expect(Number(get.headers['content-length'])).toBe(Buffer.byteLength(get.text));
    const headAgain = await request(app).head('/sparql').query({ query: LIST }).set('Accept-Encoding', 'identity');
    expect(headersOf(headAgain)).toEqual(headersOf(get));
    expect(store.texts).toHaveLength(1);

    const fresh = await request(appOver().app).get('/sparql').query({ query: LIST }).set('Accept-Encoding', 'gzip');
    const cached = await request(app).get('/sparql').query({ query: LIST }).set('Accept-Encoding', 'gzip');
    expect(fresh.headers['content-encoding']).toBe('gzip');
    expect(headersOf(cached)).toEqual(headersOf(fresh));
    expect(cached.text).toBe(get.text);
    expect(store.texts).toHaveLength(1);
  });

  it('keeps one entry per answer format, and serves the aliases of a format from its entry', async () => {
    const { app, store } = appOver();
    const json = await request(app).get('/sparql').query({ query: COUNT });
    const csv = await request(app).get('/sparql').query({ query: COUNT }).set('Accept', 'text/csv');
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.text).toMatch(/^objects\r\n\d+\r\n$/);
    expect(store.texts).toHaveLength(2);
    const csvAgain = await request(app).get('/sparql').query({ query: COUNT }).set('Accept', 'text/csv');
    expect(csvAgain.text).toBe(csv.text);
    const plainJson = await request(app).get('/sparql').query({ query: COUNT }).set('Accept', 'application/json');
    expect(plainJson.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(plainJson.text).toBe(json.text);
    // Each media type keeps its own ETag, as a fresh answer would have.
    expect(plainJson.headers.etag).not.toBe(json.headers.etag);
    expect(store.texts).toHaveLength(2);
  });

  it('asks the store once for identical queries sent at once, and gives every client the answer', async () => {
    const { app, store, cacheSample } = appOver();
    let release: () => void = () => undefined;
    store.hold = new Promise((resolve) => {
      release = resolve;
    });
    const clients = Array.from({ length: 12 }, (_, i) => request(app).get('/sparql').query({ query: i % 2 === 0 ? COUNT : COUNT_REWRITTEN }).then((res) => res));
    // Every request has arrived once eleven of them have joined the first one's run.
    while ((await cacheSample('joined')) < 11) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(store.texts).toHaveLength(1);
    store.hold = undefined;
    release();
    const answers = await Promise.all(clients);
    expect(answers.map((res) => res.status)).toEqual(Array(12).fill(200));
    expect(new Set(answers.map((res) => res.text)).size).toBe(1);
    expect(store.texts).toHaveLength(1);
  });

  it('gives every client of a failed run the same error, and keeps nothing of it', async () => {
    const { app, store, cacheSample } = appOver();
    let release: () => void = () => undefined;
    store.hold = new Promise((resolve) => {
      release = resolve;
    });
    // As the store reports a query whose worker was ended at the deadline.
    store.fail = new QueryDeadlineError(demo.ctx.config.sparqlTimeoutMs);
    const clients = Array.from({ length: 4 }, () => request(app).get('/sparql').query({ query: COUNT }).then((res) => res));
    while ((await cacheSample('joined')) < 3) await new Promise((resolve) => setTimeout(resolve, 10));
    release();
    const failed = await Promise.all(clients);
    expect(failed.map((res) => res.status)).toEqual([504, 504, 504, 504]);
    expect(new Set(failed.map((res) => res.body.error)).size).toBe(1);
    expect(store.texts).toHaveLength(1);
    store.hold = undefined;
    store.fail = undefined;
    const after = await request(app).get('/sparql').query({ query: COUNT });
    expect(after.status).toBe(200);
    expect(store.texts).toHaveLength(2);
  });

  it('does not keep answers above the size limit', async () => {
    // 1 MiB of cache: answers above 64 KiB are not kept. Ten thousand triples are far above it.
    const { app, store } = appOver({ sparqlResultCacheMb: 1 });
    const big = 'CONSTRUCT { ?s ?p ?o } WHERE { GRAPH ?g { ?s ?p ?o } }';
    const first = await request(app).get('/sparql').query({ query: big }).set('Accept', 'application/n-triples');
    expect(first.text.length).toBeGreaterThan(64 * 1024);
    await request(app).get('/sparql').query({ query: big }).set('Accept', 'application/n-triples');
    expect(store.texts).toHaveLength(2);
    await request(app).get('/sparql').query({ query: COUNT });
    await request(app).get('/sparql').query({ query: COUNT });
    expect(store.texts).toHaveLength(3);
  });

  it('runs every query when the cache is disabled (SPARQL_RESULT_CACHE_MB=0)', async () => {
    const { app, store } = appOver({ sparqlResultCacheMb: 0 });
    for (let i = 0; i < 3; i++) expect((await request(app).get('/sparql').query({ query: COUNT })).status).toBe(200);
    expect(store.texts).toHaveLength(3);
  });

  it('drops its answers when another generation is swapped in, and never serves one generation the other’s', async () => {
    const { app, store } = appOver();
    const { dir, remove } = await tempDir('sparql-cache-');
    try {
      // A second generation of three objects and one agent.
      await mkdir(path.join(dir, 'data'));
      const small = await loadNQuadsFile(
        path.join(dir, 'data'),
        await writeNQuads(path.join(dir, 'small.nq'), [...objectGraph(1), ...objectGraph(2), ...objectGraph(3), ...agentGraph(1)]),
        { kinds: KIND_NAMES },
      );
      // On the remote store (the remote pass) the generation goes to the server first, as a load would do it.
      await ensurePublished(demo.ctx.config, small.dir);
      const objects = async (): Promise<number> => Number((await request(app).get('/sparql').query({ query: COUNT })).body.results.bindings[0].objects.value);
      const demoCount = await objects();
      expect(demoCount).toBeGreaterThan(3);
      expect(await objects()).toBe(demoCount);
      expect(store.texts).toHaveLength(1);

      await demo.sparqlStore?.swap(small.dir);
      await untilReady();
      expect(await objects()).toBe(3);
      expect(await objects()).toBe(3);
      expect(store.texts).toHaveLength(2);

      await demo.sparqlStore?.swap(demo.data.generation.dir);
      await untilReady();
      expect(await objects()).toBe(demoCount);
      expect(store.texts).toHaveLength(3);
    } finally {
      if (demo.sparqlStore?.generation?.id !== demo.data.generation.manifest.id) await demo.sparqlStore?.swap(demo.data.generation.dir);
      await untilReady();
      await remove();
    }
  }, 120_000);

  it('does not keep a query that ran past its deadline: asked again, it runs again and gets 504 again', async () => {
    const DEADLINE = 1000;
    const { app, store } = appOver({ sparqlTimeoutMs: DEADLINE });
    await untilReady();
    const [first, joined] = await Promise.all([request(app).get('/sparql').query({ query: RUNAWAY }), request(app).get('/sparql').query({ query: RUNAWAY })]);
    expect([first.status, joined.status]).toEqual([504, 504]);
    expect(joined.body.error).toBe(first.body.error);
    const runs = store.texts.length;
    await untilReady();
    const again = await request(app).get('/sparql').query({ query: RUNAWAY });
    expect(again.status).toBe(504);
    expect(store.texts.length).toBe(runs + 1);
    await untilReady();
  }, 120_000);
});

describe('the caches’ bounds', () => {
  it('evicts the least recently used entries past the byte budget or the entry count', () => {
    const lru = new BoundedLru<string, string>({ maxEntries: 3, maxWeight: 100 });
    lru.set('a', 'A', 40);
    lru.set('b', 'B', 40);
    expect(lru.get('a')).toBe('A');
    lru.set('c', 'C', 40);
    expect([lru.get('a'), lru.get('b'), lru.get('c'), lru.weight]).toEqual(['A', undefined, 'C', 80]);
    expect(lru.set('huge', 'H', 101)).toBe(false);
    expect(lru.size).toBe(2);
    lru.set('d', 'D', 1);
    lru.set('e', 'E', 1);
    expect([lru.size, lru.get('a')]).toEqual([3, undefined]);
  });

  it('keeps answers of the generation requests see, within its budget, and forgets them at a generation change', async () => {
    const cache = new ResultCache({ maxBytes: 1000, maxAnswerBytes: 300 });
    const never = new Cancellation();
    const answer = (body: string, generation = 'g1') => async () => ({ body, generation });
    expect(await cache.run('g1', 'k1', never, answer('x'.repeat(200)))).toHaveLength(200);
    expect(cache.get('g1', 'k1')).toHaveLength(200);
    // Too large to keep, though it is answered.
    expect(await cache.run('g1', 'k2', never, answer('y'.repeat(301)))).toHaveLength(301);
    expect(cache.get('g1', 'k2')).toBeUndefined();
    // Answered by another generation than the one asked for (a swap while it waited): not kept.
    await cache.run('g1', 'k3', never, answer('z', 'g2'));
    expect(cache.get('g1', 'k3')).toBeUndefined();
    expect(cache.size).toBe(1);
    expect(cache.get('g2', 'k1')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('abandons a run only when every client waiting for it has gone', async () => {
    const cache = new ResultCache({ maxBytes: 1000 });
    const [a, b] = [new Cancellation(), new Cancellation()];
    let abandoned: Cancellation | undefined;
    let finish: (body: string) => void = () => undefined;
    const task = (abandon: Cancellation) => {
      abandoned = abandon;
      return new Promise<{ body: string; generation: string }>((resolve) => {
        finish = (body) => resolve({ body, generation: 'g' });
      });
    };
    const first = cache.run('g', 'k', a, task);
    const second = cache.run('g', 'k', b, task);
    a.cancel();
    expect(abandoned?.cancelled).toBe(false);
    b.cancel();
    expect(abandoned?.cancelled).toBe(true);
    // Its signal, made now for the queue it might wait in, is aborted already.
    expect(abandoned?.signal.aborted).toBe(true);
    expect(cache.running).toBe(0);
    finish('late');
    expect(await Promise.all([first, second])).toEqual(['late', 'late']);
  });
});
