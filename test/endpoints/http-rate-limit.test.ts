import { Router } from 'express';
import request from 'supertest';
import { createApp } from '../../src/app.js';
import { httpTestContext } from '../helpers/http-context.js';

const LIMIT = 3;

/** An app behind a trusted local proxy, so X-Forwarded-For names the client. */
function limitedApp(perMinute = LIMIT) {
  const iiifRouter = Router();
  iiifRouter.get('/tile', (_req, res) => {
    res.json({ tile: true });
  });
  return createApp(httpTestContext({ RATE_LIMIT_PER_MINUTE: String(perMinute), TRUST_PROXY: 'loopback' }), { iiifRouter });
}

const fromClient = (app: ReturnType<typeof limitedApp>, ip: string, path = '/v2/dcat') =>
  request(app).get(path).set('X-Forwarded-For', ip);

describe('v2 rate limit (spec, Limits)', () => {
  it('serves a client up to the limit, announcing quota and remaining requests', async () => {
    const app = limitedApp();
    for (let i = 1; i <= LIMIT; i++) {
      const res = await fromClient(app, '203.0.113.1');
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit']).toMatch(new RegExp(`^"${LIMIT}-per-minute"; r=${LIMIT - i}; t=\\d+$`));
      expect(res.headers['ratelimit-policy']).toMatch(new RegExp(`^"${LIMIT}-per-minute"; q=${LIMIT}; w=60`));
    }
  });

  it('answers 429 past the limit with Retry-After and the exact body, while another client is still served', async () => {
    const app = limitedApp();
    for (let i = 0; i < LIMIT; i++) expect((await fromClient(app, '203.0.113.1')).status).toBe(200);

    const limited = await fromClient(app, '203.0.113.1');
    expect(limited.status).toBe(429);
    expect(limited.text).toBe('{"status":429,"error":"Too many requests. Please slow down."}');
    expect(limited.headers['content-type']).toMatch(/^application\/json/);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers['ratelimit']).toMatch(/; r=0;/);
    expect(limited.headers['ratelimit-policy']).toBeDefined();

    const other = await fromClient(app, '203.0.113.2');
    expect(other.status).toBe(200);
    expect(other.headers['ratelimit']).toMatch(new RegExp(`; r=${LIMIT - 1};`));
  });

  it('counts every /v2 path together, unknown ones included', async () => {
    const app = limitedApp();
    await fromClient(app, '198.51.100.7', '/v2/');
    await fromClient(app, '198.51.100.7', '/v2/no-such-path');
    await fromClient(app, '198.51.100.7', '/v2/dcat');
    expect((await fromClient(app, '198.51.100.7', '/v2/')).status).toBe(429);
  });

  it('does not limit health, metrics or IIIF requests', async () => {
    const app = limitedApp(1);
    expect((await fromClient(app, '192.0.2.1')).status).toBe(200);
    expect((await fromClient(app, '192.0.2.1')).status).toBe(429);
    for (const path of ['/healthz', '/readyz', '/metrics', '/iiif/tile']) {
      const res = await fromClient(app, '192.0.2.1', path);
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit']).toBeUndefined();
    }
  });

  it('does not count CORS preflight requests', async () => {
    const app = limitedApp(1);
    for (let i = 0; i < 3; i++) {
      const preflight = await request(app)
        .options('/v2/dcat')
        .set('X-Forwarded-For', '192.0.2.9')
        .set('Origin', 'https://viewer.example.org')
        .set('Access-Control-Request-Method', 'GET');
      expect(preflight.status).toBe(204);
    }
    expect((await fromClient(app, '192.0.2.9')).status).toBe(200);
  });

  it('is off when RATE_LIMIT_PER_MINUTE is 0', async () => {
    const app = limitedApp(0);
    for (let i = 0; i < 15; i++) {
      const res = await fromClient(app, '203.0.113.50');
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit']).toBeUndefined();
    }
  });
});
