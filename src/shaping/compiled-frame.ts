/**
 * The object frame without jsonld.js: builds from a record graph's N-Triples exactly the document that
 * `frameNQuads(nquads, {...loadFrame('object'), '@id': root})` gives (a test holds the two byte-equal on every
 * demo record). jsonld.js spends ~2 ms per record in fromRDF, node maps, framing and compaction; a record
 * graph is self-contained and small, so one pass over its lines and one walk from the root suffices.
 *
 * jsonld.js behaviour reproduced here (jsonld 9, `embed: '@always'`, `omitGraph: true`, JSON-LD 1.1):
 * - every node reachable from the root is embedded wherever it is referenced, except a node already on the
 *   current embedding path, which appears as a bare reference (framing's circular-reference rule);
 * - a blank node output once loses its `@id`; one output more often keeps it, relabelled `_:bN` in the order
 *   jsonld's node-map issuer meets blank nodes (fromRDF's sorted subjects, then sorted properties);
 * - keys follow the sorted expanded IRIs (`@id`, `@type`, then properties), single values are not arrays;
 * - IRIs compact to a term with the same IRI (a `@type: @id` term only for node values), else to the
 *   shortest compact IRI of a prefix, else stay absolute; a node value under a `@type: @id` term that has
 *   nothing but its `@id` becomes that string;
 * - language tags are lower-cased, xsd:string literals are plain strings, identical triples count once.
 * Not supported (our record graphs have none; the function throws rather than differ): named graphs in the
 * input and contexts with `@vocab`, `@base`, `@language` or other context-wide keywords. RDF lists are not
 * folded into `@list` (jsonld would); the record model has no lists.
 */
import type { JsonObject, JsonValue } from './jsonld.js';

const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const RDF_LANG_STRING = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#langString';
const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';

interface Literal {
  value: string;
  datatype: string | undefined;
  language: string | undefined;
}
/** A node reference is its IRI or `_:label`; anything else is a literal. */
type Value = string | Literal;

