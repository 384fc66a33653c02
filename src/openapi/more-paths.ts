/**
 * The paths of the OpenAPI document beyond the v2 REST API: the change feed (`/v2/changes`, IIIF Change
 * Discovery 1.0: docs/changes.md), the IIIF Image and Presentation APIs (`/iiif/…`), and the deprecated v1
 * interface (`/v1/…`, every operation `deprecated: true`: docs/v1.md). Their bodies follow the standards they
 * implement (Activity Streams, IIIF) or the v1 shapes, so the schemas here say only what a client relies on.
 */
import { errorContent as errors, gatedErrors as gated, headerRef, responseRef, type Json } from './helpers.js';
import type { JsonSchema } from '../engine/api-declaration.js';

const ref = (kind: 'responses' | 'headers', name: string): Json => (kind === 'responses' ? responseRef(name) : headerRef(name));
const path = (name: string, description: string, example: string | number, pattern?: string): Json => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: typeof example === 'number' ? { type: 'integer', minimum: 1 } : { type: 'string', ...(pattern === undefined ? {} : { pattern }) },
  example,
});
const query = (name: string, description: string, schema: JsonSchema): Json => ({ name, in: 'query', required: false, description, schema });

/** Sent as `application/ld+json; profile="https://www.w3.org/ns/activitystreams"`. */
const ACTIVITY_STREAMS = 'application/ld+json';
const activityDocument = (type: string, description: string): Json => ({
  description: `${description} Sent with the Activity Streams profile (\`application/ld+json; profile="https://www.w3.org/ns/activitystreams"\`).`,
  headers: { ETag: ref('headers', 'ETag'), 'Cache-Control': ref('headers', 'Cache-Control') },
  content: {
    [ACTIVITY_STREAMS]: {
      schema: { type: 'object', required: ['@context', 'id', 'type'], properties: { '@context': {}, id: { type: 'string', format: 'uri' }, type: { const: type } } },
    },
  },
});

const notAcceptable = { description: 'An `Accept` that admits no JSON-LD (Turtle, say): the feed is Activity Streams JSON-LD only.', content: errors() };

/** `/v2/changes` and its pages. */
export function changeOperations(): [string, Json][] {
  return [
    [
      '/v2/changes',
      {
        get: {
          tags: ['Changes'],
          operationId: 'getChanges',
          summary: 'The change feed',
          description:
            'An Activity Streams `OrderedCollection` of every creation, update and deletion of a public record, one activity per record and generation, oldest first (IIIF Change Discovery API 1.0). A mirror reads `last` and walks `prev` until it reaches what it has. Revalidated on every use (`no-cache`).',
          responses: { '200': activityDocument('OrderedCollection', 'The collection: total and the first and last page.'), '304': ref('responses', 'NotModified'), '406': notAcceptable, ...gated() },
        },
      },
    ],
    [
      '/v2/changes/page/{n}',
      {
        get: {
          tags: ['Changes'],
          operationId: 'getChangesPage',
          summary: 'A page of the change feed',
          description: 'An `OrderedCollectionPage` of activities. Every page but the last is complete and never changes: strong ETag and a year of freshness.',
          parameters: [path('n', 'Page number, from 1.', 1)],
          responses: {
            '200': activityDocument('OrderedCollectionPage', 'The page.'),
            '304': ref('responses', 'NotModified'),
            '404': { description: 'No such page.', content: errors() },
            '406': notAcceptable,
            ...gated(),
          },
        },
      },
    ],
  ];
}

/** The RDF syntaxes of an event stream's documents, JSON-LD first (the default). */
const STREAM_SYNTAXES = ['application/ld+json', 'application/trig', 'application/n-quads', 'text/turtle', 'application/n-triples'];
const streamDocument = (description: string): Json => ({
  description: `${description} JSON-LD by default; TriG, N-Quads, Turtle or N-Triples on request (Turtle and N-Triples without the members' named graphs).`,
  headers: { ETag: ref('headers', 'ETag'), 'Cache-Control': ref('headers', 'Cache-Control') },
  content: Object.fromEntries(STREAM_SYNTAXES.map((type) => [type, { schema: type === 'application/ld+json' ? { type: 'object' } : { type: 'string' } }])),
});

