/**
 * The index endpoints of the OpenAPI document (`/v2/id/colors`, `colors/dominant`, `object/{pid}/similar`,
 * `types`, `materials`, `nationalities`, `roles`, `production`): their parameters, statuses and schemas, checked
 * against real answers by test/endpoints/openapi.test.ts.
 */
import { BASE_COLORS } from '../colors/base-colors.js';
import { MAX_QUERY_LENGTH } from '../endpoints/collection-params.js';
import { PID } from '../vocab/iris.js';
import { cachedJsonLd, capitalised, errorContent, gatedErrors, headerRef, queryParameter, responseRef, schemaRef, type Json } from './helpers.js';
import { OBJECTS_API } from '../kinds/objects/api.js';

const onDisplayParameter = (noun: string): Json =>
  queryParameter('onDisplay', { description: `\`true\`: ${noun} over objects currently in the collection presentation only; \`false\`: over objects not on display. Accepts \`true\`/\`1\` or \`false\`/\`0\`; anything else is a 400.`, schema: { type: 'boolean' } });

interface IndexOperationOptions {
  /** Defaults to `get<Name>Index`. */
  operationId?: string;
  /** The 200's description. */
  ok?: string;
  /** The 404's description, for an index of one record. */
  notFound?: string;
}

function indexOperation(
  name: string,
  summary: string,
  description: string,
  schema: string,
  parameters: Json[],
  badRequest: string | undefined,
  options: IndexOperationOptions = {},
): [string, Json] {
  return [
    `/v2/id/${name}`,
    {
      get: {
        tags: ['Indexes'],
        operationId: options.operationId ?? `get${capitalised(name)}Index`,
        summary,
        description,
        parameters,
        responses: {
          '200': cachedJsonLd(options.ok ?? 'The index, computed from the served generation.', schemaRef(schema), {
            ETag: headerRef('ETag'),
            'Last-Modified': headerRef('Last-Modified'),
            'Cache-Control': headerRef('Cache-Control'),
          }),
          '304': responseRef('NotModified'),
          ...(badRequest === undefined ? {} : { '400': { description: badRequest, content: errorContent() } }),
          ...(options.notFound === undefined ? {} : { '404': { description: options.notFound, content: errorContent() } }),
          ...gatedErrors(),
        },
      },
    },
  ];
}

export function indexOperations(): [string, Json][] {
  const badOnDisplay = 'An `onDisplay` value other than `true`/`false`/`1`/`0`.';
  return [
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
      'A `minCount` that is not a whole number from 0, or a bad `onDisplay`.',
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
      'Neither or both of `color` and `cssColor`, a `color` that is not a base colour, or a `limit` that is not a whole number from 1.',
      { operationId: 'getDominantObjects', ok: 'The objects, ranked from the served generation.' },
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
          example: OBJECTS_API.pidExample,
        },
        queryParameter('limit', { description: 'Number of objects, from 1 to 50; anything else is a 400.', schema: { type: 'integer', minimum: 1, maximum: 50, default: 10 } }),
      ],
      'A `limit` that is not a whole number from 1 to 50, or a malformed object number.',
      { operationId: 'getSimilarObjects', ok: 'The related objects, ranked from the served generation.', notFound: 'No listed object has this number.' },
    ),
    indexOperation(
      'types',
      'Object types with counts',
      'Every object type of the published objects with its object count and the URL of the objects collection filtered on it. The labels are the accepted values of the objects `type` filter.',
      'TypeIndex',
      [onDisplayParameter('counts')],
      badOnDisplay,
    ),
    indexOperation(
      'materials',
      'Materials with counts',
      'Every material of the published objects with its object count, most frequent first, and the URL of the objects collection filtered on it (spec, "Material index").',
      'MaterialIndex',
      [onDisplayParameter('counts')],
      badOnDisplay,
    ),
    indexOperation(
      'nationalities',
      'Agent nationalities with counts',
      'Every nationality (Dutch country name) of the agents with its agent count and the URL of the agents collection filtered on it.',
      'NationalityIndex',
      [],
      undefined,
    ),
    indexOperation('roles', 'Agent roles with counts', 'The agent roles (designer, producer) with their agent counts and the filtered agents collection URL.', 'RoleIndex', [], undefined),
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
      'A bucket or year that is not a whole number, yearFrom after yearTo, a bad `onDisplay` or an over-long `q`.',
    ),
  ];
}
