/**
 * The event streams of the demo collection, walked from the stream to every page as a client does, on whichever
 * store the pass runs (embedded, then Virtuoso in `npm run test:remote`). The demo's log holds one block (its
 * one generation), so every kind's stream has one version member per public record: as many as the collection's
 * `hydra:totalItems`. A member's named graph is held against the record's own N-Quads.
 */
import { DataFactory, Parser, type Quad } from 'n3';
import { isomorphic } from 'rdf-isomorphic';
import request from 'supertest';
import { startDemoApp, TEST_BASE_URL as B, type DemoApp } from '../helpers/demo.js';

const TREE = 'https://w3id.org/tree#';
const VERSION_OF = 'http://purl.org/dc/terms/isVersionOf';

let demo: DemoApp;
beforeAll(async () => {
  demo = await startDemoApp();
}, 600_000);
afterAll(() => demo.close());

const get = async (url: string): Promise<Quad[]> => {
  const res = await request(demo.app).get(new URL(url).pathname).set('Accept', 'application/n-quads').expect(200);
  return new Parser({ format: 'application/n-quads', blankNodePrefix: '' }).parse(res.text);
};
const objectsOf = (quads: readonly Quad[], predicate: string): string[] => quads.filter((q) => q.predicate.value === predicate).map((q) => q.object.value);

describe('the event streams of the demo collection', () => {
  it.each(['objects', 'agents', 'exhibitions', 'concepts'])('%s: from the stream through its view and groups, a version of every public record', async (collection) => {
    const total = (await request(demo.app).get(`/v2/id/${collection}`).expect(200)).body['hydra:totalItems'] as number;
    const [view] = objectsOf(await get(`${B}/v2/streams/${collection}`), `${TREE}view`);
    const groups = objectsOf(await get(view as string), `${TREE}node`);
    const pages: string[] = [];
    for (const group of groups) pages.push(...objectsOf(await get(group), `${TREE}node`));
    const versionOf = new Map<string, string>();
    const checked: Quad[][] = [];
    for (const page of pages) {
      const quads = await get(page);
      for (const member of objectsOf(quads, `${TREE}member`)) {
        const record = quads.find((q) => q.subject.value === member && q.predicate.value === VERSION_OF)?.object.value as string;
        versionOf.set(member, record);
        if (checked.length < 3) {
          const statements = quads.filter((q) => q.graph.value === member).map((q) => DataFactory.quad(q.subject, q.predicate, q.object));
          const path = new URL(record).pathname;
          const own = new Parser({ format: 'application/n-quads', blankNodePrefix: '' })
            .parse((await request(demo.app).get(`${path}?format=nt`).expect(200)).text)
            .map((q) => DataFactory.quad(q.subject, q.predicate, q.object));
          expect([record, isomorphic(statements, own)]).toEqual([record, true]);
          checked.push(statements);
        }
      }
    }
    expect(versionOf.size).toBe(total);
    expect(new Set(versionOf.values()).size).toBe(total);
    expect(pages.length).toBe(Math.ceil(total / 100));
  }, 120_000);
});