/** `/v2/streams/{collection}`: the change log as a Linked Data Event Stream per kind (docs/changes.md). */
export function streamOperations(collections: readonly string[]): [string, Json][] {
  const collection = { ...path('collection', 'The kind\'s collection.', collections[0] ?? 'objects'), schema: { type: 'string', enum: [...collections] } };
  const operation = (id: string, summary: string, description: string, parameters: Json[], body: string, missing?: string): Json => ({
    get: {
      tags: ['Changes'],
      operationId: id,
      summary,
      description,
      parameters: [collection, ...parameters],
      responses: { '200': streamDocument(body), '304': ref('responses', 'NotModified'), '404': { description: missing ?? 'No such event stream.', content: errors() }, ...gated() },
    },
  });
  return [
    [
      '/v2/streams/{collection}',
      operation(
        'getEventStream',
        'The event stream of a kind',
        'The `ldes:EventStream` (Linked Data Event Streams on TREE) of a kind\'s records: a version member for every creation and update, a tombstone (`as:Delete`) for every deletion, in the order of the change feed; `ldes:timestampPath prov:generatedAtTime`, `ldes:versionOfPath dcterms:isVersionOf`, `tree:view` its view. Revalidated on every use.',
        [],
        'The stream.',
      ),
    ],
    [
      '/v2/streams/{collection}/view',
      operation('getEventStreamView', 'The view of an event stream', 'The root of the stream\'s search tree: its retention policy (the latest version of each record) and one `tree:GreaterThanOrEqualToRelation` per group of pages, on the time of the group\'s first member. Revalidated on every use.', [], 'The view.'),
    ],
    [
      '/v2/streams/{collection}/groups/{g}',
      operation('getEventStreamGroup', 'A group of pages of an event stream', 'One relation per page of the group. A group whose last page is complete never changes: strong ETag and a year of freshness.', [path('g', 'Group number, from 1.', 1)], 'The group.', 'No such stream or group.'),
    ],
    [
      '/v2/streams/{collection}/pages/{n}',
      operation(
        'getEventStreamPage',
        'A page of an event stream',
        'The members of a page: each version with its record\'s graph in a named graph that the member names. Every page but the last is complete: strong ETag and a year of freshness; a version a later one supersedes is left out (the retention policy), so a page only ever loses members.',
        [path('n', 'Page number, from 1.', 1)],
        'The page.',
        'No such stream or page.',
      ),
    ],
  ];
}

const IMAGE_ID = path('id', 'The image id, as in the records\' image URIs.', '3c312d90e8854abfbc1563c4091211cd-transcode-1814');
const IIIF_SCHEMA: JsonSchema = { type: 'object', required: ['id', 'type'], properties: { id: { type: 'string' }, type: { type: 'string' } } };
/** IIIF documents: `application/json` (the image information, as the Image API allows) or `application/ld+json`. */
const IIIF_JSON = (description: string): Json => ({ description, content: { 'application/json': { schema: IIIF_SCHEMA }, 'application/ld+json': { schema: IIIF_SCHEMA } } });
const iiifNotFound = { description: 'No such image, or the image of an object that is not public.', content: errors() };

/** The IIIF Image API 3 and Presentation API 3 of the served objects' images. */
export function iiifOperations(): [string, Json][] {
  return [
    [
      '/iiif/3/{id}/info.json',
      {
        get: {
          tags: ['IIIF'],
          operationId: 'getImageInfo',
          summary: 'IIIF image information',
          description: 'The IIIF Image API 3 information of an image (level 1: regions, sizes, tiles), for deep-zoom viewers.',
          parameters: [IMAGE_ID],
          responses: { '200': IIIF_JSON('The image information.'), '404': iiifNotFound },
        },
      },
    ],
    [
      '/iiif/3/{id}/{region}/{size}/{rotation}/{quality}.{format}',
      {
        get: {
          tags: ['IIIF'],
          operationId: 'getImage',
          summary: 'An IIIF image request',
          description: 'A region of an image at a size (IIIF Image API 3), such as `full/max/0/default.jpg` or `full/400,/0/default.jpg` (the records\' thumbnails).',
          parameters: [
            IMAGE_ID,
            path('region', '`full`, `square`, `x,y,w,h` or `pct:x,y,w,h`.', 'full'),
            path('size', '`max`, `w,`, `,h`, `w,h`, `!w,h` or `pct:n`.', '400,'),
            path('rotation', 'Degrees, `!` for a mirror image first.', '0'),
            path('quality', '`default`, `color`, `gray` or `bitonal`.', 'default'),
            path('format', '`jpg`, `png` or `webp`.', 'jpg'),
          ],
          responses: {
            '200': { description: 'The image.', content: { 'image/jpeg': { schema: { type: 'string', format: 'binary' } }, 'image/png': { schema: { type: 'string', format: 'binary' } }, 'image/webp': { schema: { type: 'string', format: 'binary' } } } },
            '400': { description: 'A malformed or unsupported image request.', content: errors() },
            '404': iiifNotFound,
          },
        },
      },
    ],
    [
      '/iiif/manifest/{objectNumber}',
      {
        get: {
          tags: ['IIIF'],
          operationId: 'getManifest',
          summary: 'IIIF manifest of an object',
          description: 'The IIIF Presentation API 3 manifest of a public object: one canvas per validated image, in the record\'s order.',
          parameters: [path('objectNumber', 'The object number.', '1482')],
          responses: { '200': IIIF_JSON('The manifest.'), '404': { description: 'No public object has this number.', content: errors() } },
        },
      },
    ],
  ];
}

