/**
 * Generations on a remote SPARQL server (docs/remote-store.md): every graph of generation G is stored under a
 * prefixed name, `urn:x-museum-ld:g:<G>:p:<graph IRI>` for the public quads and `…:n:<graph IRI>` for the
 * non-public ones, beside one union graph of G's public quads (the SPARQL endpoint's default graph). A new
 * generation is written next to the served one, and switching is the change of one prefix in the app.
 *
 * Queries are written for the data model (graph name = record IRI), so the store rewrites each one on its
 * parsed form (sparqljs) before sending it, to read exactly the graphs of one *view*: the served generation's
 * public graphs (the SPARQL endpoint), or its public and non-public graphs (the REST API).
 *
 *   GRAPH <g> { P }       ->  GRAPH <prefix g> { P } (the non-public prefix for the generation's non-public graphs)
 *   GRAPH ?g { P }        ->  { GRAPH ?g' { P } FILTER(STRSTARTS(STR(?g'), "<generation prefix>")) link }
 *                             where link binds ?g to the graph IRI without its prefix (BIND), or, when P binds
 *                             ?g itself, checks that it equals it (FILTER); a top-level VALUES that binds ?g to
 *                             IRIs gets a column ?g' of their prefixed names instead, so the server looks the
 *                             graphs up rather than scanning
 *   no dataset            ->  FROM <union graph of the view's generation> (SPARQL endpoint) or FROM <an empty
 *                             graph> (REST: the embedded store's default graph is empty too)
 *   FROM / FROM NAMED <g> ->  the prefixed names; FROM alone gets FROM NAMED <an empty graph>, since Virtuoso
 *                             does not empty the named graphs when a query names only FROM
 *   ORDER BY e            ->  xsd:gYear values ordered by their number (Virtuoso orders them as text)
 *   f(…) of any function but the XSD casts is refused (Virtuoso's bif: and sql: functions run SQL)
 *
 * No text of the client's reaches the server: the query is regenerated from the rewritten AST, so the server's
 * own pragmas (`define …`) cannot be written either. Whatever the client names, it is prefixed, so no query
 * reads another generation's graphs or, in the public view, a non-public one.
 */
import sparqljs from 'sparqljs';
import type {
  Expression,
  FilterPattern,
  GraphPattern,
  GroupPattern,
  IriTerm,
  Ordering,
  Pattern,
  SparqlQuery,
  ValuePatternRow,
  VariableTerm,
} from 'sparqljs';
import { DataFactory } from 'n3';
import { boundsViolation, REWRITE_BOUNDS } from '../../queries/query-bounds.js';
import { parserFor, walkAst } from '../../queries/sparql-ast.js';
import { QueryError } from '../errors.js';

const { namedNode, variable, literal } = DataFactory;

const XSD = 'http://www.w3.org/2001/XMLSchema#';
const GRAPH_NAMESPACE = 'urn:x-museum-ld:g:';
/** A graph nothing is ever written to: the default graph of REST queries, the named graphs of FROM-only queries. */
export const EMPTY_GRAPH = 'urn:x-museum-ld:empty';
/** Where the store records which generations are complete on the server. */
export const GENERATIONS_GRAPH = 'urn:x-museum-ld:generations';

/** The graph names of one generation on the server. */
export interface GenerationGraphs {
  /** Start of every graph name of the generation (public and non-public). */
  readonly prefix: string;
  readonly publicPrefix: string;
  readonly nonPublicPrefix: string;
  /** The union of the public graphs. */
  readonly unionGraph: string;
  /** The IRI naming the generation in {@link GENERATIONS_GRAPH}. */
  readonly marker: string;
}

/** The graph names of generation `id` (a generation folder name: digits, letters, `-`). */
export function generationGraphs(id: string): GenerationGraphs {
  if (!/^[A-Za-z0-9-]+$/.test(id)) throw new Error(`not a generation id: ${id}`);
  const prefix = `${GRAPH_NAMESPACE}${id}:`;
  return {
    prefix,
    // Equal lengths: one SUBSTR takes either prefix off a graph name.
    publicPrefix: `${prefix}p:`,
    nonPublicPrefix: `${prefix}n:`,
    unionGraph: `urn:x-museum-ld:union:${id}`,
    marker: `urn:x-museum-ld:generation:${id}`,
  };
}

/** What a query may read: the public graphs of a generation, or also its non-public ones. */
export interface GraphView {
  graphs: GenerationGraphs;
  includeNonPublic: boolean;
  /**
   * The generation's non-public graph names (from its non-public file), so that in the full view every graph
   * name maps to the one server graph that holds it. Two candidates per name would make `FILTER NOT EXISTS
   * { GRAPH ?admin … }` true for the candidate that does not exist.
   */
  nonPublicGraphs?: ReadonlySet<string>;
}

export interface RewriteOptions {
  /** Let the default graph be the union of the view's public graphs when the query names no dataset. */
  unionDefaultGraph: boolean;
  /** Base IRI for relative IRIs in the query text. */
  baseIri?: string;
}

const generator = new sparqljs.Generator();

/** A rewritten query, and the LIMIT of its solutions (undefined: none). */
export interface ViewQuery {
  text: string;
  limit: number | undefined;
  /** Variables bound to a boolean expression (Virtuoso answers them as xsd:integer 1 and 0). */
  booleans: string[];
  /** Variables of the rewrite's own, dropped from any answer that would show them (a `SELECT *` of no variable). */
  hidden: string[];
}

/**
 * DESCRIBE as the CONSTRUCT of the statements about each described resource in the default graph (what the
 * embedded store answers): Virtuoso would describe from every graph it holds, whatever the dataset.
 */
