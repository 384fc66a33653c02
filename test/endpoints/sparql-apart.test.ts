/**
 * The public SPARQL endpoint on a server of its own (SPARQL_STORE_URL, issue 44: separate failure domains). Two
 * Virtuosos, one for the REST API (STORE_URL) and one for /sparql, and the service as `npm start` runs it on a
 * fresh data folder with the demo (DEMO_OBJECTS=10), which it harvests and writes to both servers. Checked:
 *
 * - both servers hold the generation, written by the one harvest: the REST server the whole of it, the SPARQL
 *   server its public part only (no non-public graph there); /sparql answers;
 * - with the SPARQL server killed (SIGKILL, as the OOM killer ended one in the issue), every REST request answers
 *   200 while /sparql answers 503 with Retry-After, and /readyz stays 200: REST never asks that server, and
 *   /sparql asks no other;
 * - with it started again on its database, /sparql answers 200 by itself, with no restart of the service.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generationGraphs } from '../../src/store/remote/generation-graphs.js';
import { currentGeneration } from '../../src/store/generations.js';
import { startService, waitFor, type ServiceProcess } from '../helpers/service-process.js';
import { describeWithVirtuoso, startVirtuoso, type VirtuosoServer } from '../helpers/virtuoso.js';

const FILE = 'test/endpoints/sparql-apart.test.ts';
const JSON_RESULTS = 'application/sparql-results+json';
const COUNT = 'SELECT (COUNT(*) AS ?n) WHERE { ?s a <http://www.cidoc-crm.org/cidoc-crm/E22_Human-Made_Object> }';

interface Answer {
  status: number;
  retryAfter: string | null;
  body: string;
}

async function get(origin: string, path: string, accept = 'application/ld+json'): Promise<Answer> {
  const response = await fetch(`${origin}${path}`, { headers: { accept }, signal: AbortSignal.timeout(20_000) });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.text() };
}

const sparql = (origin: string, query: string): Promise<Answer> => get(origin, `/sparql?query=${encodeURIComponent(query)}`, JSON_RESULTS);

describeWithVirtuoso(FILE)("the public SPARQL endpoint on a server of its own", () => {
  let rest: VirtuosoServer;
  let apart: VirtuosoServer;
  let service: ServiceProcess;
  let dataDir: string;

  beforeAll(async () => {
    [rest, apart] = await Promise.all([startVirtuoso(), startVirtuoso()]);
    dataDir = await mkdtemp(join(tmpdir(), 'sparql-apart-'));
    service = await startService(
      {
        DATA_DIR: dataDir,
        DEMO: '1',
        STORE_URL: rest.sparqlUrl,
        STORE_USER: rest.user,
        STORE_PASSWORD: rest.password,
        SPARQL_STORE_URL: apart.sparqlUrl,
      },
      180_000,
    );
    // /readyz is the REST API's: the SPARQL store starts beside it, without holding it.
    await waitFor('/sparql answers', async () => ((await sparql(service.origin, 'ASK {}')).status === 200 ? true : undefined), 60_000);
  }, 300_000);
  afterAll(async () => {
    await service?.stop();
    await Promise.all([rest?.stop(), apart?.stop()]);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('writes the whole generation to the REST server, its public part only to the SPARQL server, and answers /sparql from its own', async () => {
    const generation = await currentGeneration(dataDir);
    const { publicPrefix, nonPublicPrefix } = generationGraphs(generation!.id);
    /** The server's object graphs of the generation under `prefix`, asked of the server itself. */
    const objects = async (server: VirtuosoServer, prefix: string): Promise<number> => {
      const query = `SELECT (COUNT(DISTINCT ?g) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), "${prefix}") && CONTAINS(STR(?g), "/id/object/")) }`;
      const response = await fetch(`${server.sparqlUrl}?query=${encodeURIComponent(query)}`, { headers: { accept: JSON_RESULTS } });
      return Number(((await response.json()) as { results: { bindings: { n: { value: string } }[] } }).results.bindings[0]?.n.value);
    };
    // The public object graphs on both, the same number of them; the non-public ones (private, unhealthy and
    // removed objects) on the REST server only: nothing private is on the server that runs anonymous queries.
    const [publicOnRest, publicOnApart, privateOnRest, privateOnApart] = await Promise.all([
      objects(rest, publicPrefix),
      objects(apart, publicPrefix),
      objects(rest, nonPublicPrefix),
      objects(apart, nonPublicPrefix),
    ]);
    expect(publicOnRest).toBeGreaterThan(0);
    expect(publicOnApart).toBe(publicOnRest);
    expect(privateOnRest).toBeGreaterThan(0);
    expect(privateOnApart).toBe(0);
    const answer = await sparql(service.origin, COUNT);
    expect(answer.status).toBe(200);
    expect(Number(JSON.parse(answer.body).results.bindings[0].n.value)).toBeGreaterThan(0);
  });

  it('keeps REST at 200 and /readyz ready while the SPARQL server is killed, sheds /sparql with 503, and comes back by itself', async () => {
    const restPaths = ['/v2/id/objects', '/v2/id/agents', '/v2/id/exhibitions', '/v2/id/concepts'];
    await apart.kill();
    // The watchdog finds the server silent within seconds; meanwhile /sparql fails by itself (connection refused).
    const shed = await waitFor(
      '/sparql answers 503 with Retry-After',
      async () => {
        const answer = await sparql(service.origin, `ASK { ?s ?p "probe ${Date.now()}" }`);
        return answer.status === 503 && answer.retryAfter !== null ? answer : undefined;
      },
      30_000,
    );
    expect(Number(shed.retryAfter)).toBeGreaterThanOrEqual(1);
    const statuses: number[] = [];
    for (let round = 0; round < 5; round++) {
      for (const path of restPaths) statuses.push((await get(service.origin, path)).status);
      statuses.push((await get(service.origin, '/readyz', 'application/json')).status);
      const during = await sparql(service.origin, `ASK { ?s ?p "during ${round}" }`);
      expect([during.status, during.retryAfter !== null]).toEqual([503, true]);
    }
    expect(statuses.filter((status) => status !== 200)).toEqual([]);

    await apart.restart();
    const back = await waitFor(
      '/sparql answers 200 again',
      async () => {
        const answer = await sparql(service.origin, COUNT);
        return answer.status === 200 ? answer : undefined;
      },
      60_000,
    );
    expect(Number(JSON.parse(back.body).results.bindings[0].n.value)).toBeGreaterThan(0);
    for (const path of restPaths) expect([path, (await get(service.origin, path)).status]).toEqual([path, 200]);
  }, 180_000);
});
