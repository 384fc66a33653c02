/**
 * v1 is deprecated (spec, Versioning; issue: deprecation headers and the sunset): every v1 answer, errors
 * included, carries Deprecation, Sunset and a Link to its v2 successor; above the rate limit v1 answers 429;
 * from the sunset instant (V1_SUNSET, clock injected here) every v1 path answers 410 with a pointer to v2.
 */
import request from 'supertest';
import { createApp } from '../../src/app.js';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { useV1Demo, V1_KEY } from './v1-support.js';

const v1 = useV1Demo({ V1_API_KEYS: V1_KEY });
const BASE = 'http://localhost:3000';
const SUNSET = 'Thu, 31 Dec 2026 23:59:59 GMT';
const SUNSET_MS = Date.UTC(2026, 11, 31, 23, 59, 59);

/** Every path of the spec's v1 table (and some errors), with the v2 successor its Link names and its status. */
function paths(): [string, string, number][] {
  const object = v1.objects.listed[0]!.objectNumber;
  return [
    ['/v1/id/objects?pageNumber=2&hasImage=true', '/v2/id/objects', 200],
    [`/v1/id/private-objects/?apiKey=${V1_KEY}`, '/v2/id/objects', 200],
    ['/v1/id/private-objects/', '/v2/id/objects', 401],
    ['/v1/id/agents', '/v2/id/agents', 200],
    ['/v1/id/concepts?fullRecord=true', '/v2/id/concepts', 200],
    ['/v1/id/exhibitions', '/v2/id/exhibitions', 200],
    [`/v1/id/object/${object}`, `/v2/id/object/${object}`, 200],
    [`/v1/id/object/${object}?easy=true`, `/v2/id/object/${object}`, 200],
    ['/v1/id/object/9999-0000', '/v2/id/object/9999-0000', 422],
    ['/v1/id/object/removed', '/v2/id/object/removed', 410],
    ['/v1/id/object/bad%20id', '/v2/id/objects', 400],
    ['/v1/id/agent/DMG-A-00001', '/v2/id/agent/DMG-A-00001', 200],
    ['/v1/id/concept/530001069', '/v2/id/concept/530001069', 200],
    ['/v1/id/exhibition/TE_1956-001', '/v2/id/exhibition/TE_1956-001', 200],
    ['/v1/color-api/red', '/v2/id/colors', 200],
    ['/v1/colors/', '/v2/id/colors', 200],
    ['/v1/pattern-api?collection=panelen', '/v2/id/objects?hasImages=true', 200],
    ['/v1/pattern-api?collection=muren', '/v2/id/objects?hasImages=true', 400],
    ['/v1/id/exhibitions/billboardseries', '/v2/id/exhibitions?q=billboard', 200],
    [`/v1/dump/concepts?apiKey=${V1_KEY}`, '/v2/dumps/concepts.nq.gz', 200],
    ['/v1/dump/agents?apiKey=nope', '/v2/dumps/agents.nq.gz', 403],
    ['/v1/no/such/path', '/v2/', 404],
  ];
}

describe('Versioning: v1 is deprecated', () => {
  it('sends Deprecation, Sunset and the v2 successor Link on every v1 answer, errors included', async () => {
    for (const [path, successor, status] of paths()) {
      const res = await request(v1.demo.app).get(path);
      expect([path, res.status]).toEqual([path, status]);
      expect(res.headers.deprecation).toBe('true');
      expect(res.headers.sunset).toBe(SUNSET);
      expect(res.headers.link).toBe(`<${BASE}${successor}>; rel="successor-version"`);
    }
  });

  it('sends them on HEAD and on a refused method too', async () => {
    const head = await request(v1.demo.app).head('/v1/id/agents');
    expect(head.status).toBe(200);
    expect(head.headers.sunset).toBe(SUNSET);
    const post = await request(v1.demo.app).post('/v1/id/agents');
    expect(post.status).toBe(405);
    expect(post.headers.deprecation).toBe('true');
    expect(post.headers.link).toBe(`<${BASE}/v2/id/agents>; rel="successor-version"`);
  });

  it('answers 429 with the reference body above the rate limit, deprecation headers kept', async () => {
    const app = createApp({ ...v1.demo.ctx, config: { ...v1.demo.ctx.config, rateLimitPerMinute: 2 } });
    expect((await request(app).get('/v1/id/agents')).status).toBe(200);
    expect((await request(app).get('/v1/id/agents')).status).toBe(200);
    const limited = await request(app).get('/v1/id/agents');
    expect(limited.status).toBe(429);
    expect(JSON.parse(limited.text)).toEqual({ status: 429, error: 'Too many requests. Please slow down.' });
    expect(limited.headers.sunset).toBe(SUNSET);
    expect(limited.headers.link).toBe(`<${BASE}/v2/id/agents>; rel="successor-version"`);
  });
});

