/**
 * Parts of the OpenAPI document's hand-written schemas and operations that the kinds' own index endpoints are
 * described with (src/kinds/<kind>/openapi.ts) as well as the service's (./schemas.ts): JSON Schema atoms, the
 * envelope of every index document, and the operation of an index endpoint.
 */
import { cachedJsonLd, capitalised, errorContent, gatedErrors, headerRef, queryParameter, responseRef, schemaRef, type Json } from './helpers.js';
import type { IndexPath, JsonSchema } from '../engine/api-declaration.js';

export type { JsonSchema };

export const uri: JsonSchema = { type: 'string', format: 'uri' };
export const count: JsonSchema = { type: 'integer', minimum: 0 };
export const percentage: JsonSchema = { type: 'number', minimum: 0, maximum: 100 };

/** The `@id` of a record of `kind` (`…/v2/id/<kind>/<pid>`). */
export const recordIri = (kind: string): JsonSchema => ({ type: 'string', pattern: `^https?://[^/]+(/.*)?/v2/id/${kind}/[^/?#]+$` });

/** A stub `{@id, @type, rdfs:label}` of class `type` whose `@id` is a record URI of `kind`. */
export const labelledStub = (kind: string, type: string, description: string): JsonSchema => ({
  type: 'object',
  description,
  required: ['@id', '@type'],
  additionalProperties: false,
  properties: {
    '@id': recordIri(kind),
    '@type': { const: type },
    'rdfs:label': { type: 'string' },
  },
});

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

/**
 * The envelope every index document shares (a Hydra collection with a label and, unless `comment` is false,
 * a comment), with the index's own fields after it; all of them required.
 */
export function indexRecord(description: string, fields: Record<string, JsonSchema>, options: { id?: JsonSchema; comment?: boolean } = {}): JsonSchema {
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

/**
 * An index of the values of a collection filter: a Hydra collection of members of class `type`, each with its
 * label, its count of records (`countKey`) and the URL of the collection filtered on it (`filterOf`).
 */
export function valueIndex(description: string, member: { type: string; countKey: 'object_count' | 'agent_count'; filterOf: string; withId?: boolean }): JsonSchema {
  const { type, countKey, filterOf, withId = false } = member;
  return indexRecord(description, {
    'hydra:totalItems': { ...count, description: 'Number of members.' },
    'hydra:member': {
      type: 'array',
      items: {
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
      },
    },
  });
}

export type { IndexPath } from '../engine/api-declaration.js';

export interface IndexOperationOptions {
  /** Defaults to `get<Name>Index`. */
  operationId?: string;
  /** The 200's description. */
  ok?: string;
  /** The 400's description, when the endpoint has parameters to refuse. */
  badRequest?: string;
  /** The 404's description, for an index of one record. */
  notFound?: string;
  beyondReference?: true;
}

/** `GET /v2/id/<name>`: a cached JSON-LD index document of component `schema`. */
export function indexOperation(name: string, summary: string, description: string, schema: string, parameters: Json[], options: IndexOperationOptions = {}): IndexPath {
  const { badRequest, notFound, beyondReference } = options;
  return {
    path: `/v2/id/${name}`,
    item: {
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
          ...(notFound === undefined ? {} : { '404': { description: notFound, content: errorContent() } }),
          ...gatedErrors(),
        },
      },
    },
    ...(beyondReference ? { beyondReference } : {}),
  };
}

/** The `onDisplay` parameter of an index over objects. */
export const onDisplayParameter = (noun: string): Json =>
  queryParameter('onDisplay', { description: `\`true\`: ${noun} over objects currently in the collection presentation only; \`false\`: over objects not on display. Accepts \`true\`/\`1\` or \`false\`/\`0\`; anything else is a 400.`, schema: { type: 'boolean' } });
