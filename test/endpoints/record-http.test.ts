/**
 * What the record endpoint does over HTTP, written once and run for every kind (docs/architecture.md, "One
 * engine, many kinds"): the validators of a JSON-LD record and of its Turtle, conditional GET on either, HEAD,
 * 404 with the kind's text for an unknown pid, 400 with the kind's text for a string that cannot be a pid.
 * Texts and Cache-Control are the spec's (reference/error-bodies.json); times and tags come from the source
 * export. What only one kind does (the agents' ark path, the objects' 301 and 410, private records and their
 * names) stays in that kind's record test.
 */
import request from 'supertest';
import type { CollectionName } from '../../src/engine/kind.js';
import { KINDS } from '../../src/kinds/index.js';
import { sourceRecords, startDemoApp, type DemoApp } from '../helpers/demo.js';
import { jsonRecordEtag, rdfRecordEtag } from '../helpers/record-etag.js';

interface KindCase {
  /** A public record of the demo, its pid as the source names it. */
  pid: string;
  /** The spec's Cache-Control of a record (concepts: none). */
  cacheControl: string | undefined;
  notFound: string;
  /** A pid of the kind's shape that no record has. */
  unknown: string;
  invalid: string;
}

const CACHE = 'public, max-age=3600';
const CASES: Record<CollectionName, KindCase> = {
  objects: { pid: '1482', cacheControl: CACHE, notFound: 'Object not found', unknown: '1234-5678', invalid: 'Invalid object number.' },
  agents: { pid: 'DMG-A-00001', cacheControl: CACHE, notFound: 'Agent not found', unknown: 'DMG-A-99999', invalid: 'Invalid agent id.' },
  exhibitions: { pid: 'TE_2020-001', cacheControl: CACHE, notFound: 'Exhibition not found', unknown: 'TE_1900-999', invalid: 'Invalid exhibition id. Use TE_<year>-<serial>.' },
  concepts: { pid: '530001000', cacheControl: undefined, notFound: 'Concept not found', unknown: '999999999', invalid: 'Invalid concept id.' },
};
/** Strings no kind accepts as a pid (docs/architecture.md, "One pid rule"). */
const NOT_A_PID = ['a%20b', '%3Cscript%3E', 'caf%C3%A9', '.hidden', '_TE_2020-001', 'x'.repeat(65)];
const DAY = 86_400_000;

let demo: DemoApp;
beforeAll(async () => {
  demo = await startDemoApp();
}, 180_000);
afterAll(async () => demo?.close());

/** The source record of `pid` in `collection`: its harvest time, and whether the export has it at all. */
function source(collection: CollectionName, pid: string): { harvestedAt: Date; public: boolean } | undefined {
  const records = sourceRecords(demo.data, collection as Parameters<typeof sourceRecords>[1]) as { pid?: string; objectNumber?: string; harvestedAt: string; public: boolean }[];
  const record = records.find((r) => (r.pid ?? r.objectNumber) === pid);
  return record && { harvestedAt: new Date(record.harvestedAt), public: record.public };
}

describe.each(KINDS.map((kind) => [kind.collection, kind.kind, CASES[kind.collection] as KindCase] as const))('the %s record endpoint', (collection, kind, spec) => {
  const path = (pid: string): string => `/v2/id/${kind}/${pid}`;
  const harvested = (): Date => {
    const record = source(collection, spec.pid);
    expect(record?.public).toBe(true);
    return record!.harvestedAt;
  };

  it('sends ETag "<pid>-<harvest ms>-<body digest>", Last-Modified, the spec\'s Cache-Control and Vary: Accept', async () => {
    const res = await request(demo.app).get(path(spec.pid));
    expect(res.status).toBe(200);
    expect(res.headers.etag).toBe(jsonRecordEtag(spec.pid, harvested(), res.text));
    expect(res.headers['last-modified']).toBe(harvested().toUTCString());
    expect(res.headers['cache-control']).toBe(spec.cacheControl);
    expect(res.headers['content-type']).toBe('application/ld+json; charset=utf-8');
    expect(String(res.headers.vary).split(/,\s*/)).toContain('Accept');
  });

  it('answers 304 with no body to its tag and to If-Modified-Since at or after the harvest, 200 to another tag and to an earlier date', async () => {
    const first = await request(demo.app).get(path(spec.pid));
    const byTag = await request(demo.app).get(path(spec.pid)).set('If-None-Match', first.headers.etag as string);
    expect(byTag.status).toBe(304);
    expect(byTag.text).toBe('');
    expect((await request(demo.app).get(path(spec.pid)).set('If-None-Match', `"${spec.pid}-1"`)).status).toBe(200);
    for (const [since, status] of [
      [harvested(), 304],
      [new Date(harvested().getTime() + DAY), 304],
      [new Date(harvested().getTime() - DAY), 200],
    ] as const) {
      expect([since.toISOString(), (await request(demo.app).get(path(spec.pid)).set('If-Modified-Since', since.toUTCString())).status]).toEqual([since.toISOString(), status]);
    }
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    // The same request headers for both (the HTTP client asks GET, not HEAD, for gzip by default).
    const get = await request(demo.app).get(path(spec.pid)).set('Accept-Encoding', 'gzip');
    const head = await request(demo.app).head(path(spec.pid)).set('Accept-Encoding', 'gzip');
    expect(head.status).toBe(200);
    for (const header of ['etag', 'last-modified', 'cache-control', 'content-type', 'vary']) expect([header, head.headers[header]]).toEqual([header, get.headers[header]]);
    expect(head.text ?? '').toBe('');
  });

  it('serves Turtle on request with a tag of its own, which the JSON-LD tag does not match', async () => {
    const res = await request(demo.app).get(path(spec.pid)).set('Accept', 'text/turtle');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/turtle; charset=utf-8');
    expect(res.headers.etag).toMatch(rdfRecordEtag(spec.pid, harvested(), 'ttl'));
    expect(res.headers['cache-control']).toBe(spec.cacheControl);
    expect((await request(demo.app).get(path(spec.pid)).set('Accept', 'text/turtle').set('If-None-Match', res.headers.etag as string)).status).toBe(304);
    const json = await request(demo.app).get(path(spec.pid));
    expect((await request(demo.app).get(path(spec.pid)).set('Accept', 'text/turtle').set('If-None-Match', json.headers.etag as string)).status).toBe(200);
  });

  it('answers 404 with the kind\'s text for a pid no record has, GET and HEAD', async () => {
    expect(source(collection, spec.unknown)).toBeUndefined();
    const res = await request(demo.app).get(path(spec.unknown));
    expect(res.status).toBe(404);
    expect(res.text).toBe(JSON.stringify({ error: spec.notFound }));
    expect((await request(demo.app).head(path(spec.unknown))).status).toBe(404);
  });

  it('answers 400 with the kind\'s text for a string that cannot be a pid', async () => {
    for (const bad of NOT_A_PID) {
      const res = await request(demo.app).get(path(bad));
      expect([bad, res.status]).toEqual([bad, 400]);
      expect(res.body).toEqual({ error: spec.invalid });
    }
  });
});
