/**
 * Conditional GET, written once for every cacheable answer of the service (src/http/answer.ts): each URL of the
 * table is asked plainly, then again with its own validators, and RFC 9110 §13 is checked on the answers
 * (If-None-Match decides alone when present; `*` matches; If-Modified-Since only without it; a 304 carries the
 * validators and Cache-Control of the 200 and no body; HEAD answers as GET without the body).
 */
import request from 'supertest';
import { sourceObjects, startDemoApp, type DemoApp } from '../helpers/demo.js';

let demo: DemoApp;
let objectPid: string;

beforeAll(async () => {
  demo = await startDemoApp({}, { sparql: true });
  const object = sourceObjects(demo.data).find((o) => o.public && o.healthy && o.state.kind === 'current');
  if (!object) throw new Error('the demo has no served object');
  objectPid = object.objectNumber;
}, 600_000);
afterAll(() => demo.close());

/** Every kind of cacheable answer: [what, path, Accept]. */
const cases = (): [string, string, string | undefined][] => [
  ['object record, JSON-LD', `/v2/id/object/${objectPid}`, undefined],
  ['object record, Turtle', `/v2/id/object/${objectPid}`, 'text/turtle'],
  ['object record, colours view', `/v2/id/object/${objectPid}?colors=true`, undefined],
  ['objects collection page', '/v2/id/objects?itemsPerPage=3', undefined],
  ['agents collection page, N-Triples', '/v2/id/agents?itemsPerPage=2', 'application/n-triples'],
  ['types index', '/v2/id/types', undefined],
  ['DCAT catalog', '/v2/', undefined],
  ['vocabulary', '/vocab', undefined],
  ['change feed', '/v2/changes', undefined],
  ['OpenAPI document', '/openapi.json', undefined],
  ['SPARQL answer', '/sparql?query=ASK%7B%7D', 'application/sparql-results+json'],
  ['v1 object record', `/v1/id/object/${objectPid}`, undefined],
  ['landing page', '/', 'text/html'],
];

const get = (path: string, accept: string | undefined, headers: Record<string, string> = {}, method: 'get' | 'head' = 'get'): request.Test => {
  const req = request(demo.app)[method](path);
  if (accept !== undefined) req.set('Accept', accept);
  for (const [name, value] of Object.entries(headers)) req.set(name, value);
  return req;
};

describe('conditional GET on every cacheable answer', () => {
  it.each(Array.from({ length: 13 }, (_, i) => i))('case %i: 304 exactly when the request’s validators match', async (i) => {
    const [what, path, accept] = cases()[i]!;
    const first = await get(path, accept);
    expect([what, first.status]).toEqual([what, 200]);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^(W\/)?"[^"]+"$/);

    // Its own tag, weak or strong, alone or in a list: 304 with the same validators and Cache-Control, no body.
    for (const inm of [etag, etag.replace(/^W\//, ''), `"other", ${etag}`, '*']) {
      const again = await get(path, accept, { 'If-None-Match': inm });
      expect([what, inm, again.status]).toEqual([what, inm, 304]);
      expect(again.headers.etag).toBe(etag);
      expect(again.headers['cache-control']).toBe(first.headers['cache-control']);
      expect(again.headers['last-modified']).toBe(first.headers['last-modified']);
      expect(again.headers['content-type']).toBeUndefined();
      expect(again.text ?? '').toBe('');
    }
    // Another tag: 200, even with an If-Modified-Since that alone would match (If-None-Match decides).
    const future = new Date(Date.now() + 86_400_000).toUTCString();
    const other = await get(path, accept, { 'If-None-Match': '"not-this-one"', 'If-Modified-Since': future });
    expect([what, other.status]).toEqual([what, 200]);
    expect(other.text).toBe(first.text);

    // If-Modified-Since alone: 304 at or after Last-Modified, 200 before it; ignored without Last-Modified.
    const lastModified = first.headers['last-modified'] as string | undefined;
    const since = await get(path, accept, { 'If-Modified-Since': lastModified ?? future });
    expect([what, since.status]).toEqual([what, lastModified === undefined ? 200 : 304]);
    if (lastModified !== undefined) {
      const before = await get(path, accept, { 'If-Modified-Since': new Date(Date.parse(lastModified) - 1000).toUTCString() });
      expect([what, before.status]).toEqual([what, 200]);
    }

    // HEAD: the headers of GET, no body.
    const head = await get(path, accept, {}, 'head');
    expect([what, head.status]).toEqual([what, 200]);
    expect(head.headers.etag).toBe(etag);
    expect(head.headers['content-type']).toBe(first.headers['content-type']);
    // (The GET was compressed, so it has no length to compare with: the length of its decoded text.)
    if (typeof first.text === 'string') expect(head.headers['content-length']).toBe(String(Buffer.byteLength(first.text, 'utf8')));
    expect(head.text ?? '').toBe('');
  });
});
