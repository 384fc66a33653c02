/**
 * The DCAT catalog (spec, "DCAT catalog record"; served at /v2/ and /v2/dcat). Texts and structure are the
 * real service's current catalog (reference/dcat-catalog.jsonld) word for word; only the host changes, every
 * URI of the service being built from BASE_URL:
 *   - catalog `@id` is `{base}/v2/`;
 *   - dataset `@id`, `dcat:accessURL` and `dcat:endpointURL` are the endpoint URL `{base}/v2/id/<name>`;
 *   - `dcat:endpointDescription` is this service's documentation page `{base}/docs` (the real service's
 *     `/api-docs`, which redirects there), so every link of the catalog answers on the deployment itself;
 *   - `foaf:homepage` is `{base}`; the publisher and its homepage are the museum's own, not the deployment's.
 * The datasets are the reference's, in its order, plus the production density; each kind declares its own
 * (src/kinds/<kind>/api.ts).
 * Added to the reference: each record collection's N-Quads dump and event stream (/v2/streams/<name>) as
 * further `dcat:distribution`s, the whole
 * collection's dump and the change feed (/v2/changes) as the catalog's own `dcat:distribution` (a DCAT catalog
 * is a dataset) and the SPARQL endpoint as a `dcat:DataService` under `dcat:service`.
 * The document depends on nothing but BASE_URL, so it is built once and served with a fixed ETag.
 */
import { Router } from 'express';
import type { AppContext } from '../engine/app-context.js';
import { RECORD_CACHE_CONTROL } from '../http/caching.js';
import { fixedDocumentHandler } from '../http/document-answer.js';
import type { RecordTable } from '../collection-index/record-table.js';
import { indexDatasets, texts, type RecordDatasetText } from '../engine/catalog-dataset.js';
import type { ResourceKind } from '../engine/kind.js';
import { AUTHORITY, MUSEUM, NS } from '../vocab/namespaces.js';
import type { RecordKinds } from '../vocab/record-kinds.js';

/** The human documentation page of the API (rendered from /openapi.json), every dataset's endpoint description. */
export const API_DOCS_PATH = '/docs';

/** A dataset of the catalog: a kind's record collection (with its dump) or an index endpoint. */
interface Dataset extends RecordDatasetText {
  /** The path segment under /v2/id/. */
  name: string;
  /** The CIDOC-CRM class of its members. */
  classIri: string;
  /** Record collections also have a gzip N-Quads dump (endpoints/dumps.ts). */
  dump: boolean;
}

/**
 * The datasets in catalog order: the kinds' record collections, then the index endpoints the kinds own that
 * the reference catalog lists (reference/dcat-catalog.jsonld), then those it does not (the production
 * density). Every text is the kind's own (src/kinds/<kind>/api.ts).
 */
function datasets(kinds: RecordKinds<ResourceKind<RecordTable>>): Dataset[] {
  return [
    ...kinds.list.map((kind): Dataset => ({ ...kind.api.dataset, name: kind.collection, classIri: kind.class.iri, dump: true })),
    ...indexDatasets(kinds.list).map(({ title, description, distribution, name, crmClass }): Dataset => ({ title, description, distribution, name, classIri: `${NS.crm}${crmClass}`, dump: false })),
  ];
}

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

/** The change feed (src/changes/): every Create, Update and Delete of a public record, as IIIF Change Discovery 1.0. */
const changeFeedDistribution = (base: string): Record<string, unknown> => ({
  '@type': 'dcat:Distribution',
  'dct:format': 'application/ld+json',
  'dct:conformsTo': { '@id': 'https://iiif.io/api/discovery/1.0/' },
  'dcat:accessURL': { '@id': `${base}/v2/changes` },
  'dcat:mediaType': 'application/ld+json',
  'rdfs:label': 'Change feed of the collection (IIIF Change Discovery 1.0, Activity Streams 2.0)',
});

/** A record collection's event stream (src/endpoints/event-streams.ts): versions and tombstones, LDES on TREE. */
const streamDistribution = (base: string, name: string): Record<string, unknown> => ({
  '@type': 'dcat:Distribution',
  'dct:format': 'application/ld+json',
  'dct:conformsTo': { '@id': 'https://w3id.org/ldes/specification' },
  'dcat:accessURL': { '@id': `${base}/v2/streams/${name}` },
  'dcat:mediaType': 'application/ld+json',
  'rdfs:label': `Linked Data Event Stream of all ${name}: a version for each creation and update, a tombstone for each deletion`,
});

/** The SPARQL endpoint as a DCAT data service over the record collections; its description is its own URL. */
const sparqlService = (base: string, records: readonly Dataset[]): Record<string, unknown> => ({
  '@id': `${base}/sparql`,
  '@type': 'dcat:DataService',
  'dct:title': texts('SPARQL-eindpunt', 'SPARQL endpoint', 'Point d’accès SPARQL'),
  'dct:conformsTo': { '@id': 'https://www.w3.org/TR/sparql11-protocol/' },
  'dcat:endpointURL': { '@id': `${base}/sparql` },
  'dcat:endpointDescription': { '@id': `${base}/sparql` },
  'dcat:servesDataset': records.map((d) => ({ '@id': `${base}/v2/id/${d.name}` })),
});

const dataset = (base: string, d: Dataset): Record<string, unknown> => {
  const url = `${base}/v2/id/${d.name}`;
  const json: Record<string, unknown> = {
    '@type': 'dcat:Distribution',
    'dct:format': 'application/ld+json',
    'dcat:accessURL': { '@id': url },
    'dcat:mediaType': 'application/ld+json',
    'rdfs:label': d.distribution,
  };
  return {
    '@id': url,
    '@type': 'dcat:Dataset',
    'dct:title': d.title,
    'dct:description': d.description,
    'dct:type': { '@id': d.classIri },
    'dcat:distribution': d.dump ? [json, dumpDistribution(base, `${d.name}.nq.gz`, `N-Quads dump of all ${d.name} (gzip)`), streamDistribution(base, d.name)] : [json],
    'dcat:endpointURL': { '@id': url },
    'dcat:endpointDescription': { '@id': `${base}${API_DOCS_PATH}` },
  };
};

/** The catalog document of a deployment whose BASE_URL is `base` (scheme and host, no trailing slash). */
export function buildCatalog(base: string, kinds: RecordKinds<ResourceKind<RecordTable>>): Record<string, unknown> {
  const all = datasets(kinds);
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
    'dcat:dataset': all.map((d) => dataset(base, d)),
    // Beyond the reference catalog: the whole collection as one dump, and the SPARQL endpoint.
    'dcat:distribution': [dumpDistribution(base, 'collection.nq.gz', 'N-Quads dump of the whole collection (gzip)'), changeFeedDistribution(base)],
    'dcat:service': [sparqlService(base, all.filter((d) => d.dump))],
  };
}

/** GET/HEAD /v2/ and /v2/dcat (mount under /v2): the catalog with ETag and Cache-Control. */
export function catalogRoutes(ctx: Pick<AppContext, 'config' | 'kinds'>): Router {
  // JSON-LD, or its graph in the RDF syntax the client prefers.
  const send = fixedDocumentHandler(JSON.stringify(buildCatalog(ctx.config.baseUrl, ctx.kinds)), RECORD_CACHE_CONTROL);
  const router = Router();
  // Two routes rather than one with an array path, so each has its own metrics label.
  router.get('/', send);
  router.get('/dcat', send);
  return router;
}
