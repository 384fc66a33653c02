/**
 * Generations on a remote SPARQL server (docs/remote-store.md): every graph of generation G is stored under a
 * prefixed name, `urn:x-museum-ld:g:<G>:p:<graph IRI>` for the public quads and `…:n:<graph IRI>` for the
 * non-public ones, beside one union graph of G's public quads (the SPARQL endpoint's default graph). A new
 * generation is written next to the served one, and switching is the change of one prefix in the app.
 *
 * Queries are written for the data model (graph name = record IRI), so the store rewrites each one on its
 * parsed form (sparqljs) before sending it, to read exactly the graphs of one *view*: the served generation's
 * public graphs (the SPARQL endpoint), or its public and non-public graphs (the REST API). This module is the
 * rewrite's entry; its rules live beside it, each file with its own table:
 *
 *   generation-graphs.ts   the graph names of a generation, and the views of one
 *   generation-scope.ts    GRAPH <g>, GRAPH ?g, VALUES of graph IRIs, the default graph, FROM and FROM NAMED:
 *                          every graph name prefixed, every pattern outside GRAPH read from the view's default graph
 *   virtuoso-dialect.ts    the forms Virtuoso 7.2 runs: MINUS, EXISTS as a value, EXISTS in a GRAPH, empty GRAPH,
 *                          DESCRIBE, SELECT *, trailing VALUES, xsd:gYear ordering, boolean answers
 *   rewrite-policy.ts      what is refused: bounds, updates, SERVICE, every function but the XSD casts
 *   rewrite-ast.ts         the variables and patterns of a parsed query
 *
 * No text of the client's reaches the server: the query is regenerated from the rewritten AST, so the server's
 * own pragmas (`define …`) cannot be written either. Whatever the client names, it is prefixed, so no query
 * reads another generation's graphs or, in the public view, a non-public one.
 */
import sparqljs from 'sparqljs';
import type { GraphView } from './generation-graphs.js';
import { Rewriter, type RewriteOptions } from './generation-scope.js';
import { parseForView } from './rewrite-policy.js';
import { bindValueExists, booleanVariables, describeAsConstruct, leadTrailingValues, projectWildcard, rewriteMinus } from './virtuoso-dialect.js';

export { EMPTY_GRAPH, GENERATIONS_GRAPH, generationGraphs, type GenerationGraphs, type GraphView } from './generation-graphs.js';
export type { RewriteOptions } from './generation-scope.js';

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

/** The query `text` rewritten to read only the graphs of `view`; throws `QueryError` for what cannot run. */
export function rewriteForView(text: string, view: GraphView, options: RewriteOptions): ViewQuery {
  const { ast, ...rest } = rewriteAstForView(text, view, options);
  return { text: generator.stringify(ast), ...rest };
}

/** `rewriteForView` before the rewritten query is written out (query-templates.ts keeps it, to fill it in). */
export function rewriteAstForView(text: string, view: GraphView, options: RewriteOptions): Omit<ViewQuery, 'text'> & { ast: sparqljs.SparqlQuery } {
  const parsed = parseForView(text, options.baseIri);
  const query = parsed.queryType === 'DESCRIBE' ? describeAsConstruct(parsed) : parsed;
  leadTrailingValues(query);
  // `SELECT *` is the query's own in-scope variables, listed before MINUS is rewritten with variables of its own.
  if (query.queryType === 'SELECT') projectWildcard(query);
  rewriteMinus(query);
  if (query.queryType === 'SELECT') bindValueExists(query);
  const rewriter = new Rewriter(view, query);
  const rewritten = rewriter.rewrite(options);
  return { ast: rewritten, limit: (rewritten as { limit?: number }).limit, booleans: booleanVariables(rewritten), hidden: rewriter.ownVariables() };
}
