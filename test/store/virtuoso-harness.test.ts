/**
 * The remote-store test harness itself: a throw-away Virtuoso (Debian's virtuoso-opensource) and Redis
 * (redis-server) start on free ports of 127.0.0.1, Virtuoso answers a SELECT, a few quads are written into
 * named graphs through the Graph Store Protocol at /sparql-graph-crud-auth (digest authentication as dba; the
 * write path docs/virtuoso-notes.md recommends) and read back unchanged, Redis answers, and both stop and leave
 * nothing behind. Skipped, saying why, when the packages are not installed (`.ci/run` installs them).
 */
import { existsSync } from 'node:fs';
import { isomorphic } from 'rdf-isomorphic';
import { Parser, type Quad } from 'n3';
import { redisCommand, startRedis, type RedisServer } from '../helpers/redis.js';
import { describeWithVirtuoso, startVirtuoso, type VirtuosoServer } from '../helpers/virtuoso.js';

const FILE = 'test/store/virtuoso-harness.test.ts';
const GRAPH_A = 'https://example.org/v2/id/objects/harness-1';
const GRAPH_B = 'https://example.org/v2/id/agents/harness-2';

// Language tags, a datatype, a gYear, non-ASCII text, an escaped newline and quote, and a blank node.
const NQUADS = `<${GRAPH_A}> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://www.cidoc-crm.org/cidoc-crm/E22_Human-Made_Object> <${GRAPH_A}> .
<${GRAPH_A}> <http://www.w3.org/2000/01/rdf-schema#label> "Stoel \\"Ørsted\\" é"@nl <${GRAPH_A}> .
<${GRAPH_A}> <http://www.cidoc-crm.org/cidoc-crm/P43_has_dimension> _:dim <${GRAPH_A}> .
_:dim <http://www.cidoc-crm.org/cidoc-crm/P90_has_value> "42.5"^^<http://www.w3.org/2001/XMLSchema#decimal> <${GRAPH_A}> .
_:dim <http://www.w3.org/2000/01/rdf-schema#comment> "line one\\nline two" <${GRAPH_A}> .
<${GRAPH_B}> <http://www.w3.org/2000/01/rdf-schema#label> "Maker"@en <${GRAPH_B}> .
<${GRAPH_B}> <http://www.cidoc-crm.org/cidoc-crm/P82a_begin_of_the_begin> "1920"^^<http://www.w3.org/2001/XMLSchema#gYear> <${GRAPH_B}> .
`;

const FORM = 'application/x-www-form-urlencoded';

async function sparql(v: VirtuosoServer, query: string, accept: string): Promise<Response> {
  // Form-encoded POST: a POST with Content-Type application/sparql-query never gets an answer from Virtuoso 7.2.
  return fetch(v.sparqlUrl, { method: 'POST', headers: { 'content-type': FORM, accept }, body: new URLSearchParams({ query }).toString() });
}

/** N-Triples of one graph's quads (graph term dropped), as the Graph Store Protocol takes them. */
function nTriples(quads: Quad[]): string {
  const term = (t: Quad['subject'] | Quad['object']): string => {
    if (t.termType === 'NamedNode') return `<${t.value}>`;
    if (t.termType === 'BlankNode') return `_:${t.value}`;
    if (t.termType === 'Literal') {
      const lexical = JSON.stringify(t.value);
      if (t.language) return `${lexical}@${t.language}`;
      return t.datatype.value === 'http://www.w3.org/2001/XMLSchema#string' ? lexical : `${lexical}^^<${t.datatype.value}>`;
    }
    throw new Error(`no N-Triples form for ${t.termType}`);
  };
  return quads.map((q) => `${term(q.subject)} ${term(q.predicate)} ${term(q.object)} .\n`).join('');
}

