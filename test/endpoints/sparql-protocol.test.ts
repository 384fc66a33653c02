/**
 * The W3C SPARQL 1.1 Protocol test suite (w3c/rdf-tests, sparql/sparql11/protocol/manifest.ttl) as tests, on a
 * real store whose generation holds the suite's data graphs (dataN.rdf, each saying `<dataN.rdf> a
 * foaf:Document`). Requests are sent byte for byte as the manifest writes them, with a raw HTTP client. The
 * query cases must pass; every update case must be refused (403), and the data must stay as it was.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApp } from '../../src/app.js';
import { createGeneration } from '../../src/store/generations.js';
import { StoreManager } from '../../src/store/store-manager.js';
import { httpTestContext } from '../helpers/http-context.js';
import { parseRdf, parseResults, parseSelect, rawRequest, type RawResponse } from './sparql-test-parsers.js';
import { KIND_NAMES } from '../../src/kinds/index.js';

const DATA = 'http://kasei.us/2009/09/sparql/data';
const FOAF_DOCUMENT = 'http://xmlns.com/foaf/0.1/Document';
const enc = encodeURIComponent;

let server: Server;
let store: StoreManager;
let dataDir: string;
let port: number;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'sparql-protocol-'));
  const nquads = [0, 1, 2, 3].map((n) => `<${DATA}/data${n}.rdf> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <${FOAF_DOCUMENT}> <${DATA}/data${n}.rdf> .\n`).join('');
  const generation = await createGeneration(dataDir, { source: { kind: 'load', path: 'w3c-protocol' }, baseUrl: 'http://www.example', kinds: KIND_NAMES }, async (out) => {
    out.public.end(nquads);
    out.nonPublic.end();
  });
  store = new StoreManager({ includeNonPublic: false });
  await store.start(generation.dir);
  const app = createApp(httpTestContext({ BASE_URL: 'http://www.example', RATE_LIMIT_PER_MINUTE: '0' }, store), { sparqlStore: store });
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

const send = (method: string, target: string, headers: Record<string, string> = {}, body?: string | Buffer): Promise<RawResponse> =>
  rawRequest(port, method, target, { Host: 'www.example', ...headers }, body);
const form = { 'content-type': 'application/x-www-form-urlencoded' };
const direct = { 'content-type': 'application/sparql-query' };
const update = { 'content-type': 'application/sparql-update' };

const BOOLEAN_TYPES = ['application/sparql-results+xml', 'application/sparql-results+json'];
const TABULAR_TYPES = [...BOOLEAN_TYPES, 'text/tab-separated-values', 'text/csv'];
const RDF_TYPES = ['application/rdf+xml', 'text/turtle', 'application/n-triples', 'application/n-quads', 'application/ld+json'];
const mediaType = (res: RawResponse): string => String(res.headers['content-type']).split(';')[0] ?? '';

/** The boolean answer of a 2xx response in a boolean results format. */
async function expectBoolean(res: RawResponse, expected: boolean): Promise<void> {
  expect(res.status).toBeGreaterThanOrEqual(200);
  expect(res.status).toBeLessThan(400);
  expect(BOOLEAN_TYPES).toContain(mediaType(res));
  expect(await parseResults(res.body, mediaType(res))).toBe(expected);
}

const ask = (query: string): Promise<RawResponse> => send('POST', '/sparql/', direct, query);
const quadCount = async (): Promise<number> => {
  const res = await send('GET', `/sparql/?query=${enc('SELECT (COUNT(*) AS ?n) { GRAPH ?g { ?s ?p ?o } }')}`);
  const results = await parseSelect(res.body, mediaType(res));
  return Number(results.rows[0]?.n?.value);
};

