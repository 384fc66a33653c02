import express from 'express';
import request from 'supertest';
import { createApp } from '../../src/app.js';
import { isNotModified, RECORD_CACHE_CONTROL, recordCacheHeaders, sendNotModified, weakEtag } from '../../src/http/caching.js';
import { redactQuery } from '../../src/config/redact.js';
import { httpTestContext, memoryLogger, ReadinessOnlyStore } from '../helpers/http-context.js';

describe('CORS', () => {
  const app = createApp(httpTestContext({ RATE_LIMIT_PER_MINUTE: '5' }));

  it('lets any origin read responses and the headers clients need', async () => {
    const res = await request(app).get('/v2/dcat').set('Origin', 'https://viewer.example.org');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const exposed = String(res.headers['access-control-expose-headers']).split(',');
    for (const h of ['ETag', 'Link', 'RateLimit', 'RateLimit-Policy', 'Retry-After', 'Last-Modified', 'Location']) {
      expect(exposed).toContain(h);
    }
  });

  it('answers a preflight with the read methods and POST (for /sparql)', async () => {
    const res = await request(app)
      .options('/v2/id/objects')
      .set('Origin', 'https://viewer.example.org')
      .set('Access-Control-Request-Method', 'GET');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-methods']).toBe('GET,HEAD,POST,OPTIONS');
  });
});

describe('conditional requests (RFC 9110)', () => {
  const lastModified = new Date('2026-03-01T10:20:30.456Z');
  const etag = weakEtag('1987-1105', '2026-03-01T10:20:30.456Z');
  const validators = { etag, lastModified };
  const app = express();
  app.get('/record', (req, res) => {
    recordCacheHeaders(res, validators, RECORD_CACHE_CONTROL);
    if (isNotModified(req, validators)) {
      sendNotModified(res);
      return;
    }
    res.json({ ok: true });
  });
  // Reports the decision through res.end, so Express's own freshness check (in res.send) cannot interfere.
  app.get('/decision', (req, res) => {
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ notModified: isNotModified(req, validators) }));
  });
  const decision = async (headers: Record<string, string>): Promise<boolean> => {
    const res = await request(app).get('/decision').set(headers);
    return (res.body as { notModified: boolean }).notModified;
  };

  it('sends ETag, Last-Modified and the record cache lifetime', async () => {
    const res = await request(app).get('/record');
    expect(res.status).toBe(200);
    expect(res.headers.etag).toBe(etag);
    expect(res.headers['last-modified']).toBe('Sun, 01 Mar 2026 10:20:30 GMT');
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('answers 304 with the validators when If-None-Match carries the ETag', async () => {
    const res = await request(app).get('/record').set('If-None-Match', etag);
    expect(res.status).toBe(304);
    expect(res.headers.etag).toBe(etag);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('compares entity tags weakly, in lists and with *', async () => {
    const opaque = etag.slice(2);
    expect(await decision({ 'If-None-Match': opaque })).toBe(true);
    expect(await decision({ 'If-None-Match': `"other", ${etag}` })).toBe(true);
    expect(await decision({ 'If-None-Match': '*' })).toBe(true);
    expect(await decision({ 'If-None-Match': '"other"' })).toBe(false);
  });

  it('lets If-None-Match decide alone when both validators are sent', async () => {
    expect(await decision({ 'If-None-Match': '"other"', 'If-Modified-Since': 'Wed, 01 Jan 2031 00:00:00 GMT' })).toBe(false);
  });

  it('compares If-Modified-Since at one-second precision', async () => {
    expect(await decision({ 'If-Modified-Since': 'Sun, 01 Mar 2026 10:20:30 GMT' })).toBe(true);
    expect(await decision({ 'If-Modified-Since': 'Sun, 01 Mar 2026 10:20:29 GMT' })).toBe(false);
    expect(await decision({ 'If-Modified-Since': 'yesterday' })).toBe(false);
  });

  it('gives different records different tags', () => {
    expect(weakEtag('1987-1105', 'a')).not.toBe(weakEtag('1987-1106', 'a'));
    expect(weakEtag('1987-1105', 'a')).not.toBe(weakEtag('1987-1105', 'b'));
    expect(weakEtag('ab', 'c')).not.toBe(weakEtag('a', 'bc'));
  });
});

describe('request log', () => {
  /** Waits until the log has `n` request lines; the line is written when the response closes. */
  async function requestLines(lines: Record<string, unknown>[], n: number) {
    for (let i = 0; i < 100 && lines.filter((l) => l.msg === 'request').length < n; i++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    return lines.filter((l) => l.msg === 'request');
  }

  it('writes one line per request with method, path, query, status and duration', async () => {
    const { logger, lines } = memoryLogger();
    const app = createApp(httpTestContext({ RATE_LIMIT_PER_MINUTE: '0' }, new ReadinessOnlyStore(), logger));
    await request(app).get('/v2/dcat?page=2&itemsPerPage=5');
    const [line] = await requestLines(lines, 1);
    expect(line).toMatchObject({ method: 'GET', path: '/v2/dcat', query: 'page=2&itemsPerPage=5', status: 200 });
    expect(typeof line?.ms).toBe('number');
  });

  it('never logs the value of a secret query parameter', async () => {
    const { logger, lines } = memoryLogger();
    const app = createApp(httpTestContext({ RATE_LIMIT_PER_MINUTE: '0' }, new ReadinessOnlyStore(), logger));
    await request(app).get('/v1/id/private-objects/?apiKey=s3cr3t-1&pageNumber=1&TOKEN=s3cr3t-2&api%5Fkey=s3cr3t-3');
    const [line] = await requestLines(lines, 1);
    expect(line?.query).toBe('apiKey=[REDACTED]&pageNumber=1&TOKEN=[REDACTED]&api%5Fkey=[REDACTED]');
    expect(JSON.stringify(lines)).not.toContain('s3cr3t');
  });

  it('redacts key, token and access_token but keeps other parameters as sent', () => {
    expect(redactQuery('key=a&token=b&access_token=c&keys=d&q=key%3Dx')).toBe(
      'key=[REDACTED]&token=[REDACTED]&access_token=[REDACTED]&keys=d&q=key%3Dx',
    );
    expect(redactQuery('apiKey')).toBe('apiKey=[REDACTED]');
  });
});
