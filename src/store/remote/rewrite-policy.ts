/**
 * What the remote store's query rewrite (graph-view.ts) refuses, with a QueryError, whatever the view:
 *
 *   a text past the rewrite's bounds (before any parse: sparqljs takes seconds over deep nesting)
 *   a text that does not parse, and any update (the store is read-only)
 *   f(…) of any function but the XSD casts (Virtuoso's bif: and sql: functions run SQL)
 *   SERVICE, and a subquery that names a dataset (sparqljs parses none, so that check is defence in depth)
 *
 * The shapes that Virtuoso 7.2 cannot run (an EXISTS used as a value inside another EXISTS or MINUS, or in a
 * grouped query, or reading an outer variable only in an expression) are refused where they are rewritten,
 * in virtuoso-dialect.ts.
 */
import type sparqljs from 'sparqljs';
import type { SparqlQuery } from 'sparqljs';
import { boundsViolation, REWRITE_BOUNDS } from '../../queries/query-bounds.js';
import { parserFor } from '../../queries/sparql-ast.js';
import { QueryError } from '../errors.js';
import { XSD } from './rewrite-ast.js';

/** The query `text`, parsed against `baseIri` (a default of the store's own when undefined); throws QueryError for what cannot be read. */
export function parseForView(text: string, baseIri: string | undefined): sparqljs.Query {
  // Before any parse: sparqljs takes seconds over deep nesting (docs/sparql.md, "Limits").
  const violation = boundsViolation(text, REWRITE_BOUNDS);
  if (violation !== undefined) throw new QueryError(violation);
  let ast: SparqlQuery;
  try {
    ast = parserFor(baseIri ?? 'urn:x-museum-ld:base').parse(text);
  } catch (err) {
    throw new QueryError(`invalid SPARQL query: ${(err as Error).message}`);
  }
  if (ast.type !== 'query') throw new QueryError('the store is read-only: updates are not accepted');
  return ast;
}

/** The functions a query may call by IRI: SPARQL 1.1's XSD casts (and xsd:date), compared as whole IRIs. */
const XSD_CASTS: ReadonlySet<string> = new Set(['string', 'boolean', 'integer', 'decimal', 'float', 'double', 'dateTime', 'date'].map((type) => `${XSD}${type}`));

/** Throws QueryError unless `iri`, a function a query calls by IRI, is one of the XSD casts. */
export function checkFunctionCall(iri: string): void {
  if (!XSD_CASTS.has(iri)) throw new QueryError(`the function <${iri}> is not available on this endpoint (only SPARQL's built-in functions and the XSD casts are)`);
}

/** Why a query with SERVICE is refused: it would have the SPARQL server query other endpoints. */
export const SERVICE_REFUSED = 'SERVICE is not allowed';

/** Why a subquery that names a dataset is refused: the dataset is the whole query's (SPARQL 1.1 allows none in a subquery). */
export const SUBQUERY_DATASET_REFUSED = 'a subquery cannot name a dataset';
