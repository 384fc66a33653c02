/**
 * The objects' index endpoints in the OpenAPI document (`/v2/id/colors`, `colors/dominant`,
 * `object/{pid}/similar`, `types`, `materials`, `production`): their operations and the schemas of their
 * answers, checked against real answers by test/endpoints/openapi.test.ts.
 */
import { BASE_COLORS } from '../../colors/base-colors.js';
import { MAX_QUERY_LENGTH } from '../../endpoints/collection-params.js';
import { queryParameter, schemaRef } from '../../openapi/helpers.js';
import { count, indexOperation, indexRecord, labelledStub, onDisplayParameter, percentage, recordIri, uri, valueIndex, type IndexPath, type JsonSchema } from '../../openapi/schema-parts.js';
import { PID } from '../../vocab/iris.js';

/** The pid of the record-path example: a public object of the demo collection. */
export const PID_EXAMPLE = '1482';

const labelledObject = labelledStub('object', 'crm:E22_Human-Made_Object', 'Object stub: `@id`, `@type`, the Dutch title (else the object number) and the IIIF manifest when there is one.');

/** Component `ObjectStub`: a member of a page of objects without fullRecord (./stub.ts): a labelled stub with its manifest. */
export const OBJECT_STUB: JsonSchema = {
  ...labelledObject,
  properties: {
    ...(labelledObject.properties as JsonSchema),
    'crm:P129i_is_subject_of': {
      type: 'object',
      description: 'The IIIF manifest.',
      required: ['@id', '@type'],
      additionalProperties: false,
      properties: { '@id': uri, '@type': { const: 'crm:E73_Information_Object' } },
    },
  },
};

const hex: JsonSchema = { type: 'string', pattern: '^#[0-9a-fA-F]{6}$' };
const nullableHex: JsonSchema = { type: ['string', 'null'], pattern: '^#[0-9a-fA-F]{6}$' };

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

const objectRecordDef = (name: string): JsonSchema => schemaRef(`ObjectRecord/$defs/${name}`);

