/**
 * The OpenAPI 3.1 description of the service, served at /openapi.json and rendered at /docs. It is built in
 * code, once per app, from what the code declares wherever the code declares it, so it cannot drift:
 *   - record paths from each kind's `record.paths` (Express paths under /v2, the ark alias of agents included)
 *     and pid patterns from src/vocab/iris.ts;
 *   - collection paths from each kind's `collection`, and their parameters from `index.sortKeys`,
 *     `index.filters[].params` and `index.reserved` (texts in each kind's `api`, src/kinds/<kind>/api.ts);
 *   - record schemas from schemas/*.schema.json (./record-schemas.ts); the dump names from src/endpoints/dumps.ts;
 *   - the server URL from BASE_URL.
 * What a route answers (status codes, headers, media types) is written here by hand from the handlers and
 * middleware (src/app.ts order: rate limit → catalog → readiness gate → routes; src/http/*), and checked
 * against real responses by test/endpoints/openapi.test.ts.
 */
import { readFileSync } from 'node:fs';
import type { CollectionName, ResourceKind } from '../engine/kind.js';
import type { RecordTable } from '../collection-index/record-table.js';
import { dumpFiles } from '../endpoints/dumps.js';
import { RecordKinds } from '../vocab/record-kinds.js';
import { inReferenceOrder } from '../engine/catalog-dataset.js';
import { PID } from '../vocab/iris.js';
import { filterParameter, pagingParameters, type ParameterDoc } from './parameters.js';
import { changeOperations, iiifOperations, streamOperations, v1Operations } from './more-paths.js';
import { loadExamples, type CapturedExample } from './examples.js';
import { cachedJsonLd, capitalised, rdfContent, errorContent, gatedErrors, headerRef, JSON_LD, queryParameter, responseRef, schemaRef, type Json } from './helpers.js';
import { recordComponentName, recordComponentSchemas } from './record-schemas.js';
import { ownComponentSchemas, pageSchemaName } from './schemas.js';


export interface OpenApiOptions {
  /** Scheme and host of the deployment (BASE_URL). */
  baseUrl: string;
  /** The kinds the app serves, in catalog order. */
  kinds: readonly ResourceKind<RecordTable>[];
  /** Whether /sparql is mounted (it is when the app has a SPARQL store). */
  sparql: boolean;
}

const PACKAGE = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

/** `/id/ark\:/29417/agent/:pid` (Express, under /v2) → `/v2/id/ark:/29417/agent/{pid}` (OpenAPI). */
export function openApiPath(expressPath: string, mount = '/v2'): string {
  return `${mount}${expressPath.replace(/(?<!\\):([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}').replace(/\\/g, '')}`;
}




function catalogOperation(operationId: string, summary: string): Json {
  return {
    get: {
      tags: ['Catalog'],
      operationId,
      summary,
      description:
        'The DCAT catalog of the service, the entry point of the API: a dataset per record collection (objects, agents, exhibitions, concepts) and per index, with endpoint URLs, N-Quads dumps and this documentation as endpoint description, and the SPARQL endpoint. Served before the store is ready (never 503). `/v2/` and `/v2/dcat` are identical.',
      responses: {
        '200': cachedJsonLd('The catalog.', schemaRef('DcatCatalog'), { ETag: headerRef('ETag'), 'Cache-Control': headerRef('Cache-Control') }),
        '304': responseRef('NotModified'),
        '429': responseRef('TooManyRequests'),
        '500': responseRef('InternalError'),
      },
    },
  };
}

