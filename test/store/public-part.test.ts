/**
 * The embedded store keeps a generation's public and non-public parts in two Oxigraph datasets of one worker
 * (store-worker.ts): the SPARQL endpoint reads the public one alone, and so do the REST queries, except those that
 * ask for the non-public part (the record statuses, `#+ part: non-public`, and v1's private objects). That is
 * sound only if the REST queries give the same answers on the public part as on the whole generation (as the
 * remote store's REST view holds it), which this test checks on the demo generation, on real Oxigraph stores
 * loaded from its files: every kind's collection index built from either (the same records in every order and
 * for sample filters), every kind's oracle in every order, and the record and page queries for public records
 * of every kind. The index queries' own rows differ (they list non-public records too, which the index drops).
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import oxigraph from 'oxigraph';
import { DataFactory, Parser, type Quad } from 'n3';
import { isomorphic } from 'rdf-isomorphic';
import { boundSelect, buildCollectionIndex } from '../../src/collection-index/build.js';
import type { CollectionIndex } from '../../src/collection-index/collection-index.js';
import type { SelectRows } from '../../src/collection-index/filters/filter.js';
import { oracleQuery } from '../../src/collection-index/oracle.js';
import type { RecordTable } from '../../src/collection-index/record-table.js';
import type { ResourceKind } from '../../src/engine/kind.js';
import { KINDS } from '../../src/kinds/index.js';
import { QueryLibrary } from '../../src/queries/library.js';
import { parseSelectJson } from '../../src/records/sparql-json.js';
import { generationFiles } from '../../src/store/generations.js';
import { Iris } from '../../src/vocab/iris.js';
import { demoData, TEST_BASE_URL } from '../helpers/demo.js';

const queries = new QueryLibrary();
const iris = new Iris(TEST_BASE_URL);
let whole: oxigraph.Store;
let publicPart: oxigraph.Store;

beforeAll(async () => {
  const { generation } = await demoData();
  const files = generationFiles(generation.dir);
  const text = (file: string): string => gunzipSync(readFileSync(file)).toString('utf8');
  whole = new oxigraph.Store();
  publicPart = new oxigraph.Store();
  whole.load(text(files.public), { format: 'application/n-quads' });
  whole.load(text(files.nonPublic), { format: 'application/n-quads' });
  publicPart.load(text(files.public), { format: 'application/n-quads' });
  expect(whole.size).toBeGreaterThan(publicPart.size);
}, 120_000);

/** The queries that read the non-public part (`#+ part: non-public`), and are sent there. */
const NON_PUBLIC = queries.names().filter((name) => queries.get(name).nonPublic);

interface JsonTerm {
  type: string;
  value: string;
}
const bindingsOf = (store: oxigraph.Store, sparql: string, union: boolean): Record<string, JsonTerm>[] =>
  (JSON.parse(String(store.query(sparql, { results_format: 'application/sparql-results+json', use_default_graph_as_union: union }))) as { results: { bindings: Record<string, JsonTerm>[] } }).results.bindings;

/** A SELECT's rows, sorted, every blank node named alike (they are scoped to one answer). */
function rows(store: oxigraph.Store, sparql: string, union: boolean): string[] {
  return bindingsOf(store, sparql, union)
    .map((row) => JSON.stringify(Object.entries(row).sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, term]) => [name, term.type === 'bnode' ? '_:b' : term.value])))
    .sort();
}

/** The `?record ?s ?p ?o` rows of a page query as quads in the record's graph, blank nodes kept apart. */
function rowQuads(store: oxigraph.Store, sparql: string): Quad[] {
  const term = (t: JsonTerm): Quad['object'] =>
    t.type === 'bnode' ? DataFactory.blankNode(t.value) : t.type === 'uri' ? DataFactory.namedNode(t.value) : DataFactory.literal(t.value, (t as JsonTerm & { 'xml:lang'?: string })['xml:lang'] ?? DataFactory.namedNode((t as JsonTerm & { datatype?: string }).datatype ?? 'http://www.w3.org/2001/XMLSchema#string'));
  return bindingsOf(store, sparql, false).map((row) => DataFactory.quad(term(row.s!) as Quad['subject'], term(row.p!) as Quad['predicate'], term(row.o!), DataFactory.namedNode(row.record!.value)));
}

const graph = (store: oxigraph.Store, sparql: string): Quad[] => new Parser({ format: 'N-Quads' }).parse(String(store.query(sparql, { results_format: 'application/n-quads' })));

