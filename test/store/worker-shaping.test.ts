/**
 * Records shaped in the store worker that reads them (src/store/worker-shaping.ts). That the worker's records are
 * byte for byte what jsonld.js frames and the kind shapes is held on every demo record of every kind by
 * test/endpoints/record-framing.test.ts, which serves them from the embedded store's workers, and again on the
 * main thread in the remote pass; here: the two threads agree with each other record for record, every kind names
 * where its shaping function is, and a shaping a worker cannot load fails that query alone.
 */
import { KINDS } from '../../src/kinds/index.js';
import { QueryLibrary } from '../../src/queries/library.js';
import { Records } from '../../src/records/records.js';
import { StatusIndex } from '../../src/records/status-index.js';
import { unpackShapedRecords } from '../../src/records/shaped-records.js';
import { QueryError } from '../../src/store/errors.js';
import { StoreManager } from '../../src/store/store-manager.js';
import type { QueryOptions, QueryStore, StoreQuery } from '../../src/store/types.js';
import { Iris } from '../../src/vocab/iris.js';
import { BOOKS } from '../fixtures/kinds/books/kind.js';
import { demoData, TEST_BASE_URL } from '../helpers/demo.js';

/** The same store without the capability: its records are shaped on the main thread. */
class MainThreadShaping implements QueryStore {
  constructor(private readonly store: QueryStore) {}
  get generation(): QueryStore['generation'] {
    return this.store.generation;
  }
  ready(): boolean {
    return this.store.ready();
  }
  query(query: StoreQuery, opts?: QueryOptions): Promise<string> {
    return this.store.query(query, opts);
  }
}

const iris = new Iris(TEST_BASE_URL);
const queries = new QueryLibrary();
let store: StoreManager;

beforeAll(async () => {
  const data = await demoData();
  store = new StoreManager({ includeNonPublic: true });
  await store.start(data.generation.dir);
}, 120_000);
afterAll(() => store?.close());

describe('Records shaped in the store worker', () => {
  it('every kind names the module and export of its own shaping function', async () => {
    for (const kind of [...KINDS, BOOKS]) {
      const at = kind.record.shapeExport;
      expect(at).toBeDefined();
      const module = (await import(at?.module ?? '')) as Record<string, unknown>;
      expect(module[at?.name ?? '']).toBe(kind.record.shape);
    }
  });

  it('are the records the main thread shapes, body, view and entity tags, for a page of every kind', async () => {
    for (const kind of KINDS) {
      const inWorker = new Records(kind, store, queries, iris, new StatusIndex(store, queries, iris), 0);
      const onMain = new Records(kind, new MainThreadShaping(store), queries, iris, new StatusIndex(store, queries, iris), 0);
      expect(inWorker.shapingJob(['x'])).toBeDefined();
      expect(onMain.shapingJob(['x'])).toBeUndefined();
      const listed = await store.query(`SELECT ?g WHERE { GRAPH ?g { ?g a ?type } FILTER(STRSTARTS(STR(?g), "${TEST_BASE_URL}/v2/id/${kind.kind}/")) } ORDER BY ?g LIMIT 40`, { format: 'text/tab-separated-values' });
      const pids = listed.split('\n').slice(1).filter(Boolean).map((line) => iris.pidOf(kind.kind, line.slice(1, -1)) as string);
      expect(pids.length).toBeGreaterThan(0);
      let found = 0;
      let withView = 0;
      for (const pid of pids) {
        const [a, b] = await Promise.all([inWorker.lookup(pid), onMain.lookup(pid)]);
        expect(a).toEqual(b);
        if (a.kind === 'found') found++;
        if (a.kind === 'found' && a.record.viewBody !== undefined) withView++;
      }
      expect(found).toBeGreaterThan(pids.length / 2);
      if (kind.record.view) expect(withView).toBeGreaterThan(0);
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

  it('a shaping the worker cannot load fails its query with a QueryError, and the worker answers the next one', async () => {
    const query = queries.bound('records/record', { record: iris.object('1'), admin: iris.adminGraph });
    const job = { module: new URL('../../src/kinds/objects/shaping.ts', import.meta.url).href, name: 'noSuchExport', frame: 'object', records: [iris.object('1')] };
    await expect(store.query(query, { format: 'application/n-triples', shape: job })).rejects.toThrow(QueryError);
    await expect(store.query(query, { format: 'application/n-triples', shape: job })).rejects.toThrow(/exports no shaping function noSuchExport/);
    await expect(store.query('ASK { }')).resolves.toContain('true');
  });
});
