/**
 * Where the answers of a library SELECT come from, read off its parsed form: the admin graph alone, or one
 * record graph at a time. Such a query can be answered graph by graph (by-graph.ts): its answer over a whole
 * generation is the union of its answers over a few record graphs at a time, each with the admin graph beside
 * them. Any other query (a pattern in the default graph, two graph variables that could join two records, a
 * solution that may leave the graph unbound, a sub-query, an aggregate, an order or a slice) needs the whole
 * generation in one store.
 */
import type { Expression, Pattern, SelectQuery, SparqlQuery } from 'sparqljs';

/** How a query may be answered without the whole generation in one store. */
export type GraphScope =
  /** Every pattern names the admin graph: answered once, over the admin graph alone. */
  | { scope: 'admin' }
  /**
   * Every pattern is inside `GRAPH ?<variable>` or names the admin graph, and every solution binds the variable:
   * answered per record graph; rows of different graphs are told apart by the variable, except that a DISTINCT
   * query may repeat a row across graphs (the caller keeps the first).
   */
  | {
      scope: 'record';
      variable: string;
      distinct: boolean;
      /** The predicates its record-graph patterns can match (IRIs), or 'any' (a variable or negated predicate). */
      predicates: ReadonlySet<string> | 'any';
    }
  | { scope: 'whole'; reason: string };

type Context = { inGraph: false } | { inGraph: true; admin: boolean };

class Whole extends Error {}

/**
 * The scope of `ast`, a query whose parameter `adminParam` (bound to the admin graph's IRI when it is asked)
 * names the admin graph. Parameters other than the admin graph may not name graphs.
 */
export function graphScope(ast: SparqlQuery, params: readonly string[], adminParam = 'admin'): GraphScope {
  if (ast.type !== 'query' || ast.queryType !== 'SELECT') return { scope: 'whole', reason: 'not a SELECT' };
  const select = ast as SelectQuery;
  if (select.group || select.having || select.order || select.limit !== undefined || select.offset !== undefined) {
    return { scope: 'whole', reason: 'grouped, ordered or sliced' };
  }
  if (select.variables.some((v) => !('termType' in v) || v.termType !== 'Variable')) return { scope: 'whole', reason: 'a projected expression' };
  const graphVariables = new Set<string>();
  const walker: Walker = { adminParam, params: new Set(params), graphVariables, predicates: new Set() };
  try {
    for (const pattern of select.where ?? []) walkPattern(pattern, { inGraph: false }, walker);
  } catch (err) {
    if (err instanceof Whole) return { scope: 'whole', reason: err.message };
    throw err;
  }
  if (graphVariables.size === 0) return { scope: 'admin' };
  if (graphVariables.size > 1) return { scope: 'whole', reason: `several graph variables (${[...graphVariables].join(', ')})` };
  const [variable] = [...graphVariables] as [string];
  if (!bindsGraph(select.where ?? [], variable)) return { scope: 'whole', reason: `a solution may leave ?${variable} unbound` };
  return { scope: 'record', variable, distinct: select.distinct === true, predicates: walker.predicates };
}

interface Walker {
  adminParam: string;
  params: ReadonlySet<string>;
  graphVariables: Set<string>;
  predicates: Set<string> | 'any';
}

function walkPattern(pattern: Pattern, context: Context, walker: Walker): void {
  switch (pattern.type) {
    case 'bgp':
      if (!context.inGraph) throw new Whole('a pattern in the default graph');
      if (!context.admin) for (const triple of pattern.triples) addPredicate(triple.predicate, walker);
      return;
    case 'graph': {
      if (context.inGraph) throw new Whole('a GRAPH inside a GRAPH');
      const name = pattern.name;
      const admin = name.termType === 'Variable' && name.value === walker.adminParam;
      if (name.termType === 'Variable') {
        if (admin) {
          // The admin graph: the same in every store the query is asked of.
        } else if (walker.params.has(name.value)) {
          throw new Whole(`a graph named by the parameter ?${name.value}`);
        } else {
          walker.graphVariables.add(name.value);
        }
      } else {
        throw new Whole(`a graph named by an IRI (${name.value})`);
      }
      for (const inner of pattern.patterns) walkPattern(inner, { inGraph: true, admin }, walker);
      return;
    }
    case 'group':
    case 'optional':
    case 'minus':
    case 'union':
      for (const inner of pattern.patterns) walkPattern(inner, context, walker);
      return;
    case 'filter':
      walkExpression(pattern.expression, context, walker);
      return;
    case 'bind':
      walkExpression(pattern.expression, context, walker);
      return;
    case 'values':
      return;
    default:
      throw new Whole(`a ${pattern.type} pattern`);
  }
}

function walkExpression(expression: Expression, context: Context, walker: Walker): void {
  if (typeof expression !== 'object' || expression === null || !('type' in expression)) return;
  if (expression.type === 'operation') {
    if (expression.operator === 'exists' || expression.operator === 'notexists') {
      for (const arg of expression.args) walkPattern(arg as Pattern, context, walker);
      return;
    }
    for (const arg of expression.args) walkExpression(arg as Expression, context, walker);
    return;
  }
  if (expression.type === 'functionCall') {
    for (const arg of expression.args) walkExpression(arg, context, walker);
    return;
  }
  if (expression.type === 'aggregate') throw new Whole('an aggregate');
}

/** Adds what a triple pattern's predicate (an IRI, a variable or a property path) can match. */
function addPredicate(predicate: unknown, walker: Walker): void {
  if (walker.predicates === 'any') return;
  const term = predicate as { termType?: string; value?: string; type?: string; pathType?: string; items?: unknown[] };
  if (term.termType === 'NamedNode' && term.value !== undefined) walker.predicates.add(term.value);
  // A negated property set (`!p`) matches every other predicate.
  else if (term.type === 'path' && term.pathType !== '!') for (const item of term.items ?? []) addPredicate(item, walker);
  else walker.predicates = 'any';
}

/** True when every solution of `patterns` binds `?variable` (a GRAPH on it outside any OPTIONAL, MINUS or FILTER). */
function bindsGraph(patterns: readonly Pattern[], variable: string): boolean {
  return patterns.some((pattern) => {
    if (pattern.type === 'graph') return pattern.name.termType === 'Variable' && pattern.name.value === variable;
    if (pattern.type === 'group') return bindsGraph(pattern.patterns, variable);
    if (pattern.type === 'union') return pattern.patterns.every((branch) => bindsGraph([branch], variable));
    return false;
  });
}