function describeAsConstruct(query: sparqljs.DescribeQuery): sparqljs.ConstructQuery {
  const where = query.where ?? [];
  const listed = query.variables as unknown[];
  const terms = (listed.some((v) => (v as { termType?: string }).termType === 'Wildcard') ? [...variablesIn(where)].map((name) => variable(name)) : listed) as (IriTerm | VariableTerm)[];
  const template: sparqljs.Triple[] = [];
  const branches: Pattern[] = terms.map((term, i) => {
    const triple = { subject: term, predicate: variable(`describe_p${i}_mld`), object: variable(`describe_o${i}_mld`) };
    template.push(triple);
    return { type: 'group', patterns: [{ type: 'bgp', triples: [triple] }] } as GroupPattern;
  });
  const about: Pattern = branches.length === 1 ? (branches[0] as Pattern) : { type: 'union', patterns: branches };
  const { variables: _described, ...rest } = query as sparqljs.DescribeQuery & { variables: unknown };
  return { ...rest, queryType: 'CONSTRUCT', template, where: [...where, about] } as sparqljs.ConstructQuery;
}

/**
 * `SELECT *` as the list of the variables it stands for, so that the rewrite's own variables (graph names with
 * the generation's prefix among them) never reach an answer. A query whose pattern binds no variable keeps its
 * `*`; the store drops the rewrite's variables from such an answer (`ViewQuery.hidden`).
 */
function projectWildcard(query: sparqljs.SelectQuery): void {
  const listed = query.variables as unknown[];
  if (!listed.some((v) => (v as { termType?: string }).termType === 'Wildcard')) return;
  const names = inScope(query.where ?? []);
  for (const row of query.values ?? []) for (const key of Object.keys(row)) if (!names.includes(key.slice(1))) names.push(key.slice(1));
  if (names.length > 0) query.variables = names.map((name) => variable(name));
}

/**
 * EXISTS used as a value in the projection or ORDER BY, as a BIND at the end of the pattern, whose EXISTS the
 * rewrite then turns into a sub-select (`Rewriter.lift`): Virtuoso 7.2 hangs on an EXISTS evaluated as a
 * value beside a VALUES (docs/remote-store.md). A grouped query is refused: a BIND cannot stand for its values.
 */
function bindValueExists(query: sparqljs.SelectQuery): void {
  const items = query.variables as (VariableTerm | { expression: Expression; variable: VariableTerm })[];
  const valued = (item: (typeof items)[number]): item is { expression: Expression; variable: VariableTerm } => 'expression' in item && hasExists(item.expression);
  const ordered = query.order?.some((o) => hasExists(o.expression)) ?? false;
  if (!items.some(valued) && !ordered && !hasExists(query.having) && !hasExists(query.group)) return;
  if (query.group !== undefined || query.having !== undefined || walkAst(items, (n) => n.type === 'aggregate' || undefined)) {
    throw new QueryError('EXISTS used as a value in a grouped query cannot run on this store (it would hang the SPARQL server); use FILTER EXISTS or an OPTIONAL instead');
  }
  const where = [...(query.where ?? [])];
  const taken = variablesIn(query);
  query.variables = items.map((item) => {
    if (!valued(item)) return item;
    where.push({ type: 'bind', variable: item.variable, expression: item.expression });
    return item.variable;
  });
  query.order = query.order?.map((o, i) => {
    if (!hasExists(o.expression)) return o;
    let name = `order_exists_${i}`;
    while (taken.has(name)) name = `${name}_`;
    where.push({ type: 'bind', variable: variable(name), expression: o.expression });
    return { ...o, expression: variable(name) };
  });
  query.where = where;
}

/**
 * No MINUS reaches Virtuoso 7.2: it removes nothing, or the wrong rows, when its pattern holds a FILTER (and the
 * rewrite gives every GRAPH one), and some MINUS shapes end the server process. A MINUS that shares no variable
 * with what precedes it removes nothing, so it goes. One whose pattern's variables seen elsewhere in the group
 * are bound for certain on both sides means exactly FILTER NOT EXISTS of the same pattern. Any other becomes
 * an OPTIONAL of the pattern, its variables renamed, on MINUS's own test (compatible on the shared variables,
 * at least one of them bound on both sides), and a FILTER that keeps the solutions it found nothing for.
 */
function withoutMinus(patterns: Pattern[], fresh: (base: string) => string): Pattern[] {
  const inner = patterns.map((p) => withinGroups(p, (group) => withoutMinus(group, fresh)));
  const out: Pattern[] = [];
  for (const [i, p] of inner.entries()) {
    if (p.type !== 'minus') {
      out.push(p);
      continue;
    }
    const left = new Set(inScope(out));
    const shared = inScope(p.patterns).filter((name) => left.has(name));
    if (shared.length === 0) continue;
    if (walkAst(p.patterns, (n) => (n.type === 'bind' && hasExists(n.expression)) || undefined)) throw new QueryError(NESTED_VALUE_EXISTS);
    const later = new Set(inScope(inner.slice(i + 1)));
    const certain = new Set(out.flatMap(boundBy));
    const certainRight = new Set(p.patterns.flatMap(boundBy));
    const seen = [...variablesIn(p.patterns)].filter((name) => later.has(name) || left.has(name));
    if (seen.every((name) => certain.has(name) && certainRight.has(name))) {
      out.push(notExists(p.patterns));
      continue;
    }
    // MINUS's own test, as the condition of an OPTIONAL over the pattern with its variables renamed (so nothing
    // outside is joined into it): a left solution that finds a match is removed. Virtuoso does not substitute a
    // variable into an EXISTS that only a FILTER of it names, so NOT EXISTS cannot carry this test.
    const renamed = new Map([...variablesIn(p.patterns)].map((name) => [name, fresh(name)]));
    const other = (name: string): VariableTerm => variable(renamed.get(name) as string);
    const both = (name: string): Expression => call('&&', call('bound', variable(name)), call('bound', other(name)));
    const compatible = shared.map((name) => call('||', call('!', both(name)), call('sameterm', variable(name), other(name))));
    const test = [...compatible, shared.map(both).reduce((a, b) => call('||', a, b))].reduce((a, b) => call('&&', a, b));
    const hit = variable(fresh('hit'));
    const select = {
      type: 'query',
      queryType: 'SELECT',
      prefixes: {},
      variables: [...shared.map(other), { expression: literal('1', namedNode(`${XSD}integer`)), variable: hit }],
      where: renameVariables(p.patterns, renamed),
    } as unknown as Pattern;
    out.push({ type: 'optional', patterns: [{ type: 'group', patterns: [select] } as GroupPattern, { type: 'filter', expression: test }] });
    out.push({ type: 'filter', expression: call('!', call('bound', hit)) });
  }
  return out;
}

