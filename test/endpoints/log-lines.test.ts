/**
 * What a request leaves in the real log (docs/operations.md, "Logs"): no secret under any spelling of a secret's
 * name, lines bounded however long the request, probes and the IIIF image traffic below info. The lines are
 * those of the production logger (createLogger), written to a stream the test reads, at trace so nothing hides.
 */
import { Writable } from 'node:stream';
import { Router } from 'express';
import request from 'supertest';
import { createApp } from '../../src/app.js';
import { createLogger } from '../../src/config/logger.js';
import { LOG_TEXT_MAX } from '../../src/config/redact.js';
import { httpTestContext, ReadinessOnlyStore } from '../helpers/http-context.js';

const KEY = 'configured-key-7d41a9';
const SECRET = 'S3CRET-value-81f2';

/** The production logger at `level`, writing to raw lines the test can read. */
function capturedLogger(level: 'trace' | 'info') {
  const raw: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString('utf8').split('\n')) if (text !== '') raw.push(text);
      done();
    },
  });
  return { logger: createLogger({ logLevel: level }, sink), raw };
}

/** Waits until `raw` holds `n` request lines: the line is written when the response closes. */
async function requestLines(raw: string[], n: number): Promise<string[]> {
  const matching = (): string[] => raw.filter((line) => /"msg":"request( aborted)?"/.test(line));
  for (let i = 0; i < 100 && matching().length < n; i++) await new Promise((resolve) => setImmediate(resolve));
  return matching();
}

/** A stand-in for the IIIF router: one image that exists, every other id 404. */
function iiifStub(): Router {
  const router = Router();
  router.get('/3/:id/full/max/0/default.jpg', (req, res) => {
    if (req.params.id === 'present') res.type('image/jpeg').send(Buffer.from([0xff, 0xd8]));
    else res.status(404).json({ error: 'Not Found' });
  });
  return router;
}

describe('Secrets in the request log', () => {
  it.each([
    `/v1/dump/objects?apiKey[]=${SECRET}`,
    `/v1/dump/objects?apiKey[0]=${SECRET}&apiKey[1]=${SECRET}`,
    `/v1/dump/objects?apiKey%5Bx%5D%5By%5D=${SECRET}`,
    `/v1/dump/objects?password=${SECRET}`,
    `/v1/dump/objects?apiKey=${KEY}&password=${SECRET}`,
    `/v1/id/private-objects?API-KEY=${SECRET}&passwd=${SECRET}&access_token=${SECRET}&secret=${SECRET}&auth=${SECRET}`,
    `/v2/id/objects?api_key=${SECRET}&token=${SECRET}`,
    `/no/such/path?apikey=${SECRET}`,
  ])('writes no line containing the secret sent in %s', async (url) => {
    const { logger, raw } = capturedLogger('trace');
    const app = createApp(httpTestContext({ RATE_LIMIT_PER_MINUTE: '0', V1_API_KEYS: KEY }, new ReadinessOnlyStore(), logger));
    await request(app).get(url);
    const lines = await requestLines(raw, 1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('[REDACTED]');
    for (const line of raw) {
      expect(line).not.toContain(SECRET);
      expect(line).not.toContain(KEY);
    }
  });
});

describe('Bounded log lines', () => {
  it('cuts a 13 KB query string to the documented length and says how much was cut', async () => {
    const { logger, raw } = capturedLogger('trace');
    const app = createApp(httpTestContext({ RATE_LIMIT_PER_MINUTE: '0' }, new ReadinessOnlyStore(), logger));
    const query = `q=${'a'.repeat(13_000)}`;
    await request(app).get(`/v2/id/objects?${query}`);
    const [line] = await requestLines(raw, 1);
    const parsed = JSON.parse(line ?? '{}') as { query?: string };
    expect(parsed.query).toBe(`${query.slice(0, LOG_TEXT_MAX)}…[${query.length - LOG_TEXT_MAX} more characters cut]`);
    // The rest of a request line (level, time, pid, host, method, path, status, ms, msg) stays far below 400 characters.
    for (const written of raw) expect(written.length).toBeLessThan(LOG_TEXT_MAX + 400);
  });

  it('cuts a long path the same way', async () => {
    const { logger, raw } = capturedLogger('trace');
    const app = createApp(httpTestContext({ RATE_LIMIT_PER_MINUTE: '0' }, new ReadinessOnlyStore(), logger));
    await request(app).get(`/v2/id/object/${'9'.repeat(13_000)}`);
    await requestLines(raw, 1);
    for (const written of raw) expect(written.length).toBeLessThan(LOG_TEXT_MAX + 400);
  });
});

describe('Log levels of polled and machine traffic', () => {
  it('writes /healthz and /readyz polls below info, ready or not', async () => {
    const { logger, raw } = capturedLogger('info');
    const store = new ReadinessOnlyStore(false);
    const app = createApp(httpTestContext({ RATE_LIMIT_PER_MINUTE: '0' }, store, logger));
    expect((await request(app).get('/readyz')).status).toBe(503);
    expect((await request(app).get('/healthz')).status).toBe(200);
    store.setReady(true);
    expect((await request(app).get('/readyz')).status).toBe(200);
    await request(app).get('/v2/');
    // Only the last request, /v2/, is written at info.
    const lines = await requestLines(raw, 1);
    expect(raw.filter((line) => line.includes('/readyz') || line.includes('/healthz'))).toEqual([]);
    expect(lines.map((line) => (JSON.parse(line) as { path: string }).path)).toEqual(['/v2/']);
  });

  it('writes successful IIIF image requests and image HEAD checks at debug, and a missing image GET at info', async () => {
    const { logger, raw } = capturedLogger('trace');
    const app = createApp(httpTestContext({ RATE_LIMIT_PER_MINUTE: '0' }, new ReadinessOnlyStore(), logger), { iiifRouter: iiifStub() });
    expect((await request(app).head('/iiif/3/present/full/max/0/default.jpg')).status).toBe(200);
    expect((await request(app).head('/iiif/3/absent/full/max/0/default.jpg')).status).toBe(404);
    expect((await request(app).get('/iiif/3/present/full/max/0/default.jpg')).status).toBe(200);
    expect((await request(app).get('/iiif/3/absent/full/max/0/default.jpg')).status).toBe(404);
    const lines = (await requestLines(raw, 4)).map((line) => JSON.parse(line) as { level: number; method: string; status: number });
    expect(lines.map(({ level, method, status }) => [method, status, level])).toEqual([
      ['HEAD', 200, 20],
      ['HEAD', 404, 20],
      ['GET', 200, 20],
      ['GET', 404, 30],
    ]);
  });

  it('writes one line at warn, with the reason, for a request answered 503 while the collection loads', async () => {
    const { logger, raw } = capturedLogger('trace');
    const app = createApp(httpTestContext({ RATE_LIMIT_PER_MINUTE: '0' }, new ReadinessOnlyStore(false), logger));
    const res = await request(app).get('/v2/id/objects');
    expect([res.status, res.headers['retry-after']]).toEqual([503, '5']);
    await requestLines(raw, 1);
    const about = raw.map((line) => JSON.parse(line) as { level: number; path?: string; msg: string; error?: string }).filter((line) => line.path === '/v2/id/objects');
    expect(about.map(({ level, msg, error }) => [level, msg, error])).toEqual([[40, 'request', 'The collection is loading. Please retry shortly.']]);
  });
});
