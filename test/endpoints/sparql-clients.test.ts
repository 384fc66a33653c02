/**
 * Real SPARQL clients against /sparql on a real port (issue 7, Done when): fetch-sparql-endpoint and Comunica
 * (`@comunica/query-sparql` 4.5.0, the last that runs on Node 20) with the endpoint as a SPARQL source. Both
 * must get the answers the SPARQL store gives to the same query.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type * as RDF from '@rdfjs/types';
import { QueryEngine } from '@comunica/query-sparql';
import { SparqlEndpointFetcher } from 'fetch-sparql-endpoint';
import { Parser } from 'n3';
import { isomorphic } from 'rdf-isomorphic';
import { EXAMPLE_QUERIES } from '../../src/sparql/examples.js';
import { startDemoApp, type DemoApp } from '../helpers/demo.js';
import { parseSelect, triplesOf, uniqueQuads, type Row } from './sparql-test-parsers.js';

let demo: DemoApp;
let server: Server;
let endpoint: string;

beforeAll(async () => {
  demo = await startDemoApp({}, { sparql: true });
  server = await new Promise<Server>((resolve) => {
    const s = demo.app.listen(0, '127.0.0.1', () => resolve(s));
  });
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sparql`;
}, 600_000);
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await demo.close();
});

const CRM = 'http://www.cidoc-crm.org/cidoc-crm/';
const SELECT = `SELECT ?object ?label WHERE { GRAPH ?object { ?object a <${CRM}E22_Human-Made_Object> ; <http://www.w3.org/2000/01/rdf-schema#label> ?label } } ORDER BY ?object LIMIT 25`;
const CONSTRUCT = `CONSTRUCT { ?s ?p ?o } WHERE { { SELECT ?g WHERE { GRAPH ?g { ?g a <${CRM}E22_Human-Made_Object> } } ORDER BY ?g LIMIT 2 } GRAPH ?g { ?s ?p ?o } }`;

/** Rows as sorted strings of `var=term` pairs, so row order and term objects of different libraries compare. */
const rowKeys = (rows: readonly Row[]): string[] =>
  rows
    .map((row) =>
      Object.entries(row)
        .map(([v, t]) => `${v.replace(/^\?/, '')}=${t.termType}:${t.value}:${t.termType === 'Literal' ? `${(t as RDF.Literal).language}:${(t as RDF.Literal).datatype.value}` : ''}`)
        .sort()
        .join(' '),
    )
    .sort();

const storeSelect = async (query: string): Promise<Row[]> =>
  (await parseSelect(await (demo.sparqlStore?.query(query, { unionDefaultGraph: true }) ?? Promise.reject(new Error('no store'))), 'application/sparql-results+json')).rows;
const storeGraph = async (query: string): Promise<RDF.Quad[]> =>
  uniqueQuads(new Parser({ format: 'application/n-quads' }).parse(await (demo.sparqlStore?.query(query, { unionDefaultGraph: true }) ?? Promise.reject(new Error('no store')))));

const collect = <T>(stream: NodeJS.ReadableStream | AsyncIterable<T>): Promise<T[]> =>
  new Promise((resolve, reject) => {
    const out: T[] = [];
    const s = stream as NodeJS.ReadableStream;
    s.on('data', (x: T) => out.push(x));
    s.on('error', reject);
    s.on('end', () => resolve(out));
  });

describe('fetch-sparql-endpoint against /sparql', () => {
  const fetcher = new SparqlEndpointFetcher();

  it('gets the store’s bindings for a SELECT and for every example query', async () => {
    for (const query of [SELECT, ...EXAMPLE_QUERIES.filter((e) => !/^\s*CONSTRUCT/m.test(e.query.replace(/^(PREFIX|#).*$/gm, ''))).map((e) => e.query)]) {
      const rows = await collect<Row>(await fetcher.fetchBindings(endpoint, query));
      expect(rowKeys(rows)).toEqual(rowKeys(await storeSelect(query)));
    }
  });

  it('gets the store’s graph for a CONSTRUCT', async () => {
    const quads = await collect<RDF.Quad>(await fetcher.fetchTriples(endpoint, CONSTRUCT));
    const expected = await storeGraph(CONSTRUCT);
    expect(expected.length).toBeGreaterThan(20);
    expect(isomorphic(uniqueQuads(triplesOf(quads)), expected)).toBe(true);
  });

  it('gets the store’s answer for ASK', async () => {
    expect(await fetcher.fetchAsk(endpoint, `ASK { ?s a <${CRM}E22_Human-Made_Object> }`)).toBe(true);
    expect(await fetcher.fetchAsk(endpoint, 'ASK { ?s a <urn:x:nothing> }')).toBe(false);
  });
});

describe('Comunica with /sparql as a SPARQL endpoint source', () => {
  const engine = new QueryEngine();
  const context = () => ({ sources: [{ type: 'sparql' as const, value: endpoint }], lenient: false });

  it('gets the store’s bindings for a SELECT', async () => {
    const bindings = await (await engine.queryBindings(SELECT, context())).toArray();
    const rows: Row[] = bindings.map((b) => Object.fromEntries([...b].map(([v, t]) => [v.value, t])));
    expect(rowKeys(rows)).toEqual(rowKeys(await storeSelect(SELECT)));
  });

  it('gets the store’s graph for a CONSTRUCT', async () => {
    const quads = await (await engine.queryQuads(CONSTRUCT, context())).toArray();
    expect(isomorphic(uniqueQuads(triplesOf(quads)), await storeGraph(CONSTRUCT))).toBe(true);
  });
});
