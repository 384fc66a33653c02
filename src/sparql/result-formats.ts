/**
 * The media types a query's answer can be sent in, by query form, in the server's order of preference (the
 * first is the default for `Accept: *∕*` or no Accept). Each maps to the format the store serialises in, so
 * every answer is written by the store itself.
 */
import type { QueryResultFormat } from '../store/types.js';
import type { QueryForm } from './query-policy.js';

export interface ResultFormat {
  /** The media type offered to clients. */
  mediaType: string;
  /** The format the store answers in. */
  storeFormat: QueryResultFormat;
}

const format = (mediaType: string, storeFormat: QueryResultFormat = mediaType as QueryResultFormat): ResultFormat => ({ mediaType, storeFormat });

/** SELECT and ASK: SPARQL results in JSON (default), XML, CSV and TSV; plain JSON and XML as aliases. */
export const RESULTS_OFFERS: readonly ResultFormat[] = [
  format('application/sparql-results+json'),
  format('application/sparql-results+xml'),
  format('text/csv'),
  format('text/tab-separated-values'),
  format('application/json', 'application/sparql-results+json'),
  format('application/xml', 'application/sparql-results+xml'),
];

/** CONSTRUCT and DESCRIBE: Turtle (default), N-Triples, N-Quads, JSON-LD and RDF/XML. */
export const GRAPH_OFFERS: readonly ResultFormat[] = [
  format('text/turtle'),
  format('application/n-triples'),
  format('application/n-quads'),
  format('application/ld+json'),
  format('application/rdf+xml'),
];

/** The offers for a query form. */
export function offersFor(form: QueryForm): readonly ResultFormat[] {
  return form === 'construct' || form === 'describe' ? GRAPH_OFFERS : RESULTS_OFFERS;
}

/** The Content-Type header of an answer: every format here is UTF-8 text. */
export function contentTypeOf(result: ResultFormat): string {
  return `${result.mediaType}; charset=utf-8`;
}
