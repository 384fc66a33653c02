/**
 * A fifth kind as proof that a kind is declarations (issue 24): the books of test/fixtures/kinds/books are
 * harvested beside the four built-in kinds and served end to end (record in every format with validators,
 * collection with a filter and paging, OpenAPI, DCAT, dump, change feed), with nothing outside the fixture
 * but this list of kinds.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../src/app.js';
import type { RecordTable } from '../../src/collection-index/record-table.js';
import { loadConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/config/logger.js';
import type { ResourceKind } from '../../src/engine/kind.js';
import { harvestExport } from '../../src/harvest/harvest.js';
import { kindSources } from '../../src/harvest/kind-source.js';
import { Metrics } from '../../src/http/metrics.js';
import { KINDS } from '../../src/kinds/index.js';
import { QueryLibrary } from '../../src/queries/library.js';
import { createGeneration } from '../../src/store/generations.js';
import { StoreManager } from '../../src/store/store-manager.js';
import { Iris } from '../../src/vocab/iris.js';
import { RecordKinds } from '../../src/vocab/record-kinds.js';
import { BOOKS } from '../fixtures/kinds/books/kind.js';
import { BASE, copyFixture, removeCopy } from '../fixtures/source-mini/harvest-fixture.js';
import { untilIndexesBuilt } from '../helpers/ready-app.js';

/** A JSON Schema 2020-12 validator with formats. */
const newAjv = (): Ajv2020 => {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats.default(ajv);
  return ajv;
};

const FIXTURE = fileURLToPath(new URL('../fixtures/kinds/books/', import.meta.url));

/** The one line a deployment with books adds: the list of its kinds. */
const ALL = [...KINDS, BOOKS] as readonly ResourceKind<RecordTable>[];

const BOOK_LINES = [
  { pid: 'B-1', title: 'Vormgeving in België', harvestedAt: '2026-11-01T10:00:00Z', modified: '2024-01-10', public: true },
  { pid: 'B-2', title: 'Art nouveau', harvestedAt: '2026-11-01T10:00:00Z', modified: '2025-06-01', public: true },
  { pid: 'B-3', title: 'Inventaris', harvestedAt: '2026-11-01T10:00:00Z', modified: '2025-06-01', public: false },
  { pid: 'B-4', title: 'Catalogus', harvestedAt: '2026-11-01T10:00:00Z', modified: '2023-03-03', public: true },
];

let sourceDir: string;
let dataDir: string;
let store: StoreManager;
let app: Express;

beforeAll(async () => {
  sourceDir = await copyFixture();
  await writeFile(path.join(sourceDir, 'books.jsonl'), BOOK_LINES.map((line) => JSON.stringify(line)).join('\n') + '\n');
  dataDir = await mkdtemp(path.join(tmpdir(), 'fifth-kind-'));
  const kinds = new RecordKinds(ALL);
  const generation = await createGeneration(dataDir, { source: { kind: 'harvest', path: sourceDir }, baseUrl: BASE, kinds }, async (out) => {
    await harvestExport(sourceDir, out, { kinds: kindSources(ALL), baseUrl: BASE, imageHosts: [], validateImages: false });
  });
  store = new StoreManager({ includeNonPublic: true });
  await store.start(generation.dir);
  const config = loadConfig({ BASE_URL: BASE, DATA_DIR: dataDir, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'silent' });
  const ctx = { config, iris: new Iris(BASE), store, logger: createLogger(config), metrics: new Metrics(), kinds };
  // The app's query library holds the kinds' own queries: one made without them is refused at once.
  expect(() => createApp({ ...ctx, queries: new QueryLibrary() })).toThrow('kind book: its queries');
  app = createApp({ ...ctx, queries: QueryLibrary.forKinds(ALL) });
  await untilIndexesBuilt(ctx);
}, 120_000);

afterAll(async () => {
  await store?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  if (sourceDir) await removeCopy(sourceDir);
});