/** `FILTER NOT EXISTS { patterns }`. */
function notExists(patterns: Pattern[]): FilterPattern {
  return { type: 'filter', expression: { type: 'operation', operator: 'notexists', args: [{ type: 'group', patterns } as GroupPattern] } };
}

/** A copy of `node` (patterns, expressions) with its variables renamed by `names`, VALUES keys included. */
function renameVariables(node: unknown, names: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(node)) return node.map((item) => renameVariables(item, names));
  if (typeof node !== 'object' || node === null) return node;
  if ('termType' in node) {
    const term = node as { termType: string; value: string };
    return term.termType === 'Variable' && names.has(term.value) ? variable(names.get(term.value) as string) : node;
  }
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key.startsWith('?') && names.has(key.slice(1)) ? `?${names.get(key.slice(1))}` : key, renameVariables(value, names)]),
  );
}

/** `pattern` with `transform` applied to every group of patterns inside it (EXISTS and subqueries included). */
function withinGroups(pattern: Pattern, transform: (patterns: Pattern[]) => Pattern[]): Pattern {
  const expression = (e: Expression): Expression => {
    if (typeof e !== 'object' || e === null || Array.isArray(e) || 'termType' in e || e.type !== 'operation') return e;
    const op = e as sparqljs.OperationExpression;
    if (op.operator === 'exists' || op.operator === 'notexists') return { ...op, args: op.args.map((a) => withinGroups(a as Pattern, transform)) };
    return { ...op, args: op.args.map((a) => expression(a as Expression)) };
  };
  switch (pattern.type) {
    case 'group':
    case 'optional':
    case 'minus':
    case 'graph':
      return { ...pattern, patterns: transform(pattern.patterns) };
    case 'union':
      return { ...pattern, patterns: pattern.patterns.map((branch) => withinGroups(branch, transform)) };
    case 'filter':
      return { ...pattern, expression: expression(pattern.expression) };
    case 'bind':
      return { ...pattern, expression: expression(pattern.expression) };
    case 'query': {
      const sub = pattern as sparqljs.SelectQuery;
      return { ...sub, where: transform(sub.where ?? []) } as Pattern;
    }
    default:
      return pattern;
  }
}

/** The query `text` rewritten to read only the graphs of `view`; throws `QueryError` for what cannot run. */
export function rewriteForView(text: string, view: GraphView, options: RewriteOptions): ViewQuery {
  // Before any parse: sparqljs takes seconds over deep nesting (docs/sparql.md, "Limits").
  const violation = boundsViolation(text, REWRITE_BOUNDS);
  if (violation !== undefined) throw new QueryError(violation);
  let ast: SparqlQuery;
  try {
    ast = parserFor(options.baseIri ?? 'urn:x-museum-ld:base').parse(text);
  } catch (err) {
    throw new QueryError(`invalid SPARQL query: ${(err as Error).message}`);
  }
  if (ast.type !== 'query') throw new QueryError('the store is read-only: updates are not accepted');
  const query = ast.queryType === 'DESCRIBE' ? describeAsConstruct(ast) : ast;
  if (query.values !== undefined && query.values.length > 0) {
    // A trailing VALUES joins the whole pattern: the same as leading it, with the pattern as a group of its own.
    // Virtuoso's cost estimate refuses some queries with a trailing VALUES (days for a one-row answer).
    query.where = [{ type: 'values', values: query.values }, { type: 'group', patterns: query.where ?? [] }];
    delete query.values;
  }
  if (query.where) {
    const taken = variablesIn(query);
    let n = 0;
    const fresh = (base: string): string => {
      let name = `${base}_minus${n++}`;
      while (taken.has(name)) name = `${base}_minus${n++}`;
      return name;
    };
    query.where = withoutMinus(query.where, fresh);
  }
  if (query.queryType === 'SELECT') {
    projectWildcard(query);
    bindValueExists(query);
  }
  const rewriter = new Rewriter(view, query);
  const rewritten = rewriter.rewrite(options);
  return { text: generator.stringify(rewritten), limit: (rewritten as { limit?: number }).limit, booleans: booleanVariables(rewritten), hidden: rewriter.ownVariables() };
}

class Rewriter {
  /** The server graph of a graph name: one per name, so that EXISTS and NOT EXISTS stay exact. */
  private readonly candidatesOf: (iri: string) => string[];
  /** The server graph of each GRAPH being rewritten, innermost last: EXISTS inside one is made to name it. */
  private readonly graphStack: (IriTerm | VariableTerm)[] = [];
  private readonly taken: Set<string>;
  /** How often each variable occurs in the query as parsed. */
  private readonly occurrences: Map<string, number>;

  /** Graph variables bound to IRIs by a top-level VALUES, and the column that gets their prefixed names. */
  private readonly valuesBound = new Map<string, string>();
  /** The server-graph variable of each graph variable of the query: one name, so MINUS and joins compare it. */
  private readonly raws = new Map<string, string>();
  /** Every variable the rewrite introduced. */
  private readonly own: string[] = [];
  private fresh = 0;
  /** Server graphs that make the default graph (none: it is empty). */
  private defaultGraphs: string[] = [];
  /** Server graphs GRAPH may read: all of the view's, or those of the query's FROM NAMED. */
  private namedGraphs: string[] | 'all' = 'all';

  constructor(
    private readonly view: GraphView,
    private readonly query: sparqljs.Query,
  ) {
    const { graphs, includeNonPublic } = view;
    const nonPublic = view.nonPublicGraphs ?? new Set<string>();
    this.candidatesOf = includeNonPublic
      ? (iri) => [(nonPublic.has(iri) ? graphs.nonPublicPrefix : graphs.publicPrefix) + iri]
      : (iri) => [graphs.publicPrefix + iri];
    this.occurrences = countVariables(query);
    this.taken = new Set(this.occurrences.keys());
  }

