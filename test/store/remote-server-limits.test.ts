/**
 * The SPARQL server's own limits, as the remote store reports them: a query Virtuoso refuses on its cost
 * estimate (`MaxQueryCostEstimationTime`) or stops at its time limit (`MaxQueryExecutionTime`) rejects with
 * `QueryDeadlineError` (504 at the endpoints) whose message says which limit and, for the estimate, the
 * server's figures (docs/virtuoso-notes.md).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { QueryDeadlineError } from '../../src/store/errors.js';
import { RemoteServer } from '../../src/store/remote/remote-server.js';
import { describeWithVirtuoso, startVirtuoso, type VirtuosoServer } from '../helpers/virtuoso.js';

const FILE = 'test/store/remote-server-limits.test.ts';
const JSON_RESULTS = 'application/sparql-results+json';
/** Three independent scans of every statement (Virtuoso's own system graphs): a cube of a few thousand. */
const CUBE = 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }';

/** CPU seconds the server process `dir` runs in has used (utime + stime of /proc/PID/stat, at 100 ticks a second). */
function serverCpuSeconds(dir: string): number {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (!cmdline.includes('virtuoso-t') || !cmdline.includes(dir)) continue;
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  }
  throw new Error(`no virtuoso-t process runs in ${dir}`);
}

describeWithVirtuoso(FILE)("the SPARQL server's limits", () => {
  let estimating: VirtuosoServer;
  let timing: VirtuosoServer;
  let generous: VirtuosoServer;

  beforeAll(async () => {
    [estimating, timing, generous] = await Promise.all([
      startVirtuoso({ maxQueryCostEstimationTime: 1 }),
      startVirtuoso({ maxQueryExecutionTime: 1, maxQueryCostEstimationTime: 0 }),
      startVirtuoso({ maxQueryExecutionTime: 60, maxQueryCostEstimationTime: 0 }),
    ]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([estimating?.stop(), timing?.stop(), generous?.stop()]);
  });

  it("keeps the service's deadline on the server: the query stops there, not at the server's own limit", async () => {
    const server = new RemoteServer({ queryUrl: generous.sparqlUrl });
    const started = performance.now();
    const stopped = await server.query(CUBE, JSON_RESULTS, 1500).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(stopped).toBeInstanceOf(QueryDeadlineError);
    // Answered by the server at its deadline (its anytime answer, never passed on as whole), or by the client's abort.
    expect(performance.now() - started).toBeLessThan(5_000);
    // Then the server is idle: over the next 2 s it uses a fraction of a core, where a query left running (the
    // server's own limit is 60 s) would use the whole of one.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const before = serverCpuSeconds(generous.dir);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(serverCpuSeconds(generous.dir) - before).toBeLessThan(0.5);
    await server.close();
  }, 30_000);

  it('a query refused on its estimate rejects with the estimate and the limit in the message', async () => {
    const server = new RemoteServer({ queryUrl: estimating.sparqlUrl });
    // A small query stays under the estimate.
    expect(JSON.parse((await server.query('ASK { ?s ?p ?o }', JSON_RESULTS, 10_000)).body)).toMatchObject({ boolean: true });
    const refused = await server.query(CUBE, JSON_RESULTS, 10_000).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(QueryDeadlineError);
    expect((refused as Error).message).toMatch(/^the SPARQL server refused the query: it estimated \d+ s, over its limit of 1 s \(MaxQueryCostEstimationTime\)$/);
  });

  it('a query stopped at the time limit rejects as the time limit', async () => {
    const server = new RemoteServer({ queryUrl: timing.sparqlUrl });
    const started = performance.now();
    const stopped = await server.query(CUBE, JSON_RESULTS, 30_000).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(stopped).toBeInstanceOf(QueryDeadlineError);
    expect((stopped as Error).message).toBe("the SPARQL server's time limit ended the query (the deadline it was given, or its own MaxQueryExecutionTime)");
    // The server's limit (1 s), not the service's deadline (30 s), ended it.
    expect(performance.now() - started).toBeLessThan(20_000);
  }, 40_000);
});