function recordOperations(kind: ResourceKind<RecordTable>): [string, Json][] {
  const component = recordComponentName(kind);
  const isObject = kind.kind === 'object';
  const cacheHeaders: Json = {
    ETag: headerRef('ETag'),
    'Last-Modified': headerRef('Last-Modified'),
    ...(kind.record.cacheControl === undefined ? {} : { 'Cache-Control': headerRef('Cache-Control') }),
    Vary: headerRef('Vary'),
  };
  const parameters: Json[] = [
    {
      name: 'pid',
      in: 'path',
      required: true,
      description: `The ${kind.kind}'s persistent identifier${isObject ? ' (object number)' : ''}. A value that cannot be a pid of any kind is a 400; one that can but names no public record is a 404.`,
      schema: { type: 'string', pattern: PID.source },
      example: kind.api.pidExample,
    },
  ];
  if (isObject) {
    parameters.push({
      name: 'colors',
      in: 'query',
      required: false,
      description: 'Include colour data (`crm:P65_shows_visual_item`: one `crm:E36_Visual_Item` per analysed image). Without it the record has none. Any value other than `true`/`false`/`1`/`0` is a 400. The RDF forms are the whole stored graph either way.',
      schema: { type: 'boolean', default: false },
    });
  }
  const responses: Json = {
    '200': {
      description: `The ${kind.kind} record. JSON-LD by default; Turtle, N-Triples, N-Quads or RDF/XML of the same graph when \`Accept\` prefers one (each with its own ETag).${kind.record.cacheControl === undefined ? ' No Cache-Control: the spec gives this record only its validators.' : ''}`,
      headers: cacheHeaders,
      content: { [JSON_LD]: { schema: schemaRef(component) }, ...rdfContent() },
    },
    ...(isObject
      ? {
          '301': {
            description: 'The object was merged into, renumbered to or withdrawn in favour of another record; `Location` is the canonical record. Clients may follow it.',
            headers: { Location: headerRef('Location') },
            content: { 'application/json': { schema: schemaRef('Redirect') } },
          },
        }
      : {}),
    '304': responseRef('NotModified'),
    '400': responseRef('BadRequest'),
    '404': { description: `No public ${kind.kind} has this identifier (unknown, private and unhealthy records alike).`, content: errorContent() },
    ...(isObject ? { '410': { description: 'The object was permanently removed from the collection.', content: errorContent() } } : {}),
    ...gatedErrors(),
  };
  return kind.record.paths.map((path, i): [string, Json] => [
    openApiPath(path),
    {
      get: {
        tags: ['Records'],
        operationId: `get${capitalised(kind.kind)}${i === 0 ? '' : `Alias${i}`}`,
        summary: i === 0 ? `One ${kind.kind}` : `One ${kind.kind} (alias path)`,
        description:
          i === 0
            ? `The ${kind.kind} record (spec, "${capitalised(kind.kind)} record"). Conditional requests (If-None-Match, If-Modified-Since) answer 304. HEAD answers the headers of GET.`
            : `The same record as \`${openApiPath(kind.record.paths[0]!)}\`, under an alias path the museum's URIs use.`,
        parameters,
        responses,
      },
    },
  ]);
}

function collectionOperation(kind: ResourceKind<RecordTable>): [string, Json] {
  const collection: CollectionName = kind.collection;
  const { index } = kind;
  const paging = pagingParameters(index, kind.api.searchText);
  const parameters: Json[] = [queryParameter('page', paging.page!), queryParameter('itemsPerPage', paging.itemsPerPage!), queryParameter('fullRecord', paging.fullRecord!)];
  const seen = new Set(['page', 'itemsPerPage', 'fullRecord', 'q', 'sortBy', 'sortOrder']);
  const add = (name: string, doc: ParameterDoc): void => {
    if (seen.has(name)) return;
    seen.add(name);
    parameters.push(queryParameter(name, doc));
  };
  parameters.push(queryParameter('q', paging.q!));
  for (const filter of index.filters) for (const param of filter.params) add(param, filterParameter(kind, param, filter.name));
  // The record view (objects: colors=true) of full records.
  if (kind.record.view) add(kind.record.view.param, filterParameter(kind, kind.record.view.param, kind.record.view.param));
  for (const param of index.reserved ?? []) add(param, filterParameter(kind, param, param));
  parameters.push(queryParameter('sortBy', paging.sortBy!), queryParameter('sortOrder', paging.sortOrder!));
  return [
    `/v2/id/${collection}`,
    {
      get: {
        tags: ['Collections'],
        operationId: `list${capitalised(collection)}`,
        summary: `The ${collection} collection`,
        description: `A Hydra collection page of the public, healthy, canonical ${collection} (spec, "${capitalised(collection)} collection"). Filters combine with AND; \`hydra:totalItems\` counts the filtered set. Stubs by default, full records with \`fullRecord=true\`. Unknown parameters are ignored; a repeated single-valued parameter is a 400.`,
        parameters,
        responses: {
          '200': {
            description: 'A page of the collection; an RFC 8288 `Link` header repeats its first/prev/next/last links. RDF syntaxes on request, as for records.',
            headers: { Link: headerRef('Link'), ETag: headerRef('ETag'), Vary: headerRef('Vary') },
            content: {
              // anyOf, not oneOf: an empty page is both.
              [JSON_LD]: { schema: { anyOf: [schemaRef(pageSchemaName(collection, 'stubs')), schemaRef(pageSchemaName(collection, 'full'))] } },
              ...rdfContent(),
            },
          },
          '304': responseRef('NotModified'),
          '400': responseRef('BadRequest'),
          ...gatedErrors(),
        },
      },
    },
  ];
}

