/**
 * A page's records shaped in the store worker that reads them (src/store/worker-shaping.ts), while the shared
 * embedded store's two workers share the work. test/endpoints/record-framing.test.ts holds records shaped on the
 * main thread byte for byte to jsonld.js on every demo record of every kind; here a page shaped in a worker is
 * the page shaped on the main thread, each record of it the single record (validators included), every kind
 * names where its shaping function is, records are shaped on the main thread while one worker runs a client's
 * query, and a shaping a worker cannot load fails that query alone.
 */
import { KINDS } from '../../src/kinds/index.js';
import { QueryLibrary } from '../../src/queries/library.js';
import { Records } from '../../src/records/records.js';
import { StatusIndex } from '../../src/records/status-index.js';
import { unpackShapedRecords, type ShapedRecord } from '../../src/store/shaped-records.js';
import { parseRecordRows } from '../../src/shaping/record-graph.js';
import { QueryError } from '../../src/store/errors.js';
import { sharedEmbeddedStores } from '../../src/store/shared-store.js';
import type { ServingStore } from '../../src/store/stores.js';
import { Iris } from '../../src/vocab/iris.js';
import { BOOKS } from '../fixtures/kinds/books/kind.js';
import { demoData, TEST_BASE_URL } from '../helpers/demo.js';
import { storeOfItsOwn } from '../helpers/store-view.js';

const iris = new Iris(TEST_BASE_URL);
const queries = new QueryLibrary();
let store: ServingStore;
let stores: ReturnType<typeof sharedEmbeddedStores>;

