/**
 * Every answer format of /sparql, read back with a real parser and compared with the same query run on the
 * SPARQL store directly; the service description; the editor page with its example queries and local assets.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import request from 'supertest';
import { isomorphic } from 'rdf-isomorphic';
import { Parser } from 'n3';
import { EXAMPLE_QUERIES } from '../../src/sparql/examples.js';
import { generationFiles } from '../../src/store/generations.js';
import { sourceObjects, sourceRecords, startDemoApp, TEST_BASE_URL, type DemoApp } from '../helpers/demo.js';

type AgentLike = { pid: string; public: boolean; citizenship?: { labels: { en: string } } };
import { oneSpelling, parseCsv, parseRdf, parseResults, parseSelect, triplesOf, uniqueQuads } from './sparql-test-parsers.js';

let demo: DemoApp;
beforeAll(async () => {
  demo = await startDemoApp({}, { sparql: true });
}, 600_000);
afterAll(() => demo.close());

const CRM = 'http://www.cidoc-crm.org/cidoc-crm/';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const SELECT = `SELECT ?object ?label ?begin WHERE {
  GRAPH ?object { ?object a <${CRM}E22_Human-Made_Object> ; <http://www.w3.org/2000/01/rdf-schema#label> ?label .
    OPTIONAL { ?object <${CRM}P108i_was_produced_by>/<${CRM}P4_has_time-span>/<${CRM}P82a_begin_of_the_begin> ?begin } }
} ORDER BY ?object LIMIT 40`;
const CONSTRUCT = `CONSTRUCT { ?s ?p ?o } WHERE { { SELECT ?g WHERE { GRAPH ?g { ?g a <${CRM}E22_Human-Made_Object> } } ORDER BY ?g LIMIT 3 } GRAPH ?g { ?s ?p ?o } }`;

/** The query's answer straight from the SPARQL store, as the endpoint would run it (union default graph). */
const fromStore = (query: string, format: 'application/sparql-results+json' | 'application/n-quads'): Promise<string> =>
  demo.sparqlStore?.query(query, { format, unionDefaultGraph: true }) ?? Promise.reject(new Error('no SPARQL store'));

const termKey = (t: { termType: string; value: string; language?: string; datatype?: { value: string } } | undefined): string =>
  t === undefined ? '' : `${t.termType}|${t.value}|${t.language ?? ''}|${t.termType === 'Literal' ? t.datatype?.value : ''}`;