function dumpOperation(kinds: OpenApiOptions['kinds']): [string, Json] {
  return [
    '/v2/dumps/{name}',
    {
      get: {
        tags: ['Dumps'],
        operationId: 'getDump',
        summary: 'N-Quads dump (gzip)',
        description:
          'The public quads of the served generation, streamed from a file: `collection.nq.gz` is the whole collection (what the SPARQL endpoint loads), the others one record kind each. Each record is a named graph. Range requests resume a broken download.',
        parameters: [
          {
            name: 'name',
            in: 'path',
            required: true,
            description: 'The dump file.',
            schema: { type: 'string', enum: [...dumpFiles(new RecordKinds(kinds)).keys()] },
            example: 'collection.nq.gz',
          },
          { name: 'Range', in: 'header', required: false, description: 'A byte range (RFC 9110), to resume a download.', schema: { type: 'string' } },
        ],
        responses: {
          '200': {
            description: 'The gzip-compressed N-Quads file.',
            headers: {
              ETag: headerRef('ETag'),
              'Last-Modified': headerRef('Last-Modified'),
              'Cache-Control': headerRef('Cache-Control'),
              'Content-Disposition': { description: '`attachment; filename="<name>"`.', required: true, schema: { type: 'string' } },
              'Accept-Ranges': { description: '`bytes`.', required: true, schema: { type: 'string' } },
            },
            content: { 'application/gzip': { schema: { type: 'string', contentMediaType: 'application/gzip' } } },
          },
          '206': {
            description: 'The requested byte range.',
            headers: { 'Content-Range': { description: '`bytes <first>-<last>/<size>`.', required: true, schema: { type: 'string' } } },
            content: { 'application/gzip': { schema: { type: 'string', contentMediaType: 'application/gzip' } } },
          },
          '304': responseRef('NotModified'),
          '404': { description: 'No dump of this name.', content: errorContent() },
          '416': { description: 'The range lies outside the file.' },
          '429': responseRef('TooManyRequests'),
          '500': responseRef('InternalError'),
          '503': {
            description: 'No generation is served yet, or the per-kind files of a new generation are still being written; retry after `Retry-After` seconds.',
            headers: { 'Retry-After': headerRef('Retry-After') },
            content: errorContent(),
          },
        },
      },
    },
  ];
}

const SPARQL_RESULTS: readonly string[] = [
  'application/sparql-results+json',
  'application/sparql-results+xml',
  'text/csv',
  'text/tab-separated-values',
  'text/turtle',
  'application/n-triples',
  'application/n-quads',
  'application/ld+json',
  'application/rdf+xml',
];