  rewrite(options: RewriteOptions): sparqljs.Query {
    const query = this.query;
    this.rewriteDataset(options);
    this.bindGraphColumns();
    if (query.where) query.where = this.lift(this.patterns(query.where, false));
    if (query.values && query.values.length > 0 && query.values.every((row) => Object.keys(row).length === 0)) delete query.values;
    if ('order' in query && query.order) query.order = query.order.map((o) => this.ordering(o));
    if ('having' in query && query.having) query.having = query.having.map((e) => this.expression(e, false));
    if ('group' in query && query.group) for (const g of query.group) g.expression = this.expression(g.expression, false);
    if ('variables' in query) for (const v of query.variables) if ('expression' in v) v.expression = this.expression(v.expression, false);
    return query;
  }

  /**
   * The dataset, kept here rather than sent: Virtuoso's FROM does not restrict GRAPH, and with a FROM its ASK
   * (and SELECTs of constants) match a GRAPH <g> that does not exist. So the query names no dataset; every
   * pattern outside GRAPH reads the default graph through a GRAPH of its own, and every GRAPH reads only
   * the named graphs.
   */
  private rewriteDataset(options: RewriteOptions): void {
    const query = this.query;
    const from = query.from;
    const prefixed = (iris: IriTerm[]): string[] => iris.flatMap((g) => this.candidatesOf(g.value));
    if (from && (from.default.length > 0 || from.named.length > 0)) {
      this.defaultGraphs = prefixed(from.default);
      this.namedGraphs = prefixed(from.named);
    } else {
      this.defaultGraphs = options.unionDefaultGraph ? [this.view.graphs.unionGraph] : [];
      this.namedGraphs = 'all';
    }
    delete query.from;
  }

  /** A pattern read from the default graph. */
  private inDefaultGraph(pattern: Pattern): Pattern {
    const graphs = this.defaultGraphs;
    if (graphs.length <= 1) return { type: 'graph', name: namedNode(graphs[0] ?? EMPTY_GRAPH), patterns: [pattern] };
    // Several FROM graphs: each pattern matches within one of them (their merge is not built).
    const column = variable(this.freshName('default'));
    return { type: 'group', patterns: [{ type: 'values', values: graphs.map((iri) => ({ [`?${column.value}`]: namedNode(iri) })) }, { type: 'graph', name: column, patterns: [pattern] }] } as GroupPattern;
  }

  /**
   * A top-level VALUES binding a graph variable to IRIs in every row gets a column of the prefixed names
   * (one row per candidate prefix), so `GRAPH ?v` becomes a look-up of known graphs.
   */
  private bindGraphColumns(): void {
    const query = this.query;
    const graphVariables = graphVariablesOutsideSubqueries(query.where ?? []);
    const blocks: ValuePatternRow[][] = [];
    for (const pattern of query.where ?? []) if (pattern.type === 'values') blocks.push(pattern.values);
    if (query.values) blocks.push(query.values);
    for (const rows of blocks) {
      const columns = [...graphVariables].filter((name) => !this.valuesBound.has(name) && rows.length > 0 && rows.every((row) => row[`?${name}`]?.termType === 'NamedNode'));
      if (columns.length === 0) continue;
      for (const name of columns) this.valuesBound.set(name, this.freshName(name));
      const expanded = rows.flatMap((row) =>
        columns.reduce<ValuePatternRow[]>(
          (partial, name) =>
            partial.flatMap((r) =>
              this.candidatesOf((row[`?${name}`] as IriTerm).value).map((iri) => ({ ...r, [`?${this.valuesBound.get(name) as string}`]: namedNode(iri) })),
            ),
          [row],
        ),
      );
      rows.splice(0, rows.length, ...expanded);
    }
  }

  /**
   * The elements of one group. `outer` holds the variables a surrounding group binds where this group is the
   * pattern of an EXISTS, which sees them (substitution); any other nested group is evaluated on its own.
   */
  private patterns(patterns: Pattern[], inSubquery: boolean, inGraph = false, outer: ReadonlySet<string> = new Set()): Pattern[] {
    const out: Pattern[] = [];
    // What the group binds as a whole: its FILTERs (EXISTS included) see all of it.
    const whole = new Set([...outer, ...patterns.flatMap(boundBy)]);
    // Variables the elements before this one bind (a join: what comes later sees them).
    const bound = new Set(outer);
    for (const p of patterns) {
      if (p.type === 'graph' && p.name.termType === 'Variable' && bound.has(p.name.value) && this.namedGraphs === 'all' && (inSubquery || !this.valuesBound.has(p.name.value))) {
        out.push(...this.graphOfBound(p, p.name, inSubquery));
      } else if (p.type === 'filter') {
        out.push({ ...p, expression: this.expression(p.expression, inSubquery, inGraph, whole) });
      } else {
        out.push(this.pattern(p, inSubquery, inGraph));
      }
      for (const name of boundBy(p)) bound.add(name);
    }
    return out;
  }

  /**
   * `GRAPH ?v { P }` where ?v is bound by what precedes it in the group: the prefixed name is computed from ?v
   * first, so the server looks the graph up instead of reading every graph (a subquery that picks records,
   * then their graphs). The scope filter stays, for a solution where ?v came out unbound.
   */
  private graphOfBound(pattern: GraphPattern, name: VariableTerm, inSubquery: boolean): Pattern[] {
    const raw = variable(this.freshName(name.value));
    const inner = this.inside(raw, pattern.patterns, inSubquery);
    const { publicPrefix, nonPublicPrefix } = this.view.graphs;
    const prefixes = this.view.includeNonPublic ? [publicPrefix, nonPublicPrefix] : [publicPrefix];
    const prefix = variable(this.freshName('prefix'));
    return [
      { type: 'values', values: prefixes.map((p) => ({ [`?${prefix.value}`]: literal(p) })) },
      { type: 'bind', variable: raw, expression: call('iri', call('concat', prefix, call('str', name))) },
      ...this.graphWith(raw, inner),
      this.scope(raw),
      // Always true when ?v was bound; when it was not, no graph passes rather than every graph.
      { type: 'filter', expression: call('=', name, this.stripped(raw)) },
    ];
  }

  /** The patterns of a GRAPH whose server graph is `target`. */
  private inside(target: IriTerm | VariableTerm, patterns: Pattern[], inSubquery: boolean): Pattern[] {
    this.graphStack.push(target);
    try {
      return this.patterns(patterns, inSubquery, true);
    } finally {
      this.graphStack.pop();
    }
  }

