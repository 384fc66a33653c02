/**
 * The component schemas of the OpenAPI document that are not records: collection envelopes and stubs (spec,
 * "Collection envelope"), the index records (types, materials, nationalities, roles, production density, the
 * colour index and its dominant objects), the DCAT catalog, and the error bodies (reference/error-bodies.json, src/http/errors.ts). Written by hand from
 * the spec; test/endpoints/openapi.test.ts validates real responses of the app against them, so they cannot
 * drift from what the service sends without a failing test.
 */
import { BASE_COLORS } from '../colors/base-colors.js';
import type { CollectionName, ResourceKind } from '../engine/kind.js';
import { recordComponentName, type JsonSchema } from './record-schemas.js';

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const uri: JsonSchema = { type: 'string', format: 'uri' };
const count: JsonSchema = { type: 'integer', minimum: 0 };
const prefixMap: JsonSchema = {
  type: 'object',
  description: 'JSON-LD prefix map of the prefixes the document uses.',
  additionalProperties: { type: 'string', format: 'uri' },
};
/**
 * The context of an index document: prefixes, and term definitions of the index keys in the service's vocabulary
 * (`{"@id": …, "@type": "@id"}` for links; docs/vocabulary.md), so every key expands to an IRI.
 */
const indexContext: JsonSchema = {
  type: 'object',
  description: 'JSON-LD context: the prefixes the document uses and a term definition for each of its plain keys (docs/vocabulary.md).',
  additionalProperties: {
    oneOf: [
      { type: 'string', format: 'uri' },
      { type: 'object', additionalProperties: false, properties: { '@id': { type: 'string', format: 'uri' }, '@type': { type: 'string' } } },
    ],
  },
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
      'hydra:view': ref('PartialCollectionView'),
      'hydra:member': { type: 'array', items: member },
    },
  };
}

/** A stub `{@id, @type, rdfs:label}` of class `type` whose `@id` is a record URI of `kind`. */
const labelledStub = (kind: string, type: string, description: string): JsonSchema => ({
  type: 'object',
  description,
  required: ['@id', '@type'],
  additionalProperties: false,
  properties: {
    '@id': { type: 'string', pattern: `^https?://[^/]+(/.*)?/v2/id/${kind}/[^/?#]+$` },
    '@type': { const: type },
    'rdfs:label': { type: 'string' },
  },
});

/**
 * The envelope every index document shares (a Hydra collection with a label and, unless `comment` is false,
 * a comment), with the index's own fields after it; all of them required.
 */
function indexRecord(description: string, fields: Record<string, JsonSchema>, options: { id?: JsonSchema; comment?: boolean } = {}): JsonSchema {
  const comment = options.comment ?? true;
  const properties: Record<string, JsonSchema> = {
    '@context': indexContext,
    '@id': options.id ?? uri,
    '@type': { const: 'hydra:Collection' },
    'rdfs:label': { type: 'string' },
    ...(comment ? { 'rdfs:comment': { type: 'string' } } : {}),
    ...fields,
  };
  return { type: 'object', description, required: Object.keys(properties), additionalProperties: false, properties };
}

/** An index record: a Hydra collection of labelled values with counts and a filter URL each. */
function valueIndex(description: string, member: JsonSchema): JsonSchema {
  return indexRecord(description, {
    'hydra:totalItems': { ...count, description: 'Number of members.' },
    'hydra:member': { type: 'array', items: member },
  });
}

const indexMember = (type: string, countKey: 'object_count' | 'agent_count', filterOf: string, withId: boolean): JsonSchema => ({
  type: 'object',
  required: ['@type', 'rdfs:label', countKey, 'filter'],
  additionalProperties: false,
  properties: {
    ...(withId ? { '@id': { ...uri, description: 'The internal concept URI of the value, when the thesaurus has one.' } } : {}),
    '@type': { const: type },
    'rdfs:label': { type: 'string', description: `Dutch label: an accepted value of the ${filterOf} filter.` },
    [countKey]: count,
    filter: { ...uri, description: `URL of the collection filtered on this value (\`${filterOf}=<url-encoded label>\`).` },
  },
});

const hex: JsonSchema = { type: 'string', pattern: '^#[0-9a-fA-F]{6}$' };
const nullableHex: JsonSchema = { type: ['string', 'null'], pattern: '^#[0-9a-fA-F]{6}$' };
const percentage: JsonSchema = { type: 'number', minimum: 0, maximum: 100 };

