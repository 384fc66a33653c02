import { readFileSync } from 'node:fs';
import request from 'supertest';
import { createApp } from '../../src/app.js';
import { httpTestContext, ReadinessOnlyStore } from '../helpers/http-context.js';

const BASE = 'https://museum.test:8443';
const REAL_HOST = 'https://data.designmuseumgent.be';

/** A gzip N-Quads dump distribution as the catalog lists it (issue 7: dumps in DCAT). */
const dump = (file: string, label: string): Record<string, unknown> => ({
  '@type': 'dcat:Distribution',
  'dct:format': 'application/n-quads',
  'dcat:accessURL': { '@id': `${BASE}/v2/dumps/${file}` },
  'dcat:downloadURL': { '@id': `${BASE}/v2/dumps/${file}` },
  'dcat:mediaType': 'application/n-quads',
  'dcat:compressFormat': 'application/gzip',
  'rdfs:label': label,
});

/** A record collection's event stream (LDES) as the catalog lists it (docs/changes.md, "The event streams"). */
const stream = (name: string): Record<string, unknown> => ({
  '@type': 'dcat:Distribution',
  'dct:format': 'application/ld+json',
  'dct:conformsTo': { '@id': 'https://w3id.org/ldes/specification' },
  'dcat:accessURL': { '@id': `${BASE}/v2/streams/${name}` },
  'dcat:mediaType': 'application/ld+json',
  'rdfs:label': `Linked Data Event Stream of all ${name}: a version for each creation and update, a tombstone for each deletion`,
});

const tri = (nl: string, en: string, fr: string): unknown[] => [
  { '@value': nl, '@language': 'nl' },
  { '@value': en, '@language': 'en' },
  { '@value': fr, '@language': 'fr' },
];

/**
 * The real service's current catalog with this deployment's base: every URI of the service moves to BASE,
 * and each endpoint description is this service's documentation page ({base}/docs, where the real one has
 * /api-docs). Every dataset of the reference is kept in its order, the colour index among them; the production
 * density is added last. After the reference's own keys: each record collection's dump and event stream, the
 * whole collection's dump and the SPARQL data service.
 */
function expectedCatalog(): unknown {
  const reference = readFileSync(new URL('../helpers/reference/dcat-catalog.jsonld', import.meta.url), 'utf8');
  const doc = JSON.parse(reference.split(`${REAL_HOST}/api-docs`).join(`${BASE}/docs`).split(REAL_HOST).join(BASE)) as Record<string, unknown>;
  expect(doc['@id']).toBe(`${BASE}/v2/`);
  const kinds = ['objects', 'agents', 'exhibitions', 'concepts'];
  const datasets = doc['dcat:dataset'] as { '@id': string; 'dcat:distribution': unknown[] }[];
  expect(datasets.map((d) => d['@id'])).toContain(`${BASE}/v2/id/colors`);
  datasets.forEach((d, i) => {
    if (i < kinds.length) d['dcat:distribution'].push(dump(`${kinds[i]}.nq.gz`, `N-Quads dump of all ${kinds[i]} (gzip)`), stream(kinds[i] as string));
  });
  datasets.push({
    '@id': `${BASE}/v2/id/production`,
    '@type': 'dcat:Dataset',
    'dct:title': tri('Productiedichtheid', 'Production density', 'Densité de production'),
    'dct:description': tri(
      'Hoeveel van de gepubliceerde collectie in elke periode gemaakt werd: elk gedateerd object weegt 1, gespreid over de jaren van zijn datering.',
      'How much of the published collection was being made in each period: each dated object weighs 1, spread over the years of its dating.',
      'Quelle part de la collection publiée a été produite à chaque période : chaque objet daté pèse 1, réparti sur les années de sa datation.',
    ),
    'dct:type': { '@id': 'http://www.cidoc-crm.org/cidoc-crm/E52_Time-Span' },
    'dcat:distribution': [
      {
        '@type': 'dcat:Distribution',
        'dct:format': 'application/ld+json',
        'dcat:accessURL': { '@id': `${BASE}/v2/id/production` },
        'dcat:mediaType': 'application/ld+json',
        'rdfs:label': 'Production density JSON-LD',
      },
    ],
    'dcat:endpointURL': { '@id': `${BASE}/v2/id/production` },
    'dcat:endpointDescription': { '@id': `${BASE}/docs` },
  } as never);
  doc['dcat:dataset'] = datasets;
  doc['dcat:distribution'] = [
    dump('collection.nq.gz', 'N-Quads dump of the whole collection (gzip)'),
    {
      '@type': 'dcat:Distribution',
      'dct:format': 'application/ld+json',
      'dct:conformsTo': { '@id': 'https://iiif.io/api/discovery/1.0/' },
      'dcat:accessURL': { '@id': `${BASE}/v2/changes` },
      'dcat:mediaType': 'application/ld+json',
      'rdfs:label': 'Change feed of the collection (IIIF Change Discovery 1.0, Activity Streams 2.0)',
    },
  ];
  doc['dcat:service'] = [
    {
      '@id': `${BASE}/sparql`,
      '@type': 'dcat:DataService',
      'dct:title': tri('SPARQL-eindpunt', 'SPARQL endpoint', 'Point d’accès SPARQL'),
      'dct:conformsTo': { '@id': 'https://www.w3.org/TR/sparql11-protocol/' },
      'dcat:endpointURL': { '@id': `${BASE}/sparql` },
      'dcat:endpointDescription': { '@id': `${BASE}/sparql` },
      'dcat:servesDataset': kinds.map((k) => ({ '@id': `${BASE}/v2/id/${k}` })),
    },
  ];
  return doc;
}