  /**
   * The pattern of an EXISTS. Inside a GRAPH it is wrapped in a GRAPH of the same server graph: Virtuoso does
   * not evaluate an EXISTS in the graph around it (the objects' onDisplay flags came out false).
   */
  private existsPattern(pattern: Pattern, inSubquery: boolean, inGraph: boolean, outer: ReadonlySet<string>): Pattern {
    const group: Pattern =
      pattern.type === 'group'
        ? { ...pattern, patterns: this.patterns(pattern.patterns, inSubquery, inGraph, outer) }
        : ({ type: 'group', patterns: this.patterns([pattern], inSubquery, inGraph, outer) } as GroupPattern);
    const around = this.graphStack.at(-1);
    return inGraph && around !== undefined ? ({ type: 'group', patterns: [{ type: 'graph', name: around, patterns: [group] }] } as GroupPattern) : group;
  }

  private pattern(pattern: Pattern, inSubquery: boolean, inGraph = false): Pattern {
    switch (pattern.type) {
      case 'bgp':
        return inGraph ? pattern : this.inDefaultGraph(pattern);
      case 'values':
        // `VALUES () { () }` (a query without parameters, bound) is the identity; Virtuoso fails on it (SQ200).
        return pattern.values.length > 0 && pattern.values.every((row) => Object.keys(row).length === 0) ? ({ type: 'group', patterns: [] } as GroupPattern) : pattern;
      case 'graph':
        return this.graph(pattern, inSubquery);
      case 'group':
      case 'optional':
      case 'minus':
        return { ...pattern, patterns: this.patterns(pattern.patterns, inSubquery, inGraph) };
      case 'union':
        // Branches, not the elements of one group: each is rewritten on its own.
        return { ...pattern, patterns: pattern.patterns.map((branch) => this.pattern(branch, inSubquery, inGraph)) };
      case 'service':
        throw new QueryError('SERVICE is not allowed');
      case 'filter':
        return { ...pattern, expression: this.expression(pattern.expression, inSubquery, inGraph) };
      case 'bind':
        return { ...pattern, expression: this.expression(pattern.expression, inSubquery, inGraph) };
      case 'query': {
        const sub = pattern as sparqljs.SelectQuery;
        if (sub.from) throw new QueryError('a subquery cannot name a dataset');
        const rewritten: sparqljs.SelectQuery = { ...sub, where: this.patterns(sub.where ?? [], true, inGraph) };
        if (sub.order) rewritten.order = sub.order.map((o) => this.ordering(o));
        if (sub.having) rewritten.having = sub.having.map((e) => this.expression(e, true, inGraph));
        for (const v of rewritten.variables) if ('expression' in v) v.expression = this.expression(v.expression, true, inGraph);
        if (sub.group) for (const g of sub.group) g.expression = this.expression(g.expression, true, inGraph);
        return rewritten;
      }
      default:
        return pattern;
    }
  }

  private graph(pattern: GraphPattern, inSubquery: boolean): Pattern {
    const name = pattern.name;
    const named = this.namedGraphs;
    if (named !== 'all') {
      // The query's FROM NAMED: GRAPH reads those graphs and no other.
      const allowed = name.termType === 'NamedNode' ? this.candidatesOf(name.value).filter((iri) => named.includes(iri)) : named;
      if (allowed.length === 0) return { type: 'graph', name: namedNode(EMPTY_GRAPH), patterns: this.inside(namedNode(EMPTY_GRAPH), pattern.patterns, inSubquery) };
      const column = variable(this.freshName(name.termType === 'Variable' ? name.value : 'graph'));
      const inner = this.inside(column, pattern.patterns, inSubquery);
      const values: Pattern = { type: 'values', values: allowed.map((iri) => ({ [`?${column.value}`]: namedNode(iri) })) };
      const patterns: Pattern[] = [values, { type: 'graph', name: column, patterns: inner }];
      if (name.termType === 'Variable') patterns.push(this.link(name, column, inner));
      return { type: 'group', patterns } as GroupPattern;
    }
    if (name.termType === 'NamedNode') {
      const target = namedNode(this.candidatesOf(name.value)[0] as string);
      return { type: 'group', patterns: this.graphWith(target, this.inside(target, pattern.patterns, inSubquery)) } as GroupPattern;
    }
    const bound = inSubquery ? undefined : this.valuesBound.get(name.value);
    if (bound !== undefined) {
      // The VALUES column holds prefixed names only; the scope filter says so to the server as well.
      const column = variable(bound);
      return { type: 'group', patterns: [...this.graphWith(column, this.inside(column, pattern.patterns, inSubquery)), this.scope(column)] } as GroupPattern;
    }
    // The generation's graphs only, and ?name as the data model names the graph.
    const raw = variable(this.rawOf(name.value));
    const inner = this.inside(raw, pattern.patterns, inSubquery);
    return { type: 'group', patterns: [...this.graphWith(raw, inner), this.scope(raw), this.link(name, raw, inner)] } as GroupPattern;
  }

  /**
   * The GRAPH pattern `GRAPH target { inner }`, with the BINDs and FILTERs of its own group that hold an EXISTS
   * moved after it (Virtuoso evaluates an EXISTS inside a GRAPH against the wrong graph: the objects' onDisplay
   * flags came out false); their EXISTS name `target` themselves. Only those whose variables the group binds
   * move, and a BIND only when nothing else in the group reads its variable, so the meaning stays.
   */
  private graphWith(target: IriTerm | VariableTerm, inner: Pattern[]): Pattern[] {
    // `GRAPH g {}` asks whether the graph exists; Virtuoso answers an empty GRAPH pattern wrongly (nothing for a
    // variable, true for any IRI), so the graph is read off its statements.
    if (inner.length === 0) return [target.termType === 'Variable' ? this.graphNames(target) : this.graphHolds(target)];
    const kept: Pattern[] = [];
    const moved: Pattern[] = [];
    const own = new Set(inner.flatMap(boundBy));
    for (const [i, p] of inner.entries()) {
      const movable =
        (p.type === 'bind' || p.type === 'filter') &&
        hasExists(p.expression) &&
        [...variablesIn(p.expression)].every((v) => own.has(v) || v === (target.termType === 'Variable' ? target.value : '') || this.onlyIn(v, p.expression)) &&
        (p.type === 'filter' || !inner.some((other, j) => j !== i && variablesIn(other).has(p.variable.value)));
      (movable ? moved : kept).push(p);
    }
    return [{ type: 'graph', name: target, patterns: kept }, ...moved];
  }

