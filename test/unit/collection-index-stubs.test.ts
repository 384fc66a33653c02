/**
 * The stub fast path (N-Quads → JSON directly) against the reference path (jsonld.js framing with
 * frames/object-stub.frame.jsonld), on the stub CONSTRUCT of every listed demo object, over the real store.
 */
import { Iris } from '../../src/vocab/iris.js';
import { QueryCatalogue } from '../../src/queries/catalogue.js';
import { StoreManager } from '../../src/store/store-manager.js';
import { currentGeneration } from '../../src/store/generations.js';
import { frameStubs, stubsFromNQuads } from '../../src/kinds/objects/stub.js';
import { demoData, sourceObjects, TEST_BASE_URL } from '../helpers/demo.js';

describe('Object stubs', () => {
  let store: StoreManager;
  beforeAll(async () => {
    const data = await demoData();
    store = new StoreManager({ includeNonPublic: true });
    await store.start(((await currentGeneration(data.dataDir)) ?? data.generation).dir);
  }, 600_000);
  afterAll(async () => {
    await store?.close();
  });

  it('builds from N-Quads exactly what framing the stub CONSTRUCT gives, for every listed demo object', async () => {
    const data = await demoData();
    const iris = new Iris(TEST_BASE_URL);
    const listed = sourceObjects(data).filter((o) => o.public && o.healthy && o.state.kind === 'current');
    const queries = new QueryCatalogue();
    let compared = 0;
    for (let i = 0; i < listed.length; i += 100) {
      const rows = listed.slice(i, i + 100).map((o) => ({ record: iris.object(o.objectNumber) }));
      const nquads = await store.query(queries.bind('objects/page-stubs', rows), { format: 'application/n-quads' });
      const fast = stubsFromNQuads(nquads);
      const framed = await frameStubs(nquads);
      expect(fast.size).toBe(rows.length);
      for (const { record } of rows) expect(fast.get(record)).toEqual(framed.get(record));
      compared += rows.length;
    }
    expect(compared).toBe(listed.length);
  });
});
