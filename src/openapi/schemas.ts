/**
 * The component schemas of the OpenAPI document that are not records: collection envelopes and stubs (spec,
 * "Collection envelope"), the index records the kinds declare (src/kinds/<kind>/openapi.ts), the DCAT catalog,
 * and the error bodies (reference/error-bodies.json, src/http/errors.ts). Written by hand from the spec;
 * test/endpoints/openapi.test.ts validates real responses of the app against them, so they cannot drift from
 * what the service sends without a failing test.
 */
import type { CollectionName, ResourceKind } from '../engine/kind.js';
import { recordComponentName } from './record-schemas.js';
import { capitalised, schemaRef } from './helpers.js';
import { count, labelledStub, uri, type JsonSchema } from './schema-parts.js';

const prefixMap: JsonSchema = {
  type: 'object',
  description: 'JSON-LD prefix map of the prefixes the document uses.',
  additionalProperties: { type: 'string', format: 'uri' },
};
const idRef: JsonSchema = { type: 'object', required: ['@id'], additionalProperties: false, properties: { '@id': uri } };

/** The stub and full-record components of a kind's collection pages. */
export const collectionMembers = (kind: Pick<ResourceKind, 'kind'>): { stub: string; record: string } => ({
  stub: recordComponentName(kind, 'Stub'),
  record: recordComponentName(kind),
});

/** Component name of a collection page of `collection` with stubs or full records. */
export const pageSchemaName = (collection: CollectionName, form: 'stubs' | 'full'): string =>
  `${collection[0]!.toUpperCase()}${collection.slice(1)}${form === 'stubs' ? 'StubPage' : 'FullPage'}`;

/** A Hydra collection page whose members are `member` (spec, "Collection envelope"). */
function collectionPage(title: string, member: JsonSchema): JsonSchema {
  return {
    type: 'object',
    title,
    required: ['@context', '@id', '@type', 'hydra:totalItems', 'hydra:view', 'hydra:member'],
    additionalProperties: false,
    properties: {
      '@context': prefixMap,
      '@id': { ...uri, description: 'URI of the collection, without query.' },
      '@type': { const: 'hydra:Collection' },
      'hydra:totalItems': { ...count, description: 'Records matching the filters (all pages).' },
      'hydra:view': schemaRef('PartialCollectionView'),
      'hydra:member': { type: 'array', items: member },
    },
  };
}









const langStrings: JsonSchema = {
  type: 'array',
  items: {
    type: 'object',
    required: ['@value', '@language'],
    additionalProperties: false,
    properties: { '@value': { type: 'string' }, '@language': { enum: ['nl', 'en', 'fr'] } },
  },
};

const distribution: JsonSchema = {
  type: 'object',
  required: ['@type', 'dct:format', 'dcat:accessURL', 'dcat:mediaType', 'rdfs:label'],
  additionalProperties: false,
  properties: {
    '@type': { const: 'dcat:Distribution' },
    'dct:format': { type: 'string' },
    'dcat:accessURL': idRef,
    'dcat:downloadURL': idRef,
    'dcat:mediaType': { type: 'string' },
    'dcat:compressFormat': { type: 'string' },
    'rdfs:label': { type: 'string' },
    // The change feed's distribution names the specification it follows (IIIF Change Discovery 1.0).
    'dct:conformsTo': idRef,
  },
};

const dataset: JsonSchema = {
  type: 'object',
  required: ['@id', '@type', 'dct:title', 'dct:type', 'dcat:endpointURL', 'dcat:endpointDescription'],
  additionalProperties: false,
  properties: {
    '@id': { ...uri, description: 'The collection URL.' },
    '@type': { const: 'dcat:Dataset' },
    'dct:title': langStrings,
    'dct:description': langStrings,
    'dct:type': { ...idRef, description: 'The CIDOC-CRM class of the records.' },
    'dcat:distribution': { type: 'array', minItems: 1, items: distribution },
    'dcat:endpointURL': idRef,
    'dcat:endpointDescription': { ...idRef, description: 'The human documentation page of the endpoint.' },
  },
};

const dataService: JsonSchema = {
  type: 'object',
  required: ['@id', '@type', 'dcat:endpointURL'],
  additionalProperties: false,
  properties: {
    '@id': uri,
    '@type': { const: 'dcat:DataService' },
    'dct:title': langStrings,
    'dct:conformsTo': idRef,
    'dcat:endpointURL': idRef,
    'dcat:endpointDescription': idRef,
    'dcat:servesDataset': { type: 'array', items: idRef },
  },
};

/**
 * The stub component of a kind: the schema it declares, or the labelled stub of its page's class
 * (src/engine/declarations.ts, `labelledPage`).
 */
