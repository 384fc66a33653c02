/**
 * Content negotiation of single records (issue 7): JSON-LD stays the default; Turtle, N-Triples, N-Quads and
 * RDF/XML give the record's CONSTRUCT graph, each with its own entity tag and `Vary: Accept`. Also the
 * negotiation helpers and the RDF/XML writer on their own.
 */
import express from 'express';
import request from 'supertest';
import { isomorphic } from 'rdf-isomorphic';
import { DataFactory, Parser } from 'n3';
import { negotiate, negotiateRepresentation, representationEtag, serialiseQuads } from '../../src/http/negotiation.js';
import { splitPredicate, writeRdfXml } from '../../src/rdf/rdf-xml.js';
import { sourceObjects, startDemoApp, type DemoApp } from '../helpers/demo.js';
import { parseRdf, triplesOf, uniqueQuads } from './sparql-test-parsers.js';
import { jsonRecordEtag, rdfRecordEtag } from '../helpers/record-etag.js';

const RDF_TYPES = ['text/turtle', 'application/n-triples', 'application/n-quads', 'application/rdf+xml'] as const;
const SUFFIX: Record<(typeof RDF_TYPES)[number], string> = {
  'text/turtle': 'ttl',
  'application/n-triples': 'nt',
  'application/n-quads': 'nq',
  'application/rdf+xml': 'rdf',
};

describe('single object record in RDF syntaxes', () => {
  let demo: DemoApp;
  let pid: string;
  let title: string | undefined;
  let harvestedAt: string;
  let storeGraph: ReturnType<typeof uniqueQuads>;

  beforeAll(async () => {
    demo = await startDemoApp();
    const object = sourceObjects(demo.data).find((o) => o.public && o.healthy && o.state.kind === 'current' && o.titles.nl !== undefined);
    if (!object) throw new Error('the demo has no served object with a Dutch title');
    pid = object.objectNumber;
    title = object.titles.nl;
    harvestedAt = object.harvestedAt;
    const iri = demo.ctx.iris.object(pid);
    const nquads = await demo.store.query(demo.ctx.queries.bind('records/record', { record: iri, admin: demo.ctx.iris.adminGraph }), { format: 'application/n-quads' });
    storeGraph = uniqueQuads(new Parser({ format: 'application/n-quads' }).parse(nquads));
  }, 600_000);
  afterAll(() => demo.close());

  it.each(RDF_TYPES)('answers Accept: %s with the record’s CONSTRUCT graph in that syntax', async (type) => {
    const res = await request(demo.app).get(`/v2/id/object/${pid}`).set('Accept', type);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(`${type}; charset=utf-8`);
    expect(res.headers.vary).toMatch(/\bAccept\b/);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.headers['last-modified']).toBe(new Date(harvestedAt).toUTCString());
    const quads = uniqueQuads(triplesOf(await parseRdf(res.text, type)));
    expect(isomorphic(quads, storeGraph)).toBe(true);
    const iri = demo.ctx.iris.object(pid);
    const label = quads.find((q) => q.subject.value === iri && q.predicate.value === 'http://www.w3.org/2000/01/rdf-schema#label');
    expect(label?.object.value).toBe(title);
  });

  it('names the record’s graph in N-Quads: every statement is one of the record’s named graph', async () => {
    const iri = demo.ctx.iris.object(pid);
    const res = await request(demo.app).get(`/v2/id/object/${pid}`).set('Accept', 'application/n-quads');
    const quads = new Parser({ format: 'application/n-quads' }).parse(res.text);
    expect(quads.length).toBeGreaterThan(20);
    expect([...new Set(quads.map((q) => `${q.graph.termType} ${q.graph.value}`))]).toEqual([`NamedNode ${iri}`]);
  });

  it.each(['/v2/', '/v2/dcat', '/v2/id/types', '/v2/id/roles', '/v2/id/production?bucket=50', '/v2/id/colors'])(
    'answers Turtle asked of the document %s with the graph of its JSON-LD',
    async (path) => {
      const json = await request(demo.app).get(path).set('Accept', 'application/ld+json');
      const turtle = await request(demo.app).get(path).set('Accept', 'text/turtle');
      expect([turtle.status, turtle.headers['content-type']]).toEqual([200, 'text/turtle; charset=utf-8']);
      expect(turtle.headers.vary).toMatch(/\bAccept\b/);
      expect(turtle.headers.etag).not.toBe(json.headers.etag);
      const fromJson = uniqueQuads(await parseRdf(json.text, 'application/ld+json'));
      expect(fromJson.length).toBeGreaterThan(5);
      expect(isomorphic(uniqueQuads(await parseRdf(turtle.text, 'text/turtle')), fromJson)).toBe(true);
    },
  );

  it('refuses an RDF syntax for the change feed with 406 and says what it is available as', async () => {
    for (const path of ['/v2/changes', '/v2/changes/page/1']) {
      const res = await request(demo.app).get(path).set('Accept', 'text/turtle');
      expect([path, res.status, res.body.error]).toEqual([path, 406, 'The change feed is available as application/ld+json (Activity Streams, IIIF Change Discovery 1.0) only.']);
      expect((await request(demo.app).get(path).set('Accept', 'text/turtle, application/ld+json;q=0.5')).status).toBe(200);
    }
  });

  it('keeps JSON-LD as the default: no Accept, */*, application/json (a browser gets the page: pages.test.ts)', async () => {
    for (const accept of [undefined, '*/*', 'application/json']) {
      const req = request(demo.app).get(`/v2/id/object/${pid}`);
      const res = await (accept === undefined ? req : req.set('Accept', accept));
      expect([accept, res.headers['content-type']]).toEqual([accept, 'application/ld+json; charset=utf-8']);
      expect(res.headers.vary).toMatch(/\bAccept\b/);
    }
  });

  it('gives each representation its own ETag: pid, harvest time and the digest of its statements, the syntax inside the quotes', async () => {
    const jsonLd = await request(demo.app).get(`/v2/id/object/${pid}`);
    const base = String(jsonLd.headers.etag);
    expect(base).toBe(jsonRecordEtag(pid, harvestedAt, jsonLd.text));
    for (const type of RDF_TYPES) {
      const res = await request(demo.app).get(`/v2/id/object/${pid}`).set('Accept', type);
      expect(res.headers.etag).toMatch(rdfRecordEtag(pid, harvestedAt, SUFFIX[type]));
    }
  });

  it('answers 304 only to the ETag of the representation asked for', async () => {
    const turtle = await request(demo.app).get(`/v2/id/object/${pid}`).set('Accept', 'text/turtle');
    const same = await request(demo.app).get(`/v2/id/object/${pid}`).set('Accept', 'text/turtle').set('If-None-Match', String(turtle.headers.etag));
    expect(same.status).toBe(304);
    expect(same.headers.vary).toMatch(/\bAccept\b/);
    const other = await request(demo.app).get(`/v2/id/object/${pid}`).set('Accept', 'application/rdf+xml').set('If-None-Match', String(turtle.headers.etag));
    expect(other.status).toBe(200);
    const jsonLd = await request(demo.app).get(`/v2/id/object/${pid}`).set('If-None-Match', String(turtle.headers.etag));
    expect(jsonLd.status).toBe(200);
  });

  it('follows the client’s q-values', async () => {
    const res = await request(demo.app).get(`/v2/id/object/${pid}`).set('Accept', 'application/ld+json;q=0.5, application/n-triples;q=0.9, text/turtle;q=0.7');
    expect(res.headers['content-type']).toBe('application/n-triples; charset=utf-8');
  });
});