  /** True when variable `name` occurs nowhere in the query but in `node` (a variable local to an EXISTS). */
  private onlyIn(name: string, node: unknown): boolean {
    return (countVariables(node).get(name) ?? 0) === (this.occurrences.get(name) ?? 0);
  }

  /** One solution, of a variable of the rewrite's own, when the graph `iri` holds a statement; none otherwise. */
  private graphHolds(iri: IriTerm): Pattern {
    const [s, p, o] = ['s', 'p', 'o'].map((n) => variable(this.freshName(n))) as unknown as [VariableTerm, VariableTerm, VariableTerm];
    const holds = {
      type: 'query',
      queryType: 'SELECT',
      variables: [s],
      prefixes: {},
      where: [{ type: 'graph', name: iri, patterns: [{ type: 'bgp', triples: [{ subject: s, predicate: p, object: o }] }] }],
      limit: 1,
    } as unknown as Pattern;
    return { type: 'group', patterns: [holds] } as GroupPattern;
  }

  /** The distinct names of the graphs that hold a statement, as `raw`. */
  private graphNames(raw: VariableTerm): Pattern {
    const [s, p, o] = ['s', 'p', 'o'].map((n) => variable(this.freshName(n))) as unknown as [VariableTerm, VariableTerm, VariableTerm];
    const names = {
      type: 'query',
      queryType: 'SELECT',
      distinct: true,
      variables: [raw],
      prefixes: {},
      where: [{ type: 'graph', name: raw, patterns: [{ type: 'bgp', triples: [{ subject: s, predicate: p, object: o }] }] }],
    } as unknown as Pattern;
    // A subquery is written inside a group of its own.
    return { type: 'group', patterns: [names] } as GroupPattern;
  }

  /** Binds `name` to the graph IRI `raw` without its prefix, or, when `inner` binds `name` itself, checks it. */
  private link(name: VariableTerm, raw: VariableTerm, inner: Pattern[]): Pattern {
    const original = this.stripped(raw);
    return variablesIn(inner).has(name.value) ? { type: 'filter', expression: call('=', name, original) } : { type: 'bind', variable: name, expression: original };
  }

  /** The graph IRI of the data model: the server graph's name without the generation's prefix. */
  private stripped(raw: VariableTerm): Expression {
    return call('iri', call('substr', call('str', raw), literal(String(this.view.graphs.publicPrefix.length + 1), namedNode(`${XSD}integer`))));
  }

  /** Only the view's graphs pass as `raw`. */
  private scope(raw: VariableTerm): FilterPattern {
    return { type: 'filter', expression: call('strstarts', call('str', raw), literal(this.viewPrefix())) };
  }

  private viewPrefix(): string {
    return this.view.includeNonPublic ? this.view.graphs.prefix : this.view.graphs.publicPrefix;
  }

  private expression(expression: Expression, inSubquery: boolean, inGraph = false, outer: ReadonlySet<string> = new Set()): Expression {
    if (Array.isArray(expression)) return expression.map((e) => this.expression(e, inSubquery, inGraph, outer));
    if (typeof expression !== 'object' || expression === null || 'termType' in expression) return expression;
    switch (expression.type) {
      case 'operation': {
        const op = expression as sparqljs.OperationExpression;
        if (op.operator === 'exists' || op.operator === 'notexists') {
          // EXISTS sees the solution it filters: its pattern is a group with the outer variables bound.
          return { ...op, args: op.args.map((a) => this.existsPattern(a as Pattern, inSubquery, inGraph, outer)) };
        }
        return { ...op, args: op.args.map((a) => this.expression(a as Expression, inSubquery, inGraph, outer)) };
      }
      case 'functionCall': {
        const fn = expression as sparqljs.FunctionCallExpression;
        const iri = typeof fn.function === 'string' ? fn.function : fn.function.value;
        if (!XSD_CASTS.has(iri)) throw new QueryError(`the function <${iri}> is not available on this endpoint (only SPARQL's built-in functions and the XSD casts are)`);
        return { ...fn, args: fn.args.map((a) => this.expression(a, inSubquery, inGraph)) };
      }
      case 'aggregate': {
        const agg = expression as sparqljs.AggregateExpression;
        if ('termType' in agg.expression) return agg;
        return { ...agg, expression: this.expression(agg.expression, inSubquery, inGraph) };
      }
      default:
        return expression;
    }
  }

  /**
   * xsd:gYear keys by their number (Virtuoso sorts them as text, BCE and five-digit years out of place). Only
   * a key that is a variable of the pattern: Virtuoso allows no expression over an aggregate's alias.
   */
  private ordering(ordering: Ordering): Ordering {
    const e = this.expression(ordering.expression, false);
    if (!('termType' in e) || e.termType !== 'Variable' || this.aliases().has(e.value)) return { ...ordering, expression: e };
    const isYear = call('=', call('datatype', e), namedNode(`${XSD}gYear`));
    const year: Expression = {
      type: 'functionCall',
      function: namedNode(`${XSD}integer`),
      args: [call('replace', call('str', e), literal('^(-?[0-9]+).*$'), literal('$1'))],
    };
    return { ...ordering, expression: call('coalesce', call('if', isYear, year, e), e) };
  }

  /** Variables an expression binds (a projection or a BIND, the rewrite's own included), anywhere in the query. */
  private aliases(): Set<string> {
    const names = new Set<string>();
    walkAst(this.query, (n) => {
      const bound = boundExpression(n);
      if (bound) names.add(bound.variable);
    });
    return names;
  }

  freshName(base: string): string {
    for (;;) {
      const name = `${base.replace(/[^A-Za-z0-9_]/g, '_')}_mld${this.fresh++}`;
      if (!this.taken.has(name)) {
        this.taken.add(name);
        this.own.push(name);
        return name;
      }
    }
  }

  /** The variables the rewrite introduced. */
  ownVariables(): string[] {
    return [...this.own];
  }

