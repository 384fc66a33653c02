/**
 * The remote store's query rewrite to the graphs of one view (generation-graphs.ts), on the query's parsed
 * form: queries are written for the data model (graph name = record IRI), and read exactly the served
 * generation's public graphs (the SPARQL endpoint), or its public and non-public graphs (the REST API).
 *
 *   GRAPH <g> { P }       ->  GRAPH <prefix g> { P } (the non-public prefix for the generation's non-public graphs)
 *   GRAPH ?g { P }        ->  { GRAPH ?g' { P } FILTER(STRSTARTS(STR(?g'), "<generation prefix>")) link }
 *                             where link binds ?g to the graph IRI without its prefix (BIND), or, when P binds
 *                             ?g itself, checks that it equals it (FILTER); a top-level VALUES that binds ?g to
 *                             IRIs gets a column ?g' of their prefixed names instead, and FILTER(?g' IN (those
 *                             names)), so the server looks the graphs up rather than scanning
 *   no dataset            ->  FROM <union graph of the view's generation> (SPARQL endpoint) or FROM <an empty
 *                             graph> (REST: the embedded store's default graph is empty too)
 *   FROM / FROM NAMED <g> ->  the prefixed names; FROM alone gets FROM NAMED <an empty graph>, since Virtuoso
 *                             does not empty the named graphs when a query names only FROM
 *
 * The dataset is applied here rather than sent (`rewriteDataset`): the query names no FROM, and each pattern
 * outside a GRAPH reads the graphs of the default graph through a GRAPH of its own. The walk also writes what
 * it rewrites in the forms of virtuoso-dialect.ts, and refuses what rewrite-policy.ts refuses.
 */
import type sparqljs from 'sparqljs';
import type { Expression, FilterPattern, GraphPattern, GroupPattern, IriTerm, Ordering, Pattern, ValuePatternRow, VariableTerm } from 'sparqljs';
import { DataFactory } from 'n3';
import { QueryError } from '../errors.js';
import { EMPTY_GRAPH, serverGraphOf, type GraphView } from './generation-graphs.js';
import { boundBy, call, countVariables, graphVariablesOutsideSubqueries, variablesIn, XSD } from './rewrite-ast.js';
import { checkFunctionCall, SERVICE_REFUSED, SUBQUERY_DATASET_REFUSED } from './rewrite-policy.js';
import { ExistsLifter, graphWith, yearsByNumber } from './virtuoso-dialect.js';

const { namedNode, variable, literal } = DataFactory;

export interface RewriteOptions {
  /** Let the default graph be the union of the view's public graphs when the query names no dataset. */
  unionDefaultGraph: boolean;
  /** Base IRI for relative IRIs in the query text. */
  baseIri?: string;
}

/**
 * One query's rewrite to a view: the dataset it reads (kept here, not sent), every GRAPH and every pattern
 * outside one, the expressions (EXISTS patterns included), and the variables of the rewrite's own.
 */
export class Rewriter {
  /** The server graph of a graph name: one per name, so that EXISTS and NOT EXISTS stay exact. */
  private readonly graphOf: (iri: string) => string;
  /** The server graph of each GRAPH being rewritten, innermost last: EXISTS inside one is made to name it. */
  private readonly graphStack: (IriTerm | VariableTerm)[] = [];
  private readonly taken: Set<string>;
  /** How often each variable occurs in the query as parsed. */
  private readonly occurrences: Map<string, number>;

  /** Graph variables bound to IRIs by a top-level VALUES, and the column that gets their prefixed names. */
  private readonly valuesBound = new Map<string, string>();
  /** The prefixed names each such column holds, row by row. */
  private readonly columnGraphs = new Map<string, IriTerm[]>();
  /** The server-graph variable of each graph variable of the query: one name, so MINUS and joins compare it. */
  private readonly raws = new Map<string, string>();
  /** Every variable the rewrite introduced. */
  private readonly own: string[] = [];
  private fresh = 0;
  /** Server graphs that make the default graph (none: it is empty). */
  private defaultGraphs: string[] = [];
  /** Server graphs GRAPH may read: all of the view's, or those of the query's FROM NAMED. */
  private namedGraphs: string[] | 'all' = 'all';
  /** The EXISTS used as values, as sub-selects (virtuoso-dialect.ts). */
  private readonly lifter = new ExistsLifter((base) => this.freshName(base));

  constructor(
    private readonly view: GraphView,
    private readonly query: sparqljs.Query,
  ) {
    this.graphOf = serverGraphOf(view);
    this.occurrences = countVariables(query);
    this.taken = new Set(this.occurrences.keys());
  }

