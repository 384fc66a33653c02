/**
 * The remote store's query rewrite (graph-view.ts) in the forms Virtuoso 7.2 evaluates correctly and without
 * hanging or ending the server process (docs/remote-store.md, "Query shapes"). Each form means what the query
 * meant; the reason for each is given where it is written:
 *
 *   DESCRIBE              ->  the CONSTRUCT of the statements about each described resource in the default graph
 *   SELECT *              ->  the list of its in-scope variables, so the graph rewrite's own never reach an answer
 *   trailing VALUES       ->  the same VALUES leading the pattern
 *   MINUS { P }           ->  nothing, FILTER NOT EXISTS { P }, or an OPTIONAL sub-select on MINUS's own test
 *   EXISTS as a value     ->  BIND in the pattern (projection, ORDER BY), then an OPTIONAL sub-select and BOUND
 *                             of its flag; a group that only filters with EXISTS gets a one-row VALUES
 *   EXISTS in a GRAPH     ->  the FILTER or BIND moved after the GRAPH, its EXISTS naming the graph itself
 *                             (after the graph variable's BIND when it reads that variable)
 *   GRAPH g {}            ->  a sub-select of a statement of g (or of the graphs that hold one)
 *   ORDER BY e            ->  xsd:gYear values ordered by their number (Virtuoso orders them as text)
 *   booleans              ->  the variables bound to a boolean expression, which Virtuoso answers as 1 and 0
 *
 * Shapes with no such form are refused (QueryError): an EXISTS used as a value inside another EXISTS, NOT
 * EXISTS or MINUS pattern, in a grouped query, or reading an outer variable only in an expression.
 */
import type sparqljs from 'sparqljs';
import type { Expression, FilterPattern, GroupPattern, IriTerm, Ordering, Pattern, VariableTerm } from 'sparqljs';
import { DataFactory } from 'n3';
import { walkAst } from '../../queries/sparql-ast.js';
import { QueryError } from '../errors.js';
import {
  boundBy,
  boundExpression,
  call,
  countVariables,
  hasExists,
  inScope,
  patternVariables,
  renameVariables,
  variablesIn,
  withinGroups,
  XSD,
} from './rewrite-ast.js';

const { namedNode, variable, literal } = DataFactory;

/** Why a query with an EXISTS used as a value inside an EXISTS, NOT EXISTS or MINUS pattern is refused. */
const NESTED_VALUE_EXISTS =
  'EXISTS used as a value (in a BIND) inside another EXISTS, NOT EXISTS or MINUS pattern cannot run on this store: ' +
  'in the forms the SPARQL server evaluates, this shape ends the server process. Move the BIND out of that pattern';

/**
 * DESCRIBE as the CONSTRUCT of the statements about each described resource in the default graph (what the
 * embedded store answers): Virtuoso would describe from every graph it holds, whatever the dataset.
 */
