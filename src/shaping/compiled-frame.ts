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
 * - a literal whose datatype a term coerces to (`{"@type": "xsd:double"}`) compacts to that term with its
 *   lexical form as a plain string; any other value of that property does not use the term;
 * - IRIs compact to a term with the same IRI (a `@type: @id` term only for node values), else to the
 *   shortest compact IRI of a prefix, else stay absolute; a node value under a `@type: @id` term that has
 *   nothing but its `@id` becomes that string;
 * - language tags are lower-cased, xsd:string literals are plain strings, identical triples count once.
 * Not supported (our record graphs have none; the function throws rather than differ): named graphs in the
 * input and contexts with `@vocab`, `@base`, `@language` or other context-wide keywords. RDF lists are not
 * folded into `@list` (jsonld would); the record model has no lists.
 */
import type { JsonObject, JsonValue } from './jsonld.js';
import { parseGraph, RDF_LANG_STRING, type GraphNode, type Literal, type RecordGraph, type Value } from './record-graph.js';

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
  /** IRI → term and the datatype it coerces (literals of that datatype only). */
  typedTerms: Map<string, { term: string; datatype: string }>;
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
  const typedTerms = new Map<string, { term: string; datatype: string }>();
  for (const [term, definition] of Object.entries(context)) {
    if (term.startsWith('@') || definition === null) continue;
    let iri: string;
    let typeId = false;
    if (typeof definition === 'string') iri = expand(definition);
    else if (typeof definition === 'object') {
      const def = definition as Record<string, unknown>;
      const keys = Object.keys(def).filter((key) => key !== '@id' && key !== '@type');
      const type = def['@type'];
      if (keys.length > 0 || (type !== undefined && (typeof type !== 'string' || (type !== '@id' && type.startsWith('@'))))) {
        throw new Error(`compiled frame: term definition of ${term} is not supported`);
      }
      iri = typeof def['@id'] === 'string' ? expand(def['@id']) : expand(term);
      typeId = type === '@id';
      if (type !== undefined && !typeId) {
        const known = typedTerms.get(iri);
        if (known === undefined || better(term, known.term)) typedTerms.set(iri, { term, datatype: expand(type) });
        continue;
      }
    } else throw new Error(`compiled frame: term definition of ${term} is not supported`);
    const map = typeId ? idTerms : plainTerms;
    if (better(term, map.get(iri))) map.set(iri, term);
  }
  return {
    prefixes: [...prefixes].map(([term, iri]) => [iri, term]),
    terms: new Set(Object.keys(context).filter((term) => !term.startsWith('@'))),
    plainTerms,
    idTerms,
    typedTerms,
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
          const typed = ctx.typedTerms.get(property);
          if (typed !== undefined && value.language === undefined && value.datatype === typed.datatype) add(out, typed.term, value.value);
          else add(out, compactVocab(ctx, property, false), this.literal(value));
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
