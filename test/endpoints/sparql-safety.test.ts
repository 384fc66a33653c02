/**
 * The safety of /sparql on the demo generation (issue 7, Safety): SERVICE refused wherever it hides, the
 * SPARQL store holding exactly the public quads (no query or dataset parameter reaches a non-public record),
 * the deadline ending a runaway query by ending its worker while the REST store keeps answering, the row cap,
 * the concurrency cap with its bounded queue, and the endpoint's own rate limit.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import request from 'supertest';
import { Parser } from 'n3';
import { createApp } from '../../src/app.js';
import { MAX_ROWS_HEADER } from '../../src/endpoints/sparql-endpoint.js';
import { generationFiles } from '../../src/store/generations.js';
import { NS } from '../../src/vocab/namespaces.js';
import { sourceObjects, startDemoApp, type DemoApp, itEmbedded, remoteStoreRun } from '../helpers/demo.js';
import { parseSelect, uniqueQuads, type Row } from './sparql-test-parsers.js';

// A cube of every statement, each combination compared: long on any store (Virtuoso counts a bare cross
// product from its statistics at once).
const RUNAWAY = 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i FILTER(STR(?c) != STR(?f) && STR(?f) != STR(?i)) }';

/** Named graphs of an N-Quads .gz file, read with n3. */
function graphsOf(file: string): Set<string> {
  return new Set(quadsOf(file).map((q) => q.graph.value).filter((g) => g !== ''));
}

const quadsOf = (file: string) => new Parser({ format: 'application/n-quads' }).parse(gunzipSync(readFileSync(file)).toString('utf8'));

/** Distinct quads of the public file: a store holds each quad once, however often a file repeats it. */
const distinctPublicQuads = (demo: DemoApp): number => uniqueQuads(quadsOf(generationFiles(demo.data.generation.dir).public)).length;

const select = async (app: DemoApp['app'], query: string, params: Record<string, string | string[]> = {}): Promise<{ rows: Row[] }> => {
  const res = await request(app).get('/sparql').query({ query, ...params });
  expect(res.status).toBe(200);
  return parseSelect(res.text, String(res.headers['content-type']));
};

