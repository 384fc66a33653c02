/**
 * Request values become RDF terms here, and only here. IRIs are checked against the IRIREF production of
 * SPARQL (no `<>"{}|^\`\\`, spaces or controls), because sparqljs writes IRIs verbatim; literals are escaped
 * by sparqljs. Typed values are checked against their datatype's lexical form before they become literals.
 */
import { DataFactory } from 'n3';
import type { Literal, NamedNode } from '@rdfjs/types';
import { NS } from '../vocab/namespaces.js';

export type ParamType = 'iri' | 'string' | 'integer' | 'decimal' | 'boolean' | 'date' | 'dateTime' | 'gYear';
export type BoundTerm = string | number | boolean;

export class TermError extends Error {}

// Control characters are exactly what IRIREF forbids, so the pattern must name them.
// eslint-disable-next-line no-control-regex
const IRIREF = /^[^\u0000-\u0020<>"{}|^`\\]+$/;
const ABSOLUTE = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const LEXICAL: Partial<Record<ParamType, RegExp>> = {
  integer: /^[+-]?\d+$/,
  decimal: /^[+-]?(\d+(\.\d*)?|\.\d+)$/,
  boolean: /^(true|false)$/,
  date: /^-?\d{4,}-\d{2}-\d{2}$/,
  dateTime: /^-?\d{4,}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/,
  gYear: /^-?\d{4,}$/,
};

/** True when `value` can be written as a SPARQL IRIREF without changing the query's meaning. */
export function isSafeIri(value: string): boolean {
  return IRIREF.test(value) && ABSOLUTE.test(value);
}

/** The RDF term for a parameter value of the declared type; throws TermError when it does not fit. */
export function toRdfTerm(type: ParamType, value: BoundTerm, name = 'value'): NamedNode | Literal {
  const text = String(value);
  if (type === 'iri') {
    if (!isSafeIri(text)) throw new TermError(`${name}: not an absolute IRI`);
    return DataFactory.namedNode(text);
  }
  if (type === 'string') return DataFactory.literal(text);
  const pattern = LEXICAL[type];
  if (pattern && !pattern.test(text)) throw new TermError(`${name}: not a valid ${type}`);
  return DataFactory.literal(text, DataFactory.namedNode(`${NS.xsd}${type}`));
}
