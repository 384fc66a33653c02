/**
 * The static cost check of a parsed client query (sparqljs AST): shapes whose cost grows faster than their text
 * are refused before any store sees them, with a 400 that names the limit. Each limit answers a shape that
 * took a store down (issue 44) while staying within the text bounds of query-bounds.ts:
 *
 *   - UNION width: 12,000 branches (253 kB) held Virtuoso's compiler for 6.4 minutes, answering nothing else;
 *   - sibling OPTIONALs: 2,000 in one group trap Oxigraph's WebAssembly worker ("memory access out of bounds");
 *   - expression growth: a string function applied to its own output doubles the string at each step, so 23
 *     chained `BIND(CONCAT(?x, ?x) AS ?y)` took 6.4 GB of Virtuoso's memory and 26 had the kernel end it, and
 *     trap Oxigraph; one expression that names a variable N times makes a string N times as long;
 *   - products: VALUES blocks join into the product of their rows, and each property-path closure (`*`, `+`)
 *     walks the graph from every one of them.
 *
 * The check is a walk over a tree whose depth `prepareQuery` has already bounded (MAX_AST_DEPTH), so it may
 * recurse. It is a pure function of the AST, decided in the parse worker with the rest of the policy.
 */
import type sparqljs from 'sparqljs';

export interface CostLimits {
  /** Branches of one UNION (`{…} UNION {…} UNION …`). */
  maxUnionWidth: number;
  /** UNION branches in the whole query, nested ones included. */
  maxUnionBranches: number;
  /** OPTIONALs directly in one group. */
  maxSiblingOptionals: number;
  /** OPTIONALs in the whole query. */
  maxOptionals: number;
  /** Triple and path patterns in the whole query (EXISTS, MINUS and subqueries included). */
  maxPatterns: number;
  /** How many times longer than the longest value in the data a string built by the query's expressions may be. */
  maxStringGrowth: number;
  /** Rows of the VALUES blocks multiplied together, times the property-path closures that may start from them. */
  maxValuesProduct: number;
  /** Property-path closures (`*`, `+`) in the whole query. */
  maxClosures: number;
  /** Closures nested inside closures (`(p*)*`: each level walks the graph from every node the level above reaches). */
  maxClosureNesting: number;
}

/**
 * The endpoint's limits: far above what a research query writes (the example queries of src/sparql/examples.ts
 * and the service's own queries stay below a tenth of each), and far below the shapes that took a store down.
 * test/endpoints/sparql-growth.test.ts checks that nothing within them traps Oxigraph or holds Virtuoso.
 */
export const COST_LIMITS: Readonly<CostLimits> = Object.freeze({
  maxUnionWidth: 64,
  maxUnionBranches: 256,
  maxSiblingOptionals: 32,
  maxOptionals: 128,
  maxPatterns: 1000,
  maxStringGrowth: 1024,
  maxValuesProduct: 100_000,
  maxClosures: 16,
  maxClosureNesting: 2,
});

/** Where the limits are explained, named by every refusal. */
const SEE = 'see "Query cost" in the endpoint\'s documentation (docs/sparql.md)';

/** The refusal of a query with more UNION branches than `max` in all (also said before the parse, query-bounds.ts). */
export const unionBranchesMessage = (max: number): string => `The query has more than ${max} UNION branches in all; this endpoint accepts at most ${max} (${SEE}).`;

/** The refusal of a query with more OPTIONALs than `max` in all (also said before the parse, query-bounds.ts). */
export const optionalsMessage = (max: number): string => `The query has more than ${max} OPTIONALs in all; this endpoint accepts at most ${max} (${SEE}).`;

type Node = Readonly<Record<string, unknown>>;
type Pattern = sparqljs.Pattern;
type Expression = sparqljs.Expression;

const isObject = (value: unknown): value is Node => typeof value === 'object' && value !== null;
const isVariable = (value: unknown): value is sparqljs.VariableTerm => isObject(value) && value.termType === 'Variable';

/** The factor of a REPLACE whose replacement is not a constant: it may hold a whole value of the data, at every match. */
const VARIABLE_REPLACEMENT = 64;
/** Characters that make a REPLACE pattern a regular expression rather than a plain string. */
const REGEX_SYNTAX = /[\\^$.|?*+()[\]{}]/;

