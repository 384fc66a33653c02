/**
 * Swaps that fail are retried (issue 27): the service as `npm start` runs it, on a real Virtuoso behind a TCP
 * proxy that can hang, follows `current` to a generation the server does not hold yet (made current before it
 * was written there) and back to the first one (a roll-back while the server does not answer); each swap fails, the
 * old generation keeps serving, /readyz names the served and the wanted generation, and the swap succeeds by
 * itself once the server holds the generation or answers again (src/store/follow-current.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/config.js';
import { setCurrent, type Generation } from '../../src/store/generations.js';
import { ensurePublished } from '../../src/store/stores.js';
import { startService, type ServiceProcess } from '../helpers/service-process.js';
import { makeSmallGeneration, smallGenerationObjects } from '../helpers/small-generation.js';
import { startHangingProxy, type HangingProxy } from '../helpers/tcp-proxy.js';
import { describeWithVirtuoso, startVirtuoso, type VirtuosoServer } from '../helpers/virtuoso.js';

const FILE = 'test/store/follow-current.test.ts';
const BASE = 'http://localhost:3000';

interface Readyz {
  httpStatus: number;
  status: string;
  generation: string | null;
  wanted: string | null;
}

describeWithVirtuoso(FILE)('a service whose swap to the current generation fails', () => {
  let virtuoso: VirtuosoServer;
  let proxy: HangingProxy;
  let root: string;
  let service: ServiceProcess;
  let config: ReturnType<typeof loadConfig>;
  let first: Generation;
  let second: Generation;

  const readyz = async (): Promise<Readyz> => {
    const response = await fetch(`${service.origin}/readyz`, { signal: AbortSignal.timeout(2000) });
    const body = (await response.json()) as Omit<Readyz, 'httpStatus'>;
    return { httpStatus: response.status, status: body.status, generation: body.generation, wanted: body.wanted };
  };
  /** Polls /readyz every 100 ms until `done` holds; the last answer and the time that took. */
  const readyzUntil = async (what: string, done: (r: Readyz) => boolean, withinMs: number): Promise<{ answer: Readyz; ms: number }> => {
    const started = performance.now();
    for (;;) {
      const answer = await readyz();
      if (done(answer)) return { answer, ms: performance.now() - started };
      if (performance.now() - started > withinMs) throw new Error(`/readyz not ${what} after ${withinMs} ms: ${JSON.stringify(answer)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  /** The status of the first object of the generation of `seed` (each generation holds its own objects). */
  const objectOf = async (seed: number): Promise<number> => (await fetch(`${service.origin}/v2/id/object/${smallGenerationObjects(seed)[0]!}`)).status;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'follow-current-'));
    const dataDir = join(root, 'data');
    // Both generations are made while Virtuoso starts; the second is neither current nor on the server yet.
    const making = (async () => {
      const made = await makeSmallGeneration({ dataDir, baseUrl: BASE }, root, { seed: 1, publish: false });
      return [made, await makeSmallGeneration({ dataDir, baseUrl: BASE }, root, { seed: 2, publish: false, current: false })] as const;
    })();
    virtuoso = await startVirtuoso();
    [first, second] = await making;
    proxy = await startHangingProxy(virtuoso.httpPort);
    const credentials = { STORE_USER: virtuoso.user, STORE_PASSWORD: virtuoso.password };
    config = loadConfig({ BASE_URL: BASE, DATA_DIR: dataDir, STORE_URL: virtuoso.sparqlUrl, ...credentials });
    await ensurePublished(config, first.dir);
    service = await startService({ BASE_URL: BASE, DATA_DIR: dataDir, STORE_URL: `http://127.0.0.1:${proxy.port}/sparql`, ...credentials });
  }, 120_000);

  afterAll(async () => {
    await service?.stop();
    await proxy?.close();
    await virtuoso?.stop();
    if (root !== undefined) await rm(root, { recursive: true, force: true });
  });

  it('retries a swap to a generation the server does not hold yet, and serves it once it is written there', async () => {
    expect(await readyz()).toEqual({ httpStatus: 200, status: 'ready', generation: first.id, wanted: first.id });
    expect([await objectOf(1), await objectOf(2)]).toEqual([200, 404]);
    // Made current without being written to the server (as by a data command run without STORE_URL).
    await setCurrent(config.dataDir, second.id);
    await readyzUntil('wanting the new generation', (r) => r.wanted === second.id, 10_000);
    // Refused (not on the server): the old generation serves on through the first retry (1 s later).
    for (let i = 0; i < 6; i++) {
      expect(await readyz()).toEqual({ httpStatus: 200, status: 'ready', generation: first.id, wanted: second.id });
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    // Written to the server now; `current` is not touched again, so only a retry can switch.
    const written = performance.now();
    await ensurePublished(config, second.dir);
    const writtenAt = performance.now();
    const { ms } = await readyzUntil('serving the new generation', (r) => r.generation === second.id, 30_000);
    expect(await readyz()).toEqual({ httpStatus: 200, status: 'ready', generation: second.id, wanted: second.id });
    expect([await objectOf(1), await objectOf(2)]).toEqual([404, 200]);
    console.log(`${FILE}: written to the server in ${Math.round(writtenAt - written)} ms; served ${Math.round(ms)} ms later`);
  }, 60_000);

  it('retries a roll-back that failed while the server did not answer, as soon as it answers again', async () => {
    proxy.hang();
    await readyzUntil('503', (r) => r.httpStatus === 503, 10_000);
    // The first generation is still kept, in the data folder and on the server.
    await setCurrent(config.dataDir, first.id);
    const { answer } = await readyzUntil('wanting the first generation', (r) => r.wanted === first.id, 10_000);
    expect(answer).toEqual({ httpStatus: 503, status: 'unavailable', generation: second.id, wanted: first.id });
    // The swap failed at once (the server counts as silent) and waits for its retry; nothing was switched.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await readyz()).toEqual({ httpStatus: 503, status: 'unavailable', generation: second.id, wanted: first.id });

    proxy.release();
    const { ms } = await readyzUntil('serving the first generation', (r) => r.httpStatus === 200 && r.generation === first.id, 10_000);
    expect(await readyz()).toEqual({ httpStatus: 200, status: 'ready', generation: first.id, wanted: first.id });
    expect([await objectOf(1), await objectOf(2)]).toEqual([200, 404]);
    console.log(`${FILE}: served the first generation again ${Math.round(ms)} ms after the server answered`);
  }, 60_000);
});
