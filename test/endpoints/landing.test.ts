/**
 * `/` for people and for programs, and the documentation page's own routes: a browser (Accept preferring
 * text/html) gets a small self-contained page about the service with working links; a JSON-LD client, curl
 * (`*∕*`) or a client sending no Accept keeps the 302 to the DCAT catalog at /v2/. /docs is Swagger UI from
 * this service's own files; /api-docs (the museum service's path) redirects there.
 */
import request from 'supertest';
import { startDemoApp, type DemoApp } from '../helpers/demo.js';

/** What Chromium and Firefox send for a page load. */
const CHROME = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7';
const FIREFOX = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

let demo: DemoApp;

beforeAll(async () => {
  demo = await startDemoApp({}, { sparql: true });
}, 180_000);
afterAll(async () => demo?.close());

const hrefs = (html: string): string[] => [...html.matchAll(/\s(?:href|src)="([^"]*)"/g)].map((m) => m[1]!);

describe('GET / for a browser', () => {
  it.each([
    ['Chromium', CHROME],
    ['Firefox', FIREFOX],
    ['a client that asks for HTML only', 'text/html'],
  ])('answers %s with an HTML page that says Vary: Accept', async (_who, accept) => {
    const res = await request(demo.app).get('/').set('Accept', accept);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers.vary).toMatch(/\bAccept\b/);
    expect(res.text).toMatch(/^<!doctype html>/i);
  });

  it('says what the service is and links to the docs, the description, SPARQL, the dump, the catalog and the indexes', async () => {
    const res = await request(demo.app).get('/').set('Accept', CHROME);
    const text = res.text.replace(/\s+/g, ' ');
    expect(text).toMatch(/linked data/i);
    expect(text).toMatch(/design museum/i);
    expect(text).toMatch(/CIDOC-CRM/);
    expect(text).toMatch(/JSON-LD/);
    expect(text).toMatch(/SPARQL/);
    expect(text).toMatch(/dump/i);
    const links = hrefs(res.text);
    for (const link of ['/docs', '/openapi.json', '/sparql', '/v2/dumps/collection.nq.gz', '/v2/', '/v2/id/types', '/v2/id/materials', '/v2/id/nationalities', '/v2/id/roles', '/v2/id/production']) {
      expect(links).toContain(link);
    }
  });

  it('uses no external asset: no script, every link and resource on this service', async () => {
    const res = await request(demo.app).get('/').set('Accept', CHROME);
    expect(res.text).not.toMatch(/<script/i);
    expect(res.text).not.toMatch(/@import|url\(/i);
    for (const link of hrefs(res.text)) expect(link).toMatch(/^\/([^/]|$)/);
  });

  it('links only to paths that answer 200', async () => {
    const res = await request(demo.app).get('/').set('Accept', CHROME);
    for (const link of new Set(hrefs(res.text))) {
      // The start page (the header's home link), the docs and the SPARQL editor are pages; the rest JSON-LD.
      const target = await request(demo.app).head(link).set('Accept', ['/', '/docs', '/sparql'].includes(link) ? 'text/html' : 'application/ld+json');
      expect([link, target.status]).toEqual([link, 200]);
    }
  });

  it('carries an ETag and answers 304 to it', async () => {
    const res = await request(demo.app).get('/').set('Accept', CHROME);
    expect(res.headers.etag).toMatch(/^W\/"/);
    const again = await request(demo.app).get('/').set('Accept', CHROME).set('If-None-Match', res.headers.etag as string);
    expect([again.status, again.text]).toEqual([304, '']);
  });

  it('answers HEAD like GET, without a body', async () => {
    const res = await request(demo.app).head('/').set('Accept', CHROME);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text ?? '').toBe('');
  });
});

describe('GET / for programs keeps the 302 to the catalog', () => {
  it.each([
    ['a JSON-LD client', 'application/ld+json'],
    ['a JSON client', 'application/json'],
    ["curl's default", '*/*'],
    ['a client preferring JSON-LD over HTML', 'application/ld+json, text/html;q=0.5'],
    ['a client accepting only something else', 'text/turtle'],
  ])('redirects %s (Accept: %s) to /v2/ with Vary: Accept', async (_who, accept) => {
    const res = await request(demo.app).get('/').set('Accept', accept);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/v2/');
    expect(res.headers.vary).toMatch(/\bAccept\b/);
  });

  it('redirects a request with no Accept header', async () => {
    const res = await request(demo.app).get('/').unset('Accept');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/v2/');
  });

  it('lands on the catalog when the redirect is followed', async () => {
    const res = await request(demo.app).get('/').set('Accept', 'application/ld+json').redirects(1);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/ld\+json/);
    expect((JSON.parse(res.text) as { '@type': string })['@type']).toBe('dcat:Catalog');
  });
});

describe('GET /docs and /api-docs', () => {
  it('serves the documentation page, whose scripts and styles are all on this service', async () => {
    const res = await request(demo.app).get('/docs');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const resources = hrefs(res.text);
    expect(resources).toEqual(expect.arrayContaining(['/docs/assets/swagger-ui-bundle.js', '/docs/assets/swagger-ui.css', '/docs/assets/docs.js', '/openapi.json']));
    for (const resource of resources) {
      expect(resource).toMatch(/^\/([^/]|$)/);
      const answer = await request(demo.app).head(resource);
      // Every asset and link answers; `/` redirects a client that does not ask for HTML.
      expect([resource, answer.status]).toEqual([resource, resource === '/' ? 302 : 200]);
    }
    const script = await request(demo.app).get('/docs/assets/docs.js');
    expect(script.headers['content-type']).toMatch(/javascript/);
    expect(script.text).toMatch(/validatorUrl:\s*null/);
    expect((await request(demo.app).get('/docs/assets/swagger-ui.css')).headers['content-type']).toMatch(/^text\/css/);
  });

  it('redirects /api-docs to /docs (301)', async () => {
    const res = await request(demo.app).get('/api-docs');
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe('/docs');
  });

  it('answers 404 for an asset that is not there', async () => {
    expect((await request(demo.app).get('/docs/assets/index.html')).status).toBe(404);
  });
});