/** The literal text of a constant term, or undefined for anything else. */
const constantText = (term: unknown): string | undefined => (isObject(term) && term.termType === 'Literal' ? String(term.value) : undefined);

/**
 * How many times longer than its input REPLACE's answer may be. A replacement of L characters and k group
 * references (`$1`, each at most the match) puts at most L + k characters per character of input, plus the
 * character itself (a pattern that matches the empty string matches between all of them): 1 + L + k. A plain
 * pattern of n characters consumes n per match, so "é" → "e" keeps the length. A replacement computed from
 * the data may be a whole value at every match: VARIABLE_REPLACEMENT times its own growth.
 */
function replaceFactor(pattern: unknown, replacement: unknown, replacementGrowth: number): number {
  const text = constantText(replacement);
  if (text === undefined) return 1 + VARIABLE_REPLACEMENT * replacementGrowth;
  const references = (text.match(/\$\d/g) ?? []).length;
  const literal = text.length - 2 * references;
  const plain = constantText(pattern);
  if (plain !== undefined && plain.length > 0 && !REGEX_SYNTAX.test(plain)) return Math.max(1, Math.ceil((literal + references * plain.length) / plain.length));
  return 1 + literal + references;
}

/**
 * How many times longer than its first argument a function's answer may be: CONCAT is the sum of its
 * arguments, REPLACE as `replaceFactor` says, ENCODE_FOR_URI writes a character as up to 12 (a four-byte UTF-8
 * character as four `%XX`), the other string functions keep or shorten their first argument. Unknown functions
 * are taken as the longest of their arguments.
 */
function growth(operator: string, grown: readonly number[], args: readonly unknown[]): number {
  const first = grown[0] ?? 1;
  switch (operator) {
    case 'concat':
      return grown.reduce((sum, g) => sum + g, 0);
    case 'replace':
      return first * replaceFactor(args[1], args[2], grown[2] ?? 1);
    case 'encode_for_uri':
      return 12 * first;
    default:
      return grown.reduce((most, g) => Math.max(most, g), 1);
  }
}

class CostWalk {
  private unionBranches = 0;
  private optionals = 0;
  private patterns = 0;
  private closures = 0;
  private valuesProduct = 1;
  /** The growth of each variable bound by an expression (BIND, a projection `(… AS ?v)`), the largest binding's. */
  readonly bound = new Map<string, number>();
  /** Expressions that bind a variable, in the order met, so that growth can be followed through chains. */
  readonly bindings: { variable: string; expression: Expression }[] = [];
  /** Every expression of the query, to measure the largest string any of them builds. */
  readonly expressions: Expression[] = [];

  constructor(private readonly limits: Readonly<CostLimits>) {}

  query(query: Node): string | undefined {
    const variables = query.variables;
    const expressions: { variable?: string; expression: Expression }[] = [];
    if (Array.isArray(variables)) {
      for (const v of variables) {
        if (isObject(v) && 'expression' in v && isVariable(v.variable)) expressions.push({ variable: v.variable.value, expression: v.expression as Expression });
      }
    }
    for (const key of ['group', 'order'] as const) {
      const list = query[key];
      if (Array.isArray(list)) for (const item of list) if (isObject(item) && 'expression' in item) expressions.push({ expression: item.expression as Expression });
    }
    if (Array.isArray(query.having)) for (const e of query.having) expressions.push({ expression: e as Expression });
    // The WHERE clause first, as the store evaluates it: its bindings are met before the projections that use them.
    const found = Array.isArray(query.where) ? this.group(query.where as Pattern[]) : undefined;
    if (found !== undefined) return found;
    for (const { variable, expression } of expressions) {
      const inExpression = variable === undefined ? this.expression(expression) : this.binding(variable, expression);
      if (inExpression !== undefined) return inExpression;
    }
    return Array.isArray(query.values) ? this.values(query.values as sparqljs.ValuePatternRow[]) : undefined;
  }

  private binding(variable: string, expression: Expression): string | undefined {
    this.bindings.push({ variable, expression });
    return this.expression(expression);
  }