describe('negotiation helpers', () => {
  const app = express();
  app.get('/offer', (req, res) => {
    res.json({ best: negotiate(req, ['application/sparql-results+json', 'text/csv']) ?? null, representation: negotiateRepresentation(req) });
  });

  it('picks the offer with the highest q-value and the server’s first offer on ties', async () => {
    const cases: [string | undefined, string | null][] = [
      [undefined, 'application/sparql-results+json'],
      ['*/*', 'application/sparql-results+json'],
      ['text/*', 'text/csv'],
      ['text/csv;q=0.9, application/sparql-results+json;q=0.1', 'text/csv'],
      ['image/png', null],
      ['text/csv;q=0, */*', 'application/sparql-results+json'],
    ];
    for (const [accept, best] of cases) {
      const req = request(app).get('/offer');
      const res = await (accept === undefined ? req : req.set('Accept', accept));
      expect([accept, res.body.best]).toEqual([accept, best]);
    }
  });

  it('never refuses a record: unknown types get JSON-LD', async () => {
    const res = await request(app).get('/offer').set('Accept', 'image/png');
    expect(res.body.representation).toEqual({ kind: 'json-ld' });
  });

  it('puts the syntax inside the quotes of strong and weak tags alike', () => {
    expect(representationEtag('"a-1"', { kind: 'rdf', syntax: 'text/turtle' })).toBe('"a-1.ttl"');
    expect(representationEtag('W/"x"', { kind: 'rdf', syntax: 'application/rdf+xml' })).toBe('W/"x.rdf"');
    expect(representationEtag('"a-1"', { kind: 'json-ld' })).toBe('"a-1"');
  });
});

describe('RDF/XML writer', () => {
  const { namedNode, literal, blankNode, quad } = DataFactory;
  const tricky = [
    quad(namedNode("http://example.org/a?x=1&y='2'"), namedNode('http://example.org/ns#p'), literal('a < b & c > d "quoted"\r\nline')),
    quad(namedNode("http://example.org/a?x=1&y='2'"), namedNode('http://example.org/ns/q_1'), literal('13.5', namedNode('http://www.w3.org/2001/XMLSchema#decimal'))),
    quad(namedNode("http://example.org/a?x=1&y='2'"), namedNode('http://www.w3.org/2000/01/rdf-schema#label'), literal('titel', 'nl')),
    quad(namedNode("http://example.org/a?x=1&y='2'"), namedNode('http://example.org/ns#p'), blankNode('b0')),
    quad(blankNode('b0'), namedNode('http://example.org/other/2nd'), namedNode('http://example.org/c')),
    quad(blankNode('b0'), namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#type'), namedNode('http://example.org/T')),
  ];

  it('writes a document that a real RDF/XML parser reads back to the same graph', async () => {
    const xml = writeRdfXml(tricky, { rdfs: 'http://www.w3.org/2000/01/rdf-schema#' });
    expect(isomorphic(await parseRdf(xml, 'application/rdf+xml'), tricky)).toBe(true);
  });

  it('serialises the same graph identically through every syntax', async () => {
    for (const syntax of ['text/turtle', 'application/n-triples', 'application/n-quads', 'application/rdf+xml'] as const) {
      const text = await serialiseQuads(tricky, syntax);
      expect([syntax, isomorphic(await parseRdf(text, syntax), tricky)]).toEqual([syntax, true]);
    }
  });

  it('splits predicates at the longest XML name and refuses one without a name', () => {
    expect(splitPredicate('http://www.cidoc-crm.org/cidoc-crm/P1_is_identified_by')).toEqual(['http://www.cidoc-crm.org/cidoc-crm/', 'P1_is_identified_by']);
    expect(splitPredicate('http://example.org/other/2nd')).toEqual(['http://example.org/other/2', 'nd']);
    expect(() => splitPredicate('http://example.org/123')).toThrow(/cannot be written in RDF\/XML/);
  });
});