describe('SPARQL 1.1 Protocol test suite: query cases', () => {
  it('query_post_form: answers a query sent by URL-encoded POST', async () => {
    const res = await send('POST', `/sparql/?default-graph-uri=${enc(`${DATA}/data0.rdf`)}`, form, 'query=ASK%20%7B%7D');
    await expectBoolean(res, true);
  });

  it('query_dataset_default_graphs_get: merges the protocol-specified default graphs on GET', async () => {
    const query = `ASK { <${DATA}/data1.rdf> a ?type . <${DATA}/data2.rdf> a ?type . }`;
    const res = await send('GET', `/sparql/?query=${enc(query)}&default-graph-uri=${enc(`${DATA}/data1.rdf`)}&default-graph-uri=${enc(`${DATA}/data2.rdf`)}`);
    await expectBoolean(res, true);
  });

  it('query_dataset_default_graphs_post: merges the protocol-specified default graphs on POST', async () => {
    const query = `ASK { <${DATA}/data1.rdf> a ?type . <${DATA}/data2.rdf> a ?type . }`;
    const res = await send('POST', `/sparql/?default-graph-uri=${enc(`${DATA}/data1.rdf`)}&default-graph-uri=${enc(`${DATA}/data2.rdf`)}`, direct, query);
    await expectBoolean(res, true);
  });

  const namedQuery = `ASK { GRAPH ?g1 { <${DATA}/data1.rdf> a ?type } GRAPH ?g2 { <${DATA}/data2.rdf> a ?type } }`;
  const namedParams = `named-graph-uri=${enc(`${DATA}/data1.rdf`)}&named-graph-uri=${enc(`${DATA}/data2.rdf`)}`;

  it('query_dataset_named_graphs_post: uses the protocol-specified named graphs on POST', async () => {
    await expectBoolean(await send('POST', `/sparql/?${namedParams}`, direct, namedQuery), true);
  });

  it('query_dataset_named_graphs_get: uses the protocol-specified named graphs on GET', async () => {
    await expectBoolean(await send('GET', `/sparql/?query=${enc(namedQuery)}&${namedParams}`), true);
  });

  it('query_dataset_full: uses a protocol-specified dataset of both default and named graphs', async () => {
    const query = `ASK {\n  <${DATA}/data3.rdf> a ?type\n  GRAPH ?g1 { <${DATA}/data1.rdf> a ?type }\n  GRAPH ?g2 { <${DATA}/data2.rdf> a ?type }\n}`;
    const res = await send('POST', `/sparql/?default-graph-uri=${enc(`${DATA}/data3.rdf`)}&${namedParams}`, direct, query);
    await expectBoolean(res, true);
  });

  it('query_multiple_dataset: the protocol dataset replaces the one in the query', async () => {
    // The manifest percent-encodes the '&' between its two named-graph-uri parameters (making one odd IRI);
    // the case's intent, and what this sends, is the two parameters.
    const query = `ASK FROM <${DATA}/data3.rdf> { GRAPH ?g1 { <${DATA}/data1.rdf> a ?type } GRAPH ?g2 { <${DATA}/data2.rdf> a ?type } }`;
    await expectBoolean(await send('POST', `/sparql/?${namedParams}`, direct, query), true);
  });

  it('query_multiple_dataset: the query FROM is not used once the protocol names a dataset', async () => {
    const query = `ASK FROM <${DATA}/data3.rdf> { <${DATA}/data3.rdf> a ?type }`;
    await expectBoolean(await send('POST', `/sparql/?${namedParams}`, direct, query), false);
    await expectBoolean(await send('POST', '/sparql/', direct, query), true);
  });

  it('query_get: answers a query sent by GET', async () => {
    await expectBoolean(await send('GET', `/sparql/?query=ASK%20%7B%7D&default-graph-uri=${enc(`${DATA}/data0.rdf`)}`), true);
  });

  it('query_content_type_select: answers SELECT in a tabular results format', async () => {
    const res = await send('POST', `/sparql/?default-graph-uri=${enc(`${DATA}/data0.rdf`)}`, direct, 'SELECT (1 AS ?value) {}');
    expect(res.status).toBe(200);
    expect(TABULAR_TYPES).toContain(mediaType(res));
    const results = await parseSelect(res.body, mediaType(res));
    expect(results.vars).toEqual(['value']);
    expect(results.rows.map((r) => r.value?.value)).toEqual(['1']);
  });

  it('query_content_type_ask: answers ASK in a boolean results format', async () => {
    await expectBoolean(await send('POST', `/sparql/?default-graph-uri=${enc(`${DATA}/data0.rdf`)}`, direct, 'ASK {}'), true);
  });

  it('query_content_type_describe: answers DESCRIBE in an RDF format', async () => {
    const res = await send('POST', `/sparql/?default-graph-uri=${enc(`${DATA}/data0.rdf`)}`, direct, 'DESCRIBE <http://example.org/>');
    expect(res.status).toBe(200);
    expect(RDF_TYPES).toContain(mediaType(res));
    expect(await parseRdf(res.body, mediaType(res))).toEqual([]);
  });

  it('query_content_type_construct: answers CONSTRUCT in an RDF format, relative IRIs against the endpoint', async () => {
    const res = await send('POST', `/sparql/?default-graph-uri=${enc(`${DATA}/data0.rdf`)}`, direct, 'CONSTRUCT { <s> <p> 1 } WHERE {}');
    expect(res.status).toBe(200);
    expect(RDF_TYPES).toContain(mediaType(res));
    const [triple, ...rest] = await parseRdf(res.body, mediaType(res));
    expect(rest).toEqual([]);
    expect([triple?.subject.value, triple?.predicate.value, triple?.object.value]).toEqual(['http://www.example/s', 'http://www.example/p', '1']);
  });

  it('query_post_direct: answers a query sent as the POST body', async () => {
    await expectBoolean(await send('POST', '/sparql/', direct, 'ASK {}'), true);
  });
});

