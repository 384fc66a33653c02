/**
 * Answers of a remote server, made into what the embedded store answers (docs/virtuoso-notes.md, "Content
 * types"): SPARQL 1.1 JSON results (Virtuoso writes SPARQL 1.0's `typed-literal`, `xsd:string` datatypes and
 * `nodeID://` blank nodes), SPARQL TSV and CSV written from them (Virtuoso's TSV is a CSV without term syntax),
 * and xsd:gYear literals in their XSD form (Virtuoso turns `-0500` into `-500`).
 */

import jsonld from 'jsonld';
import { Parser, Writer, type Quad } from 'n3';
import { writeRdfXml } from '../../rdf/rdf-xml.js';

const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';
const XSD_GYEAR = 'http://www.w3.org/2001/XMLSchema#gYear';
const XSD_BOOLEAN = 'http://www.w3.org/2001/XMLSchema#boolean';

export interface JsonTerm {
  type: 'uri' | 'literal' | 'bnode' | 'typed-literal' | 'triple';
  value: string;
  datatype?: string;
  'xml:lang'?: string;
}

export interface JsonResults {
  head: { vars?: string[]; link?: string[] };
  results?: { bindings: Record<string, JsonTerm>[] };
  boolean?: boolean;
}

/** Four-digit (at least) year, as XSD writes it: `-500` -> `-0500`, `44` -> `0044`. */
export const padYear = (year: string): string => year.replace(/^(-?)(\d{1,3})(?=$|[Z+-])/, (_m, sign: string, digits: string) => sign + digits.padStart(4, '0'));

