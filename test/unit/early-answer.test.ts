/**
 * The port's starting answer (src/http/early-answer.ts), on a real server: what a client and a supervisor get
 * in the half second or so before the app takes the port over, and the hand-over itself.
 */
import type { AddressInfo } from 'node:net';
import { handOver, listenStarting } from '../../src/http/early-answer.js';
import { NOT_READY_MESSAGE } from '../../src/http/readiness.js';
import { memoryLogger } from '../helpers/http-context.js';

describe('the starting answer', () => {
  it('gives /healthz 200, /readyz and every other path 503 with Retry-After, one log line each, until the app takes over', async () => {
    const { logger, lines } = memoryLogger('debug');
    const server = await listenStarting(0, logger, '127.0.0.1');
    try {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const health = await fetch(`${origin}/healthz`);
      expect([health.status, await health.json()]).toEqual([200, { status: 'ok' }]);
      const ready = await fetch(`${origin}/readyz`);
      expect([ready.status, ready.headers.get('retry-after'), await ready.json()]).toEqual([503, '5', { error: NOT_READY_MESSAGE, status: 'loading', generation: null, wanted: null }]);
      for (const path of ['/v2/id/objects?page=2', '/sparql', '/iiif/manifest/1482', '/', '/v1/id/objects']) {
        const res = await fetch(`${origin}${path}`);
        expect([path, res.status, res.headers.get('retry-after'), res.headers.get('cache-control'), await res.json()]).toEqual([path, 503, '5', 'no-store', { error: NOT_READY_MESSAGE }]);
      }
      const requestLines = lines.filter((line) => line.msg === 'request');
      expect(requestLines.map((line) => [line.path, line.status, line.level])).toEqual([
        ['/healthz', 200, 20],
        ['/readyz', 503, 20],
        ['/v2/id/objects', 503, 40],
        ['/sparql', 503, 40],
        ['/iiif/manifest/1482', 503, 40],
        ['/', 503, 40],
        ['/v1/id/objects', 503, 40],
      ]);

      handOver(server, (_req, res) => res.end('the app'));
      expect(await (await fetch(`${origin}/v2/id/objects`)).text()).toBe('the app');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