function sparqlOperations(): [string, Json] {
  const results: Json = Object.fromEntries(SPARQL_RESULTS.map((mediaType) => [mediaType, { schema: { type: 'string' } }]));
  results['application/sparql-results+json'] = {
    schema: {
      type: 'object',
      description: 'SPARQL 1.1 Query Results JSON: `head` and `results` (SELECT) or `boolean` (ASK).',
      required: ['head'],
      properties: { head: { type: 'object' }, results: { type: 'object', required: ['bindings'] }, boolean: { type: 'boolean' } },
    },
  };
  results['application/ld+json'] = { schema: { type: 'array', description: 'A CONSTRUCT or DESCRIBE graph as expanded JSON-LD (no context).' } };
  const responses = (extra: Json): Json => ({
    '200': {
      description:
        'The answer. SELECT/ASK: SPARQL results JSON (default), XML, CSV or TSV; CONSTRUCT/DESCRIBE: Turtle (default), N-Triples, N-Quads, JSON-LD or RDF/XML, by `Accept`. Without a query, GET answers the query editor (`text/html`) or the service description (RDF).',
      headers: {
        ETag: { description: 'Entity tag of (generation, format, query), on query answers: a repeated query revalidates without running.', schema: { type: 'string' } },
        Vary: headerRef('Vary'),
        'X-SPARQL-MaxRows': { description: 'The row cap, when it lowered or added the query\'s LIMIT.', schema: { type: 'integer' } },
      },
      content: { ...results, 'text/html': { schema: { type: 'string' } } },
    },
    '304': responseRef('NotModified'),
    '400': responseRef('BadRequest'),
    '403': { description: 'An update operation: the endpoint is read-only.', content: errorContent() },
    '406': { description: 'No answer format in `Accept` fits the query form; the message lists the available ones.', content: errorContent() },
    ...extra,
    '429': responseRef('TooManyRequests'),
    '500': responseRef('InternalError'),
    '503': {
      description: 'The SPARQL store is restarting or loading, or too many queries are waiting; retry after `Retry-After` seconds.',
      headers: { 'Retry-After': headerRef('Retry-After') },
      content: errorContent(),
    },
    '504': { description: 'The query ran past its deadline (SPARQL_TIMEOUT_MS) and was stopped.', content: errorContent() },
  });
  const dataset: Json[] = [
    { name: 'default-graph-uri', in: 'query', required: false, description: 'Replaces the query\'s FROM (repeatable).', schema: { type: 'array', items: { type: 'string', format: 'uri' } }, explode: true },
    { name: 'named-graph-uri', in: 'query', required: false, description: 'Replaces the query\'s FROM NAMED (repeatable).', schema: { type: 'array', items: { type: 'string', format: 'uri' } }, explode: true },
  ];
  const description =
    'SPARQL 1.1 Protocol, queries only, over the public records (each a named graph; without a dataset the default graph is their union). Its own rate limit counts queries only; the editor page and the service description are free. See docs/sparql.md.';
  return [
    '/sparql',
    {
      get: {
        tags: ['SPARQL'],
        operationId: 'sparqlQueryGet',
        summary: 'SPARQL query (GET)',
        description,
        parameters: [{ name: 'query', in: 'query', required: false, description: 'The query. Without it: the editor (browsers) or the service description.', schema: { type: 'string' } }, ...dataset],
        responses: responses({}),
      },
      post: {
        tags: ['SPARQL'],
        operationId: 'sparqlQueryPost',
        summary: 'SPARQL query (POST)',
        description,
        parameters: dataset,
        requestBody: {
          required: true,
          content: {
            'application/x-www-form-urlencoded': {
              schema: {
                type: 'object',
                required: ['query'],
                properties: { query: { type: 'string' }, 'default-graph-uri': { type: 'string' }, 'named-graph-uri': { type: 'string' } },
              },
            },
            'application/sparql-query': { schema: { type: 'string' } },
          },
        },
        responses: responses({
          '413': { description: 'A body over 256 kB.', content: errorContent() },
          '415': { description: 'A body of another media type, or not UTF-8.', content: errorContent() },
        }),
      },
    },
  ];
}


function components(kinds: OpenApiOptions['kinds']): Json {
  return {
    schemas: { ...recordComponentSchemas(kinds), ...ownComponentSchemas(kinds) },
    responses: {
      NotModified: {
        description: 'The representation matches the request\'s `If-None-Match` (or, without it, `If-Modified-Since`): no body.',
        headers: { ETag: headerRef('ETag') },
      },
      BadRequest: {
        description: 'A parameter value the endpoint refuses; the message names the parameter and what it accepts.',
        content: errorContent(),
      },
      TooManyRequests: {
        description: 'Over the rate limit (RATE_LIMIT_PER_MINUTE requests a minute per client, 10 by default).',
        headers: { 'Retry-After': headerRef('Retry-After'), RateLimit: headerRef('RateLimit'), 'RateLimit-Policy': headerRef('RateLimit-Policy') },
        content: { 'application/json': { schema: schemaRef('RateLimitError') } },
      },
      InternalError: { description: 'An unexpected failure; the body carries no internal detail.', content: errorContent() },
      ServiceUnavailable: {
        description: 'The store is not serving a generation yet (start-up, or a worker restarting); retry after `Retry-After` seconds.',
        headers: { 'Retry-After': headerRef('Retry-After') },
        content: errorContent(),
      },
    },
    // Every shared header is sent on every response that lists it (the test holds the app to `required`).
    headers: {
      ETag: { description: 'Entity tag of the representation, for If-None-Match.', required: true, schema: { type: 'string' } },
      'Last-Modified': { description: 'When the record was last harvested, or the generation was created (HTTP date).', required: true, schema: { type: 'string' } },
      'Cache-Control': { description: '`public, max-age=3600`.', required: true, schema: { type: 'string' } },
      Vary: { description: '`Accept`: the representation depends on it.', required: true, schema: { type: 'string' } },
      Link: { description: 'RFC 8288 links of the page: `<url>; rel="first"`, `prev`, `next`, `last`.', required: true, schema: { type: 'string' } },
      Location: { description: 'The canonical record URI.', required: true, schema: { type: 'string', format: 'uri' } },
      'Retry-After': { description: 'Seconds to wait before asking again.', required: true, schema: { type: 'integer', minimum: 1 } },
      RateLimit: { description: 'IETF RateLimit header (draft 8): remaining quota and reset.', required: true, schema: { type: 'string' } },
      'RateLimit-Policy': { description: 'IETF RateLimit-Policy header (draft 8).', required: true, schema: { type: 'string' } },
    },
  };
}

