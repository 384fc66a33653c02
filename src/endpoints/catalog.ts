/**
 * The DCAT catalog (spec, "DCAT catalog record"; served at /v2/ and /v2/dcat). Texts and structure are the
 * real service's first v2 catalog (reference/dcat-catalog-initial-4-datasets.jsonld) word for word; only
 * the host changes, every URI of the service being built from BASE_URL:
 *   - catalog `@id` is `{base}/v2/`, as the spec's table says (the reference predates the trailing slash);
 *   - dataset `@id`, `dcat:accessURL` and `dcat:endpointURL` are the collection URL `{base}/v2/id/<kind>`;
 *   - `dcat:endpointDescription` keeps the reference's `{base}/v2/<kind>` (the human documentation page of
 *     the endpoint), so a catalog harvester sees the same shape on every deployment;
 *   - `foaf:homepage` is `{base}`; the publisher and its homepage are the museum's own, not the deployment's.
 * Added to the reference: each dataset's N-Quads dump as a second `dcat:distribution`, the whole collection's dump
 * as the catalog's own `dcat:distribution` (a DCAT catalog is a dataset) and the SPARQL endpoint as a
 * `dcat:DataService` under `dcat:service`.
 * The document depends on nothing but BASE_URL, so it is built once and served with a fixed ETag.
 */
import { Router, type RequestHandler } from 'express';
import type { AppContext } from '../app-context.js';
import { isNotModified, RECORD_CACHE_CONTROL, recordCacheHeaders, sendNotModified, weakEtag } from '../http/caching.js';
import { sendJsonLd } from '../http/json-ld.js';
import { AUTHORITY, MUSEUM, NS } from '../vocab/namespaces.js';

type LangString = { '@value': string; '@language': 'nl' | 'en' | 'fr' };

/** Texts in the catalog's language order: nl, en, fr. */
const texts = (nl: string, en: string, fr: string): LangString[] => [
  { '@value': nl, '@language': 'nl' },
  { '@value': en, '@language': 'en' },
  { '@value': fr, '@language': 'fr' },
];

interface DatasetText {
  kind: 'objects' | 'agents' | 'exhibitions' | 'concepts';
  crmClass: string;
  title: LangString[];
  description: LangString[];
}

const DATASETS: readonly DatasetText[] = [
  {
    kind: 'objects',
    crmClass: 'E22_Human-Made_Object',
    title: texts('Objecten', 'Objects', 'Objets'),
    description: texts(
      'Alle gepubliceerde objecten uit de collectie van Design Museum Gent.',
      'All published objects from the Design Museum Gent collection.',
      'Tous les objets publiés de la collection du Design Museum Gent.',
    ),
  },
  {
    kind: 'agents',
    crmClass: 'E39_Actor',
    title: texts('Agenten', 'Agents', 'Agents'),
    description: texts(
      'Alle agenten (personen en organisaties) gerelateerd aan de collectie van Design Museum Gent.',
      'All agents (persons and organisations) related to the Design Museum Gent collection.',
      'Tous les agents (personnes et organisations) liés à la collection du Design Museum Gent.',
    ),
  },
  {
    kind: 'exhibitions',
    crmClass: 'E7_Activity',
    title: texts('Tentoonstellingen', 'Exhibitions', 'Expositions'),
    description: texts(
      'Alle tentoonstellingen uit het archief van Design Museum Gent, met links naar getoonde collectieobjecten.',
      'All exhibitions from the Design Museum Gent archive, with links to collection objects shown.',
      'Toutes les expositions des archives du Design Museum Gent, avec des liens vers les objets de la collection présentés.',
    ),
  },
  {
    kind: 'concepts',
    crmClass: 'E55_Type',
    title: texts('Thesaurus', 'Thesaurus', 'Thésaurus'),
    description: texts(
      'Thesaurus met termen gebruikt voor de beschrijving van objecten in de collectie van Design Museum Gent, inclusief materialen, technieken en objecttypes.',
      'Thesaurus of terms used to describe objects in the Design Museum Gent collection, including materials, techniques and object types.',
      "Thésaurus des termes utilisés pour décrire les objets de la collection du Design Museum Gent, incluant matériaux, techniques et types d'objets.",
    ),
  },
];

/** A gzip-compressed N-Quads dump served under /v2/dumps/ (endpoints/dumps.ts). */
const dumpDistribution = (base: string, file: string, label: string): Record<string, unknown> => ({
  '@type': 'dcat:Distribution',
  'dct:format': 'application/n-quads',
  'dcat:accessURL': { '@id': `${base}/v2/dumps/${file}` },
  'dcat:downloadURL': { '@id': `${base}/v2/dumps/${file}` },
  'dcat:mediaType': 'application/n-quads',
  'dcat:compressFormat': 'application/gzip',
  'rdfs:label': label,
});