/** An entry of `base_colors` (with its swatches) or of `css_colors` (spec, "Color index record"). */
const colorEntry = (base: boolean): JsonSchema => ({
  type: 'object',
  required: ['value', 'hex', ...(base ? ['swatches'] : []), 'object_count', 'collection_share_pct', 'avg_dominance_pct', 'filter', 'dominant'],
  additionalProperties: false,
  properties: {
    value: base ? { enum: [...BASE_COLORS], description: 'The base colour.' } : { type: 'string', description: 'The tone\'s name (from community colour lists, not a CSS keyword: render `hex`).' },
    hex: {
      ...nullableHex,
      description: base
        ? 'Renderable colour of the base: its heaviest swatch\'s hex (`swatches[0].hex`); null when none could be computed.'
        : 'The tone\'s own colour: the weighted centroid (by image coverage, in linear light) of its occurrences; null when none could be computed.',
    },
    ...(base
      ? {
          swatches: {
            type: 'array',
            description: 'The named tones this base colour is made of, heaviest first.',
            items: {
              type: 'object',
              required: ['label', 'hex', 'object_count', 'weight'],
              additionalProperties: false,
              properties: {
                label: { type: 'string', description: 'The tone\'s name, a `value` of `css_colors`.' },
                hex: nullableHex,
                object_count: { ...count, description: 'Objects showing the tone within this base colour.' },
                weight: { ...percentage, description: 'The tone\'s share of the base colour\'s weight, in percent.' },
              },
            },
          },
        }
      : {}),
    object_count: { ...count, description: 'Objects with an image showing the colour: the `hydra:totalItems` of its `filter` link.' },
    collection_share_pct: { ...percentage, description: 'Share of the whole collection palette (dominance-weighted), in percent.' },
    avg_dominance_pct: { ...percentage, description: 'Average share of an object covered by the colour where it is present, in percent.' },
    filter: { ...uri, description: `The objects collection filtered on the colour (\`${base ? 'color=<value>' : 'cssColor=<url-encoded value>'}\`).` },
    dominant: { ...uri, description: `The objects the colour covers most (\`/v2/id/colors/dominant?${base ? 'color=<value>' : 'cssColor=<url-encoded value>'}\`).` },
  },
});

const objectRecordDef = (name: string): JsonSchema => ref(`ObjectRecord/$defs/${name}`);

const dominantMember: JsonSchema = {
  type: 'object',
  description: 'An object and how much of it the colour covers. An object whose images all failed validation is kept without the image fields.',
  required: ['@id', '@type', 'rdfs:label', 'dominance_pct'],
  additionalProperties: false,
  properties: {
    '@id': { type: 'string', pattern: '^https?://[^/]+(/.*)?/v2/id/object/[^/?#]+$' },
    '@type': { const: 'crm:E22_Human-Made_Object' },
    'rdfs:label': { type: 'string', description: 'The Dutch title (else the object number).' },
    dominance_pct: { ...percentage, description: 'Percentage of the object covered by the colour (its largest share over the object\'s images).' },
    palette: {
      type: 'array',
      description: 'The colour clusters of the object\'s image that shows the colour most, heaviest first.',
      items: {
        type: 'object',
        required: ['hex', 'css', 'base', 'percentage'],
        additionalProperties: false,
        properties: {
          hex,
          css: { type: 'string', description: 'The nearest named tone.' },
          base: { enum: [...BASE_COLORS] },
          percentage: { type: 'number', minimum: 0, maximum: 1, description: 'Share of the object the cluster covers, as a fraction (0 to 1).' },
        },
      },
    },
    'crm:P138i_has_representation': { type: 'array', minItems: 1, description: 'Validated images in canvas order, as in the object record.', items: objectRecordDef('image') },
    image: { ...objectRecordDef('image'), description: 'The first image.' },
    'crm:P129i_is_subject_of': {
      description: 'The IIIF manifest (and further media), as in the object record.',
      oneOf: [objectRecordDef('media'), { type: 'array', minItems: 2, items: objectRecordDef('media') }],
    },
  },
};

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