  private rawOf(name: string): string {
    let raw = this.raws.get(name);
    if (raw === undefined) {
      raw = this.freshName(name);
      this.raws.set(name, raw);
    }
    return raw;
  }

  /**
   * The rewritten `patterns` in forms Virtuoso 7.2 evaluates correctly and without hanging
   * (docs/remote-store.md, "Query shapes"): an EXISTS used as a value (in a BIND) becomes an OPTIONAL
   * sub-select of the variables it shares with what precedes it, and `BOUND` of a flag (an EXISTS evaluated
   * as a value beside a VALUES hangs the server); a group that filters with EXISTS and has no other pattern
   * but BINDs gets a one-row VALUES (Virtuoso takes such a FILTER EXISTS, and NOT EXISTS, as true).
   */
  private lift(patterns: Pattern[], inExists = false): Pattern[] {
    const out: Pattern[] = [];
    for (const original of patterns) {
      const p = this.liftWithin(original, inExists);
      if (p.type === 'bind' && hasExists(p.expression)) {
        if (inExists) throw new QueryError(NESTED_VALUE_EXISTS);
        const optionals: Pattern[] = [];
        const expression = this.liftValue(p.expression, new Set(inScope(out)), optionals);
        out.push(...optionals, { ...p, expression });
      } else {
        out.push(p);
      }
    }
    // Only where nothing else could read a statement: a one-row VALUES beside a UNION in a MINUS crashed the server.
    const filtersWithExists = out.some((p) => p.type === 'filter' && hasExists(p.expression));
    const readsNothing = out.every((p) => p.type === 'filter' || p.type === 'bind' || (p.type === 'group' && p.patterns.length === 0));
    if (filtersWithExists && readsNothing) {
      out.unshift({ type: 'values', values: [{ [`?${this.freshName('unit')}`]: literal('1', namedNode(`${XSD}integer`)) }] });
    }
    return out;
  }

  /** `pattern` with the groups inside it (EXISTS in its FILTERs and subqueries included) lifted. */
  private liftWithin(pattern: Pattern, inExists = false): Pattern {
    switch (pattern.type) {
      case 'group':
      case 'optional':
      case 'minus':
      case 'graph':
        return { ...pattern, patterns: this.lift(pattern.patterns, inExists) };
      case 'union':
        return { ...pattern, patterns: pattern.patterns.map((branch) => this.liftWithin(branch, inExists)) };
      case 'filter':
        return { ...pattern, expression: this.liftInExpression(pattern.expression) };
      case 'query': {
        const sub = pattern as sparqljs.SelectQuery;
        return { ...sub, where: this.lift(sub.where ?? [], inExists) } as Pattern;
      }
      default:
        return pattern;
    }
  }

  /** The EXISTS patterns of a filter expression, lifted inside. */
  private liftInExpression(expression: Expression): Expression {
    if (typeof expression !== 'object' || expression === null || Array.isArray(expression) || 'termType' in expression || expression.type !== 'operation') return expression;
    const op = expression as sparqljs.OperationExpression;
    if (op.operator === 'exists' || op.operator === 'notexists') return { ...op, args: op.args.map((a) => this.liftWithin(a as Pattern, true)) };
    return { ...op, args: op.args.map((a) => this.liftInExpression(a as Expression)) };
  }

  /**
   * A value expression whose every EXISTS is replaced by `BOUND(?flag)` (`!BOUND` for NOT EXISTS), the flag
   * set by an OPTIONAL sub-select, pushed to `optionals`, of the variables the EXISTS shares with `visible`.
   */
  private liftValue(expression: Expression, visible: ReadonlySet<string>, optionals: Pattern[]): Expression {
    if (Array.isArray(expression)) return expression.map((e) => this.liftValue(e, visible, optionals)) as unknown as Expression;
    if (typeof expression !== 'object' || expression === null || 'termType' in expression) return expression;
    if (expression.type === 'functionCall') {
      const fn = expression as sparqljs.FunctionCallExpression;
      return { ...fn, args: fn.args.map((a) => this.liftValue(a, visible, optionals)) };
    }
    if (expression.type !== 'operation') return expression;
    const op = expression as sparqljs.OperationExpression;
    if (op.operator !== 'exists' && op.operator !== 'notexists') return { ...op, args: op.args.map((a) => this.liftValue(a as Expression, visible, optionals)) };
    const pattern = this.liftWithin(op.args[0] as Pattern, true);
    const shared = [...variablesIn(pattern)].filter((name) => visible.has(name));
    const bindable = patternVariables(pattern);
    const loose = shared.find((name) => !bindable.has(name));
    if (loose !== undefined) {
      throw new QueryError(
        `EXISTS used as a value reads ?${loose} only in an expression; this store evaluates such an EXISTS as a sub-select, which cannot see ?${loose}. ` +
          'Use FILTER EXISTS, or match ?' + loose + ' in a pattern inside the EXISTS',
      );
    }
    const flag = variable(this.freshName('exists'));
    const select = {
      type: 'query',
      queryType: 'SELECT',
      prefixes: {},
      variables: [...shared.map((name) => variable(name)), { expression: literal('1', namedNode(`${XSD}integer`)), variable: flag }],
      where: [pattern],
      ...(shared.length > 0 ? { group: shared.map((name) => ({ expression: variable(name) })) } : { limit: 1 }),
    } as unknown as Pattern;
    optionals.push({ type: 'optional', patterns: [{ type: 'group', patterns: [select] } as GroupPattern] });
    return op.operator === 'exists' ? call('bound', flag) : call('!', call('bound', flag));
  }
}

const call = (operator: string, ...args: Expression[]): sparqljs.OperationExpression => ({ type: 'operation', operator, args });

/** Why a query with an EXISTS used as a value inside an EXISTS, NOT EXISTS or MINUS pattern is refused. */
const NESTED_VALUE_EXISTS =
  'EXISTS used as a value (in a BIND) inside another EXISTS, NOT EXISTS or MINUS pattern cannot run on this store: ' +
  'in the forms the SPARQL server evaluates, this shape ends the server process. Move the BIND out of that pattern';