  rewrite(options: RewriteOptions): sparqljs.Query {
    const query = this.query;
    this.rewriteDataset(options);
    this.bindGraphColumns();
    if (query.where) query.where = this.lifter.lift(this.patterns(query.where, false));
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
    const prefixed = (iris: IriTerm[]): string[] => iris.map((g) => this.graphOf(g.value));
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
   * A top-level VALUES binding a graph variable to IRIs in every row gets a column of their server graphs, so
   * `GRAPH ?v` becomes a look-up of known graphs.
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
      const withColumns = rows.map((row) => ({
        ...row,
        ...Object.fromEntries(columns.map((name) => [`?${this.valuesBound.get(name) as string}`, namedNode(this.graphOf((row[`?${name}`] as IriTerm).value))])),
      }));
      rows.splice(0, rows.length, ...withColumns);
      for (const name of columns) {
        const column = this.valuesBound.get(name) as string;
        this.columnGraphs.set(column, withColumns.map((row) => row[`?${column}`] as IriTerm));
      }
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
        out.push(...this.graphOfBound(p, p.name, inSubquery, outer.has(p.name.value)));
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
   *
   * Where ?v comes from around an EXISTS (`fromOuter`), the candidate names are a UNION of BINDs, which see ?v
   * by the substitution EXISTS is defined by: Virtuoso 7.2 answers a group of two such EXISTS, each with the
   * VALUES of the two prefixes, with a few solutions of the right ones (3 or 4 of 68 agents with a Dutch
   * biography that are persons, varying from run to run).
   */
  private graphOfBound(pattern: GraphPattern, name: VariableTerm, inSubquery: boolean, fromOuter: boolean): Pattern[] {
    const raw = variable(this.freshName(name.value));
    const inner = this.inside(raw, pattern.patterns, inSubquery);
    const { publicPrefix, nonPublicPrefix } = this.view.graphs;
    const prefixes = this.view.includeNonPublic ? [publicPrefix, nonPublicPrefix] : [publicPrefix];
    const serverName = (prefix: Expression): Pattern => ({ type: 'bind', variable: raw, expression: call('iri', call('concat', prefix, call('str', name))) });
    const candidates: Pattern[] = [];
    if (fromOuter && prefixes.length > 1) {
      candidates.push({ type: 'union', patterns: prefixes.map((p): GroupPattern => ({ type: 'group', patterns: [serverName(literal(p))] })) });
    } else {
      const prefix = variable(this.freshName('prefix'));
      candidates.push({ type: 'values', values: prefixes.map((p) => ({ [`?${prefix.value}`]: literal(p) })) }, serverName(prefix));
    }
    return [
      ...candidates,
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
        throw new QueryError(SERVICE_REFUSED);
      case 'filter':
        return { ...pattern, expression: this.expression(pattern.expression, inSubquery, inGraph) };
      case 'bind':
        return { ...pattern, expression: this.expression(pattern.expression, inSubquery, inGraph) };
      case 'query': {
        const sub = pattern as sparqljs.SelectQuery;
        if (sub.from) throw new QueryError(SUBQUERY_DATASET_REFUSED);
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
      const allowed = name.termType === 'NamedNode' ? [this.graphOf(name.value)].filter((iri) => named.includes(iri)) : named;
      if (allowed.length === 0) return { type: 'graph', name: namedNode(EMPTY_GRAPH), patterns: this.inside(namedNode(EMPTY_GRAPH), pattern.patterns, inSubquery) };
      const column = variable(this.freshName(name.termType === 'Variable' ? name.value : 'graph'));
      const inner = this.inside(column, pattern.patterns, inSubquery);
      const values: Pattern = { type: 'values', values: allowed.map((iri) => ({ [`?${column.value}`]: namedNode(iri) })) };
      const patterns: Pattern[] = [values, { type: 'graph', name: column, patterns: inner }];
      if (name.termType === 'Variable') patterns.push(this.link(name, column, inner));
      return { type: 'group', patterns } as GroupPattern;
    }
    if (name.termType === 'NamedNode') {
      const target = namedNode(this.graphOf(name.value));
      return { type: 'group', patterns: this.graphWith(target, this.inside(target, pattern.patterns, inSubquery)) } as GroupPattern;
    }
    const bound = inSubquery ? undefined : this.valuesBound.get(name.value);
    if (bound !== undefined) {
      // The VALUES column holds prefixed names only; a filter listing them says so to the server as well.
      const column = variable(bound);
      return { type: 'group', patterns: [...this.graphWith(column, this.inside(column, pattern.patterns, inSubquery)), this.listed(column)] } as GroupPattern;
    }
    // The generation's graphs only, and ?name as the data model names the graph.
    const raw = variable(this.rawOf(name.value));
    const inner = this.inside(raw, pattern.patterns, inSubquery);
    const link = (kept: Pattern[]): Pattern[] => [this.scope(raw), this.link(name, raw, kept)];
    return { type: 'group', patterns: this.graphWith(raw, inner, { name, link }) } as GroupPattern;
  }

  /** `GRAPH target { inner }` in the form Virtuoso evaluates (virtuoso-dialect.ts). */
  private graphWith(target: IriTerm | VariableTerm, inner: Pattern[], named?: Parameters<typeof graphWith>[4]): Pattern[] {
    return graphWith(target, inner, (base) => this.freshName(base), this.occurrences, named);
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

  /**
   * `column` is one of the graphs of its VALUES column, named in a list: with up to about 25 of them Virtuoso
   * 7.2 then looks each graph up, where the prefix filter (`scope`) makes it scan every graph of the server
   * first. At 10,000 objects a page query of 25 record graphs took 108 ms against 311 ms with the prefix
   * (docs/virtuoso-notes.md, "A page's record graphs"); with 100 the two plans cost the same.
   */
  private listed(column: VariableTerm): FilterPattern {
    return { type: 'filter', expression: { type: 'operation', operator: 'in', args: [column, this.columnGraphs.get(column.value) ?? []] } };
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
        checkFunctionCall(iri);
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

  /** An ORDER BY key rewritten, xsd:gYear values ordered by their number (virtuoso-dialect.ts). */
  private ordering(ordering: Ordering): Ordering {
    return yearsByNumber({ ...ordering, expression: this.expression(ordering.expression, false) }, this.query);
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
}