/** The OpenAPI 3.1 document of the service. */
export function buildOpenApiDocument(options: OpenApiOptions): Json {
  const paths: [string, Json][] = [['/v2/', catalogOperation('getCatalog', 'DCAT catalog')], ['/v2/dcat', catalogOperation('getCatalogDcat', 'DCAT catalog (alias)')]];
  for (const kind of options.kinds) paths.push(...recordOperations(kind));
  for (const kind of options.kinds) paths.push(collectionOperation(kind));
  paths.push(...inReferenceOrder(options.kinds, (kind) => kind.api.indexPaths).map(({ path, item }): [string, Json] => [path, item]), dumpOperation(options.kinds), ...changeOperations(), ...streamOperations(options.kinds.map((k) => k.collection)));
  if (options.sparql) paths.push(sparqlOperations());
  paths.push(...iiifOperations(), ...v1Operations());
  return {
    openapi: '3.1.1',
    info: {
      title: 'Design Museum Gent — Collection API v2',
      version: PACKAGE.version,
      summary: 'A design museum collection as linked data: CIDOC-CRM JSON-LD records, Hydra collections, indexes, a DCAT catalog, N-Quads dumps and SPARQL.',
      description: [
        'Read-only linked-data service over a design museum\'s collection: objects, agents (persons and organisations), exhibitions and thesaurus concepts as CIDOC-CRM JSON-LD, with SKOS for thesaurus terms and Hydra for pagination.',
        '',
        '* Every v2 path begins with `/v2/`; clients should send `Accept: application/ld+json`. Records and collection pages are also available as Turtle, N-Triples, N-Quads and RDF/XML.',
        '* v2 answers are rate-limited per client (10 requests a minute by default; 429 above it). A pause of 250 ms between pages is suggested for harvesting; the dumps are the better way to take everything.',
        '* Until the store serves a generation, every v2 route but the catalog answers 503 with `Retry-After`.',
        '* Errors are JSON `{"error": "<message>"}`.',
        '',
        'Also here: the SPARQL query editor at `/sparql`, this document at `/openapi.json` and its rendering at `/docs`.',
      ].join('\n'),
      license: { name: 'Data: CC BY 4.0', url: 'https://creativecommons.org/licenses/by/4.0/' },
    },
    servers: [{ url: options.baseUrl, description: 'This deployment' }],
    tags: [
      { name: 'Catalog', description: 'The DCAT catalog: the entry point.' },
      { name: 'Records', description: 'Single records by persistent identifier.' },
      { name: 'Collections', description: 'Paginated, filterable Hydra collections of records.' },
      { name: 'Indexes', description: 'Values of the collection filters, with counts.' },
      { name: 'Dumps', description: 'The whole public data as N-Quads files.' },
      { name: 'Changes', description: 'The change feed: creations, updates and deletions, for mirrors.' },
      ...(options.sparql ? [{ name: 'SPARQL', description: 'SPARQL 1.1 query endpoint.' }] : []),
      { name: 'IIIF', description: 'IIIF Image API 3 and Presentation API 3 of the objects\' images.' },
      { name: 'v1 (deprecated)', description: 'The deprecated v1 interface, served until its sunset date.' },
    ],
    // No authentication anywhere: every operation is public (the v1 private objects need a key and are not listed).
    security: [],
    paths: Object.fromEntries(withExamples(paths, loadExamples(options.baseUrl))),
    components: components(options.kinds),
  };
}

/** Adds each operation's real example (src/openapi/examples.ts) to its 200's JSON-LD content. */
function withExamples(paths: [string, Json][], examples: Readonly<Record<string, CapturedExample>>): [string, Json][] {
  for (const [, item] of paths) {
    for (const operation of Object.values(item) as Json[]) {
      const example = examples[operation.operationId as string];
      const content = ((operation.responses as Json)['200'] as Json | undefined)?.content as Json | undefined;
      const jsonLd = content?.[JSON_LD] as Json | undefined;
      if (example === undefined || jsonLd === undefined) continue;
      jsonLd.examples = { demo: { summary: `GET ${example.url} on the demo collection`, value: example.value } };
    }
  }
  return paths;
}
