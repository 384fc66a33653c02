/**
 * The service on a SPARQL server that stops answering (issue 27): a real Virtuoso behind a TCP proxy that can
 * hang as a hung Virtuoso does (connections accepted, nothing answered, open connections frozen), and the
 * service as `npm start` runs it. Its watchdog must turn /readyz to 503 within 10 s, REST and SPARQL requests
 * must then fail at once with 503 and Retry-After (a request already waiting on the server too), /healthz stays
 * 200, and everything recovers by itself when the proxy forwards again (docs/operations.md, "When the SPARQL
 * server stops answering").
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/config.js';
import type { Generation } from '../../src/store/generations.js';
import { ensurePublished } from '../../src/store/stores.js';
import { startService, type ServiceProcess } from '../helpers/service-process.js';
import { makeSmallGeneration, smallGenerationObjects } from '../helpers/small-generation.js';
import { startHangingProxy, type HangingProxy } from '../helpers/tcp-proxy.js';
import { describeWithVirtuoso, startVirtuoso, type VirtuosoServer } from '../helpers/virtuoso.js';

const FILE = 'test/store/remote-watchdog.test.ts';
const BASE = 'http://localhost:3000';

interface Answer {
  status: number;
  headers: Headers;
  body: string;
  ms: number;
}

describeWithVirtuoso(FILE)('the service when the SPARQL server stops answering', () => {
  let virtuoso: VirtuosoServer;
  let proxy: HangingProxy;
  let root: string;
  let service: ServiceProcess;
  let generation: Generation;
  const records = smallGenerationObjects(1).slice(0, 3).map((number) => `/v2/id/object/${number}`);

  const get = async (path: string, timeoutMs = 15_000): Promise<Answer> => {
    const started = performance.now();
    const response = await fetch(`${service.origin}${path}`, { signal: AbortSignal.timeout(timeoutMs) });
    return { status: response.status, headers: response.headers, body: await response.text(), ms: performance.now() - started };
  };
  /** Polls /readyz every 100 ms until its status is `status`; the time that took. */
  const readyzBecomes = async (status: number, withinMs: number): Promise<{ answer: Answer; ms: number }> => {
    const started = performance.now();
    for (;;) {
      const answer = await get('/readyz', 2000);
      if (answer.status === status) return { answer, ms: performance.now() - started };
      if (performance.now() - started > withinMs) throw new Error(`/readyz still ${answer.status} after ${withinMs} ms: ${answer.body}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'remote-watchdog-'));
    const dataDir = join(root, 'data');
    // Made while Virtuoso starts, written to it once it answers.
    const making = makeSmallGeneration({ dataDir, baseUrl: BASE }, root, { seed: 1, publish: false });
    virtuoso = await startVirtuoso();
    generation = await making;
    proxy = await startHangingProxy(virtuoso.httpPort);
    const credentials = { STORE_USER: virtuoso.user, STORE_PASSWORD: virtuoso.password };
    await ensurePublished(loadConfig({ BASE_URL: BASE, DATA_DIR: dataDir, STORE_URL: virtuoso.sparqlUrl, ...credentials }), generation.dir);
    // The service reaches the server through the proxy only.
    service = await startService({ BASE_URL: BASE, DATA_DIR: dataDir, STORE_URL: `http://127.0.0.1:${proxy.port}/sparql`, ...credentials });
  }, 120_000);

  afterAll(async () => {
    await service?.stop();
    await proxy?.close();
    await virtuoso?.stop();
    if (root !== undefined) await rm(root, { recursive: true, force: true });
  });

  it('turns /readyz to 503 within 10 s, then answers REST and SPARQL requests with 503 and Retry-After at once', async () => {
    expect((await get(records[0]!)).status).toBe(200);
    const ready = await get('/readyz');
    expect(JSON.parse(ready.body)).toEqual({ status: 'ready', generation: generation.id, wanted: generation.id });

    proxy.hang();
    const hungAt = performance.now();
    // A request that reaches the hung server: it must end with the watchdog's finding, not its 300 s deadline.
    const waiting = get(records[1]!, 30_000).then((answer) => ({ ...answer, endedAfterHangMs: performance.now() - hungAt }));

    const { answer: readyz, ms } = await readyzBecomes(503, 10_000);
    const toReadyz503 = performance.now() - hungAt;
    expect(toReadyz503).toBeLessThan(10_000);
    expect(readyz.headers.get('retry-after')).toBe('5');
    expect(JSON.parse(readyz.body)).toEqual({
      error: 'The SPARQL server does not answer. Please retry shortly.',
      status: 'unavailable',
      generation: generation.id,
      wanted: generation.id,
    });

    const rest = await get(records[2]!);
    expect({ status: rest.status, retryAfter: rest.headers.get('retry-after') }).toEqual({ status: 503, retryAfter: '5' });
    expect(rest.ms).toBeLessThan(1000);
    const sparql = await get(`/sparql?query=${encodeURIComponent('SELECT * WHERE { ?s ?p ?o } LIMIT 1')}`);
    expect({ status: sparql.status, retryAfter: sparql.headers.get('retry-after') }).toEqual({ status: 503, retryAfter: '5' });
    expect(sparql.ms).toBeLessThan(1000);
    const inFlight = await waiting;
    expect(inFlight.status).toBe(503);
    expect(inFlight.endedAfterHangMs).toBeLessThan(10_000);
    // Liveness is not readiness: the process runs.
    expect((await get('/healthz')).status).toBe(200);
    console.log(
      `${FILE}: /readyz 503 ${Math.round(toReadyz503)} ms after the hang (polled for ${Math.round(ms)} ms); the waiting request ended after ` +
        `${Math.round(inFlight.endedAfterHangMs)} ms; REST 503 in ${Math.round(rest.ms)} ms, SPARQL 503 in ${Math.round(sparql.ms)} ms`,
    );
  }, 30_000);

  it('recovers by itself once the server answers again: /readyz 200 and records served', async () => {
    proxy.release();
    const { answer, ms } = await readyzBecomes(200, 10_000);
    expect(JSON.parse(answer.body)).toEqual({ status: 'ready', generation: generation.id, wanted: generation.id });
    const started = performance.now();
    for (const record of records) expect((await get(record)).status).toBe(200);
    console.log(`${FILE}: /readyz 200 ${Math.round(ms)} ms after the release; three records in ${Math.round(performance.now() - started)} ms`);
  }, 30_000);
});