describe('/sparql answer formats, each read with a real parser', () => {
  let expected: { vars: string[]; rows: Record<string, { termType: string; value: string }>[] };
  beforeAll(async () => {
    expected = await parseSelect(await fromStore(SELECT, 'application/sparql-results+json'), 'application/sparql-results+json');
    expect(expected.rows).toHaveLength(40);
  });

  it.each(['application/sparql-results+json', 'application/sparql-results+xml', 'text/tab-separated-values', 'application/json', 'application/xml'])(
    'answers SELECT as %s with the store’s rows, terms and all',
    async (type) => {
      const res = await request(demo.app).get('/sparql').query({ query: SELECT }).set('Accept', type);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe(`${type}; charset=utf-8`);
      expect(res.headers.vary).toMatch(/Accept/);
      const got = await parseSelect(res.text, type);
      expect(got.vars.sort()).toEqual(['begin', 'label', 'object']);
      const key = (row: Record<string, { termType: string; value: string }>) => ['object', 'label', 'begin'].map((v) => termKey(row[v])).join(' ');
      expect(got.rows.map(key)).toEqual(expected.rows.map(key));
    },
  );

  it('answers SELECT as CSV with the values of the store’s rows (RFC 4180, CRLF)', async () => {
    const res = await request(demo.app).get('/sparql').query({ query: SELECT }).set('Accept', 'text/csv');
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const [head, ...rows] = parseCsv(res.text);
    expect(head).toEqual(['object', 'label', 'begin']);
    expect(rows).toEqual(expected.rows.map((r) => [r.object?.value ?? '', r.label?.value ?? '', r.begin?.value ?? '']));
  });

  it('answers ASK as a boolean in JSON and XML', async () => {
    for (const type of ['application/sparql-results+json', 'application/sparql-results+xml']) {
      const yes = await request(demo.app).get('/sparql').query({ query: `ASK { ?s a <${CRM}E22_Human-Made_Object> }` }).set('Accept', type);
      const no = await request(demo.app).get('/sparql').query({ query: 'ASK { ?s a <urn:x:nothing> }' }).set('Accept', type);
      expect([await parseResults(yes.text, type), await parseResults(no.text, type)]).toEqual([true, false]);
    }
  });

  it.each(['text/turtle', 'application/n-triples', 'application/n-quads', 'application/ld+json', 'application/rdf+xml'])(
    'answers CONSTRUCT as %s, isomorphic to the store’s graph',
    async (type) => {
      // Doubles compared as values: jsonld.js reads a double in its canonical spelling (sparql-test-parsers.ts).
      const storeGraph = uniqueQuads(new Parser({ format: 'application/n-quads' }).parse(await fromStore(CONSTRUCT, 'application/n-quads'))).map(oneSpelling);
      expect(storeGraph.length).toBeGreaterThan(50);
      const res = await request(demo.app).post('/sparql').set('Content-Type', 'application/sparql-query').set('Accept', type).send(CONSTRUCT);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe(`${type}; charset=utf-8`);
      const got = uniqueQuads(triplesOf(await parseRdf(res.text, type))).map(oneSpelling);
      expect(isomorphic(got, storeGraph)).toBe(true);
    },
  );

  it('answers DESCRIBE and CONSTRUCT with each triple once, however many graphs or solutions state it', async () => {
    // Independent truth: the distinct statements of the public N-Quads file.
    const quads = new Parser({ format: 'application/n-quads' }).parse(gunzipSync(readFileSync(generationFiles(demo.data.generation.dir).public)).toString('utf8'));
    const object = `${TEST_BASE_URL}/v2/id/object/1482`;
    const key = (q: { subject: { value: string }; predicate: { value: string }; object: { termType: string; value: string } }): string => `${q.subject.value} ${q.predicate.value} ${termKey(q.object as never)}`;
    const aboutObject = new Set(quads.filter((q) => q.subject.value === object).map(key));
    const classes = new Set(quads.filter((q) => q.predicate.value === RDF_TYPE && q.graph.termType === 'NamedNode').map((q) => q.object.value));
    for (const type of ['application/n-triples', 'text/turtle']) {
      const described = await request(demo.app).get('/sparql').query({ query: `DESCRIBE <${object}>` }).set('Accept', type);
      expect(described.status).toBe(200);
      const triples = triplesOf(await parseRdf(described.text, type));
      if (type === 'application/n-triples') {
        const lines = described.text.split('\n').filter((line) => line !== '');
        expect(new Set(lines).size).toBe(lines.length);
      }
      expect(triples.length).toBe(uniqueQuads(triples).length);
      const named = (keys: Iterable<string>): string[] => [...keys].filter((k) => !k.includes('BlankNode|')).sort();
      expect(named(triples.filter((q) => q.subject.value === object).map(key))).toEqual(named(aboutObject));
    }
    // 300 solutions (objects), each making the same triple: one line.
    const objects = `CONSTRUCT { <urn:x:all> <urn:x:hasClass> ?class } WHERE { GRAPH ?g { ?s a ?class FILTER (?class = <${CRM}E22_Human-Made_Object>) } } LIMIT 300`;
    expect(classes.has(`${CRM}E22_Human-Made_Object`)).toBe(true);
    for (const type of ['application/n-triples', 'text/turtle', 'application/ld+json']) {
      const constructed = await request(demo.app).get('/sparql').query({ query: objects }).set('Accept', type);
      expect([type, triplesOf(await parseRdf(constructed.text, type)).map(key)]).toEqual([type, [`urn:x:all urn:x:hasClass NamedNode|${CRM}E22_Human-Made_Object||`]]);
    }
  });

  it('defaults to SPARQL JSON for SELECT and Turtle for CONSTRUCT, and answers 406 to what it cannot write', async () => {
    const select = await request(demo.app).get('/sparql').query({ query: 'SELECT * WHERE { ?s ?p ?o } LIMIT 1' });
    expect(select.headers['content-type']).toBe('application/sparql-results+json; charset=utf-8');
    const graph = await request(demo.app).get('/sparql').query({ query: 'CONSTRUCT WHERE { ?s ?p ?o } LIMIT 1' }).set('Accept', '*/*');
    expect(graph.headers['content-type']).toBe('text/turtle; charset=utf-8');
    const none = await request(demo.app).get('/sparql').query({ query: 'CONSTRUCT WHERE { ?s ?p ?o } LIMIT 1' }).set('Accept', 'text/csv');
    expect(none.status).toBe(406);
    expect(none.body.error).toBe('A CONSTRUCT answer is available as text/turtle, application/n-triples, application/n-quads, application/ld+json, application/rdf+xml.');
  });

  it('answers a repeated query with 304 when the client has its ETag (same generation, query and format)', async () => {
    const first = await request(demo.app).get('/sparql').query({ query: SELECT });
    const again = await request(demo.app).get('/sparql').query({ query: SELECT }).set('If-None-Match', String(first.headers.etag));
    expect(again.status).toBe(304);
    const csv = await request(demo.app).get('/sparql').query({ query: SELECT }).set('Accept', 'text/csv').set('If-None-Match', String(first.headers.etag));
    expect(csv.status).toBe(200);
  });

  it('reports a query the store cannot evaluate as 400 with the reason', async () => {
    const res = await request(demo.app).get('/sparql').query({ query: 'SELECT * WHERE { ?s ?p ?o } ORDER BY ?nope(' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^Invalid SPARQL query: /);
  });
});

describe('/sparql service description', () => {
  const SD = 'http://www.w3.org/ns/sparql-service-description#';

  it('describes the endpoint in Turtle to GET without a query', async () => {
    const res = await request(demo.app).get('/sparql').set('Accept', 'text/turtle');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/turtle; charset=utf-8');
    const quads = await parseRdf(res.text, 'text/turtle');
    const has = (s: string, p: string, o: string) => quads.some((q) => q.subject.value === s && q.predicate.value === p && q.object.value === o);
    const endpoint = 'http://localhost:3000/sparql';
    expect(has(endpoint, 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type', `${SD}Service`)).toBe(true);
    expect(has(endpoint, `${SD}endpoint`, endpoint)).toBe(true);
    expect(has(endpoint, `${SD}supportedLanguage`, `${SD}SPARQL11Query`)).toBe(true);
    expect(has(endpoint, `${SD}feature`, `${SD}UnionDefaultGraph`)).toBe(true);
    for (const f of ['SPARQL_Results_JSON', 'SPARQL_Results_XML', 'SPARQL_Results_CSV', 'SPARQL_Results_TSV', 'Turtle', 'RDF_XML', 'JSON-LD']) {
      expect(has(endpoint, `${SD}resultFormat`, `http://www.w3.org/ns/formats/${f}`)).toBe(true);
    }
    const triples = quads.find((q) => q.predicate.value === 'http://rdfs.org/ns/void#triples');
    expect(Number(triples?.object.value)).toBe(demo.data.generation.manifest.counts.publicQuads);
  });

  it('gives the same description in N-Triples and RDF/XML', async () => {
    const turtle = await parseRdf((await request(demo.app).get('/sparql').set('Accept', 'text/turtle')).text, 'text/turtle');
    for (const type of ['application/n-triples', 'application/rdf+xml']) {
      const res = await request(demo.app).get('/sparql').set('Accept', type);
      expect(res.headers['content-type']).toBe(`${type}; charset=utf-8`);
      expect(isomorphic(await parseRdf(res.text, type), turtle)).toBe(true);
    }
  });
});

describe('/sparql in a browser: the query editor', () => {
  it('serves the editor page with the example queries and local assets, never a CDN', async () => {
    const res = await request(demo.app).get('/sparql').set('Accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    for (const e of EXAMPLE_QUERIES) expect(res.text).toContain(`data-example="${e.id}"`);
    const sources = [...res.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '');
    expect(sources.filter((s) => /^(https?:)?\/\//.test(s))).toEqual([]);
    for (const asset of sources.filter((s) => s.startsWith('/sparql/assets/'))) {
      const got = await request(demo.app).get(asset);
      expect([asset, got.status]).toEqual([asset, 200]);
    }
  });

  it.each(EXAMPLE_QUERIES.map((e) => [e.id, e.query]))('runs the example query %s on the demo data with results', async (_id, query) => {
    const res = await request(demo.app).post('/sparql').type('form').send({ query }).set('Accept', 'application/sparql-results+json,text/turtle;q=0.9');
    expect(res.status).toBe(200);
    const type = String(res.headers['content-type']);
    const size = type.startsWith('text/turtle') ? (await parseRdf(res.text, type)).length : (await parseSelect(res.text, type)).rows.length;
    expect(size).toBeGreaterThan(0);
  });

  it('counts designers per nationality as the source export says (example query checked by hand)', async () => {
    const example = EXAMPLE_QUERIES.find((e) => e.id === 'designers-by-nationality');
    const res = await request(demo.app).post('/sparql').type('form').send({ query: example?.query });
    const rows = (await parseSelect(res.text, String(res.headers['content-type']))).rows;
    // Designers: public agents named by the creations of served objects, counted per English country name.
    const agents = new Map(sourceRecords(demo.data, 'agents').map((a) => [(a as AgentLike).pid, a as AgentLike]));
    const designers = new Set<string>();
    for (const o of sourceObjects(demo.data)) {
      if (!o.public || !o.healthy || o.state.kind !== 'current') continue;
      for (const c of o.creations) if (c.agent !== undefined && agents.get(c.agent)?.public) designers.add(c.agent);
    }
    const expected = new Map<string, number>();
    for (const pid of designers) {
      const country = agents.get(pid)?.citizenship?.labels.en;
      if (country !== undefined) expected.set(country, (expected.get(country) ?? 0) + 1);
    }
    expect(expected.size).toBeGreaterThan(0);
    expect(new Map(rows.map((r) => [r.nationality?.value, Number(r.designers?.value)]))).toEqual(expected);
  });
});