function stubSchema(kind: Pick<ResourceKind, 'kind' | 'api' | 'page'>): JsonSchema {
  if (kind.api.stub !== undefined) return kind.api.stub;
  if (kind.page.stubClass === undefined) throw new Error(`kind ${kind.kind}: its page is not a labelledPage, so its api must declare its stub's schema`);
  return labelledStub(kind.kind, kind.page.stubClass, kind.api.stubNote ?? `${capitalised(kind.kind)} stub.`);
}

/** The schemas of the index answers the kinds declare; two kinds may not declare one name. */
function indexSchemas(kinds: readonly Pick<ResourceKind, 'kind' | 'api'>[]): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = {};
  for (const kind of kinds) {
    for (const [name, schema] of Object.entries(kind.api.indexSchemas ?? {})) {
      if (name in schemas) throw new Error(`kind ${kind.kind}: component schema ${name} is declared twice`);
      schemas[name] = schema;
    }
  }
  return schemas;
}

/** Every hand-written component schema, by name. */
export function ownComponentSchemas(kinds: readonly Pick<ResourceKind, 'kind' | 'collection' | 'api' | 'page'>[]): Record<string, JsonSchema> {
  const stubs: Record<string, JsonSchema> = {};
  const pages: Record<string, JsonSchema> = {};
  for (const kind of kinds) {
    const { stub, record } = collectionMembers(kind);
    stubs[stub] = stubSchema(kind);
    pages[pageSchemaName(kind.collection, 'stubs')] = collectionPage(`A page of ${kind.collection} (stubs)`, schemaRef(stub));
    pages[pageSchemaName(kind.collection, 'full')] = collectionPage(`A page of ${kind.collection} (full records, fullRecord=true)`, schemaRef(record));
  }
  return {
    PartialCollectionView: {
      type: 'object',
      description:
        'Links of the page: `<collection>?page=<n>&itemsPerPage=<n>` followed by every active parameter. `hydra:previous` is omitted on the first page, `hydra:next` on the last.',
      required: ['@id', '@type', 'hydra:first', 'hydra:last'],
      additionalProperties: false,
      properties: {
        '@id': { ...uri, description: 'This page.' },
        '@type': { const: 'hydra:PartialCollectionView' },
        'hydra:first': uri,
        'hydra:last': uri,
        'hydra:previous': uri,
        'hydra:next': uri,
      },
    },
    ...stubs,
    ...pages,
    ...indexSchemas(kinds),
    DcatCatalog: {
      type: 'object',
      description:
        'The DCAT catalog (spec, "DCAT catalog record"): a dataset per record collection (objects, agents, exhibitions, concepts; the spec\'s four) and per index endpoint, each with its endpoint URL and the documentation page (/docs). Beyond the spec, each record collection lists its N-Quads dump as a second distribution, the catalog lists the whole-collection dump under `dcat:distribution` and the SPARQL endpoint under `dcat:service`.',
      required: ['@context', '@id', '@type', 'dct:title', 'dct:description', 'dct:publisher', 'dct:license', 'dct:language', 'dct:conformsTo', 'foaf:homepage', 'dcat:dataset'],
      additionalProperties: false,
      properties: {
        '@context': prefixMap,
        '@id': { ...uri, description: '`{base_url}/v2/`' },
        '@type': { const: 'dcat:Catalog' },
        'dct:title': langStrings,
        'dct:description': langStrings,
        'dct:publisher': {
          type: 'object',
          required: ['@id', '@type', 'foaf:name'],
          additionalProperties: false,
          properties: { '@id': uri, '@type': { const: 'foaf:Organization' }, 'foaf:name': { type: 'string' }, 'foaf:homepage': idRef },
        },
        'dct:license': idRef,
        'dct:language': { type: 'array', minItems: 1, items: idRef },
        'dct:conformsTo': {
          type: 'object',
          required: ['@id'],
          additionalProperties: false,
          properties: { '@id': uri, 'rdfs:label': { type: 'string' } },
        },
        'foaf:homepage': idRef,
        'dcat:dataset': { type: 'array', minItems: 4, items: dataset },
        'dcat:distribution': { type: 'array', items: distribution },
        'dcat:service': { type: 'array', items: dataService },
      },
    },
    Error: {
      type: 'object',
      description: 'Every error body: one human-readable message. No stack trace or internal detail.',
      required: ['error'],
      additionalProperties: false,
      properties: { error: { type: 'string', minLength: 1 } },
    },
    RateLimitError: {
      type: 'object',
      description: 'The 429 body, with the status before the message as the museum service writes it.',
      required: ['status', 'error'],
      additionalProperties: false,
      properties: { status: { const: 429 }, error: { type: 'string', minLength: 1 } },
    },
    Redirect: {
      type: 'object',
      description: 'The 301 body of a merged, renumbered or withdrawn object.',
      required: ['message', 'resolved'],
      additionalProperties: false,
      properties: { message: { type: 'string', minLength: 1 }, resolved: { ...uri, description: 'The canonical object URI (also in `Location`).' } },
    },
  };
}
