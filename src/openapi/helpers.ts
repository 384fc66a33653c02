/** Small builders shared by the modules of the OpenAPI document (./document.ts, ./schema-parts.ts, ./more-paths.ts) and by the kinds' own (src/kinds/<kind>/openapi.ts). */
import { RDF_SYNTAXES } from '../http/negotiation.js';
import type { Json, ParameterDoc } from '../engine/api-declaration.js';

export type { Json } from '../engine/api-declaration.js';

export const JSON_LD = 'application/ld+json';
export const schemaRef = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
export const responseRef = (name: string): Json => ({ $ref: `#/components/responses/${name}` });
export const headerRef = (name: string): Json => ({ $ref: `#/components/headers/${name}` });
export const capitalised = (word: string): string => `${word[0]!.toUpperCase()}${word.slice(1)}`;

/**
 * A query parameter. Its example is written into the description, not given as `example`: Swagger UI fills a
 * parameter's example into "Try it out", and a first Execute with every filter filled finds nothing.
 */
export const queryParameter = (name: string, doc: ParameterDoc, required = false): Json => ({
  name,
  in: 'query',
  description: doc.example === undefined ? doc.description : `${doc.description} Example: \`${String(doc.example)}\`.`,
  required,
  schema: doc.schema,
});

/** Answers of every route behind the v2 rate limit and readiness gate. */
export const gatedErrors = (): Json => ({ '429': responseRef('TooManyRequests'), '500': responseRef('InternalError'), '503': responseRef('ServiceUnavailable') });

/** The RDF representations a JSON-LD document of the service is also available in (src/http/negotiation.ts). */
export const rdfContent = (): Json =>
  Object.fromEntries(
    Object.keys(RDF_SYNTAXES).map((mediaType) => [mediaType, { schema: { type: 'string', description: `The same graph as the JSON-LD document, as ${mediaType}.` } }]),
  );

/** A JSON-LD document (the catalog, an index), also in the RDF syntaxes by `Accept`. */
export const cachedJsonLd = (description: string, schema: Json, headers: Json): Json => ({
  description,
  headers,
  content: { [JSON_LD]: { schema }, ...rdfContent() },
});

export function errorContent(): Json {
  return { 'application/json': { schema: schemaRef('Error') } };
}