beforeAll(async () => {
  const data = await demoData();
  stores = sharedEmbeddedStores();
  store = stores.rest;
  await Promise.all([stores.rest.start(data.generation.dir), stores.sparql.start(data.generation.dir)]);
  const until = Date.now() + 60_000;
  while (!stores.manager.standbyReady() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
}, 120_000);
afterAll(() => Promise.all([stores?.rest.close(), stores?.sparql.close()]));

describe('Records shaped in the store worker', () => {
  it('every kind names the module and export of its own shaping function', async () => {
    for (const kind of [...KINDS, BOOKS]) {
      const at = kind.record.shapeExport;
      expect(at).toBeDefined();
      const module = (await import(at?.module ?? '')) as Record<string, unknown>;
      expect(module[at?.name ?? '']).toBe(kind.record.shape);
    }
  });

  it('a page of every kind shaped in the worker is the page shaped on the main thread, and each record the single record', async () => {
    for (const kind of KINDS) {
      const records = new Records(kind, store, queries, iris, new StatusIndex(store, queries, iris), 0);
      const onMain = new Records(kind, storeOfItsOwn(store, { shapeOnMainThread: true }), queries, iris, new StatusIndex(store, queries, iris), 0);
      expect(onMain.shapingJob(['x'])).toBeUndefined();
      const listed = await store.query(`SELECT ?g WHERE { GRAPH ?g { ?g a ?type } FILTER(STRSTARTS(STR(?g), "${TEST_BASE_URL}/v2/id/${kind.kind}/")) } ORDER BY ?g LIMIT 40`, { format: 'text/tab-separated-values' });
      const page = listed.split('\n').slice(1).filter(Boolean).map((line) => line.slice(1, -1));
      expect(page.length).toBeGreaterThan(0);
      const query = queries.bound(kind.page.records, page.map((record) => ({ record })));
      const inWorker = unpackShapedRecords(await store.query(query, { format: 'text/tab-separated-values', shape: records.shapingJob(page) }));
      const here = new Map<string, ShapedRecord>();
      for (const [iri, graph] of parseRecordRows(await store.query(query, { format: 'text/tab-separated-values' }))) {
        const shaped = onMain.shapeGraph(graph, iri);
        if (shaped) here.set(iri, shaped);
      }
      expect(inWorker).toEqual(here);
      expect(inWorker.size).toBe(page.length);
      if (kind.record.view) expect([...inWorker.values()].some((record) => record.viewBody !== undefined)).toBe(true);
      for (const [iri, shaped] of inWorker) {
        const single = await onMain.lookup(iris.pidOf(kind.kind, iri) as string);
        if (single.kind !== 'found') throw new Error(`${iri}: ${single.kind}`);
        expect(single.record).toEqual(records.adopt('test', iris.pidOf(kind.kind, iri) as string, shaped));
      }
    }
  });

  it('a page query shaped in the worker answers every record asked for that the store holds, and only those', async () => {
    const objects = KINDS.find((kind) => kind.kind === 'object');
    if (!objects) throw new Error('no objects kind');
    const records = new Records(objects, store, queries, iris, new StatusIndex(store, queries, iris), 0);
    const asked = [iris.object('missing-1'), ...['0', '1', '2'].map((n) => `${TEST_BASE_URL}/v2/id/object/DMG-nothing-${n}`)];
    const listed = await store.query(`SELECT ?g WHERE { GRAPH ?g { ?g a ?type } FILTER(STRSTARTS(STR(?g), "${TEST_BASE_URL}/v2/id/object/")) } ORDER BY ?g LIMIT 3`, { format: 'text/tab-separated-values' });
    const held = listed.split('\n').slice(1).filter(Boolean).map((line) => line.slice(1, -1));
    const all = [...asked, ...held];
    const packed = await store.query(queries.bound(objects.page.records, all.map((record) => ({ record }))), { format: 'text/tab-separated-values', shape: records.shapingJob(all) });
    expect([...unpackShapedRecords(packed).keys()].sort()).toEqual([...held].sort());
  });

  it('while a client query holds one worker, records are shaped on the main thread, as on the remote store', async () => {
    const objects = KINDS.find((kind) => kind.kind === 'object');
    if (!objects) throw new Error('no objects kind');
    const records = new Records(objects, store, queries, iris, new StatusIndex(store, queries, iris), 0);
    expect(store.shapesRecords).toBe(true);
    expect(stores.sparql.shapesRecords).toBe(false);
    // A client's query that runs a while (a cross product of the demo's statements, counted).
    const running = stores.sparql.query('SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . FILTER(?c = ?f) }', { deadlineMs: 1500 }).catch((err: Error) => err);
    expect(store.shapesRecords).toBe(false);
    expect(records.shapingJob(['x'])).toBeUndefined();
    const listed = await store.query(`SELECT ?g WHERE { GRAPH ?g { ?g a ?type } FILTER(STRSTARTS(STR(?g), "${TEST_BASE_URL}/v2/id/object/")) } LIMIT 1`, { format: 'text/tab-separated-values' });
    const pid = iris.pidOf('object', listed.split('\n')[1]?.slice(1, -1) ?? '') as string;
    expect((await records.lookup(pid)).kind).toBe('found');
    await running;
    const until = Date.now() + 60_000;
    while (!store.shapesRecords && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(store.shapesRecords).toBe(true);
  }, 90_000);

  it('a shaping the worker cannot load fails its query with a QueryError, and the worker answers the next one', async () => {
    const query = queries.bound('records/page-records', { record: iris.object('1') });
    const job = { module: new URL('../../src/kinds/objects/shaping.ts', import.meta.url).href, name: 'noSuchExport', frame: 'object', records: [iris.object('1')] };
    await expect(store.query(query, { format: 'text/tab-separated-values', shape: job })).rejects.toThrow(QueryError);
    await expect(store.query(query, { format: 'text/tab-separated-values', shape: job })).rejects.toThrow(/exports no shaping function noSuchExport/);
    const good = { ...job, name: 'shapeObject' };
    await expect(store.query(query, { format: 'application/sparql-results+json', shape: good })).rejects.toThrow(/rows of their graphs/);
    await expect(store.query(query, { format: 'application/n-triples', shape: { ...good, records: [iris.object('1'), iris.object('2')] } })).rejects.toThrow(/one record/);
    await expect(store.query('ASK { }')).resolves.toContain('true');
  });
});
