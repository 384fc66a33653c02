import express, { Router, type Express } from 'express';
import request from 'supertest';
import { createApp } from '../../src/app.js';
import { errorHandler } from '../../src/endpoints/error-handler.js';
import { NotFoundError } from '../../src/http/errors.js';
import { Metrics } from '../../src/http/metrics.js';
import { EmptyGenerationStore, httpTestContext, manifestStub, memoryLogger, ReadinessOnlyStore } from '../helpers/http-context.js';
import { KIND_NAMES } from '../../src/kinds/index.js';
import { REQUEST_WAIT_MS } from '../../src/collection-index/index-manager.js';
import { sampleValue } from '../helpers/prometheus.js';

describe('liveness and readiness', () => {
  it('answers /healthz with 200 whether or not the store is ready', async () => {
    const app = createApp(httpTestContext({}, new ReadinessOnlyStore(false)));
    const res = await request(app).get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('answers /readyz and v2 data routes with 503 and Retry-After until the store is ready', async () => {
    const store = new EmptyGenerationStore();
    const app = createApp(httpTestContext({ RATE_LIMIT_PER_MINUTE: '0' }, store));
    for (const path of ['/v2/id/objects', '/v2/id/object/1987-1105']) {
      const res = await request(app).get(path);
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(Object.keys(res.body)).toEqual(['error']);
    }
    const loading = await request(app).get('/readyz');
    expect(loading.status).toBe(503);
    expect(loading.headers['retry-after']).toBe('5');
    expect(loading.body).toEqual({ error: 'The collection is loading. Please retry shortly.', status: 'loading', generation: null, wanted: null });

    store.serve(manifestStub('20260101T000000Z-1', '2026-01-01T00:00:00.000Z'));
    const ready = await readyzOnceBuilt(app);
    expect(ready.status).toBe(200);
    // Without a follower of `current` (server.ts has one), the wanted generation is the served one.
    expect(ready.body).toEqual({ status: 'ready', generation: '20260101T000000Z-1', wanted: '20260101T000000Z-1' });
  });

  it('is not ready while the store serves a generation whose collection indexes are not built, and says which', async () => {
    // A store that serves but answers no query: no index can be built.
    const store = new ReadinessOnlyStore(true, manifestStub('20260101T000000Z-1', '2026-01-01T00:00:00.000Z'));
    const app = createApp(httpTestContext({ RATE_LIMIT_PER_MINUTE: '0' }, store));
    const res = await request(app).get('/readyz');
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    const building = [...KIND_NAMES.list.map((kind) => kind.collection), 'record statuses'];
    expect(res.body).toEqual({ error: `Building ${building.join(', ')}. Please retry shortly.`, status: 'indexing', building, generation: '20260101T000000Z-1', wanted: '20260101T000000Z-1' });
  });

  it('answers a collection whose index is not built with 503 and Retry-After at once, without waiting for a build', async () => {
    const store = new ReadinessOnlyStore(true, manifestStub('20260101T000000Z-1', '2026-01-01T00:00:00.000Z'));
    const app = createApp(httpTestContext({ RATE_LIMIT_PER_MINUTE: '0' }, store));
    const asked = performance.now();
    const res = await request(app).get('/v2/id/agents');
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toEqual({ error: 'The agents index is being built. Please retry shortly.' });
    // At most the short wait for a build under way (REQUEST_WAIT_MS), never the build's own time.
    expect(performance.now() - asked).toBeLessThan(REQUEST_WAIT_MS + 1_000);
  });

  it('waits for the SPARQL store\'s first start too, so that no /sparql request meets a starting store', async () => {
    const store = new EmptyGenerationStore();
    store.serve(manifestStub('20260101T000000Z-1', '2026-01-01T00:00:00.000Z'));
    const sparqlStore = new ReadinessOnlyStore(false);
    const app = createApp(httpTestContext({ RATE_LIMIT_PER_MINUTE: '0' }, store), { sparqlStore });
    const starting = await readyzOnceBuilt(app);
    expect(starting.status).toBe(503);
    expect(starting.body).toMatchObject({ status: 'loading' });

    sparqlStore.generation = store.generation;
    sparqlStore.setReady(true);
    expect((await request(app).get('/readyz')).status).toBe(200);
    // A later restart of the SPARQL store (a runaway query ended) leaves the REST endpoints, and so the replica, ready.
    sparqlStore.setReady(false);
    expect((await request(app).get('/readyz')).status).toBe(200);
  });
});

/** /readyz once the collection indexes of an empty generation are built (a few milliseconds after it serves). */
async function readyzOnceBuilt(app: Express): Promise<request.Response> {
  for (let attempt = 0; ; attempt++) {
    const res = await request(app).get('/readyz');
    if ((res.body as { status?: string }).status !== 'indexing' || attempt === 100) return res;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('metrics (/metrics)', () => {
  it('counts requests by route pattern, method and status', async () => {
    const ctx = httpTestContext({ RATE_LIMIT_PER_MINUTE: '0' });
    const app = createApp(ctx);
    await request(app).get('/v2/dcat');
    await request(app).get('/v2/dcat');
    await request(app).head('/v2/');
    await request(app).get('/no/such/path');

    const res = await request(app).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(sampleValue(res.text, 'http_requests_total', { route: '/v2/dcat', method: 'GET', status: '200' })).toBe(2);
    expect(sampleValue(res.text, 'http_requests_total', { route: '/v2/', method: 'HEAD', status: '200' })).toBe(1);
    expect(sampleValue(res.text, 'http_requests_total', { route: 'unmatched', method: 'GET', status: '404' })).toBe(1);
    expect(
      sampleValue(res.text, 'http_request_duration_seconds_count', { route: '/v2/dcat', method: 'GET', status: '200' }),
    ).toBe(2);
  });

  it('labels a failed request with the full pattern of the route that failed, not its raw path', async () => {
    const metrics = new Metrics();
    const v2 = Router();
    v2.get('/id/thing/:pid', () => {
      throw new NotFoundError('Thing not found');
    });
    const app = express();
    app.use(metrics.middleware());
    app.use('/v2', v2);
    app.get('/metrics', metrics.handler);
    app.use(errorHandler(memoryLogger().logger));

    await request(app).get('/v2/id/thing/a-1');
    await request(app).get('/v2/id/thing/b-2');
    const text = (await request(app).get('/metrics')).text;
    expect(sampleValue(text, 'http_requests_total', { route: '/v2/id/thing/:pid', method: 'GET', status: '404' })).toBe(2);
    expect(text).not.toContain('a-1');
  });

  it('reports store query durations by kind', async () => {
    const ctx = httpTestContext();
    ctx.metrics.observeStoreQuery(12, 'object');
    ctx.metrics.observeStoreQuery(30, 'object');
    ctx.metrics.observeStoreQuery(2500, 'sparql');
    const text = (await request(createApp(ctx)).get('/metrics')).text;
    expect(sampleValue(text, 'store_query_duration_seconds_count', { kind: 'object' })).toBe(2);
    expect(sampleValue(text, 'store_query_duration_seconds_sum', { kind: 'object' })).toBeCloseTo(0.042, 6);
    expect(sampleValue(text, 'store_query_duration_seconds_bucket', { kind: 'sparql', le: '2.5' })).toBe(1);
    expect(sampleValue(text, 'store_query_duration_seconds_bucket', { kind: 'sparql', le: '1' })).toBe(0);
  });

  it('names the served generation and its age', async () => {
    const store = new ReadinessOnlyStore(true, manifestStub('gen-2020', '2020-01-01T00:00:00.000Z'));
    const app = createApp(httpTestContext({}, store));
    const text = (await request(app).get('/metrics')).text;
    expect(sampleValue(text, 'generation_info', { id: 'gen-2020' })).toBe(1);
    // Created in 2020, so at least five years old whenever this runs.
    expect(sampleValue(text, 'generation_age_seconds')).toBeGreaterThan(5 * 365 * 24 * 3600);

    store.generation = manifestStub('gen-2021', '2021-01-01T00:00:00.000Z');
    const after = (await request(app).get('/metrics')).text;
    expect(sampleValue(after, 'generation_info', { id: 'gen-2021' })).toBe(1);
    expect(sampleValue(after, 'generation_info', { id: 'gen-2020' })).toBeUndefined();
  });

  it('keeps the metrics of two apps apart', async () => {
    const first = createApp(httpTestContext());
    const second = createApp(httpTestContext());
    await request(first).get('/healthz');
    const text = (await request(second).get('/metrics')).text;
    expect(sampleValue(text, 'http_requests_total', { route: '/healthz', method: 'GET', status: '200' })).toBeUndefined();
  });
});