/** The SPARQL endpoint as a DCAT data service over the four datasets; its description is its own URL. */
const sparqlService = (base: string): Record<string, unknown> => ({
  '@id': `${base}/sparql`,
  '@type': 'dcat:DataService',
  'dct:title': texts('SPARQL-eindpunt', 'SPARQL endpoint', 'Point d’accès SPARQL'),
  'dct:conformsTo': { '@id': 'https://www.w3.org/TR/sparql11-protocol/' },
  'dcat:endpointURL': { '@id': `${base}/sparql` },
  'dcat:endpointDescription': { '@id': `${base}/sparql` },
  'dcat:servesDataset': DATASETS.map((d) => ({ '@id': `${base}/v2/id/${d.kind}` })),
});

const dataset = (base: string, d: DatasetText): Record<string, unknown> => {
  const collection = `${base}/v2/id/${d.kind}`;
  return {
    '@id': collection,
    '@type': 'dcat:Dataset',
    'dct:title': d.title,
    'dct:description': d.description,
    'dct:type': { '@id': `${NS.crm}${d.crmClass}` },
    'dcat:distribution': [
      {
        '@type': 'dcat:Distribution',
        'dct:format': 'application/ld+json',
        'dcat:accessURL': { '@id': collection },
        'dcat:mediaType': 'application/ld+json',
        'rdfs:label': 'Paginated JSON-LD collection',
      },
      dumpDistribution(base, `${d.kind}.nq.gz`, `N-Quads dump of all ${d.kind} (gzip)`),
    ],
    'dcat:endpointURL': { '@id': collection },
    'dcat:endpointDescription': { '@id': `${base}/v2/${d.kind}` },
  };
};

/** The catalog document of a deployment whose BASE_URL is `base` (scheme and host, no trailing slash). */
export function buildCatalog(base: string): Record<string, unknown> {
  return {
    '@context': {
      dcat: NS.dcat,
      dct: NS.dcterms,
      foaf: NS.foaf,
      owl: NS.owl,
      rdfs: NS.rdfs,
      xsd: NS.xsd,
      hydra: NS.hydra,
      crm: NS.crm,
    },
    '@id': `${base}/v2/`,
    '@type': 'dcat:Catalog',
    'dct:title': texts(
      'Design Museum Gent — Collectie API v2',
      'Design Museum Gent — Collection API v2',
      'Design Museum Gent — API Collection v2',
    ),
    'dct:description': texts(
      'CIDOC-CRM conforme JSON-LD API die toegang biedt tot de collectie van Design Museum Gent, inclusief objecten, agenten, tentoonstellingen en thesaurustermen.',
      'CIDOC-CRM compliant JSON-LD API providing access to the collection of Design Museum Gent, including objects, agents, exhibitions and thesaurus concepts.',
      'API JSON-LD conforme au CIDOC-CRM donnant accès à la collection du Design Museum Gent, incluant objets, agents, expositions et termes du thésaurus.',
    ),
    'dct:publisher': {
      '@id': MUSEUM.iri,
      '@type': 'foaf:Organization',
      'foaf:name': MUSEUM.name,
      'foaf:homepage': { '@id': MUSEUM.homepage },
    },
    'dct:license': { '@id': 'https://creativecommons.org/licenses/by/4.0/' },
    'dct:language': (['NLD', 'ENG', 'FRA'] as const).map((code) => ({ '@id': `${AUTHORITY.language}${code}` })),
    'dct:conformsTo': { '@id': NS.crm, 'rdfs:label': 'CIDOC-CRM' },
    'foaf:homepage': { '@id': base },
    'dcat:dataset': DATASETS.map((d) => dataset(base, d)),
    // Beyond the reference catalog: the whole collection as one dump, and the SPARQL endpoint.
    'dcat:distribution': [dumpDistribution(base, 'collection.nq.gz', 'N-Quads dump of the whole collection (gzip)')],
    'dcat:service': [sparqlService(base)],
  };
}

/** GET/HEAD /v2/ and /v2/dcat (mount under /v2): the catalog with ETag and Cache-Control. */
export function catalogRoutes(ctx: Pick<AppContext, 'config'>): Router {
  const doc = buildCatalog(ctx.config.baseUrl);
  const validators = { etag: weakEtag('catalog', JSON.stringify(doc)) };
  const send: RequestHandler = (req, res) => {
    recordCacheHeaders(res, validators, RECORD_CACHE_CONTROL);
    if (isNotModified(req, validators)) {
      sendNotModified(res);
      return;
    }
    sendJsonLd(res, doc);
  };
  const router = Router();
  // Two routes rather than one with an array path, so each has its own metrics label.
  router.get('/', send);
  router.get('/dcat', send);
  return router;
}
