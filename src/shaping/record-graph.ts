/**
 * A record graph's statements, parsed for the compiled frame (compiled-frame.ts): the N-Triples (or N-Quads)
 * of one record's CONSTRUCT, or the rows of a page's SELECT of record graphs (`?record ?s ?p ?o` as TSV), read
 * straight into one node map per record (subjects and the nodes they reference, each with its types and
 * property values), without jsonld.js's fromRDF.
 */
export const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
export const RDF_LANG_STRING = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#langString';
export const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';

export interface Literal {
  value: string;
  datatype: string | undefined;
  language: string | undefined;
}
/** A node reference is its IRI or `_:label`; anything else is a literal. */
export type Value = string | Literal;

export interface GraphNode {
  types: string[];
  properties: Map<string, Value[]>;
  sortedProperties?: string[];
}

// ---------------------------------------------------------------------------------------------------------
// Parsing: CONSTRUCT output is canonical N-Triples (one statement a line, single spaces), parsed by position.

class GraphSyntaxError extends Error {}

const ESCAPE = /\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|([tbnrf"'\\]))/g;
const SIMPLE_ESCAPES: Record<string, string> = { t: '\t', b: '\b', n: '\n', r: '\r', f: '\f', '"': '"', "'": "'", '\\': '\\' };
const unescape = (text: string): string =>
  text.includes('\\')
    ? text.replace(ESCAPE, (_all, u4: string | undefined, u8: string | undefined, simple: string | undefined) =>
        simple !== undefined ? (SIMPLE_ESCAPES[simple] as string) : String.fromCodePoint(parseInt(u4 ?? u8 ?? '0', 16)),
      )
    : text;

const isSpace = (c: number): boolean => c === 32 || c === 9;

/** Reads statements straight out of the whole document (no per-line strings: parsing is most of the cost). */
class Reader {
  pos = 0;
  constructor(private readonly text: string) {}

  skipSpaces(): void {
    while (isSpace(this.text.charCodeAt(this.pos))) this.pos++;
  }

  fail(what: string): never {
    const lineStart = this.text.lastIndexOf('\n', this.pos - 1) + 1;
    const lineEnd = this.text.indexOf('\n', this.pos);
    const line = this.text.slice(lineStart, lineEnd < 0 ? undefined : lineEnd);
    throw new GraphSyntaxError(`compiled frame: ${what} at column ${this.pos - lineStart + 1} of ${JSON.stringify(line.slice(0, 200))}`);
  }

  iri(): string {
    const end = this.text.indexOf('>', this.pos + 1);
    if (end < 0) this.fail('unterminated IRI');
    const iri = unescape(this.text.slice(this.pos + 1, end));
    this.pos = end + 1;
    return iri;
  }

  bnode(): string {
    let end = this.pos + 2;
    for (let c = this.text.charCodeAt(end); !(isSpace(c) || c === 10 || c === 13 || Number.isNaN(c)); c = this.text.charCodeAt(++end));
    // "_:a." cannot end a label, so a statement's final dot may touch it.
    if (this.text.charCodeAt(end - 1) === 46) end--;
    const label = this.text.slice(this.pos, end);
    this.pos = end;
    return label;
  }

  /** A subject or object node: `<iri>` or `_:label`. */
  node(): string | undefined {
    const c = this.text.charCodeAt(this.pos);
    if (c === 60) return this.iri();
    if (c === 95 && this.text.charCodeAt(this.pos + 1) === 58) return this.bnode();
    return undefined;
  }

  literal(): Literal {
    let end = this.pos + 1;
    for (;;) {
      end = this.text.indexOf('"', end);
      if (end < 0) this.fail('unterminated literal');
      let backslashes = 0;
      while (this.text.charCodeAt(end - 1 - backslashes) === 92) backslashes++;
      if (backslashes % 2 === 0) break;
      end++;
    }
    const value = unescape(this.text.slice(this.pos + 1, end));
    this.pos = end + 1;
    const c = this.text.charCodeAt(this.pos);
    if (c === 94) {
      this.pos += 2;
      const datatype = this.iri();
      // fromRDF writes xsd:string literals as plain strings.
      return { value, datatype: datatype === XSD_STRING ? undefined : datatype, language: undefined };
    }
    if (c === 64) {
      let stop = this.pos + 1;
      for (let d = this.text.charCodeAt(stop); d === 45 || (d >= 48 && d <= 57) || (d >= 65 && d <= 90) || (d >= 97 && d <= 122); d = this.text.charCodeAt(++stop));
      // jsonld's N-Quads parser lower-cases language tags.
      const language = this.text.slice(this.pos + 1, stop).toLowerCase();
      this.pos = stop;
      return { value, datatype: undefined, language };
    }
    return { value, datatype: undefined, language: undefined };
  }

  /** Past the tab between two TSV columns. */
  tab(): void {
    if (this.text.charCodeAt(this.pos) !== 9) this.fail('expected a tab');
    this.pos++;
  }

  /** A number or boolean as Turtle (and so SPARQL TSV results) may write it, without quotes. */
  bareLiteral(): Literal {
    let end = this.pos;
    for (let c = this.text.charCodeAt(end); !(c === 9 || c === 10 || c === 13 || Number.isNaN(c)); c = this.text.charCodeAt(++end));
    const value = this.text.slice(this.pos, end);
    const datatype = BARE_LITERALS.find(([pattern]) => pattern.test(value))?.[1] ?? this.fail('expected a term');
    this.pos = end;
    return { value, datatype, language: undefined };
  }

  /** Past the end of the current line (after a statement or on a blank or comment line). */
  nextLine(): void {
    const end = this.text.indexOf('\n', this.pos);
    this.pos = end < 0 ? this.text.length : end + 1;
  }
}

function nodeOf(nodes: Map<string, GraphNode>, id: string): GraphNode {
  let node = nodes.get(id);
  if (!node) {
    node = { types: [], properties: new Map() };
    nodes.set(id, node);
  }
  return node;
}

const sameValue = (a: Value, b: Value): boolean =>
  typeof a === 'string' || typeof b === 'string'
    ? a === b
    : a.value === b.value && a.datatype === b.datatype && a.language === b.language;

/** Subjects (and nodes only referenced) of a graph's N-Triples, each with its types and property values. */
export function parseGraph(nquads: string): Map<string, GraphNode> {
  const nodes = new Map<string, GraphNode>();
  const reader = new Reader(nquads);
  while (reader.pos < nquads.length) {
    reader.skipSpaces();
    const first = nquads.charCodeAt(reader.pos);
    if (first === 10 || first === 13 || first === 35 || Number.isNaN(first)) {
      reader.nextLine();
      continue;
    }
    const subject = reader.node() ?? reader.fail('expected a subject');
    reader.skipSpaces();
    if (nquads.charCodeAt(reader.pos) !== 60) reader.fail('expected a predicate IRI');
    const predicate = reader.iri();
    reader.skipSpaces();
    const object: Value = nquads.charCodeAt(reader.pos) === 34 ? reader.literal() : (reader.node() ?? reader.fail('expected an object'));
    reader.skipSpaces();
    if (nquads.charCodeAt(reader.pos) !== 46) reader.fail('expected "." (named graphs are not supported)');
    reader.pos++;
    reader.skipSpaces();
    const after = nquads.charCodeAt(reader.pos);
    if (!(after === 10 || after === 13 || after === 35 || Number.isNaN(after))) reader.fail('unexpected text after "."');
    reader.nextLine();
    addTriple(nodes, subject, predicate, object);
  }
  return nodes;
}

function addTriple(nodes: Map<string, GraphNode>, subject: string, predicate: string, object: Value): void {
  const node = nodeOf(nodes, subject);
  if (typeof object === 'string') nodeOf(nodes, object);
  // jsonld keeps one of identical triples; a record's value lists are short, so a scan is cheapest.
  if (predicate === RDF_TYPE && typeof object === 'string') {
    if (!node.types.includes(object)) node.types.push(object);
    return;
  }
  const values = node.properties.get(predicate);
  if (!values) node.properties.set(predicate, [object]);
  else if (!values.some((value) => sameValue(value, object))) values.push(object);
}

/** The graph of one record, parsed: what `frameRecordNodes` frames. */
export type RecordGraph = Map<string, GraphNode>;

/** The lexical value of the first literal of `subject`'s `predicate` in a parsed graph. */
export function literalOf(graph: RecordGraph, subject: string, predicate: string): string | undefined {
  for (const value of graph.get(subject)?.properties.get(predicate) ?? []) if (typeof value !== 'string') return value.value;
  return undefined;
}

const TSV_HEADER = '?record\t?s\t?p\t?o';
const XSD = 'http://www.w3.org/2001/XMLSchema#';
const BARE_LITERALS: [RegExp, string | undefined][] = [
  [/^[+-]?\d+$/, `${XSD}integer`],
  [/^[+-]?\d*\.\d+$/, `${XSD}decimal`],
  [/^[+-]?(?:\d+\.?\d*|\.\d+)[eE][+-]?\d+$/, `${XSD}double`],
  [/^(?:true|false)$/, `${XSD}boolean`],
];

/**
 * The record graphs of a SELECT ?record ?s ?p ?o answer in SPARQL TSV results (one row per triple of a record
 * graph; terms in N-Triples syntax, numbers and booleans possibly bare as Turtle writes them), parsed in one
 * pass over the answer: no per-row strings, no N-Triples text rebuilt and parsed again.
 */
export function parseRecordRows(tsv: string): Map<string, RecordGraph> {
  const graphs = new Map<string, RecordGraph>();
  const headerEnd = tsv.indexOf('\n');
  if (tsv.slice(0, headerEnd < 0 ? undefined : headerEnd).replace(/\r$/, '') !== TSV_HEADER) {
    throw new GraphSyntaxError(`compiled frame: expected the TSV header ${JSON.stringify(TSV_HEADER)}`);
  }
  if (headerEnd < 0) return graphs;
  const reader = new Reader(tsv);
  reader.pos = headerEnd + 1;
  let current: RecordGraph | undefined;
  let currentIri: string | undefined;
  while (reader.pos < tsv.length) {
    const first = tsv.charCodeAt(reader.pos);
    if (first === 10 || first === 13) {
      reader.nextLine();
      continue;
    }
    if (first !== 60) reader.fail('expected the record IRI');
    const record = reader.iri();
    if (record !== currentIri) {
      currentIri = record;
      current = graphs.get(record);
      if (!current) graphs.set(record, (current = new Map()));
    }
    reader.tab();
    const subject = reader.node() ?? reader.fail('expected a subject');
    reader.tab();
    if (tsv.charCodeAt(reader.pos) !== 60) reader.fail('expected a predicate IRI');
    const predicate = reader.iri();
    reader.tab();
    const object: Value = tsv.charCodeAt(reader.pos) === 34 ? reader.literal() : (reader.node() ?? reader.bareLiteral());
    const after = tsv.charCodeAt(reader.pos);
    if (!(after === 10 || after === 13 || Number.isNaN(after))) reader.fail('unexpected text after the object');
    reader.nextLine();
    addTriple(current!, subject, predicate, object);
  }
  return graphs;
}