interface GraphNode {
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

// ---------------------------------------------------------------------------------------------------------
// Context: the terms and prefixes compaction uses, compiled once per context object.

interface CompiledContext {
  /** Prefix IRI → prefix term (terms usable to build compact IRIs). */
  prefixes: [iri: string, term: string][];
  terms: Set<string>;
  /** IRI → term for terms without a type mapping (any value). */
  plainTerms: Map<string, string>;
  /** IRI → term for `@type: @id` terms (node values only). */
  idTerms: Map<string, string>;
  vocabCache: Map<string, string>;
  idCache: Map<string, string>;
  /** The context as JSON: every document gets its own copy, as from jsonld.js (shaping mutates documents). */
  json: string;
}

const GEN_DELIMS = new Set([':', '/', '?', '#', '[', ']', '@']);
const compiled = new WeakMap<Record<string, unknown>, CompiledContext>();

/** Picks the shorter, then lexicographically least term (jsonld's term and compact-IRI tie-break). */
const better = (candidate: string, current: string | undefined): boolean =>
  current === undefined || candidate.length < current.length || (candidate.length === current.length && candidate < current);

function compileContext(context: Record<string, unknown>): CompiledContext {
  const prefixes = new Map<string, string>();
  for (const [term, definition] of Object.entries(context)) {
    if (term.startsWith('@')) {
      if (term === '@version') continue;
      throw new Error(`compiled frame: context keyword ${term} is not supported`);
    }
    if (typeof definition === 'string' && !term.includes(':') && GEN_DELIMS.has(definition.slice(-1))) prefixes.set(term, definition);
  }
  const expand = (value: string): string => {
    const colon = value.indexOf(':');
    const prefix = colon > 0 ? prefixes.get(value.slice(0, colon)) : undefined;
    return prefix !== undefined && !value.startsWith('//', colon + 1) ? prefix + value.slice(colon + 1) : value;
  };
  const plainTerms = new Map<string, string>();
  const idTerms = new Map<string, string>();
  for (const [term, definition] of Object.entries(context)) {
    if (term.startsWith('@') || definition === null) continue;
    let iri: string;
    let typeId = false;
    if (typeof definition === 'string') iri = expand(definition);
    else if (typeof definition === 'object') {
      const def = definition as Record<string, unknown>;
      const keys = Object.keys(def).filter((key) => key !== '@id' && key !== '@type');
      if (keys.length > 0 || (def['@type'] !== undefined && def['@type'] !== '@id')) {
        throw new Error(`compiled frame: term definition of ${term} is not supported`);
      }
      iri = typeof def['@id'] === 'string' ? expand(def['@id']) : expand(term);
      typeId = def['@type'] === '@id';
    } else throw new Error(`compiled frame: term definition of ${term} is not supported`);
    const map = typeId ? idTerms : plainTerms;
    if (better(term, map.get(iri))) map.set(iri, term);
  }
  return {
    prefixes: [...prefixes].map(([term, iri]) => [iri, term]),
    terms: new Set(Object.keys(context).filter((term) => !term.startsWith('@'))),
    plainTerms,
    idTerms,
    vocabCache: new Map(),
    idCache: new Map(),
    json: JSON.stringify(context),
  };
}

/** The shortest usable compact IRI of `iri`, else `iri` itself. */
function curie(ctx: CompiledContext, iri: string): string {
  let choice: string | undefined;
  for (const [prefix, term] of ctx.prefixes) {
    if (iri.length <= prefix.length || !iri.startsWith(prefix)) continue;
    const candidate = `${term}:${iri.slice(prefix.length)}`;
    if (!ctx.terms.has(candidate) && better(candidate, choice)) choice = candidate;
  }
  return choice ?? iri;
}

/**
 * Compacted node IRIs kept per context, up to this many: vocabulary and concept IRIs repeat in every record,
 * record and image IRIs do not, so the cache starts afresh when full rather than grow with the collection.
 */
const ID_CACHE_LIMIT = 20_000;

function compactId(ctx: CompiledContext, iri: string): string {
  let out = ctx.idCache.get(iri);
  if (out === undefined) {
    out = curie(ctx, iri);
    if (ctx.idCache.size >= ID_CACHE_LIMIT) ctx.idCache.clear();
    ctx.idCache.set(iri, out);
  }
  return out;
}

/** A property or type IRI compacted for a value that is (or is not) a node. */
function compactVocab(ctx: CompiledContext, iri: string, forNode: boolean): string {
  if (forNode) {
    const term = ctx.idTerms.get(iri);
    if (term !== undefined) return term;
  }
  let out = ctx.vocabCache.get(iri);
  if (out === undefined) {
    out = ctx.plainTerms.get(iri) ?? curie(ctx, iri);
    ctx.vocabCache.set(iri, out);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Embedding.

const isBlank = (id: string): boolean => id.startsWith('_:');

class Framer {
  private readonly path = new Set<string>();
  private readonly outputs = new Map<string, number>();
  private labels: Map<string, string> | undefined;

  constructor(
    private readonly nodes: Map<string, GraphNode>,
    private readonly ctx: CompiledContext,
  ) {}

  private sorted(node: GraphNode): string[] {
    node.sortedProperties ??= [...node.properties.keys()].sort();
    return node.sortedProperties;
  }

  /** Counts each blank node's outputs along the walk `build` will make (pruning needs the totals first). */
  count(id: string): void {
    if (isBlank(id)) this.outputs.set(id, (this.outputs.get(id) ?? 0) + 1);
    if (this.path.has(id)) return;
    const node = this.nodes.get(id) as GraphNode;
    this.path.add(id);
    for (const values of node.properties.values()) for (const value of values) if (typeof value === 'string') this.count(value);
    this.path.delete(id);
  }

  /** The output `@id` of a node; undefined for a blank node output once (jsonld prunes its identifier). */
  private idOf(id: string): string | undefined {
    if (!isBlank(id)) return compactId(this.ctx, id);
    return (this.outputs.get(id) ?? 0) > 1 ? this.label(id) : undefined;
  }

  /** Whether the node's output would be `{"@id"}` alone, which a `@type: @id` term compacts to a string. */
  private isBareReference(id: string): boolean {
    if (this.idOf(id) === undefined) return false;
    const node = this.nodes.get(id) as GraphNode;
    return this.path.has(id) || (node.types.length === 0 && node.properties.size === 0);
  }

  build(id: string): JsonObject {
    const out: JsonObject = {};
    const outputId = this.idOf(id);
    if (outputId !== undefined) out['@id'] = outputId;
    if (this.path.has(id)) return out;
    const node = this.nodes.get(id) as GraphNode;
    const { ctx } = this;
    if (node.types.length === 1) out['@type'] = compactVocab(ctx, node.types[0] as string, false);
    else if (node.types.length > 1) out['@type'] = node.types.map((type) => compactVocab(ctx, type, false));
    this.path.add(id);
    for (const property of this.sorted(node)) {
      for (const value of node.properties.get(property) as Value[]) {
        if (typeof value === 'string') {
          const key = compactVocab(ctx, property, true);
          if (ctx.idTerms.get(property) === key && this.isBareReference(value)) add(out, key, this.idOf(value) as string);
          else add(out, key, this.build(value));
        } else {
          add(out, compactVocab(ctx, property, false), this.literal(value));
        }
      }
    }
    this.path.delete(id);
    return out;
  }

  private literal(value: Literal): JsonValue {
    if (value.language !== undefined) return { '@language': value.language, '@value': value.value };
    if (value.datatype !== undefined && value.datatype !== RDF_LANG_STRING) {
      return { '@type': compactVocab(this.ctx, value.datatype, false), '@value': value.value };
    }
    return value.value;
  }

  /** jsonld's relabelling: the node-map issuer meets blank nodes in fromRDF's subject order. */
  private label(id: string): string {
    if (!this.labels) {
      const labels = new Map<string, string>();
      const issue = (bnode: string): void => {
        if (isBlank(bnode) && !labels.has(bnode)) labels.set(bnode, `_:b${labels.size}`);
      };
      const subjects = [...this.nodes].filter(([, node]) => node.types.length > 0 || node.properties.size > 0).map(([s]) => s).sort();
      for (const subject of subjects) {
        const node = this.nodes.get(subject) as GraphNode;
        node.types.forEach(issue);
        issue(subject);
        for (const property of this.sorted(node)) {
          for (const value of node.properties.get(property) as Value[]) if (typeof value === 'string') issue(value);
        }
      }
      this.labels = labels;
    }
    return this.labels.get(id) ?? id;
  }
}

function add(out: JsonObject, key: string, value: JsonValue): void {
  const existing = out[key];
  if (existing === undefined) out[key] = value;
  else if (Array.isArray(existing)) existing.push(value);
  else out[key] = [existing, value];
}

/** The record graph framed from `rootIri` (object frame, `@embed @always`) and compacted with `context`, without jsonld.js. */
export function frameRecordGraph(nquads: string, rootIri: string, context: Record<string, unknown>): JsonObject {
  return frameRecordNodes(parseGraph(nquads), rootIri, context);
}

/** `frameRecordGraph` of a graph already parsed (`parseRecordRows`). */
export function frameRecordNodes(nodes: RecordGraph, rootIri: string, context: Record<string, unknown>): JsonObject {
  let ctx = compiled.get(context);
  if (!ctx) {
    ctx = compileContext(context);
    compiled.set(context, ctx);
  }
  const root = nodes.has(rootIri);
  const out: JsonObject = { '@context': JSON.parse(ctx.json) as JsonObject };
  // The frame's @id decides the match alone (jsonld checks the expanded frame's first key, @id, and without
  // @requireAll stops there), so the frame's @type never excludes the root; an absent root gives the context.
  if (!root) return out;
  const framer = new Framer(nodes, ctx);
  framer.count(rootIri);
  return Object.assign(out, framer.build(rootIri));
}