describe('SPARQL endpoint safety on the demo data (default limits)', () => {
  let demo: DemoApp;
  beforeAll(async () => {
    demo = await startDemoApp({}, { sparql: true });
  }, 600_000);
  afterAll(() => demo.close());

  const services = [
    'SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }',
    'SELECT * WHERE { SERVICE SILENT <http://example.org/sparql> { ?s ?p ?o } }',
    'SELECT * WHERE { ?x ?y ?z OPTIONAL { SERVICE ?endpoint { ?s ?p ?o } } }',
    'SELECT * WHERE { { SELECT ?s WHERE { SERVICE <http://127.0.0.1:1/sparql> { ?s ?p ?o } } } }',
    'ASK { FILTER EXISTS { SERVICE <http://example.org/sparql> { ?s ?p ?o } } }',
    'CONSTRUCT { ?s ?p ?o } WHERE { GRAPH ?g { MINUS { SERVICE <http://example.org/sparql> { ?s ?p ?o } } } }',
    'SELECT (EXISTS { SERVICE <http://example.org/sparql> { ?s ?p ?o } } AS ?remote) WHERE {}',
  ];

  it.each(services)('refuses SERVICE with 400 however it is nested: %s', async (query) => {
    for (const res of [
      await request(demo.app).get('/sparql').query({ query }),
      await request(demo.app).post('/sparql').type('form').send({ query }),
      await request(demo.app).post('/sparql').set('Content-Type', 'application/sparql-query').send(query),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'SERVICE is not allowed: a query on this endpoint cannot reach other endpoints.' });
    }
  });

  it('serves exactly the named graphs of public.nq.gz, none of nonpublic.nq.gz', async () => {
    const files = generationFiles(demo.data.generation.dir);
    const publicGraphs = graphsOf(files.public);
    const hidden = graphsOf(files.nonPublic);
    expect(hidden.size).toBeGreaterThan(0);
    const served = await select(demo.app, 'SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }');
    expect(new Set(served.rows.map((r) => r.g?.value))).toEqual(publicGraphs);
    for (const g of hidden) expect(publicGraphs.has(g)).toBe(false);
    const count = await select(demo.app, 'SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }');
    expect(Number(count.rows[0]?.n?.value)).toBe(distinctPublicQuads(demo));
  });

  it('never answers with a non-public graph, whether named by GRAPH, named-graph-uri or default-graph-uri', async () => {
    const hidden = [...graphsOf(generationFiles(demo.data.generation.dir).nonPublic)];
    const admin = demo.ctx.iris.adminGraph;
    expect(hidden).toContain(admin);
    const values = hidden.map((g) => `<${g}>`).join(' ');
    expect((await select(demo.app, `SELECT * WHERE { VALUES ?g { ${values} } GRAPH ?g { ?s ?p ?o } }`)).rows).toEqual([]);
    const named = await select(demo.app, 'SELECT * WHERE { GRAPH ?g { ?s ?p ?o } }', { 'named-graph-uri': hidden.slice(0, 20) });
    expect(named.rows).toEqual([]);
    const asDefault = await select(demo.app, 'SELECT * WHERE { ?s ?p ?o }', { 'default-graph-uri': [admin, ...hidden.slice(0, 20)] });
    expect(asDefault.rows).toEqual([]);
    const adminFacts = await select(demo.app, `SELECT * WHERE { { ?s ?p ?o } UNION { GRAPH ?g { ?s ?p ?o } } FILTER(STRSTARTS(STR(?p), "${NS.admin}")) }`);
    expect(adminFacts.rows).toEqual([]);
  });

  it('does not know the titles of objects that are private or unhealthy in the source export', async () => {
    const hiddenTitles = sourceObjects(demo.data)
      .filter((o) => !o.public || !o.healthy)
      .map((o) => o.titles.nl)
      .filter((t): t is string => typeof t === 'string');
    expect(hiddenTitles.length).toBeGreaterThan(0);
    const publicTitles = new Set(
      sourceObjects(demo.data)
        .filter((o) => o.public && o.healthy)
        .map((o) => o.titles.nl),
    );
    // A title shared with a public object is legitimately served; only titles of hidden objects alone must be absent.
    const onlyHidden = hiddenTitles.filter((t) => !publicTitles.has(t)).slice(0, 30);
    expect(onlyHidden.length).toBeGreaterThan(0);
    const values = onlyHidden.map((t) => JSON.stringify(t)).join(' ');
    const found = await select(demo.app, `SELECT ?t WHERE { VALUES ?t { ${values} } { ?s ?p ?t } UNION { ?s ?p ?l FILTER(STR(?l) = ?t) } }`);
    expect(found.rows).toEqual([]);
  });

  it('refuses updates in every form with 403 and the read-only message', async () => {
    const statuses = [
      await request(demo.app).post('/sparql').type('form').send({ update: 'CLEAR ALL' }),
      await request(demo.app).post('/sparql').set('Content-Type', 'application/sparql-update').send('DROP ALL'),
      await request(demo.app).get('/sparql').query({ query: 'DELETE WHERE { ?s ?p ?o }' }),
      await request(demo.app).post('/sparql').type('form').send({ query: 'LOAD <http://example.org/data.ttl>' }),
    ];
    for (const res of statuses) expect([res.status, res.body.error]).toEqual([403, expect.stringMatching(/^This SPARQL endpoint is read-only/)]);
    const count = await select(demo.app, 'SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }');
    expect(Number(count.rows[0]?.n?.value)).toBe(distinctPublicQuads(demo));
  });

  it('rate-limits queries on a counter of its own, never the editor page', async () => {
    const limited = createApp({ ...demo.ctx, config: { ...demo.ctx.config, rateLimitPerMinute: 2 } }, { sparqlStore: demo.sparqlStore });
    const ask = () => request(limited).get('/sparql').query({ query: 'ASK {}' });
    expect((await ask()).status).toBe(200);
    expect((await ask()).status).toBe(200);
    const third = await ask();
    expect(third.status).toBe(429);
    expect(third.headers['retry-after']).toBeDefined();
    expect((await request(limited).get('/sparql').set('Accept', 'text/html')).status).toBe(200);
    expect((await request(limited).get('/v2/dcat')).status).toBe(200);
  });
});

