/**
 * The request path under stress: generation swaps, a dying store worker, hostile parameters. (Every object
 * against jsonld.js, with `colors=true` and without, is in record-framing.test.ts.)
 */
import fc from 'fast-check';
import request from 'supertest';
import { StoreManager } from '../../src/store/store-manager.js';
import { itEmbedded, startDemoApp, type DemoApp } from '../helpers/demo.js';

let demo: DemoApp;
beforeAll(async () => {
  demo = await startDemoApp({}, { testHooks: true });
}, 180_000);
afterAll(async () => demo.close());

describe('Store workers behind the object endpoint', () => {
  it('keeps answering 200 while the generation is swapped', async () => {
    let running = true;
    const statuses: number[] = [];
    const loop = (async () => {
      while (running) statuses.push((await request(demo.app).get('/v2/id/object/1482')).status);
    })();
    const loop2 = (async () => {
      while (running) statuses.push((await request(demo.app).get('/v2/id/object/TUP-0073')).status);
    })();
    await demo.store.swap(demo.data.generation.dir);
    // A remote store swaps in milliseconds: keep asking a little after it, so the answers around it are seen.
    while (statuses.length <= 10) await new Promise((resolve) => setTimeout(resolve, 20));
    running = false;
    await Promise.all([loop, loop2]);
    expect(statuses.length).toBeGreaterThan(10);
    expect(statuses.every((s) => s === 200)).toBe(true);
  }, 120_000);

  itEmbedded()('answers 503 with Retry-After while a dead worker restarts, then serves again', async () => {
    const restarted = new Promise((resolve) => demo.store.once('restart', resolve));
    (demo.store as StoreManager).crashForTest();
    // A pid the record cache has not seen, so the request must reach the store.
    const during = await request(demo.app).get('/v2/id/object/2000-0013');
    expect(during.status).toBe(503);
    expect(Number(during.headers['retry-after'])).toBeGreaterThan(0);
    expect(during.body.error).toEqual(expect.any(String));
    await restarted;
    expect((await request(demo.app).get('/v2/id/object/2000-0013')).status).toBe(200);
  }, 120_000);
});

describe('Hostile requests to the object endpoint', () => {
  it('never answers 5xx, whatever the pid and query string', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 80 }), fc.string({ maxLength: 40 }), async (pid, colors) => {
        const path = `/v2/id/object/${encodeURIComponent(pid)}?colors=${encodeURIComponent(colors)}`;
        const res = await request(demo.app).get(path);
        expect(res.status).toBeLessThan(500);
      }),
      { numRuns: 300 },
    );
  }, 120_000);

  it('answers 400 to colors values that are not booleans and accepts true/false', async () => {
    expect((await request(demo.app).get('/v2/id/object/1482?colors=maybe')).status).toBe(400);
    expect((await request(demo.app).get('/v2/id/object/1482?colors=true')).status).toBe(200);
  });
});