export function describeAsConstruct(query: sparqljs.DescribeQuery): sparqljs.ConstructQuery {
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
export function projectWildcard(query: sparqljs.SelectQuery): void {
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
export function bindValueExists(query: sparqljs.SelectQuery): void {
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
 * A trailing VALUES joins the whole pattern: the same as leading it, with the pattern as a group of its own.
 * Virtuoso's cost estimate refuses some queries with a trailing VALUES (days for a one-row answer).
 */
export function leadTrailingValues(query: sparqljs.Query): void {
  if (query.values !== undefined && query.values.length > 0) {
    query.where = [{ type: 'values', values: query.values }, { type: 'group', patterns: query.where ?? [] }];
    delete query.values;
  }
}

/** The query's pattern without MINUS (`withoutMinus`), the variables it introduces named apart from the query's. */
export function rewriteMinus(query: sparqljs.Query): void {
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

/**
 * Lifts EXISTS used as a value out of the patterns of a query being rewritten, naming the variables it
 * introduces with `freshName` (the rewrite's own).
 */
export class ExistsLifter {
  constructor(private readonly freshName: (base: string) => string) {}

  /**
   * The rewritten `patterns` in forms Virtuoso 7.2 evaluates correctly and without hanging
   * (docs/remote-store.md, "Query shapes"): an EXISTS used as a value (in a BIND) becomes an OPTIONAL
   * sub-select of the variables it shares with what precedes it, and `BOUND` of a flag (an EXISTS evaluated
   * as a value beside a VALUES hangs the server); a group that filters with EXISTS and has no other pattern
   * but BINDs gets a one-row VALUES (Virtuoso takes such a FILTER EXISTS, and NOT EXISTS, as true).
   */
  lift(patterns: Pattern[], inExists = false): Pattern[] {
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

/**
 * The GRAPH pattern `GRAPH target { inner }`, with the BINDs and FILTERs of its own group that hold an EXISTS
 * moved after it (Virtuoso evaluates an EXISTS inside a GRAPH against the wrong graph: the objects' onDisplay
 * flags came out false); their EXISTS name `target` themselves. Only those whose variables the group binds
 * move, and a BIND only when nothing else in the group reads its variable, so the meaning stays.
 *
 * `named` is the query's own graph variable when `target` stands for it (`GRAPH ?g`, ?g rewritten to a
 * server-graph variable), and `link` the patterns that bind or check it from `target` given the patterns left
 * in the GRAPH. An EXISTS that reads ?g sees the graph's name (the embedded store substitutes it), so such a
 * BIND or FILTER moves too, after `link`: left inside, its ?g made the link a test of a variable nothing bound,
 * and `GRAPH ?g { ?s ?p ?v BIND(EXISTS { ?s ?p ?g } AS ?f) }` answered no rows (issue 44).
 */
export function graphWith(
  target: IriTerm | VariableTerm,
  inner: Pattern[],
  fresh: (base: string) => string,
  occurrences: ReadonlyMap<string, number>,
  named?: { name: VariableTerm; link: (kept: Pattern[]) => Pattern[] },
): Pattern[] {
  // `GRAPH g {}` asks whether the graph exists; Virtuoso answers an empty GRAPH pattern wrongly (nothing for a
  // variable, true for any IRI), so the graph is read off its statements.
  if (inner.length === 0) return [target.termType === 'Variable' ? graphNames(target, fresh) : graphHolds(target, fresh), ...(named?.link([]) ?? [])];
  const kept: Pattern[] = [];
  const moved: Pattern[] = [];
  const own = new Set(inner.flatMap(boundBy));
  const seesGraph = (v: string): boolean => v === (target.termType === 'Variable' ? target.value : '') || v === named?.name.value;
  for (const [i, p] of inner.entries()) {
    const movable =
      (p.type === 'bind' || p.type === 'filter') &&
      hasExists(p.expression) &&
      [...variablesIn(p.expression)].every((v) => own.has(v) || seesGraph(v) || onlyIn(v, p.expression, occurrences)) &&
      (p.type === 'filter' || !inner.some((other, j) => j !== i && variablesIn(other).has(p.variable.value)));
    (movable ? moved : kept).push(p);
  }
  if (named === undefined) return [{ type: 'graph', name: target, patterns: kept }, ...moved];
  // What reads the graph's name comes after the link that binds it; a FILTER of it becomes a value.
  const readsName = (p: Pattern): boolean => (p.type === 'bind' || p.type === 'filter') && variablesIn(p.expression).has(named.name.value);
  return [
    { type: 'graph', name: target, patterns: kept },
    ...moved.filter((p) => !readsName(p)),
    ...named.link(kept),
    ...moved.filter(readsName).flatMap((p) => (p.type === 'filter' ? filterAsValue(p, fresh) : [p])),
  ];
}

/**
 * `FILTER(e)` as `BIND(e AS ?v) FILTER(?v)`, the same solutions (an error leaves ?v unbound, which the FILTER
 * drops as it drops the error): Virtuoso substitutes a variable a BIND bound into an EXISTS used as a value
 * (lifted to a sub-select, `ExistsLifter`), not into a FILTER EXISTS, which then matched nothing.
 */
function filterAsValue(p: Pattern, fresh: (base: string) => string): Pattern[] {
  const value = variable(fresh('filter'));
  return [
    { type: 'bind', variable: value, expression: (p as FilterPattern).expression },
    { type: 'filter', expression: value },
  ];
}

/** True when variable `name` occurs nowhere in the query but in `node` (a variable local to an EXISTS). */
function onlyIn(name: string, node: unknown, occurrences: ReadonlyMap<string, number>): boolean {
  return (countVariables(node).get(name) ?? 0) === (occurrences.get(name) ?? 0);
}

/** One solution, of a variable of the rewrite's own, when the graph `iri` holds a statement; none otherwise. */
function graphHolds(iri: IriTerm, fresh: (base: string) => string): Pattern {
  const [s, p, o] = ['s', 'p', 'o'].map((n) => variable(fresh(n))) as unknown as [VariableTerm, VariableTerm, VariableTerm];
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
function graphNames(raw: VariableTerm, fresh: (base: string) => string): Pattern {
  const [s, p, o] = ['s', 'p', 'o'].map((n) => variable(fresh(n))) as unknown as [VariableTerm, VariableTerm, VariableTerm];
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


/**
 * xsd:gYear keys by their number (Virtuoso sorts them as text, BCE and five-digit years out of place). Only
 * a key that is a variable of the pattern: Virtuoso allows no expression over an aggregate's alias. The key
 * has been rewritten already; `query` is the whole query, whose BINDs and projections name the aliases.
 */
export function yearsByNumber(ordering: Ordering, query: unknown): Ordering {
  const e = ordering.expression;
  if (!('termType' in e) || e.termType !== 'Variable' || aliases(query).has(e.value)) return { ...ordering, expression: e };
  const isYear = call('=', call('datatype', e), namedNode(`${XSD}gYear`));
  const year: Expression = {
    type: 'functionCall',
    function: namedNode(`${XSD}integer`),
    args: [call('replace', call('str', e), literal('^(-?[0-9]+).*$'), literal('$1'))],
  };
  return { ...ordering, expression: call('coalesce', call('if', isYear, year, e), e) };
}

/** Variables an expression binds (a projection or a BIND, the rewrite's own included), anywhere in the query. */
function aliases(query: unknown): Set<string> {
  const names = new Set<string>();
  walkAst(query, (n) => {
    const bound = boundExpression(n);
    if (bound) names.add(bound.variable);
  });
  return names;
}

const BOOLEAN_OPERATORS = new Set([
  'exists', 'notexists', '=', '!=', '<', '>', '<=', '>=', '&&', '||', '!', 'in', 'notin', 'bound', 'sameterm', 'isiri', 'isuri',
  'isblank', 'isliteral', 'isnumeric', 'regex', 'contains', 'strstarts', 'strends', 'langmatches',
]);

/** Variables that a BIND or a projection binds to a boolean-valued expression. */
export function booleanVariables(query: unknown): string[] {
  const names = new Set<string>();
  walkAst(query, (n) => {
    const bound = boundExpression(n);
    if (bound?.expression.type === 'operation' && BOOLEAN_OPERATORS.has(String(bound.expression.operator).toLowerCase())) names.add(bound.variable);
  });
  return [...names];
}