/** The functions a query may call by IRI: SPARQL 1.1's XSD casts (and xsd:date), compared as whole IRIs. */
const XSD_CASTS: ReadonlySet<string> = new Set(['string', 'boolean', 'integer', 'decimal', 'float', 'double', 'dateTime', 'date'].map((type) => `${XSD}${type}`));

/**
 * The in-scope variables of a group (SPARQL 1.1 §18.2.1), in the order they first occur: what `SELECT *`
 * projects. FILTER, MINUS and EXISTS bind nothing; a subquery binds what it projects.
 */
function inScope(patterns: readonly Pattern[], into: string[] = []): string[] {
  const add = (name: string): void => {
    if (!into.includes(name)) into.push(name);
  };
  for (const p of patterns) {
    switch (p.type) {
      case 'bgp':
        for (const name of variablesIn(p.triples)) add(name);
        break;
      case 'graph':
        if (p.name.termType === 'Variable') add(p.name.value);
        inScope(p.patterns, into);
        break;
      case 'group':
      case 'optional':
        inScope(p.patterns, into);
        break;
      case 'union':
        for (const branch of p.patterns) inScope([branch], into);
        break;
      case 'bind':
        add(p.variable.value);
        break;
      case 'values':
        for (const row of p.values) for (const key of Object.keys(row)) add(key.slice(1));
        break;
      case 'query': {
        const sub = p as sparqljs.SelectQuery;
        for (const v of sub.variables as { termType?: string; value?: string; variable?: VariableTerm }[]) {
          if (v.termType === 'Wildcard') inScope(sub.where ?? [], into);
          else if (v.termType === 'Variable') add(v.value as string);
          else if (v.variable) add(v.variable.value);
        }
        break;
      }
      default:
        break;
    }
  }
  return into;
}

/** Variables a pattern can bind: those of its triples, graph names, VALUES and BIND targets (not of its expressions). */
function patternVariables(pattern: Pattern): Set<string> {
  const names = new Set<string>();
  walkAst(pattern, (n) => {
    if (n.type === 'filter') return false;
    if (n.type === 'bind') {
      names.add((n.variable as VariableTerm).value);
      return false;
    }
    if (n.termType === 'Variable' && typeof n.value === 'string') names.add(n.value);
    for (const key of Object.keys(n)) if (key.startsWith('?')) names.add(key.slice(1));
    return undefined;
  });
  return names;
}

/** Occurrences of each variable in `node` (an AST or part of one), VALUES rows (which name theirs in keys) included. */
function countVariables(node: unknown): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (name: string): void => void counts.set(name, (counts.get(name) ?? 0) + 1);
  walkAst(node, (n) => {
    if (n.termType === 'Variable' && typeof n.value === 'string') {
      add(n.value);
      return false;
    }
    for (const key of Object.keys(n)) if (key.startsWith('?')) add(key.slice(1));
    return undefined;
  });
  return counts;
}

/** Names of every variable anywhere in `node`. */
const variablesIn = (node: unknown): Set<string> => new Set(countVariables(node).keys());

/** The variable `(expression AS ?v)` or `BIND(expression AS ?v)` binds, when `n` is one of those. */
function boundExpression(n: Readonly<Record<string, unknown>>): { expression: { type?: string; operator?: string }; variable: string } | undefined {
  const variable = n.variable as { termType?: string; value?: string } | undefined;
  if (n.expression === undefined || variable?.termType !== 'Variable' || typeof variable.value !== 'string') return undefined;
  return { expression: n.expression as { type?: string; operator?: string }, variable: variable.value };
}

const BOOLEAN_OPERATORS = new Set([
  'exists', 'notexists', '=', '!=', '<', '>', '<=', '>=', '&&', '||', '!', 'in', 'notin', 'bound', 'sameterm', 'isiri', 'isuri',
  'isblank', 'isliteral', 'isnumeric', 'regex', 'contains', 'strstarts', 'strends', 'langmatches',
]);

/** Variables that a BIND or a projection binds to a boolean-valued expression. */
function booleanVariables(query: unknown): string[] {
  const names = new Set<string>();
  walkAst(query, (n) => {
    const bound = boundExpression(n);
    if (bound?.expression.type === 'operation' && BOOLEAN_OPERATORS.has(String(bound.expression.operator).toLowerCase())) names.add(bound.variable);
  });
  return [...names];
}

/** True when an expression holds an EXISTS or NOT EXISTS. */
const hasExists = (node: unknown): boolean => walkAst(node, (n) => (n.type === 'operation' && (n.operator === 'exists' || n.operator === 'notexists')) || undefined);

/** Variables an element of a group binds in every solution it gives (none for OPTIONAL, MINUS, FILTER). */
function boundBy(pattern: Pattern): string[] {
  switch (pattern.type) {
    case 'bgp':
      return [...variablesIn(pattern.triples)];
    case 'values':
      return Object.keys(pattern.values[0] ?? {})
        .filter((key) => pattern.values.every((row) => row[key] !== undefined))
        .map((key) => key.slice(1));
    case 'bind':
      return [pattern.variable.value];
    case 'graph':
      return [...(pattern.name.termType === 'Variable' ? [pattern.name.value] : []), ...pattern.patterns.flatMap(boundBy)];
    case 'group':
      return pattern.patterns.flatMap(boundBy);
    case 'union': {
      // What every branch binds.
      const [first, ...rest] = pattern.patterns.map((branch) => new Set(boundBy(branch)));
      return [...(first ?? [])].filter((name) => rest.every((branch) => branch.has(name)));
    }
    case 'query':
      return (pattern.variables as { termType?: string; value?: string; variable?: VariableTerm }[]).flatMap((v) => (v.termType === 'Variable' ? [v.value as string] : v.variable ? [v.variable.value] : []));
    default:
      return [];
  }
}

/** Variables used as a graph name outside subqueries (EXISTS included). */
function graphVariablesOutsideSubqueries(patterns: readonly Pattern[]): Set<string> {
  const names = new Set<string>();
  walkAst(patterns, (n) => {
    if (n.type === 'query') return false;
    const name = n.name as VariableTerm | IriTerm | undefined;
    if (n.type === 'graph' && name?.termType === 'Variable') names.add(name.value);
    return undefined;
  });
  return names;
}
