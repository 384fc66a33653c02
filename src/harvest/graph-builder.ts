/**
 * Collects the N-Quads lines of one record graph, plus the node patterns every record kind shares
 * (time-spans, typed appellations and descriptions, type nodes, places). Shared nodes are described
 * once per graph even when several properties point at them, and a graph never holds the same statement
 * twice (an RDF graph is a set: a duplicate line would only inflate the dumps and their counts).
 */
import { BlankNodes, iri, literal, typed, XSD } from './nquads.js';
import { AAT_TERM, C, LANGUAGE_TERM, P } from './terms.js';
import { LANGUAGES, type Lang } from '../vocab/namespaces.js';
import type { Place, Texts } from './schema.js';

/** xsd:gYear lexical form: at least four digits, sign for BCE years. */
export function gYear(year: number): string {
  const digits = String(Math.abs(year)).padStart(4, '0');
  return year < 0 ? `-${digits}` : digits;
}

export class GraphBuilder {
  private text = '';
  private count = 0;
  private readonly described = new Set<string>();
  /** Statements (`s p o`) already written to this graph. */
  private readonly written = new Set<string>();
  private readonly tail: string;

  private readonly blanks: BlankNodes;

  /** `graph` is the graph name as an N-Quads term (`<record IRI>`); its blank nodes are its own (BlankNodes). */
  constructor(readonly graph: string) {
    this.tail = ` ${graph} .\n`;
    this.blanks = new BlankNodes(graph);
  }

  /** Adds one quad unless the graph already holds it; terms are ready-made N-Quads terms. */
  add(subject: string, predicate: string, object: string): void {
    const statement = subject + ' ' + predicate + ' ' + object;
    // Two paths can reach one statement: the museum as an exhibition's venue (a place from the export with
    // the museum's URI and name) and as its organiser both label the museum. Checked here, once for every
    // kind, rather than by each caller remembering which labels another helper may already have written.
    if (this.written.has(statement)) return;
    this.written.add(statement);
    this.text += statement + this.tail;
    this.count += 1;
  }

  /** True the first time a node is named, so shared nodes are described once per graph. */
  first(node: string): boolean {
    if (this.described.has(node)) return false;
    this.described.add(node);
    return true;
  }

  /** A fresh blank node. */
  blank(): string {
    return this.blanks.mint();
  }

  /** The N-Quads text of the graph so far. */
  get nquads(): string {
    return this.text;
  }

  /** Number of quads added. */
  get quads(): number {
    return this.count;
  }

  /** The graph of the record node `record`, its header written (recordHeader). */
  static ofRecord(record: string, classTerm: string, label: string, meta: Parameters<GraphBuilder['recordHeader']>[3]): GraphBuilder {
    const g = new GraphBuilder(record);
    g.recordHeader(record, classTerm, label, meta);
    return g;
  }

  /** What every record node says first: its class, label, harvest and modification times, and sameAs links. */
  recordHeader(record: string, classTerm: string, label: string, meta: { harvestedAt: string; modified: string; sameAs: readonly string[] }): void {
    this.add(record, P.type, classTerm);
    this.add(record, P.label, literal(label));
    this.add(record, P.generatedAtTime, typed(meta.harvestedAt, XSD.dateTime));
    this.add(record, P.modified, typed(meta.modified, XSD.date));
    this.sameAs(record, meta.sameAs);
  }

  /**
   * `owl:sameAs` of `node` to each URI, stated twice: with the spec's https predicate (what the JSON-LD shows)
   * and with the standard http one (what SPARQL users write); docs/graph-model.md, "owl:sameAs: two predicates".
   */
  sameAs(node: string, uris: readonly string[]): void {
    for (const uri of uris) {
      const object = iri(uri);
      this.add(node, P.sameAs, object);
      this.add(node, P.sameAsStandard, object);
    }
  }

  /** A type node `a crm:E55_Type ; rdfs:label`, described once. */
  typeNode(term: string, label: string): string {
    if (this.first(term)) {
      this.add(term, P.type, C.E55_Type);
      this.add(term, P.label, literal(label));
    }
    return term;
  }

