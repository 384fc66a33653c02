/**
 * Spec "Validated images": HEAD requests against a real HTTP server on 127.0.0.1. 2xx/3xx keep an
 * image; 403, 404 and every other outcome (5xx, timeout, refused connection) drop it.
 */
import { createServer } from 'node:http';
import { checkImages, isOnHost } from '../../src/harvest/images.js';
import { imageUrls } from '../../src/iiif/urls.js';
import { memoryLogger } from '../helpers/http-context.js';
import { startImageServer, type ImageServer } from '../fixtures/source-mini/harvest-fixture.js';

describe('Image validation', () => {
  let server: ImageServer;
  let host: string;
  const url = (id: string): string => `${server.origin}/iiif/3/${id}/full/max/0/default.jpg`;

  beforeAll(async () => {
    server = await startImageServer();
    host = new URL(server.origin).host;
  });
  afterAll(() => server.close());

  it('builds the full image and 400 px thumbnail URIs from the IIIF base', () => {
    expect(imageUrls('http://x.test/iiif/3/abc').full).toBe('http://x.test/iiif/3/abc/full/max/0/default.jpg');
    expect(imageUrls('http://x.test/iiif/3/abc/').full).toBe('http://x.test/iiif/3/abc/full/max/0/default.jpg');
    expect(imageUrls('http://x.test/iiif/3/abc').thumbnail).toBe('http://x.test/iiif/3/abc/full/400,/0/default.jpg');
  });

  it('keeps 2xx and 3xx answers and drops 403, 404 and 5xx answers', async () => {
    const urls = ['ok', 'moved', 'forbidden', 'missing', 'broken'].map(url);
    const result = await checkImages(urls, { hosts: [host] });
    expect([...result.valid].sort()).toEqual([url('moved'), url('ok')].sort());
    expect(result).toMatchObject({ checked: 5, dropped: 3 });
  });

  it('sends HEAD requests and does not follow redirects', async () => {
    await checkImages([url('moved-2')], { hosts: [host] });
    expect(server.requests.filter((r) => r.includes('/moved-2/'))).toEqual(['HEAD /iiif/3/moved-2/full/max/0/default.jpg']);
  });

  it('drops an image whose server does not answer within the timeout', async () => {
    // `slow` never answers; the timeout leaves `ok-3` ample time on a loaded CI machine (200 ms did not).
    const result = await checkImages([url('slow'), url('ok-3')], { hosts: [host], timeoutMs: 2000 });
    expect([...result.valid]).toEqual([url('ok-3')]);
    expect(result.dropped).toBe(1);
  });

  it('drops an image whose server refuses the connection', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const address = probe.address();
    if (address === null || typeof address === 'string') throw new Error('no address');
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const closed = `127.0.0.1:${address.port}`;
    const result = await checkImages([`http://${closed}/iiif/3/x/full/max/0/default.jpg`], { hosts: [closed] });
    expect(result).toMatchObject({ checked: 1, dropped: 1 });
    expect(result.valid.size).toBe(0);
  });

  it('never contacts hosts outside the list and counts their images as dropped', async () => {
    // A second live server on another port: it would answer 200, so only the host list keeps it out.
    const outside = await startImageServer();
    try {
      const result = await checkImages([url('ok-4'), `${outside.origin}/iiif/3/ok/full/max/0/default.jpg`], { hosts: [host] });
      expect([...result.valid]).toEqual([url('ok-4')]);
      expect(result).toMatchObject({ checked: 1, dropped: 1 });
      expect(outside.requests).toEqual([]);
      expect(server.requests.filter((r) => r.includes('/ok-4/'))).toHaveLength(1);
    } finally {
      await outside.close();
    }
  });

  it('lets earlier verdicts stand and asks only about the other images, then gives every verdict', async () => {
    // Known as kept although it would now answer 404, and known as dropped although it would answer 200:
    // a verdict that stands is not asked about again.
    const known = new Map([
      [url('missing-6'), true],
      [url('ok-6'), false],
    ]);
    const result = await checkImages([url('missing-6'), url('ok-6'), url('ok-7'), url('forbidden-7')], { hosts: [host], known });
    expect(result).toMatchObject({ checked: 2, reused: 2, dropped: 2 });
    expect([...result.valid].sort()).toEqual([url('missing-6'), url('ok-7')].sort());
    expect(server.requests.filter((r) => r.includes('-6/'))).toEqual([]);
    expect(server.requests.filter((r) => r.includes('-7/'))).toHaveLength(2);
    expect(result.verdicts).toEqual(
      new Map([
        [url('missing-6'), true],
        [url('ok-6'), false],
        [url('ok-7'), true],
        [url('forbidden-7'), false],
      ]),
    );
  });

  it('checks a URL listed several times once', async () => {
    const result = await checkImages([url('ok-5'), url('ok-5'), url('ok-5')], { hosts: [host] });
    expect(result).toMatchObject({ checked: 1, dropped: 0 });
    expect(server.requests.filter((r) => r.includes('/ok-5/'))).toHaveLength(1);
  });

  it('keeps at most `concurrency` requests open at a time and reports progress', async () => {
    const fresh = await startImageServer();
    try {
      const urls = Array.from({ length: 12 }, (_, i) => `${fresh.origin}/iiif/3/delayed-${i}/full/max/0/default.jpg`);
      const progress: number[] = [];
      const result = await checkImages(urls, {
        hosts: [new URL(fresh.origin).host],
        concurrency: 3,
        onProgress: (done, total) => progress.push(done * 100 + total),
      });
      expect(result.valid.size).toBe(12);
      expect(fresh.maxInFlight()).toBe(3);
      expect(progress).toEqual(Array.from({ length: 12 }, (_, i) => (i + 1) * 100 + 12));
    } finally {
      await fresh.close();
    }
  });

  it('logs one summary line at info for the whole check and the outcome of each image at debug only', async () => {
    const { logger, lines } = memoryLogger('debug');
    const urls = [...Array.from({ length: 20 }, (_, i) => url(`ok-log-${i}`)), url('missing-log'), 'http://other.invalid/iiif/3/a/full/max/0/default.jpg'];
    await checkImages(urls, { hosts: [host], logger });
    const info = lines.filter((line) => line.level === 30);
    // 22 distinct images: 21 on the checked host (20 answer 200, one 404), one elsewhere dropped unchecked.
    expect(info).toEqual([expect.objectContaining({ msg: 'images checked', images: 22, checked: 21, kept: 20, dropped: 2, offHost: 1 })]);
    const debug = lines.filter((line) => line.level === 20);
    expect(debug).toHaveLength(21);
    expect(debug).toContainEqual(expect.objectContaining({ msg: 'image checked', url: url('missing-log'), ok: false, status: 404 }));
  });

  it('matches hosts with or without their default port', () => {
    expect(isOnHost('http://images.test/a', new Set(['images.test:80']))).toBe(true);
    expect(isOnHost('https://images.test/a', new Set(['images.test']))).toBe(true);
    expect(isOnHost('http://images.test:8080/a', new Set(['images.test']))).toBe(false);
    expect(isOnHost('http://images.test:8080/a', new Set(['images.test:8080']))).toBe(true);
  });
});