/** The term as SPARQL 1.1 JSON writes it. */
function normaliseTerm(term: JsonTerm): JsonTerm {
  if (term.type === 'bnode') return { type: 'bnode', value: term.value.replace(/^nodeID:\/\//, '') };
  if (term.type === 'typed-literal' || term.type === 'literal') {
    const { datatype } = term;
    if (datatype === undefined || datatype === XSD_STRING) return term['xml:lang'] === undefined ? { type: 'literal', value: term.value } : { type: 'literal', value: term.value, 'xml:lang': term['xml:lang'] };
    if (datatype === XSD_BOOLEAN && (term.value === '1' || term.value === '0')) return { type: 'literal', value: term.value === '1' ? 'true' : 'false', datatype };
    return { type: 'literal', value: datatype === XSD_GYEAR ? padYear(term.value) : term.value, datatype };
  }
  return term;
}

const XSD_INTEGER = 'http://www.w3.org/2001/XMLSchema#integer';

/**
 * Virtuoso's JSON results as SPARQL 1.1 JSON results. `booleans` names the variables bound to a boolean
 * expression (`BIND(EXISTS { … } AS ?x)`), which Virtuoso answers as xsd:integer 1 and 0.
 */
/**
 * The answer of an ASK in SPARQL JSON results: `{"boolean": true}`, or the one-row table Virtuoso sends instead
 * when its [SPARQL] section is left out of virtuoso.ini (`__ask_retval` bound to 1 or 0).
 */
export function askBoolean(text: string): boolean {
  const parsed = JSON.parse(text) as JsonResults;
  if (typeof parsed.boolean === 'boolean') return parsed.boolean;
  const row = parsed.results?.bindings?.[0] ?? {};
  const name = Object.keys(row).find((key) => key.toLowerCase() === '__ask_retval');
  const value = name === undefined ? undefined : row[name]?.value;
  if (value === undefined) throw new Error(`the server's answer to an ASK holds no boolean: ${text.slice(0, 200)}`);
  return value === '1' || value === 'true';
}

export function normaliseJson(text: string, booleans: readonly string[] = [], hidden: readonly string[] = []): JsonResults {
  const parsed = JSON.parse(text) as JsonResults;
  if (parsed.boolean !== undefined) return { head: {}, boolean: parsed.boolean };
  const bindings = (parsed.results?.bindings ?? []).map((row) => {
    const out: Record<string, JsonTerm> = {};
    for (const [name, term] of Object.entries(row)) {
      if (hidden.includes(name)) continue;
      const normal = normaliseTerm(term);
      out[name] =
        booleans.includes(name) && normal.datatype === XSD_INTEGER && (normal.value === '0' || normal.value === '1')
          ? { type: 'literal', value: normal.value === '1' ? 'true' : 'false', datatype: XSD_BOOLEAN }
          : normal;
    }
    return out;
  });
  return { head: { vars: (parsed.head.vars ?? []).filter((name) => !hidden.includes(name)) }, results: { bindings } };
}

const escapeLiteral = (s: string): string => s.replace(/[\\"\n\r\t]/g, (c) => ({ '\\': '\\\\', '"': '\\"', '\n': '\\n', '\r': '\\r', '\t': '\\t' })[c] as string);

/** A term in SPARQL TSV (N-Triples syntax). */
function tsvTerm(term: JsonTerm | undefined): string {
  if (term === undefined) return '';
  switch (term.type) {
    case 'uri':
      return `<${term.value}>`;
    case 'bnode':
      return `_:${term.value}`;
    default: {
      const text = `"${escapeLiteral(term.value)}"`;
      if (term['xml:lang'] !== undefined) return `${text}@${term['xml:lang']}`;
      return term.datatype === undefined ? text : `${text}^^<${term.datatype}>`;
    }
  }
}

/** SPARQL 1.1 TSV of JSON results. */
export function jsonToTsv(results: JsonResults): string {
  const vars = results.head.vars ?? [];
  const lines = [vars.map((v) => `?${v}`).join('\t')];
  for (const row of results.results?.bindings ?? []) lines.push(vars.map((v) => tsvTerm(row[v])).join('\t'));
  return `${lines.join('\n')}\n`;
}

const csvField = (s: string): string => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

/** SPARQL 1.1 CSV of JSON results (values only; blank nodes as `_:label`). */
export function jsonToCsv(results: JsonResults): string {
  const vars = results.head.vars ?? [];
  const lines = [vars.map(csvField).join(',')];
  for (const row of results.results?.bindings ?? []) {
    lines.push(vars.map((v) => {
      const term = row[v];
      if (term === undefined) return '';
      return csvField(term.type === 'bnode' ? `_:${term.value}` : term.value);
    }).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

const GYEAR_NT = /"(-?\d{1,3})((?:Z|[+-]\d{2}:\d{2})?)"\^\^<http:\/\/www\.w3\.org\/2001\/XMLSchema#gYear>/g;

const BOOLEAN_NT = /"([01])"\^\^<http:\/\/www\.w3\.org\/2001\/XMLSchema#boolean>/g;

/** N-Triples from the server with xsd:gYear literals in their XSD form and booleans as true and false (Virtuoso writes 1 and 0). */
export function fixYearsInRdf(text: string): string {
  let fixed = text;
  if (fixed.includes('XMLSchema#gYear')) fixed = fixed.replace(GYEAR_NT, (_m, year: string, zone: string) => `"${padYear(year)}${zone}"^^<${XSD_GYEAR}>`);
  if (fixed.includes('XMLSchema#boolean')) fixed = fixed.replace(BOOLEAN_NT, (_m, bit: string) => `"${bit === '1' ? 'true' : 'false'}"^^<${XSD_BOOLEAN}>`);
  return fixed;
}

/**
 * A graph the server wrote as N-Triples, in `format` (Turtle, JSON-LD, RDF/XML): Virtuoso's own Turtle and
 * JSON-LD differ from its N-Triples of the same answer, so every serialisation is made here from one parse.
 */
export async function fromNTriples(nTriples: string, format: 'text/turtle' | 'application/ld+json' | 'application/rdf+xml'): Promise<string> {
  const quads: Quad[] = new Parser({ format: 'N-Triples' }).parse(nTriples);
  if (format === 'application/rdf+xml') return writeRdfXml(quads);
  if (format === 'application/ld+json') {
    const lines = new Writer({ format: 'N-Triples' }).quadsToString(quads);
    return JSON.stringify(await jsonld.fromRDF(lines, { format: 'application/n-quads' }));
  }
  return new Writer({ format: 'Turtle' }).quadsToString(quads);
}
