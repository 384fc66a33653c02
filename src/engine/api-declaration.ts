/**
 * What a kind says of itself to the API description (src/openapi) and the DCAT catalog, and the JSON Schema
 * and parameter types those declarations are written in: types only, which the document's builders read.
 */
import type { IndexDatasetText, LandingLink, RecordDatasetText, ReferenceOrdered } from './catalog-dataset.js';

/** A JSON value of the OpenAPI document. */
export type Json = Record<string, unknown>;

/** A JSON Schema (draft 2020-12, as OpenAPI 3.1 takes it). */
export type JsonSchema = Record<string, unknown>;

/** A query parameter, described for people. */
export interface ParameterDoc {
  description: string;
  schema: JsonSchema;
  example?: string | number | boolean;
}

/** The operation of an index endpoint that a kind owns, at its place in the document. */
export interface IndexPath extends ReferenceOrdered {
  /** The OpenAPI path (`/v2/id/<name>`). */
  readonly path: string;
  readonly item: Json;
}

/** What the API description (src/openapi) and the DCAT catalog say of the kind beyond what its other declarations give. */
export interface ApiDeclaration {
  /** The DCAT dataset of its record collection. */
  readonly dataset: RecordDatasetText;
  /** The DCAT datasets of the index endpoints it owns, in catalog order. */
  readonly indexDatasets?: readonly IndexDatasetText[];
  /** The collection's link on the landing page for people. */
  readonly landing: LandingLink;
  /**
   * The operations of the index endpoints it owns in the OpenAPI document (src/openapi/schema-parts.ts,
   * `indexOperation`), in document order.
   */
  readonly indexPaths?: readonly IndexPath[];
  /** The component schemas of those endpoints' answers, by name. */
  readonly indexSchemas?: Readonly<Record<string, JsonSchema>>;
  /**
   * Component `<Kind>Stub`, a member of its collection pages without fullRecord. A kind whose page is a
   * `labelledPage` may leave it out: its stub is then the labelled stub of the page's class, described by `stubNote`.
   */
  readonly stub?: JsonSchema;
  /** The description of its labelled stub (default `<Kind> stub.`). */
  readonly stubNote?: string;
  /**
   * The record's JSON Schema, `schemas/<schemaFile>.schema.json` (or the file at `schemaFile` when it is an
   * absolute path, for a kind declared outside src/kinds): component `<Kind>Record` of the document.
   */
  readonly schemaFile: string;
  /** A pid of a public record of the demo collection: the example of the record path. */
  readonly pidExample: string;
  /** What `q` searches, in words. */
  readonly searchText: string;
  /** The collection's filter, view and reserved parameters, described for people, by name. */
  readonly parameters: Readonly<Record<string, ParameterDoc>>;
}
