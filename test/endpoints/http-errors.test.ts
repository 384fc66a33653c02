import express from 'express';
import request from 'supertest';
import { createApp } from '../../src/app.js';
import { errorHandler, notFoundHandler } from '../../src/endpoints/error-handler.js';
import {
  GoneError,
  HttpError,
  InternalServerError,
  NotFoundError,
  ServiceUnavailableError,
  TooManyRequestsError,
} from '../../src/http/errors.js';
import { QueryDeadlineError, StoreUnavailableError } from '../../src/store/errors.js';
import { httpTestContext, memoryLogger } from '../helpers/http-context.js';

/** An app whose routes fail in the ways endpoints can, behind the real error handler. */
function failingApp() {
  const { logger, lines } = memoryLogger();
  const app = express();
  app.get('/crash', () => {
    throw new Error('connection string postgres://admin:hunter2@db failed');
  });
  app.get('/async-crash', async () => {
    await Promise.resolve();
    throw new TypeError('cannot read properties of undefined (internal detail)');
  });
  app.get('/object', () => {
    throw new NotFoundError('Object not found');
  });
  app.get('/removed', () => {
    throw new GoneError('This object has been permanently removed from our collection.');
  });
  app.get('/agent-failure', () => {
    throw new InternalServerError('Error fetching agent data', { cause: new Error('worker exited') });
  });
  app.get('/store-down', () => {
    throw new StoreUnavailableError('swapping generations', 7);
  });
  app.get('/slow', () => {
    throw new QueryDeadlineError(10000);
  });
  app.get('/headers-then-fail', (_req, res) => {
    res.setHeader('ETag', 'W/"stale"');
    res.setHeader('Cache-Control', 'public, max-age=3600');
    throw new ServiceUnavailableError(3);
  });
  app.get('/param/:p', (_req, res) => {
    res.json({ ok: true });
  });
  app.post('/body', express.json(), (_req, res) => {
    res.json({ ok: true });
  });
  app.use(notFoundHandler);
  app.use(errorHandler(logger));
  return { app, lines };
}

describe('error responses', () => {
  it('answers an unexpected error with the generic 500 body and logs the stack server-side only', async () => {
    const { app, lines } = failingApp();
    const res = await request(app).get('/crash');
    expect(res.status).toBe(500);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.text).toBe('{"error":"Internal Server Error"}');
    const logged = lines.find((l) => l.msg === 'request failed');
    expect(JSON.stringify(logged)).toContain('hunter2');
    expect(JSON.stringify(logged)).toContain('"stack"');
  });

  it('handles a rejected promise from an async handler the same way', async () => {
    const { app } = failingApp();
    const res = await request(app).get('/async-crash');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'Internal Server Error' });
  });

  it('sends the exact texts endpoints give, as in the reference error bodies', async () => {
    const { app } = failingApp();
    expect((await request(app).get('/object')).body).toEqual({ error: 'Object not found' });
    const gone = await request(app).get('/removed');
    expect(gone.status).toBe(410);
    expect(gone.body).toEqual({ error: 'This object has been permanently removed from our collection.' });
    const failure = await request(app).get('/agent-failure');
    expect(failure.status).toBe(500);
    expect(failure.text).toBe('{"error":"Error fetching agent data"}');
  });

  it('builds the 429 body with the status first, exactly as the reference', () => {
    const error = new TooManyRequestsError();
    expect(JSON.stringify(error.body())).toBe('{"status":429,"error":"Too many requests. Please slow down."}');
  });

  it('answers 503 with Retry-After when the store is unavailable', async () => {
    const { app } = failingApp();
    const res = await request(app).get('/store-down');
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('7');
    expect(Object.keys(res.body)).toEqual(['error']);
  });

  it('answers 504 when a query passes its deadline', async () => {
    const { app } = failingApp();
    const res = await request(app).get('/slow');
    expect(res.status).toBe(504);
    expect(res.body).toEqual({ error: 'Query deadline exceeded' });
  });

  it('drops validators a handler set before failing, so the error is not cached as the record', async () => {
    const { app } = failingApp();
    const res = await request(app).get('/headers-then-fail');
    expect(res.status).toBe(503);
    expect(res.headers.etag).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['retry-after']).toBe('3');
  });

  it('answers 400 for a path with broken percent-encoding', async () => {
    const { app } = failingApp();
    const res = await request(app).get('/param/%E0%A4%A');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Malformed URL encoding' });
  });

  it('answers 400 for a malformed JSON body', async () => {
    const { app } = failingApp();
    const res = await request(app).post('/body').set('Content-Type', 'application/json').send('{"a":');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Malformed request body' });
  });

  it('keeps HttpError headers and custom bodies', async () => {
    const app = express();
    app.get('/retired', () => {
      throw new HttpError(410, 'API v1 has been retired.', {
        headers: { Deprecation: 'true' },
        body: { status: 410, error: 'API v1 has been retired.' },
      });
    });
    app.use(errorHandler(memoryLogger().logger));
    const res = await request(app).get('/retired');
    expect(res.status).toBe(410);
    expect(res.headers.deprecation).toBe('true');
    expect(res.text).toBe('{"status":410,"error":"API v1 has been retired."}');
  });
});

describe('the application shell', () => {
  const app = createApp(httpTestContext({ RATE_LIMIT_PER_MINUTE: '0' }));

  it('answers an unknown route with 404 and a JSON body', async () => {
    for (const path of ['/nope', '/v2/nope', '/v3/id/objects']) {
      const res = await request(app).get(path);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual({ error: 'Not found' });
    }
  });

  it('refuses methods other than GET and HEAD on /v2 with 405 and Allow', async () => {
    const res = await request(app).post('/v2/').send('x');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(res.body).toEqual({ error: 'Method not allowed' });
  });

  it('redirects the root to the catalog', async () => {
    const res = await request(app).get('/');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/v2/');
  });

  it('does not announce the framework', async () => {
    const res = await request(app).get('/healthz');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
});
