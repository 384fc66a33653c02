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
 * their children; `visit` returns false to leave a node's children out, true to stop the whole walk.
 * Returns true when the walk was stopped.
 */
export function walkAst(node: unknown, visit: (node: Readonly<Record<string, unknown>>) => boolean | void): boolean {
  if (Array.isArray(node)) return node.some((item) => walkAst(item, visit));
  if (typeof node !== 'object' || node === null) return false;
  const verdict = visit(node as Record<string, unknown>);
  if (verdict === true) return true;
  if (verdict === false) return false;
  return Object.values(node).some((value) => walkAst(value, visit));
}
