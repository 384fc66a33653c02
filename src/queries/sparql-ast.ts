/**
 * What the code that reads parsed SPARQL (sparqljs) shares: one parser per base IRI (a parser resets its
 * prefixes and blank nodes at every parse, so one serves every request), and one walk over an AST. The SPARQL
 * endpoint's policy and the remote store's rewrite both use them.
 */
import sparqljs from 'sparqljs';

const parsers = new Map<string, sparqljs.SparqlParser>();

/** The parser that resolves relative IRIs against `baseIri`. */
export function parserFor(baseIri: string): sparqljs.SparqlParser {
  let parser = parsers.get(baseIri);
  if (!parser) {
    parser = new sparqljs.Parser({ baseIRI: baseIri });
    parsers.set(baseIri, parser);
  }
  return parser;
}

/**
 * Calls `visit` on every object of `node` (patterns, expressions, VALUES rows, RDF/JS terms), parents before
 * their children, depth first in property order; `visit` returns false to leave a node's children out, true
 * to stop the whole walk. Returns true when the walk was stopped. The walk keeps its own stack rather than
 * recursing, so no depth of tree can overflow the call stack.
 */
export function walkAst(node: unknown, visit: (node: Readonly<Record<string, unknown>>) => boolean | void): boolean {
  // Each frame is a list of values still to walk and the index of the next one: an array's items, or an
  // object's property values (read once the object is visited, as the recursive walk read them).
  const lists: unknown[][] = [[node]];
  const next: number[] = [0];
  while (lists.length > 0) {
    const top = lists.length - 1;
    const list = lists[top] as unknown[];
    const at = next[top] as number;
    if (at >= list.length) {
      lists.pop();
      next.pop();
      continue;
    }
    next[top] = at + 1;
    const value = list[at];
    if (Array.isArray(value)) {
      lists.push(value);
      next.push(0);
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    const verdict = visit(value as Record<string, unknown>);
    if (verdict === true) return true;
    if (verdict === false) continue;
    lists.push(Object.values(value));
    next.push(0);
  }
  return false;
}

/**
 * The depth of `node` counted in objects (arrays are not levels): a query's root is 1, its WHERE group 2, and
 * so on. Counting stops once it passes `stopAbove`. Iterative, like `walkAst`: the tree a long chain of
 * operators parses into (`?a || ?b || …`, one level per operator) can be far deeper than its text is nested.
 */
export function astDepth(node: unknown, stopAbove = Number.POSITIVE_INFINITY): number {
  let deepest = 0;
  const values: unknown[] = [node];
  const depths: number[] = [0];
  while (values.length > 0) {
    const value = values.pop();
    const depth = depths.pop() as number;
    if (Array.isArray(value)) {
      for (const item of value) {
        values.push(item);
        depths.push(depth);
      }
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth + 1 > deepest) {
      deepest = depth + 1;
      if (deepest > stopAbove) return deepest;
    }
    for (const child of Object.values(value)) {
      values.push(child);
      depths.push(depth + 1);
    }
  }
  return deepest;
}