/** A collection index of `kind` built from the answers of `store`. */
function indexOn(store: oxigraph.Store, kind: ResourceKind<RecordTable>): Promise<CollectionIndex> {
  const select: SelectRows = async (name, bindings) => parseSelectJson(String(store.query(boundSelect({ queries, iris }, name, bindings), { results_format: 'application/sparql-results+json' })));
  return buildCollectionIndex({ store: undefined as never, queries, iris }, kind.index, 'public-part-test', select);
}

/** The record IRIs of the index in every order it has, and the whole for each sample request of the kind. */
function orders(index: CollectionIndex, kind: ResourceKind<RecordTable>): Record<string, string[]> {
  const all = { offset: 0, limit: Number.MAX_SAFE_INTEGER };
  const out: Record<string, string[]> = {};
  for (const key of kind.index.sortKeys) {
    for (const direction of ['asc', 'desc'] as const) out[`${key} ${direction}`] = index.select({ filters: [], sort: { key, direction }, ...all }).iris;
  }
  for (const params of SAMPLE_REQUESTS[kind.collection] ?? []) {
    const filters = kind.index.filters.flatMap((filter) => {
      const active = filter.parse(params);
      return active ? [active] : [];
    });
    out[JSON.stringify(params)] = index.select({ filters, ...all }).iris;
  }
  return out;
}

/** Requests whose filters read rows that the non-public part could add to (concepts, agents, labels). */
const SAMPLE_REQUESTS: Record<string, Record<string, string>[]> = {
  objects: [{ concept: '530001000' }, { conceptSearch: 'stoel' }, { type: 'vaas' }, { material: 'glas' }, { agent: 'DMG-A-00198' }, { koepels: 'exclude' }, { hasImages: 'true' }],
  agents: [{ nationality: 'België' }, { role: 'designer' }, { hasBio: 'true' }],
};

describe('the public part of a generation answers the REST queries as the whole generation does', () => {
  it('names the record statuses as the one library query of the non-public part', () => {
    expect(NON_PUBLIC).toEqual(['records/status']);
  });

  it.each(NON_PUBLIC)('%s reads what only the non-public part holds (sent there)', (name) => {
    const text = queries.bind(name, { admin: iris.adminGraph });
    expect(rows(whole, text, false).length).toBeGreaterThan(0);
    expect(rows(publicPart, text, false)).toEqual([]);
  });

  it.each(KINDS.map((kind) => [kind.collection, kind] as const))('the %s collection index: the same records in every order and for sample filters', async (_name, kind) => {
    const expected = orders(await indexOn(whole, kind), kind);
    expect(Object.values(expected).every((list) => list.length > 0)).toBe(true);
    expect(orders(await indexOn(publicPart, kind), kind)).toEqual(expected);
  });

  it.each(KINDS.map((kind) => [kind.collection, kind] as const))('the %s oracle, in every order', (_name, kind) => {
    for (const key of Object.keys(kind.oracle.sorts)) {
      const text = oracleQuery(queries, iris, kind.oracle, { filters: [], sort: { key, direction: 'asc' } });
      const expected = rows(whole, text, true);
      expect(expected.length).toBeGreaterThan(0);
      expect(rows(publicPart, text, true)).toEqual(expected);
    }
  });

  const RECORD_QUERIES = queries.names().filter((name) => queries.get(name).params.some((param) => param.name === 'record'));
  it.each(RECORD_QUERIES)('%s, for public records of every kind', (name) => {
    const records = rows(publicPart, 'SELECT DISTINCT ?g WHERE { GRAPH ?g { ?g a ?class } } ORDER BY ?g', false)
      .map((row) => (JSON.parse(row) as [string, string][])[0]![1])
      .filter((iri) => iri.startsWith(`${TEST_BASE_URL}/v2/id/`));
    const sample = records.filter((_, i) => i % 97 === 0);
    expect(new Set(sample.map((iri) => iri.split('/')[5])).size).toBe(4);
    const withAdmin = queries.get(name).params.some((param) => param.name === 'admin');
    const text = queries.bind(name, sample.map((record): Record<string, string> => (withAdmin ? { record, admin: iris.adminGraph } : { record })));
    if (queries.get(name).ast.queryType === 'CONSTRUCT') {
      const expected = graph(whole, text);
      expect(expected.length).toBeGreaterThan(0);
      expect(isomorphic(graph(publicPart, text), expected)).toBe(true);
    } else if (name === 'records/page-records') {
      const expected = rowQuads(whole, text);
      expect(expected.length).toBeGreaterThan(0);
      expect(isomorphic(rowQuads(publicPart, text), expected)).toBe(true);
    } else {
      const expected = rows(whole, text, false);
      expect(expected.length).toBeGreaterThan(0);
      expect(rows(publicPart, text, false)).toEqual(expected);
    }
  });
});