const V1_PAGING = [
  query('pageNumber', 'Page number, from 1.', { type: 'integer', minimum: 1, default: 1 }),
  query('itemsPerPage', 'Records per page.', { type: 'integer', minimum: 1, default: 10 }),
  query('fullRecord', 'Full records instead of stubs.', { type: 'boolean' }),
];
const v1Json = { description: 'The v1 document (JSON-LD, OSLO shapes; docs/v1.md).', content: { 'application/ld+json': { schema: { type: 'object' } } } };
const v1Gone = { description: 'From the sunset date on (V1_SUNSET), every v1 path is gone.', content: errors() };

function v1Operation(path: string, operationId: string, summary: string, parameters: Json[], extra: Json = {}): [string, Json] {
  return [
    path,
    {
      get: {
        tags: ['v1 (deprecated)'],
        operationId,
        summary,
        description: `${summary}. Deprecated: every answer carries \`Deprecation\`, \`Sunset\` and a \`Link\` to its v2 successor (docs/v1.md).`,
        deprecated: true,
        parameters,
        responses: { '200': v1Json, '400': { description: 'A malformed parameter or identifier.', content: errors() }, '410': v1Gone, ...extra, '429': ref('responses', 'TooManyRequests'), '503': ref('responses', 'ServiceUnavailable') },
      },
    },
  ];
}

/** The deprecated v1 interface. */
export function v1Operations(): [string, Json][] {
  const recordMissing = { '422': { description: 'A well-formed identifier that names no published record.', content: errors() } };
  return [
    v1Operation('/v1/id/objects', 'getV1Objects', 'v1 objects collection', [...V1_PAGING, query('hasImage', 'Only objects with an image.', { type: 'boolean' }), query('colors', 'Include colour data.', { type: 'boolean' })]),
    v1Operation('/v1/id/agents', 'getV1Agents', 'v1 agents collection', V1_PAGING),
    v1Operation('/v1/id/exhibitions', 'getV1Exhibitions', 'v1 exhibitions collection', V1_PAGING),
    v1Operation('/v1/id/concepts', 'getV1Concepts', 'v1 concepts collection', V1_PAGING),
    v1Operation('/v1/id/object/{pid}', 'getV1Object', 'v1 object record', [path('pid', 'The object number.', '1482'), query('easy', 'The simplified view.', { type: 'boolean' })], recordMissing),
    v1Operation('/v1/id/agent/{pid}', 'getV1Agent', 'v1 agent record', [path('pid', 'The agent pid.', 'DMG-A-00001')], recordMissing),
    v1Operation('/v1/id/exhibition/{pid}', 'getV1Exhibition', 'v1 exhibition record', [path('pid', 'The exhibition pid.', 'TE_1956-001')], recordMissing),
    v1Operation('/v1/id/concept/{pid}', 'getV1Concept', 'v1 concept record', [path('pid', 'The concept pid.', '530000049')], recordMissing),
    v1Operation('/v1/colors', 'getV1Colors', 'v1 colour tags', []),
    v1Operation('/v1/color-api/{color}', 'getV1ColorObjects', 'v1 objects of a colour', [path('color', 'A base colour or a tone name.', 'red'), ...V1_PAGING]),
  ];
}
