/** Reading SPARQL 1.1 JSON results: rows of terms, rows of plain values, terms as N-Quads. */
import { langLiteral, quoted, typed } from '../harvest/nquads.js';

export interface JsonTerm {
  type: 'uri' | 'literal' | 'bnode' | 'typed-literal';
  value: string;
  'xml:lang'?: string;
  datatype?: string;
}
interface JsonResults {
  head: { vars?: string[] };
  results?: { bindings: Record<string, JsonTerm | undefined>[] };
  boolean?: boolean;
}

const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';

/** Rows of `variable → term`, as the results list them. */
export function selectBindings(text: string): Record<string, JsonTerm | undefined>[] {
  return (JSON.parse(text) as JsonResults).results?.bindings ?? [];
}

/** Rows of `variable → value` (the lexical value of each bound term). */
export function parseSelectJson(text: string): Record<string, string>[] {
  return selectBindings(text).map(bindingValues);
}

/** One row of `variable → term` as `variable → value`. */
export function bindingValues(binding: Record<string, JsonTerm | undefined>): Record<string, string> {
  const row: Record<string, string> = {};
  for (const [name, term] of Object.entries(binding)) if (term) row[name] = term.value;
  return row;
}

/** A result term written as an N-Quads term (IRIs from the store are already valid IRIs). */
export function nquadsTerm(term: JsonTerm): string {
  if (term.type === 'uri') return `<${term.value}>`;
  if (term.type === 'bnode') return `_:${term.value}`;
  if (term['xml:lang']) return langLiteral(term.value, term['xml:lang']);
  return term.datatype && term.datatype !== XSD_STRING ? typed(term.value, `<${term.datatype}>`) : quoted(term.value);
}
