/**
 * Every kind's records, served, against the reference framing: for each record its collection lists, the body
 * of `GET <record path>` is byte for byte what jsonld.js framing (the kind's frame) and the kind's shaping rules
 * make of the record's stored graph, without the parts only a view parameter asks for. What the endpoints
 * serve is the compiled frame (src/shaping/compiled-frame.ts); this holds it to the reference on the demo, one
 * table for every kind (docs/architecture.md, "Shaping"); a kind with a view parameter (the objects' `colors`) is
 * checked with it too. The records checked are those of a sample that shows every feature of the source
 * records (test/helpers/sample.ts; `TEST_EVERY_RECORD=1` checks them all); the remote pass checks the first 40 of
 * them of each kind: the store answers each record's graph in one round trip there.
 */
import request from 'supertest';
import type { CollectionName, ResourceKind } from '../../src/engine/kind.js';
import { KINDS } from '../../src/kinds/index.js';
import { frameNQuads, loadFrame, type JsonObject } from '../../src/shaping/jsonld.js';
import { getCollectionPage } from '../helpers/collection-page.js';
import { remoteStoreRun, sourceRecords, startDemoApp, type DemoApp } from '../helpers/demo.js';
import { sampleListed } from '../helpers/sample.js';
import { SOURCE_FILES } from '../../src/harvest/schema.js';

let demo: DemoApp;
beforeAll(async () => {
  demo = await startDemoApp();
}, 180_000);
afterAll(async () => demo?.close());

/** The ids of every record the collection lists, and its `hydra:totalItems`. */
async function listed(collection: CollectionName): Promise<{ ids: string[]; total: number }> {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const { status, members, total } = await getCollectionPage(demo.app, collection, `itemsPerPage=100&page=${page}`);
    expect(status).toBe(200);
    ids.push(...members.map((member) => member['@id'] as string));
    if (members.length < 100) return { ids, total };
  }
}

/**
 * What jsonld.js framing (`frame`) and the kind's shaping make of the record's stored graph: with a view
 * parameter (`?colors=true`) all of it, without one less the parts only the view asks for.
 */
async function reference(kind: ResourceKind, frame: JsonObject, iri: string): Promise<{ plain: string; view?: string }> {
  const { store, queries, iris } = demo.ctx;
  const nquads = await store.query(queries.bind(kind.record.query, { record: iri, admin: iris.adminGraph }), { format: 'application/n-quads' });
  const shaped = kind.record.shape(await frameNQuads(nquads, { ...frame, '@id': iri }));
  const view = kind.record.view === undefined ? undefined : JSON.stringify(shaped as JsonObject);
  for (const key of kind.record.view?.keys ?? []) delete shaped[key];
  return { plain: JSON.stringify(shaped as JsonObject), ...(view === undefined ? {} : { view }) };
}

describe.each(KINDS.map((kind) => [kind.collection, kind] as const))('every listed record of %s', (collection, kind) => {
  it('is served byte for byte as jsonld.js framing and the kind\'s shaping make it, with and without its view parameter', async () => {
    const { ids, total } = await listed(collection);
    const frame = loadFrame(kind.record.frame);
    const viewParam = kind.record.view?.param;
    expect(ids.length).toBe(total);
    expect(total).toBeGreaterThan(0);
    const sources = collection in SOURCE_FILES ? sourceRecords(demo.data, collection as keyof typeof SOURCE_FILES) as object[] : [];
    const sampled = sampleListed(ids, sources);
    for (const iri of remoteStoreRun() ? sampled.slice(0, 40) : sampled) {
      const expected = await reference(kind as ResourceKind, frame, iri);
      const served = await request(demo.app).get(new URL(iri).pathname).expect(200);
      expect([iri, served.text]).toEqual([iri, expected.plain]);
      if (viewParam === undefined) continue;
      const viewed = await request(demo.app).get(`${new URL(iri).pathname}?${viewParam}=true`).expect(200);
      expect([iri, viewParam, viewed.text]).toEqual([iri, viewParam, expected.view]);
    }
  }, 300_000);
});