describe('DCAT catalog (spec, Catalog and DCAT catalog record)', () => {
  const app = createApp(httpTestContext({ BASE_URL: BASE, RATE_LIMIT_PER_MINUTE: '0' }));

  it.each(['/v2/', '/v2/dcat'])('serves at %s the reference catalog with URIs built from BASE_URL, plus dumps and the SPARQL service', async (path) => {
    const res = await request(app).get(path).set('Accept', 'application/ld+json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/ld+json; charset=utf-8');
    const body = JSON.parse(res.text) as unknown;
    expect(body).toEqual(expectedCatalog());
    // Same keys in the same order as the reference, not only the same content.
    expect(res.text).toBe(JSON.stringify(expectedCatalog()));
  });

  it('describes the four datasets of the spec first, with their CIDOC-CRM classes', async () => {
    const res = await request(app).get('/v2/');
    const datasets = (JSON.parse(res.text) as { 'dcat:dataset': { '@id': string; 'dct:type': { '@id': string } }[] })['dcat:dataset'];
    expect(datasets.slice(0, 4).map((d) => [d['@id'], d['dct:type']['@id']])).toEqual([
      [`${BASE}/v2/id/objects`, 'http://www.cidoc-crm.org/cidoc-crm/E22_Human-Made_Object'],
      [`${BASE}/v2/id/agents`, 'http://www.cidoc-crm.org/cidoc-crm/E39_Actor'],
      [`${BASE}/v2/id/exhibitions`, 'http://www.cidoc-crm.org/cidoc-crm/E7_Activity'],
      [`${BASE}/v2/id/concepts`, 'http://www.cidoc-crm.org/cidoc-crm/E55_Type'],
    ]);
  });

  it('lists the colour index fifth, as the reference does, as a crm:E26_Physical_Feature dataset', async () => {
    const res = await request(app).get('/v2/');
    const datasets = (JSON.parse(res.text) as { 'dcat:dataset': { '@id': string; 'dct:type': { '@id': string } }[] })['dcat:dataset'];
    expect(datasets.map((d) => d['@id'].slice(`${BASE}/v2/id/`.length))).toEqual([
      'objects',
      'agents',
      'exhibitions',
      'concepts',
      'colors',
      'types',
      'materials',
      'nationalities',
      'roles',
      'production',
    ]);
    expect(datasets[4]!['dct:type']).toEqual({ '@id': 'http://www.cidoc-crm.org/cidoc-crm/E26_Physical_Feature' });
  });

  it('answers the same document on both paths, with the same ETag and a public cache lifetime', async () => {
    const [a, b] = await Promise.all([request(app).get('/v2/'), request(app).get('/v2/dcat')]);
    expect(a.text).toBe(b.text);
    expect(a.headers.etag).toMatch(/^W\/".+"$/);
    expect(a.headers.etag).toBe(b.headers.etag);
    expect(a.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const get = await request(app).get('/v2/dcat');
    const head = await request(app).head('/v2/dcat');
    expect(head.status).toBe(200);
    expect(head.text ?? '').toBe('');
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect(head.headers.etag).toBe(get.headers.etag);
    expect(head.headers['cache-control']).toBe(get.headers['cache-control']);
  });

  it('answers 304 to a request carrying its ETag', async () => {
    const { etag } = (await request(app).get('/v2/')).headers;
    const res = await request(app).get('/v2/').set('If-None-Match', String(etag));
    expect(res.status).toBe(304);
    expect(res.text ?? '').toBe('');
    expect(res.headers.etag).toBe(etag);
  });

  it('is served before the store is ready, since it depends on no data', async () => {
    const notReady = createApp(httpTestContext({ BASE_URL: BASE }, new ReadinessOnlyStore(false)));
    expect((await request(notReady).get('/v2/')).status).toBe(200);
  });

  it('follows BASE_URL of the deployment', async () => {
    const local = createApp(httpTestContext({ PORT: '4100' }));
    const doc = JSON.parse((await request(local).get('/v2/dcat')).text) as Record<string, unknown>;
    expect(doc['@id']).toBe('http://localhost:4100/v2/');
    expect(doc['foaf:homepage']).toEqual({ '@id': 'http://localhost:4100' });
  });

  it('is compressed for clients that accept gzip', async () => {
    const res = await request(app).get('/v2/').set('Accept-Encoding', 'gzip');
    expect(res.headers['content-encoding']).toBe('gzip');
  });
});