describe('Versioning: the sunset', () => {
  const RETIRED = {
    status: 410,
    error: 'API v1 has been retired.',
    retired_on: '2026-12-31',
    successor: `${BASE}/v2/`,
    documentation: `${BASE}/docs`,
  };

  it('serves v1 until the sunset instant and answers 410 with a pointer to v2 on every v1 path from then on, v2 unaffected', async () => {
    let now = SUNSET_MS - 1;
    const app = createApp(v1.demo.ctx, { now: () => now });
    expect((await request(app).get('/v1/id/agents')).status).toBe(200);
    for (const instant of [SUNSET_MS, SUNSET_MS + 1, SUNSET_MS + 400 * 86_400_000]) {
      now = instant;
      for (const [path, successor] of paths()) {
        const res = await request(app).get(path);
        expect([path, res.status]).toEqual([path, 410]);
        expect(JSON.parse(res.text)).toEqual(RETIRED);
        expect(res.headers.link).toBe(`<${BASE}${successor}>; rel="successor-version"`);
        expect(res.headers.deprecation).toBe('true');
        expect(res.headers.sunset).toBe(SUNSET);
        expect(res.headers['cache-control']).toBe('public, max-age=86400');
      }
      expect((await request(app).get('/v2/id/agents')).status).toBe(200);
    }
    now = SUNSET_MS - 1000;
    expect((await request(app).get('/v1/id/agents')).status).toBe(200);
  });

  it('takes the instant from V1_SUNSET, in its Sunset header and its switch', async () => {
    const config = loadConfig({ ...Object.fromEntries([['BASE_URL', BASE]]), DATA_DIR: v1.demo.ctx.config.dataDir, V1_SUNSET: '2030-06-01T12:00:00+02:00' });
    const app = createApp({ ...v1.demo.ctx, config }, { now: () => Date.UTC(2030, 5, 1, 9, 59, 59) });
    const before = await request(app).get('/v1/id/concepts');
    expect(before.status).toBe(200);
    expect(before.headers.sunset).toBe('Sat, 01 Jun 2030 10:00:00 GMT');
    const after = await request(createApp({ ...v1.demo.ctx, config }, { now: () => Date.UTC(2030, 5, 1, 10) })).get('/v1/id/concepts');
    expect(after.status).toBe(410);
    expect(JSON.parse(after.text).retired_on).toBe('2030-06-01');
  });

  it('defaults to 31 December 2026 23:59:59 UTC and refuses a V1_SUNSET that is not an instant', () => {
    expect(loadConfig({ DATA_DIR: 'data' }).v1Sunset.toISOString()).toBe('2026-12-31T23:59:59.000Z');
    for (const value of ['2026-12-31', 'tomorrow', '2026-12-31T23:59:59']) {
      expect(() => loadConfig({ DATA_DIR: 'data', V1_SUNSET: value })).toThrow(ConfigError);
      try {
        loadConfig({ DATA_DIR: 'data', V1_SUNSET: value });
      } catch (error) {
        expect((error as Error).message).toContain('V1_SUNSET must be an ISO 8601 instant');
      }
    }
  });
});