/** Every hand-written component schema, by name. */
export function ownComponentSchemas(kinds: readonly Pick<ResourceKind, 'kind' | 'collection'>[]): Record<string, JsonSchema> {
  const pages: Record<string, JsonSchema> = {};
  for (const kind of kinds) {
    const { stub, record } = collectionMembers(kind);
    pages[pageSchemaName(kind.collection, 'stubs')] = collectionPage(`A page of ${kind.collection} (stubs)`, ref(stub));
    pages[pageSchemaName(kind.collection, 'full')] = collectionPage(`A page of ${kind.collection} (full records, fullRecord=true)`, ref(record));
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
    ObjectStub: {
      type: 'object',
      description: 'Object stub: `@id`, `@type`, the Dutch title (else the object number) and the IIIF manifest when there is one.',
      required: ['@id', '@type'],
      additionalProperties: false,
      properties: {
        '@id': { type: 'string', pattern: '^https?://[^/]+(/.*)?/v2/id/object/[^/?#]+$' },
        '@type': { const: 'crm:E22_Human-Made_Object' },
        'rdfs:label': { type: 'string' },
        'crm:P129i_is_subject_of': {
          type: 'object',
          description: 'The IIIF manifest.',
          required: ['@id', '@type'],
          additionalProperties: false,
          properties: { '@id': uri, '@type': { const: 'crm:E73_Information_Object' } },
        },
      },
    },
    AgentStub: labelledStub('agent', 'crm:E39_Actor', 'Agent stub: always `crm:E39_Actor`, whatever the class of the full record.'),
    ExhibitionStub: labelledStub('exhibition', 'crm:E7_Activity', 'Exhibition stub.'),
    ConceptStub: labelledStub('concept', 'crm:E55_Type', 'Concept stub (the spec leaves its shape open; this is the shape served).'),
    ...pages,
    TypeIndex: valueIndex(
      'Object types with their object counts (spec, "Other indexes"); labels feed the objects `type` filter.',
      indexMember('crm:E55_Type', 'object_count', 'type', true),
    ),
    MaterialIndex: valueIndex(
      'Materials with their object counts, most frequent first (spec, "Material index record"); labels feed the objects `material` filter.',
      indexMember('crm:E57_Material', 'object_count', 'material', false),
    ),
    NationalityIndex: valueIndex(
      'Nationalities (Dutch country names) with their agent counts; labels feed the agents `nationality` filter.',
      indexMember('crm:E55_Type', 'agent_count', 'nationality', false),
    ),
    RoleIndex: valueIndex('Agent roles (designer, producer) with their agent counts; labels feed the agents `role` filter.', indexMember('crm:E55_Type', 'agent_count', 'role', false)),
    ColorIndex: indexRecord(
      'Colour statistics over the published objects (spec, "Color index record"), weighted by dominance: the base colours with their swatches, and the named tones, heaviest first. Values feed the objects `color` and `cssColor` filters.',
      {
        base_colors: { type: 'array', items: colorEntry(true) },
        css_colors: { type: 'array', items: colorEntry(false) },
      },
    ),
    DominantObjects: indexRecord(
      'The objects a colour covers most, by `dominance_pct` descending (spec, "Dominant-objects record").',
      {
        'hydra:totalItems': { ...count, description: 'Objects showing the colour (all of them, not only the listed ones).' },
        'hydra:member': { type: 'array', maxItems: 100, items: dominantMember },
      },
      { id: { ...uri, description: 'The request URL, with its parameters in canonical form.' }, comment: false },
    ),
    SimilarObjects: indexRecord(
      'Other public objects ranked by what they share with the object (docs/similar.md): maker 5, type 3, other concept 2, material 1, base colour 0.5, overlapping period 1; ties in object-number order.',
      {
        'hydra:totalItems': { ...count, description: 'Number of members (at most `limit`).' },
        'hydra:member': {
          type: 'array',
          maxItems: 50,
          items: {
            type: 'object',
            required: ['@id', '@type', 'rdfs:label', 'similarity', 'shares'],
            additionalProperties: false,
            properties: {
              '@id': { type: 'string', pattern: '^https?://[^/]+(/.*)?/v2/id/object/[^/?#]+$' },
              '@type': { const: 'crm:E22_Human-Made_Object' },
              'rdfs:label': { type: 'string', description: 'The Dutch title (else the object number).' },
              similarity: { type: 'number', exclusiveMinimum: 0, description: 'The summed weights of the shared features.' },
              shares: {
                type: 'array',
                minItems: 1,
                items: {
                  type: 'object',
                  required: ['feature'],
                  additionalProperties: false,
                  properties: {
                    feature: { enum: ['maker', 'type', 'concept', 'material', 'color', 'period'] },
                    value: {
                      description: 'The agent or concept shared (`@id`), or the base colour; none for the period.',
                      oneOf: [{ enum: [...BASE_COLORS] }, { type: 'object', required: ['@id'], additionalProperties: false, properties: { '@id': uri } }],
                    },
                  },
                },
              },
            },
          },
        },
      },
    ),
    ProductionDensity: indexRecord('Production density over time (spec, "Production-density record"). Buckets ascend by year.', {
        bucket_size: { type: 'integer', minimum: 5, maximum: 100, description: 'Years per bucket.' },
        year_from: { type: 'integer', description: 'First year of the axis.' },
        year_to: { type: 'integer', maximum: 2100, description: 'Last year of the axis.' },
        total_weight: { type: 'number', minimum: 0, description: 'Number of dated objects inside the range.' },
        buckets: {
          type: 'array',
          items: {
            type: 'object',
            required: ['year', 'weight', 'share_pct', 'object_count', 'exact_count', 'spread_factor', 'filter'],
            additionalProperties: false,
            properties: {
              year: { type: 'integer', description: 'First year of the bucket.' },
              weight: { type: 'number', minimum: 0, description: 'Each dated object contributes 1, spread evenly over every year of its recorded span.' },
              share_pct: { type: 'number', minimum: 0, maximum: 100, description: '`weight` as a percentage of `total_weight`.' },
              object_count: { ...count, description: 'Objects whose span touches the bucket.' },
              exact_count: { ...count, description: 'Objects dated to a single year inside the bucket.' },
              spread_factor: { type: ['number', 'null'], description: '`object_count / weight`; null when the weight is 0.' },
              filter: { ...uri, description: 'Objects collection filtered on the bucket: `?date=<first year>/<last year>`.' },
            },
          },
        },
    }),
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
