import { Parser } from 'n3';
import request from 'supertest';
import { startDemoApp, type DemoApp } from '../helpers/demo.js';

const HYDRA = 'http://www.w3.org/ns/hydra/core#';

describe('Content negotiation on the objects collection', () => {
  let demo: DemoApp;
  beforeAll(async () => {
    demo = await startDemoApp();
  }, 180_000);
  afterAll(async () => demo.close());

  it.each(['text/turtle', 'application/n-triples', 'application/n-quads'])('sends the page graph as %s', async (syntax) => {
    const json = await request(demo.app).get('/v2/id/objects?itemsPerPage=3&hasImages=true');
    const rdf = await request(demo.app).get('/v2/id/objects?itemsPerPage=3&hasImages=true').set('Accept', syntax);
    expect(rdf.status).toBe(200);
    expect(rdf.headers['content-type']).toBe(`${syntax}; charset=utf-8`);
    expect(rdf.headers.vary).toMatch(/Accept/);
    expect(rdf.headers.link).toBe(json.headers.link);
    const quads = new Parser({ format: syntax }).parse(rdf.text);
    const collection = `${demo.ctx.config.baseUrl}/v2/id/objects`;
    const total = quads.find((q) => q.subject.value === collection && q.predicate.value === `${HYDRA}totalItems`);
    expect(Number(total?.object.value)).toBe(JSON.parse(json.text)['hydra:totalItems']);
    const members = quads.filter((q) => q.subject.value === collection && q.predicate.value === `${HYDRA}member`).map((q) => q.object.value);
    const expected = (JSON.parse(json.text)['hydra:member'] as { '@id': string }[]).map((m) => m['@id']);
    expect(members.sort()).toEqual(expected.sort());
  });

  it('stays JSON-LD by default and for application/json', async () => {
    const res = await request(demo.app).get('/v2/id/objects?itemsPerPage=2').set('Accept', 'application/json');
    expect(res.headers['content-type']).toBe('application/ld+json; charset=utf-8');
    expect(res.headers.vary).toMatch(/Accept/);
  });
});