describe('a fifth kind declared in a test fixture', () => {
  it('serves a book record as JSON-LD with validators, and answers a conditional GET with 304', async () => {
    const res = await request(app).get('/v2/id/book/B-1').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/ld\+json/);
    expect(res.body).toMatchObject({
      '@id': `${BASE}/v2/id/book/B-1`,
      '@type': 'crm:E31_Document',
      'rdfs:label': 'Vormgeving in België',
      'prov:generatedAtTime': { '@type': 'xsd:dateTime', '@value': '2026-11-01T10:00:00Z' },
    });
    const ajv = newAjv();
    const validate = ajv.compile(JSON.parse(await readFile(path.join(FIXTURE, 'book.schema.json'), 'utf8')) as object);
    expect(validate(res.body) ? [] : validate.errors).toEqual([]);
    expect(res.headers.etag).toBeDefined();
    expect(res.headers['last-modified']).toBe(new Date('2026-11-01T10:00:00Z').toUTCString());
    await request(app).get('/v2/id/book/B-1').set('If-None-Match', res.headers.etag as string).expect(304);
  });

  it.each([
    ['ttl', 'text/turtle'],
    ['nt', 'application/n-triples'],
    ['nq', 'application/n-quads'],
    ['rdf', 'application/rdf+xml'],
    ['html', 'text/html'],
  ])('serves the book record as %s, with its own tag', async (format, type) => {
    const json = await request(app).get('/v2/id/book/B-1').expect(200);
    const res = await request(app).get(`/v2/id/book/B-1?format=${format}`).expect(200);
    expect(res.headers['content-type']).toContain(type);
    expect(res.text).toContain('Vormgeving in Belgi');
    expect(res.headers.etag).not.toBe(json.headers.etag);
    await request(app).get(`/v2/id/book/B-1?format=${format}`).set('If-None-Match', res.headers.etag as string).expect(304);
  });

  it('answers a private book and an unknown one with the kind\'s 404, and a bad pid with its 400', async () => {
    expect((await request(app).get('/v2/id/book/B-3').expect(404)).body).toEqual({ error: 'Book not found' });
    expect((await request(app).get('/v2/id/book/B-9').expect(404)).body).toEqual({ error: 'Book not found' });
    expect((await request(app).get('/v2/id/book/.bad').expect(400)).body).toEqual({ error: 'Invalid book id.' });
  });

  it('lists the public books, in pages, filtered and sorted', async () => {
    const all = (await request(app).get('/v2/id/books').expect(200)).body;
    expect(all['hydra:totalItems']).toBe(3);
    expect(all['hydra:member'].map((m: { '@id': string }) => m['@id'])).toEqual(['B-1', 'B-2', 'B-4'].map((pid) => `${BASE}/v2/id/book/${pid}`));
    expect(all['hydra:member'][0]).toEqual({ '@id': `${BASE}/v2/id/book/B-1`, '@type': 'crm:E31_Document', 'rdfs:label': 'Vormgeving in België' });

    const first = (await request(app).get('/v2/id/books?itemsPerPage=2').expect(200)).body;
    expect(first['hydra:member']).toHaveLength(2);
    expect(first['hydra:view']['hydra:next']).toBe(`${BASE}/v2/id/books?page=2&itemsPerPage=2`);
    const last = (await request(app).get('/v2/id/books?itemsPerPage=2&page=2').expect(200)).body;
    expect(last['hydra:member'].map((m: { '@id': string }) => m['@id'])).toEqual([`${BASE}/v2/id/book/B-4`]);
    expect(last['hydra:view']['hydra:next']).toBeUndefined();

    const recent = (await request(app).get('/v2/id/books?modifiedSince=2024-01-01').expect(200)).body;
    expect(recent['hydra:member'].map((m: { '@id': string }) => m['@id'])).toEqual(['B-1', 'B-2'].map((pid) => `${BASE}/v2/id/book/${pid}`));
    const byTitle = (await request(app).get('/v2/id/books?sortBy=title').expect(200)).body;
    expect(byTitle['hydra:member'].map((m: { 'rdfs:label': string }) => m['rdfs:label'])).toEqual(['Art nouveau', 'Catalogus', 'Vormgeving in België']);
    const full = (await request(app).get('/v2/id/books?fullRecord=true&q=nouveau').expect(200)).body;
    expect(full['hydra:member']).toEqual([(await request(app).get('/v2/id/book/B-2')).body]);
    expect((await request(app).get('/v2/id/books?modifiedSince=yesterday').expect(400)).body.error).toBeDefined();
  });

  it('describes the book paths and record in the OpenAPI document, and lists the books in the DCAT catalog and on the landing page', async () => {
    const doc = (await request(app).get('/openapi.json').expect(200)).body;
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v2/id/book/{pid}', '/v2/id/books']));
    expect(doc.components.schemas.BookRecord.title).toBe('Book record (a test kind)');
    // The pages of books validate against their components, down to the stub of the kind's class.
    const ajv = newAjv();
    ajv.addSchema(doc, 'openapi');
    const stubPage = ajv.getSchema('openapi#/components/schemas/BooksStubPage')!;
    const fullPage = ajv.getSchema('openapi#/components/schemas/BooksFullPage')!;
    const stubs = (await request(app).get('/v2/id/books').expect(200)).body;
    expect(stubPage(stubs)).toBe(true);
    expect(stubPage({ ...stubs, 'hydra:member': [{ ...stubs['hydra:member'][0], '@type': 'crm:E55_Type' }] })).toBe(false);
    expect(fullPage((await request(app).get('/v2/id/books?fullRecord=true').expect(200)).body)).toBe(true);
    const catalog = (await request(app).get('/v2/dcat').expect(200)).body;
    const books = catalog['dcat:dataset'].find((d: { '@id': string }) => d['@id'] === `${BASE}/v2/id/books`);
    expect(books['dct:type']).toEqual({ '@id': 'http://www.cidoc-crm.org/cidoc-crm/E31_Document' });
    expect(catalog['dcat:service'][0]['dcat:servesDataset']).toContainEqual({ '@id': `${BASE}/v2/id/books` });
    const landing = await request(app).get('/').set('Accept', 'text/html').set('Accept-Language', 'en').expect(200);
    expect(landing.text).toContain('<li><a href="/v2/id/books">Books</a> <span>— the books of the library</span></li>');
    const nl = await request(app).get('/').set('Accept', 'text/html').expect(200);
    expect(nl.text).toContain('<li><a href="/v2/id/books">Boeken</a> <span>— de boeken van de bibliotheek</span></li>');
  });

  it('dumps the public books, and only them, as books.nq.gz', async () => {
    const res = await request(app)
      .get('/v2/dumps/books.nq.gz')
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    const graphs = new Set(gunzipSync(res.body as Buffer).toString('utf8').split('\n').filter((l) => l !== '').map((l) => l.slice(l.lastIndexOf(' <') + 2, -3)));
    expect([...graphs].sort()).toEqual(['B-1', 'B-2', 'B-4'].map((pid) => `${BASE}/v2/id/book/${pid}`));
  });

  it('announces the public books in the change feed as Documents, valid against the feed schemas', async () => {
    const ajv = newAjv();
    const schema = async (name: string): Promise<object> => JSON.parse(await readFile(fileURLToPath(new URL(`../../schemas/${name}`, import.meta.url)), 'utf8')) as object;
    const validateCollection = ajv.compile(await schema('changes-collection.schema.json'));
    const validatePage = ajv.compile(await schema('changes-page.schema.json'));
    const feed = (await request(app).get('/v2/changes').expect(200)).body;
    expect(validateCollection(feed)).toBe(true);
    expect(feed['@context'][1].Document).toBe('http://www.cidoc-crm.org/cidoc-crm/E31_Document');
    const items: { type: string; object: { id: string; type: string } }[] = [];
    for (let n = 1; n <= Number(/\/page\/(\d+)$/.exec(feed.last.id)?.[1]); n++) {
      const page = (await request(app).get(`/v2/changes/page/${n}`).expect(200)).body;
      expect(validatePage(page)).toBe(true);
      items.push(...page.orderedItems);
    }
    const books = items.filter((a) => a.object.id.includes('/v2/id/book/'));
    expect(books.map((a) => [a.type, a.object.id, a.object.type])).toEqual(['B-1', 'B-2', 'B-4'].map((pid) => ['Create', `${BASE}/v2/id/book/${pid}`, 'Document']));
  });
});