const dominantMember: JsonSchema = {
  type: 'object',
  description: 'An object and how much of it the colour covers. An object whose images all failed validation is kept without the image fields.',
  required: ['@id', '@type', 'rdfs:label', 'dominance_pct'],
  additionalProperties: false,
  properties: {
    '@id': recordIri('object'),
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

/** The components of the objects' index answers, by name. */
export const OBJECT_INDEX_SCHEMAS: Record<string, JsonSchema> = {
  TypeIndex: valueIndex(
    'Object types with their object counts (spec, "Other indexes"); labels feed the objects `type` filter.',
    { type: 'crm:E55_Type', countKey: 'object_count', filterOf: 'type', withId: true },
  ),
  MaterialIndex: valueIndex(
    'Materials with their object counts, most frequent first (spec, "Material index record"); labels feed the objects `material` filter.',
    { type: 'crm:E57_Material', countKey: 'object_count', filterOf: 'material' },
  ),
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
            '@id': recordIri('object'),
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
};

const badOnDisplay = 'An `onDisplay` value other than `true`/`false`/`1`/`0`.';

/** The objects' index operations, in document order. */
export const OBJECT_INDEX_PATHS: readonly IndexPath[] = [
  indexOperation(
    'colors',
    'Colours with weighted statistics',
    'Colour statistics over the published objects (spec, "Color index"): the eleven base colours with the named tones (swatches) they are made of, and every named tone, heaviest first, each with its object count, share of the collection palette, average dominance, a renderable hex and the URLs of the objects collection filtered on it and of its dominant objects. The values are the accepted values of the objects `color` and `cssColor` filters.',
    'ColorIndex',
    [
      onDisplayParameter('statistics'),
      queryParameter('minCount', {
        description: 'Minimum number of objects a colour (and a swatch of a base colour) must appear on to be listed. A value that is not a whole number from 0 is a 400.',
        schema: { type: 'integer', minimum: 0, default: 1 },
      }),
    ],
    { badRequest: 'A `minCount` that is not a whole number from 0, or a bad `onDisplay`.' },
  ),
  indexOperation(
    'colors/dominant',
    'Objects a colour covers most',
    'The objects a colour covers most, by the percentage of the object it covers, descending (spec, "Dominant objects"), with their images and IIIF manifest. Give exactly one of `color` and `cssColor`: the `dominant` links of `/v2/id/colors` are such requests.',
    'DominantObjects',
    [
      queryParameter('color', {
        description: 'A base colour, a `value` of `base_colors` in `/v2/id/colors`. Exactly one of `color` and `cssColor`; any other value is a 400.',
        schema: { type: 'string', enum: [...BASE_COLORS], description: 'Any case is accepted.' },
        example: 'black',
      }),
      queryParameter('cssColor', {
        description: 'A named tone, a `value` of `css_colors` in `/v2/id/colors` (any case). Exactly one of `color` and `cssColor`; a name no object shows is 200 with no members.',
        schema: { type: 'string' },
      }),
      queryParameter('limit', {
        description: 'Number of objects. At most 100: a larger value is served, and named in `@id`, as 100. A value that is not a whole number from 1 is a 400.',
        schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
      }),
    ],
    {
      operationId: 'getDominantObjects',
      ok: 'The objects, ranked from the served generation.',
      badRequest: 'Neither or both of `color` and `cssColor`, a `color` that is not a base colour, or a `limit` that is not a whole number from 1.',
    },
  ),
  indexOperation(
    'object/{pid}/similar',
    'Related objects',
    'Other public objects ranked by what they share with the object, from the collection index (docs/similar.md): the same maker (5), type (3), other concept such as a technique or sub-collection (2), material (1), base colour of the images (0.5 each), and an overlapping period (1, only beside another shared feature). Each member says what it shares. An object that is not listed (unknown, private, removed, merged) is a 404.',
    'SimilarObjects',
    [
      {
        name: 'pid',
        in: 'path',
        required: true,
        description: 'The object number.',
        schema: { type: 'string', pattern: PID.source },
        example: PID_EXAMPLE,
      },
      queryParameter('limit', { description: 'Number of objects, from 1 to 50; anything else is a 400.', schema: { type: 'integer', minimum: 1, maximum: 50, default: 10 } }),
    ],
    {
      operationId: 'getSimilarObjects',
      ok: 'The related objects, ranked from the served generation.',
      badRequest: 'A `limit` that is not a whole number from 1 to 50, or a malformed object number.',
      notFound: 'No listed object has this number.',
    },
  ),
  indexOperation(
    'types',
    'Object types with counts',
    'Every object type of the published objects with its object count and the URL of the objects collection filtered on it. The labels are the accepted values of the objects `type` filter.',
    'TypeIndex',
    [onDisplayParameter('counts')],
    { badRequest: badOnDisplay },
  ),
  indexOperation(
    'materials',
    'Materials with counts',
    'Every material of the published objects with its object count, most frequent first, and the URL of the objects collection filtered on it (spec, "Material index").',
    'MaterialIndex',
    [onDisplayParameter('counts')],
    { badRequest: badOnDisplay },
  ),
  indexOperation(
    'production',
    'Production density over time',
    'How much of the published collection was being made in each period (spec, "Production density"): each dated object contributes a weight of 1 spread evenly over the years of its recorded span. Undated objects are left out.',
    'ProductionDensity',
    [
      queryParameter('bucket', { description: 'Bucket size in years; clamped to 5 through 100.', schema: { type: 'integer', default: 10 } }),
      queryParameter('yearFrom', { description: 'Start of the axis; clamped to at least 1. Objects whose spans lie entirely before it are excluded.', schema: { type: 'integer', default: 1600 } }),
      queryParameter('yearTo', { description: 'End of the axis; clamped to at most 2100.', schema: { type: 'integer', default: 2030 } }),
      onDisplayParameter('the density'),
      queryParameter('q', {
        description: `Full text search as on the objects collection; narrows the density to its matches. At most ${MAX_QUERY_LENGTH} characters.`,
        schema: { type: 'string', maxLength: MAX_QUERY_LENGTH },
      }),
    ],
    { badRequest: 'A bucket or year that is not a whole number, yearFrom after yearTo, a bad `onDisplay` or an over-long `q`.', beyondReference: true },
  ),
];