describe('SPARQL 1.1 Protocol test suite: malformed requests', () => {
  const cases: [string, () => Promise<RawResponse>][] = [
    ['bad_query_method (PUT)', () => send('PUT', `/sparql/?query=ASK%20%7B%7D&default-graph-uri=${enc(`${DATA}/data0.rdf`)}`, form, '')],
    ['bad_multiple_queries', () => send('GET', '/sparql/?query=ASK%20%7B%7D&query=SELECT%20%2A%20%7B%7D')],
    ['bad_query_wrong_media_type', () => send('POST', '/sparql/', { 'content-type': 'text/plain' }, 'ASK {}')],
    ['bad_query_missing_form_type', () => send('POST', '/sparql/', {}, 'query=ASK%20%7B%7D')],
    ['bad_query_missing_direct_type', () => send('POST', '/sparql/', {}, 'ASK {}')],
    [
      'bad_query_non_utf8',
      () => send('POST', '/sparql/', { 'content-type': 'application/sparql-query; charset=UTF-16' }, Buffer.from('\ufeffASK {}', 'utf16le')),
    ],
    ['bad_query_syntax', () => send('GET', '/sparql/?query=ASK%20%7B')],
    ['bad_update_get', () => send('GET', '/sparql/?update=CLEAR%20ALL')],
    ['bad_multiple_updates', () => send('POST', '/sparql/', form, 'update=CLEAR%20NAMED&update=CLEAR%20DEFAULT')],
    ['bad_update_wrong_media_type', () => send('POST', '/sparql/', { 'content-type': 'text/plain' }, 'CLEAR NAMED')],
    ['bad_update_missing_form_type', () => send('POST', '/sparql/', {}, 'update=CLEAR%20NAMED')],
    [
      'bad_update_non_utf8',
      () => send('POST', '/sparql/', { 'content-type': 'application/sparql-update; charset=UTF-16' }, Buffer.from('\ufeffCLEAR NAMED', 'utf16le')),
    ],
    ['bad_update_syntax', () => send('POST', '/sparql/', form, 'update=CLEAR%20XYZ')],
    [
      'bad_update_dataset_conflict',
      () =>
        send(
          'POST',
          `/sparql/?using-named-graph-uri=${enc('http://example/people')}`,
          update,
          "PREFIX foaf:  <http://xmlns.com/foaf/0.1/>\nWITH <http://example/addresses>\nDELETE { ?person foaf:givenName 'Bill' }\nINSERT { ?person foaf:givenName 'William' }\nWHERE {\n    ?person foaf:givenName 'Bill'\n}",
        ),
    ],
  ];

  it.each(cases)('%s: answers 4xx with a JSON error body', async (_name, request) => {
    const res = await request();
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(typeof (JSON.parse(res.body) as { error: unknown }).error).toBe('string');
  });
});