describeWithVirtuoso(FILE, { withRedis: true })('the Virtuoso and Redis test harness', () => {
  let virtuoso: VirtuosoServer | undefined;
  let redis: RedisServer | undefined;

  beforeAll(async () => {
    const [v, r] = await Promise.allSettled([startVirtuoso(), startRedis()]);
    if (v.status === 'fulfilled') virtuoso = v.value;
    if (r.status === 'fulfilled') redis = r.value;
    if (v.status === 'rejected' || r.status === 'rejected') {
      await Promise.all([virtuoso?.stop(), redis?.stop()]);
      throw v.status === 'rejected' ? v.reason : (r as PromiseRejectedResult).reason;
    }
  }, 30000);

  afterAll(async () => {
    await Promise.all([virtuoso?.stop(), redis?.stop()]);
  });

  it('answers a SELECT on the anonymous endpoint', async () => {
    const response = await sparql(virtuoso!, 'SELECT (1 + 1 AS ?two) WHERE {}', 'application/sparql-results+json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/sparql-results\+json/);
    const json = (await response.json()) as { results: { bindings: { two: { value: string } }[] } };
    expect(json.results.bindings).toHaveLength(1);
    expect(json.results.bindings[0]!.two.value).toBe('2');
  });

  it('refuses writes without authentication', async () => {
    const update = new URLSearchParams({ update: `INSERT DATA { GRAPH <${GRAPH_A}> { <urn:x> <urn:y> "z" } }` }).toString();
    const anonymous = await fetch(virtuoso!.sparqlUrl, { method: 'POST', headers: { 'content-type': FORM }, body: update });
    expect(anonymous.status).toBe(500);
    expect(await anonymous.text()).toMatch(/SR186/);
    const noCredentials = await fetch(`${virtuoso!.graphStoreUrl}?graph-uri=${encodeURIComponent(GRAPH_A)}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/n-triples' },
      body: '<urn:x> <urn:y> "z" .\n',
    });
    await noCredentials.arrayBuffer();
    expect(noCredentials.status).toBe(401);
  });

  it('loads quads into named graphs through the Graph Store Protocol and reads them back unchanged', async () => {
    const v = virtuoso!;
    const quads = new Parser({ format: 'application/n-quads' }).parse(NQUADS);
    const graphs = new Map<string, Quad[]>();
    for (const q of quads) graphs.set(q.graph.value, [...(graphs.get(q.graph.value) ?? []), q]);
    expect([...graphs.keys()].sort()).toEqual([GRAPH_B, GRAPH_A].sort());

    for (const [graph, graphQuads] of graphs) {
      const put = await v.authFetch(`${v.graphStoreUrl}?graph-uri=${encodeURIComponent(graph)}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/n-triples' },
        body: nTriples(graphQuads),
      });
      await put.arrayBuffer();
      expect(put.status).toBe(201);
    }

    for (const [graph, graphQuads] of graphs) {
      const response = await sparql(v, `CONSTRUCT { ?s ?p ?o } WHERE { GRAPH <${graph}> { ?s ?p ?o } }`, 'application/n-triples');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/n-triples/);
      const back = new Parser({ format: 'application/n-triples' }).parse(await response.text());
      const expected = new Parser({ format: 'application/n-triples' }).parse(nTriples(graphQuads));
      expect(back).toHaveLength(expected.length);
      expect(isomorphic(back, expected)).toBe(true);
    }

    // The same graphs through SELECT, restricted with FROM NAMED so Virtuoso's system graphs stay out.
    const select = await sparql(
      v,
      `SELECT ?g (COUNT(*) AS ?n) FROM NAMED <${GRAPH_A}> FROM NAMED <${GRAPH_B}> WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g ORDER BY ?g`,
      'application/sparql-results+json',
    );
    const rows = ((await select.json()) as { results: { bindings: { g: { value: string }; n: { value: string } }[] } }).results.bindings;
    expect(rows.map((r) => [r.g.value, Number(r.n.value)])).toEqual([
      [GRAPH_B, 2],
      [GRAPH_A, 5],
    ]);
  });

  it('answers Redis commands', async () => {
    expect(redis!.url).toBe(`redis://127.0.0.1:${redis!.port}`);
    expect(await redisCommand(redis!.port, 'SET', 'harness', 'ok')).toBe('OK');
    expect(await redisCommand(redis!.port, 'GET', 'harness')).toBe('ok');
    expect(await redisCommand(redis!.port, 'INCR', 'counter')).toBe(1);
  });

  it('stops both servers and removes the database directory', async () => {
    const v = virtuoso!;
    await Promise.all([v.stop(), redis!.stop()]);
    expect(existsSync(v.dir)).toBe(false);
    await expect(fetch(`${v.sparqlUrl}?query=ASK%7B%7D`)).rejects.toThrow();
    await expect(redisCommand(redis!.port, 'PING')).rejects.toThrow();
  });
});