  /** Records an expression, and walks the patterns of its EXISTS / NOT EXISTS. */
  private expression(expression: Expression): string | undefined {
    this.expressions.push(expression);
    return this.existsIn(expression);
  }

  private existsIn(node: unknown): string | undefined {
    if (Array.isArray(node)) {
      for (const item of node) {
        const found = this.existsIn(item);
        if (found !== undefined) return found;
      }
      return undefined;
    }
    if (!isObject(node) || typeof node.termType === 'string') return undefined;
    if (node.type === 'operation' && (node.operator === 'exists' || node.operator === 'notexists')) {
      return this.group(node.args as Pattern[]);
    }
    for (const key of ['args', 'expression'] as const) {
      const found = this.existsIn(node[key]);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /** The patterns of one group: counts what they hold, and checks the limits as they are passed. */
  group(patterns: readonly Pattern[]): string | undefined {
    let siblingOptionals = 0;
    for (const pattern of patterns) {
      const found = this.pattern(pattern as unknown as Node);
      if (found !== undefined) return found;
      if (pattern.type === 'optional' && ++siblingOptionals > this.limits.maxSiblingOptionals) {
        return `The query has more than ${this.limits.maxSiblingOptionals} OPTIONALs side by side in one group; this endpoint accepts at most ${this.limits.maxSiblingOptionals} (${SEE}).`;
      }
    }
    return undefined;
  }

  private pattern(pattern: Node): string | undefined {
    const { limits } = this;
    switch (pattern.type) {
      case 'bgp':
        for (const triple of pattern.triples as sparqljs.Triple[]) {
          const found = this.triple(triple);
          if (found !== undefined) return found;
        }
        return undefined;
      case 'union': {
        const branches = pattern.patterns as Pattern[];
        if (branches.length > limits.maxUnionWidth) {
          return `The query has a UNION of ${branches.length} branches; this endpoint accepts at most ${limits.maxUnionWidth} in one UNION (${SEE}); VALUES lists alternatives at a fraction of the cost.`;
        }
        this.unionBranches += branches.length;
        if (this.unionBranches > limits.maxUnionBranches) {
          return unionBranchesMessage(limits.maxUnionBranches);
        }
        for (const branch of branches) {
          const found = this.group(branch.type === 'group' ? branch.patterns : [branch]);
          if (found !== undefined) return found;
        }
        return undefined;
      }
      case 'optional':
        if (++this.optionals > limits.maxOptionals) {
          return optionalsMessage(limits.maxOptionals);
        }
        return this.group(pattern.patterns as Pattern[]);
      case 'group':
      case 'minus':
      case 'graph':
      case 'service':
        return this.group(pattern.patterns as Pattern[]);
      case 'filter':
        return this.expression(pattern.expression as Expression);
      case 'bind':
        return this.binding((pattern.variable as sparqljs.VariableTerm).value, pattern.expression as Expression);
      case 'values':
        return this.values(pattern.values as sparqljs.ValuePatternRow[]);
      case 'query':
        return this.query(pattern);
      default:
        return undefined;
    }
  }

  private values(rows: readonly sparqljs.ValuePatternRow[]): string | undefined {
    this.valuesProduct *= Math.max(1, rows.length);
    return this.productCheck();
  }

  private productCheck(): string | undefined {
    const { limits } = this;
    if (this.valuesProduct * Math.max(1, this.closures) > limits.maxValuesProduct) {
      return `The query's VALUES blocks join into more than ${limits.maxValuesProduct} rows (their row counts multiplied together, times the property-path closures * and + that start from them); this endpoint accepts at most ${limits.maxValuesProduct} (${SEE}).`;
    }
    return undefined;
  }

  private triple(triple: sparqljs.Triple): string | undefined {
    const { limits } = this;
    if (++this.patterns > limits.maxPatterns) {
      return `The query has more than ${limits.maxPatterns} triple patterns; this endpoint accepts at most ${limits.maxPatterns} (${SEE}).`;
    }
    const predicate = triple.predicate as unknown;
    if (!isObject(predicate) || predicate.type !== 'path') return undefined;
    const { closures, nesting } = closuresOf(predicate);
    if (nesting > limits.maxClosureNesting) {
      return `The query nests property-path closures (* or +) ${nesting} deep; this endpoint accepts at most ${limits.maxClosureNesting} (${SEE}).`;
    }
    this.closures += closures;
    if (this.closures > limits.maxClosures) {
      return `The query has more than ${limits.maxClosures} property-path closures (* or +); this endpoint accepts at most ${limits.maxClosures} (${SEE}).`;
    }
    return this.productCheck();
  }
}

/** The closures (`*`, `+`) of a property path, and how deeply they nest. */
function closuresOf(path: Node): { closures: number; nesting: number } {
  let closures = 0;
  let nesting = 0;
  for (const item of path.items as unknown[]) {
    if (!isObject(item) || item.type !== 'path') continue;
    const inner = closuresOf(item);
    closures += inner.closures;
    nesting = Math.max(nesting, inner.nesting);
  }
  if (path.pathType === '*' || path.pathType === '+') return { closures: closures + 1, nesting: nesting + 1 };
  return { closures, nesting };
}

/**
 * How many times longer than the longest value in the data the string `expression` builds may be, given the
 * growth of the variables bound so far: a variable of the data is 1, a constant 1 (the text bounds bound its
 * length), a function's answer as `growth` says. Capped just past `cap`, since only "over the limit" matters.
 */
function expressionGrowth(expression: unknown, bound: ReadonlyMap<string, number>, cap: number): number {
  if (!isObject(expression)) return 1;
  if (isVariable(expression)) return bound.get(expression.value) ?? 1;
  if (typeof expression.termType === 'string') return 1;
  let result = 1;
  if (expression.type === 'operation' || expression.type === 'functionCall') {
    const args = Array.isArray(expression.args) ? expression.args : [];
    // EXISTS' argument is patterns, not a string.
    const grown = expression.operator === 'exists' || expression.operator === 'notexists' ? [] : args.map((a: unknown) => expressionGrowth(a, bound, cap));
    result = growth(typeof expression.operator === 'string' ? expression.operator : '', grown, args);
  } else if (expression.type === 'aggregate') {
    result = expressionGrowth(expression.expression, bound, cap);
  }
  return Math.min(result, cap + 1);
}

/**
 * Passes over the bindings. The walk meets them in the order the store evaluates them (a group's patterns in
 * order, a subquery's WHERE before its projections), so a chain of BINDs settles in one pass and a second finds
 * nothing changed; a chain written against that order (which a store does not grow, since a BIND sees only
 * what precedes it) settles one link per pass, and nesting bounds how many such turns a query can take.
 */
const MAX_PASSES = 80;

/**
 * The growth of the variables the query binds by expressions, followed through chains however they are
 * written (`BIND(CONCAT(?a, ?a) AS ?b)` then `?b` in the next).
 */
function boundGrowth(walk: CostWalk, cap: number): Map<string, number> {
  const bound = new Map<string, number>();
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    let changed = false;
    for (const { variable, expression } of walk.bindings) {
      const g = expressionGrowth(expression, bound, cap);
      if (g > (bound.get(variable) ?? 1)) {
        bound.set(variable, g);
        changed = true;
      }
    }
    if (!changed) break;
  }
  return bound;
}

/** Why the parsed query `ast` costs more than `limits` allow (a message naming the limit), or undefined. */
export function costViolation(ast: sparqljs.Query, limits: Readonly<CostLimits> = COST_LIMITS): string | undefined {
  const walk = new CostWalk(limits);
  const found = walk.query(ast as unknown as Node);
  if (found !== undefined) return found;
  const cap = limits.maxStringGrowth;
  const bound = boundGrowth(walk, cap);
  const grows = walk.expressions.some((e) => expressionGrowth(e, bound, cap) > cap);
  if (grows) {
    return `The query builds strings that grow more than ${cap} times the longest value of the data (a string function applied to its own output, such as BIND(CONCAT(?a, ?a) AS ?b) in a chain, doubles at each step); this endpoint accepts at most ${cap} times (${SEE}).`;
  }
  return undefined;
}