describe('SPARQL 1.1 Protocol test suite: update cases are refused and change nothing', () => {
  const prefixes = 'PREFIX dc: <http://purl.org/dc/terms/>\nPREFIX foaf: <http://xmlns.com/foaf/0.1/>\n';
  const insertData = `INSERT DATA {\n    GRAPH <${DATA}/data1.rdf> { <${DATA}/data1.rdf> a foaf:Document }\n    GRAPH <${DATA}/data2.rdf> { <${DATA}/data2.rdf> a foaf:Document }\n    GRAPH <${DATA}/data3.rdf> { <${DATA}/data3.rdf> a foaf:Document }\n} ;\n`;
  const checkAsk = (graph: string): string =>
    `ASK {\n    GRAPH <${graph}> {\n        <${DATA}/data1.rdf> a <http://purl.org/dc/terms/BibliographicResource> .\n    }\n}`;

  const cases: { name: string; request: () => Promise<RawResponse>; check: string }[] = [
    {
      name: 'update_dataset_default_graph',
      request: () =>
        send(
          'POST',
          `/sparql/?using-graph-uri=${enc(`${DATA}/data1.rdf`)}`,
          update,
          `${prefixes}CLEAR ALL ;\nINSERT DATA {\n    GRAPH <${DATA}/data1.rdf> {\n        <${DATA}/data1.rdf> a foaf:Document\n    }\n} ;\nINSERT {\n    GRAPH <http://example.org/protocol-update-dataset-test/> {\n        ?s a dc:BibliographicResource\n    }\n}\nWHERE {\n    ?s a foaf:Document\n}`,
        ),
      check: checkAsk('http://example.org/protocol-update-dataset-test/'),
    },
    {
      name: 'update_dataset_default_graphs',
      request: () =>
        send(
          'POST',
          `/sparql/?using-graph-uri=${enc(`${DATA}/data1.rdf`)}&using-graph-uri=${enc(`${DATA}/data2.rdf`)}`,
          update,
          `${prefixes}DROP ALL ;\n${insertData}INSERT {\n    GRAPH <http://example.org/protocol-update-dataset-graphs-test/> {\n        ?s a dc:BibliographicResource\n    }\n}\nWHERE {\n    ?s a foaf:Document\n}`,
        ),
      check: checkAsk('http://example.org/protocol-update-dataset-graphs-test/'),
    },
    {
      name: 'update_dataset_named_graphs',
      request: () =>
        send(
          'POST',
          `/sparql/?using-named-graph-uri=${enc(`${DATA}/data1.rdf`)}&using-named-graph-uri=${enc(`${DATA}/data2.rdf`)}`,
          update,
          `${prefixes}DROP ALL ;\n${insertData}INSERT {\n    GRAPH <http://example.org/protocol-update-dataset-named-graphs-test/> {\n        ?s a dc:BibliographicResource\n    }\n}\nWHERE {\n    GRAPH ?g {\n        ?s a foaf:Document\n    }\n}`,
        ),
      check: checkAsk('http://example.org/protocol-update-dataset-named-graphs-test/'),
    },
    {
      name: 'update_dataset_full',
      request: () =>
        send(
          'POST',
          `/sparql/?using-graph-uri=${enc(`${DATA}/data1.rdf`)}&using-named-graph-uri=${enc(`${DATA}/data2.rdf`)}`,
          update,
          `${prefixes}DROP ALL ;\n${insertData}INSERT {\n    GRAPH <http://example.org/protocol-update-dataset-full-test/> {\n        ?s <http://example.org/in> ?in\n    }\n}\nWHERE {\n    {\n        GRAPH ?g { ?s a foaf:Document }\n        BIND(?g AS ?in)\n    }\n    UNION\n    {\n        ?s a foaf:Document .\n        BIND("default" AS ?in)\n    }\n}`,
        ),
      check: `ASK { GRAPH <http://example.org/protocol-update-dataset-full-test/> { <${DATA}/data1.rdf> <http://example.org/in> "default" } }`,
    },
    { name: 'update_post_form', request: () => send('POST', '/sparql/', form, 'update=CLEAR+ALL'), check: `ASK { FILTER NOT EXISTS { GRAPH <${DATA}/data1.rdf> { ?s ?p ?o } } }` },
    { name: 'update_post_direct', request: () => send('POST', '/sparql/', update, 'CLEAR ALL'), check: `ASK { FILTER NOT EXISTS { GRAPH <${DATA}/data1.rdf> { ?s ?p ?o } } }` },
    {
      name: 'update_base_uri',
      request: () =>
        send(
          'POST',
          '/sparql/',
          update,
          'CLEAR GRAPH <http://example.org/protocol-base-test/> ;\nINSERT DATA { GRAPH <http://example.org/protocol-base-test/> { <http://example.org/s> <http://example.org/p> <test> } }',
        ),
      check: 'ASK { GRAPH <http://example.org/protocol-base-test/> { <http://example.org/s> <http://example.org/p> ?o } }',
    },
    {
      name: 'an update sent as query= (refused by its parsed form, not its parameter name)',
      request: () => send('GET', `/sparql/?query=${enc(`INSERT DATA { GRAPH <http://example.org/x> { <http://example.org/s> <http://example.org/p> 1 } }`)}`),
      check: 'ASK { GRAPH <http://example.org/x> { ?s ?p ?o } }',
    },
  ];

  it.each(cases)('$name: 403 with a clear message, and the data is unchanged', async ({ request, check }) => {
    const before = await quadCount();
    expect(before).toBe(4);
    const res = await request();
    expect(res.status).toBe(403);
    expect((JSON.parse(res.body) as { error: string }).error).toMatch(/read-only/);
    await expectBoolean(await ask(check), false);
    expect(await quadCount()).toBe(before);
    await expectBoolean(await ask(`ASK { GRAPH <${DATA}/data1.rdf> { <${DATA}/data1.rdf> a <${FOAF_DOCUMENT}> } }`), true);
  });
});