  /** A place node `a crm:E53_Place ; rdfs:label`, described once. */
  place(place: Place): string {
    const term = iri(place.uri);
    // Keyed by class: the same authority URI may also be, say, an acquisition's receiver (an actor).
    if (this.first(`${term} ${C.E53_Place}`)) {
      this.add(term, P.type, C.E53_Place);
      this.add(term, P.label, literal(place.label));
    }
    return term;
  }

  /** A blank time-span with its label and bounds already in lexical form for `datatype`. */
  timeSpan(label: string, begin: string, end: string, datatype: string): string {
    const ts = this.blank();
    this.add(ts, P.type, C.E52_Time_Span);
    this.add(ts, P.label, literal(label));
    this.add(ts, P.P82a, typed(begin, datatype));
    this.add(ts, P.P82b, typed(end, datatype));
    return ts;
  }

  /** A time-span of whole years as `xsd:gYear`. */
  yearSpan(label: string, begin: number, end: number): string {
    return this.timeSpan(label, gYear(begin), gYear(end), XSD.gYear);
  }

  /** One `crm:E41_Appellation` per language present, linked from `subject` by `crm:P1_is_identified_by`. */
  appellations(subject: string, texts: Texts): void {
    for (const lang of LANGUAGES) {
      const text = texts[lang];
      if (text !== undefined) this.appellation(subject, text, lang);
    }
  }

  /** One language-tagged appellation; returns its blank node. */
  appellation(subject: string, text: string, lang: Lang | undefined): string {
    const node = this.blank();
    this.add(subject, P.P1, node);
    this.add(node, P.type, C.E41_Appellation);
    this.add(node, P.label, literal(text));
    if (lang !== undefined) this.add(node, P.P72, LANGUAGE_TERM[lang]);
    return node;
  }

  /** One description node (AAT "description") per language present. */
  descriptions(subject: string, texts: Texts): void {
    for (const lang of LANGUAGES) {
      const text = texts[lang];
      if (text !== undefined) this.description(subject, text, lang);
    }
  }

  /** One `crm:E33_Linguistic_Object` description; returns its blank node. */
  description(subject: string, text: string, lang: Lang): string {
    const node = this.blank();
    this.add(subject, P.P67i, node);
    this.add(node, P.type, C.E33_Linguistic_Object);
    this.add(node, P.label, literal(text));
    this.add(node, P.P2, this.typeNode(AAT_TERM.description.term, AAT_TERM.description.label));
    this.add(node, P.P72, LANGUAGE_TERM[lang]);
    return node;
  }

  /** A `crm:E42_Identifier` node with its value as label and a typed kind, linked by P1. */
  identifier(subject: string, node: string, value: string, typeTerm: string, typeLabel: string): void {
    this.add(subject, P.P1, node);
    this.add(node, P.type, C.E42_Identifier);
    this.add(node, P.label, literal(value));
    this.add(node, P.P2, this.typeNode(typeTerm, typeLabel));
  }

  /**
   * A blank `crm:E54_Dimension`: typed, with an xsd:double value (what the record's JSON-LD number means: the
   * context coerces `crm:P90_has_value` to xsd:double, docs/graph-model.md) and a measurement unit node.
   */
  dimension(typeTerm: string, typeLabel: string, decimal: string, unit: { term: string; label: string }): string {
    const node = this.blank();
    this.add(node, P.type, C.E54_Dimension);
    this.add(node, P.P2, this.typeNode(typeTerm, typeLabel));
    this.add(node, P.P90, typed(decimal, XSD.double));
    this.add(node, P.P91, unit.term);
    if (this.first(unit.term)) {
      this.add(unit.term, P.type, C.E58_Measurement_Unit);
      this.add(unit.term, P.label, literal(unit.label));
    }
    return node;
  }

  /** A `crm:E35_Title` blank node with `rdfs:label`, linked by `crm:P102_has_title`. */
  title(subject: string, text: string): void {
    const node = this.blank();
    this.add(subject, P.P102, node);
    this.add(node, P.type, C.E35_Title);
    this.add(node, P.label, literal(text));
  }
}