describe('SPARQL endpoint limits: deadline, rows and concurrency', () => {
  let demo: DemoApp;
  // Long enough that the concurrency test's five requests reach the gate while the runaway still holds the slot on a loaded machine.
  const DEADLINE = 3000;
  beforeAll(async () => {
    demo = await startDemoApp({ SPARQL_TIMEOUT_MS: String(DEADLINE), SPARQL_MAX_ROWS: '5', SPARQL_MAX_CONCURRENT: '1' }, { sparql: true });
  }, 600_000);
  afterAll(() => demo.close());

  /** Until /sparql answers, and (the embedded store's two workers) the second worker has loaded: it takes over. */
  const untilReady = async (): Promise<void> => {
    const both = (): boolean => (demo.store as { standbyReady?: () => boolean }).standbyReady?.() ?? true;
    while (!demo.sparqlStore?.ready() || !both()) await new Promise((r) => setTimeout(r, 50));
  };

  it('ends a runaway query at its deadline with 504, while REST requests keep being answered', async () => {
    await untilReady();
    const pid = sourceObjects(demo.data).find((o) => o.public && o.healthy && o.state.kind === 'current')?.objectNumber;
    expect(pid).toBeDefined();
    // Warm the REST path (status index, frame) so that what follows measures nothing but answering.
    expect((await request(demo.app).get(`/v2/id/object/${pid}`)).status).toBe(200);
    let finished = false;
    const runaway = request(demo.app)
      .get('/sparql')
      .query({ query: RUNAWAY })
      .then((res) => {
        finished = true;
        return res;
      });
    // REST requests one after another for as long as the runaway query holds the SPARQL worker.
    const rest: number[] = [];
    while (!finished) rest.push((await request(demo.app).get(`/v2/id/object/${pid}`)).status);
    const res = await runaway;
    // Virtuoso refuses the runaway at once by its cost estimate (remote pass), so no REST request may fit in.
    if (!remoteStoreRun()) expect(rest.length).toBeGreaterThan(3);
    expect(new Set(rest.length === 0 ? [200] : rest)).toEqual(new Set([200]));
    expect(res.status).toBe(504);
    expect(res.body.error).toBe(`The query ran past the deadline of ${DEADLINE} ms and was stopped. Narrow it down (a LIMIT, more selective patterns) and try again.`);
    expect(res.headers['cache-control']).toBe('no-store');

    if (!demo.sparqlStore?.ready()) {
      const restarting = await request(demo.app).get('/sparql').query({ query: 'ASK {}' });
      expect(restarting.status).toBe(503);
      expect(restarting.body.error).toMatch(/^The SPARQL store is not answering now/);
      expect(Number(restarting.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
    await untilReady();
    const after = await request(demo.app).get('/sparql').query({ query: 'ASK { ?s ?p ?o }' });
    expect([after.status, after.body]).toEqual([200, { head: {}, boolean: true }]);
  });

  it('caps the rows of a query without a LIMIT or with a larger one, and says so in a header', async () => {
    await untilReady();
    const all = await request(demo.app).get('/sparql').query({ query: 'SELECT ?g WHERE { GRAPH ?g { } }' });
    expect(all.status).toBe(200);
    expect(all.body.results.bindings).toHaveLength(5);
    expect(all.headers[MAX_ROWS_HEADER.toLowerCase()]).toBe('5');
    const larger = await request(demo.app).get('/sparql').query({ query: 'SELECT ?s WHERE { ?s ?p ?o } LIMIT 100' });
    expect(larger.body.results.bindings).toHaveLength(5);
    expect(larger.headers[MAX_ROWS_HEADER.toLowerCase()]).toBe('5');
    const smaller = await request(demo.app).get('/sparql').query({ query: 'SELECT ?s WHERE { ?s ?p ?o } LIMIT 3' });
    expect(smaller.body.results.bindings).toHaveLength(3);
    expect(smaller.headers[MAX_ROWS_HEADER.toLowerCase()]).toBeUndefined();
    // One row of aggregates: no cap. Over a VALUES, not the whole store, so that it stays well within the deadline.
    const count = await request(demo.app).get('/sparql').query({ query: 'SELECT (COUNT(*) AS ?n) WHERE { VALUES ?s { 1 2 3 4 5 6 7 } }' });
    expect(count.headers[MAX_ROWS_HEADER.toLowerCase()]).toBeUndefined();
    const graph = await request(demo.app).get('/sparql').query({ query: 'CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }' }).set('Accept', 'application/n-triples');
    expect(graph.text.trim().split('\n')).toHaveLength(5);
    expect(graph.headers[MAX_ROWS_HEADER.toLowerCase()]).toBe('5');
  });

  // Needs a query that holds the one slot for a while; Virtuoso refuses the runaway at once (remote pass).
  itEmbedded()('runs one query at a time here, queues four more, and answers 503 at once beyond that', async () => {
    await untilReady();
    const order: string[] = [];
    const arrived = new Map<string, number>();
    const track = (name: string) => (res: request.Response) => {
      order.push(name);
      arrived.set(name, performance.now());
      return res;
    };
    const sent = performance.now();
    const first = request(demo.app).get('/sparql').query({ query: RUNAWAY }).then(track('runaway'));
    await new Promise((r) => setTimeout(r, 100));
    const queued = [1, 2, 3, 4].map((i) => request(demo.app).get('/sparql').query({ query: `ASK { ?s ?p ${i} }` }).then(track(`queued${i}`)));
    await new Promise((r) => setTimeout(r, 100));
    // A text not asked before: parsed after the four (the parse worker takes them in turn), never let past them
    // by a verdict remembered from an earlier test while they wait for the parse on a busy machine.
    const extra = await request(demo.app).get('/sparql').query({ query: 'ASK { ?s ?p "extra" }' }).then(track('extra'));
    expect(extra.status).toBe(503);
    expect(extra.body.error).toBe('The SPARQL endpoint is busy (too many queries are waiting); retry shortly.');
    expect(order[0]).toBe('extra');
    const [runaway, ...waiting] = await Promise.all([first, ...queued]);
    expect(runaway?.status).toBe(504);
    // The queued queries waited behind the runaway: their deadline passed too, the store was restarting, or (the
    // embedded store's two workers) the other worker, serving at once, answered them after the 504.
    for (const res of waiting) expect([200, 503, 504]).toContain(res.status);
    // None was answered before the runaway's slot was free: at its deadline (the 504 and the first queued answer
    // may then reach the client in either order; a timer fires up to a few ms early, hence the margin).
    for (const i of [1, 2, 3, 4]) expect([`queued${i}`, arrived.get(`queued${i}`)! - sent >= DEADLINE - 20]).toEqual([`queued${i}`, true]);
    await untilReady();
  });
});
