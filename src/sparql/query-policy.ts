/**
 * What the endpoint lets a query do, decided on the parsed query (sparqljs), never on its text:
 *   - updates are refused (403): the endpoint is read-only;
 *   - SERVICE is refused (400) wherever it occurs (nested groups, subqueries, EXISTS): no query reaches the network;
 *   - the protocol's default-graph-uri / named-graph-uri replace the query's FROM / FROM NAMED (SPARQL 1.1
 *     Protocol §2.1.4); without any dataset the default graph is the union of all graphs of the public store;
 *   - a query asking more than `maxRows` solutions (no LIMIT, or a larger one) gets LIMIT `maxRows`.
 * The query the store runs is the client's text when nothing changes, else the query regenerated from the AST.
 */
import sparqljs from 'sparqljs';
import { DataFactory } from 'n3';
import { BadRequestError, ForbiddenError } from '../http/errors.js';

export type QueryForm = 'select' | 'construct' | 'describe' | 'ask';

/** Graphs named by the protocol request (absolute IRIs). */
export interface ProtocolDataset {
  defaultGraphs: readonly string[];
  namedGraphs: readonly string[];
}

export interface PolicyOptions {
  /** Base IRI of relative IRIs in queries: the endpoint's own URL ("which MAY be the service endpoint"). */
  baseIri: string;
  /** The most solutions a query may return. */
  maxRows: number;
}

/** A query the store may run, with what the endpoint decided about it. */
export interface PreparedQuery {
  form: QueryForm;
  /** The text the store runs. */
  text: string;
  /** True when no dataset is given: the default graph is then the union of all graphs. */
  unionDefaultGraph: boolean;
  /** True when the query's LIMIT was lowered (or added) to the row cap. */
  rowCapApplied: boolean;
}

export const UPDATE_REFUSED =
  'This SPARQL endpoint is read-only: updates (INSERT, DELETE, LOAD, CLEAR, CREATE, DROP, COPY, MOVE, ADD) are refused.';
export const SERVICE_REFUSED = 'SERVICE is not allowed: a query on this endpoint cannot reach other endpoints.';

type Limited = sparqljs.Query & { limit?: number };

// A parser resets its prefixes and blank nodes at every parse, so one per base IRI serves every request.
const parsers = new Map<string, sparqljs.SparqlParser>();
const parserFor = (baseIri: string): sparqljs.SparqlParser => {
  let parser = parsers.get(baseIri);
  if (!parser) {
    parser = new sparqljs.Parser({ baseIRI: baseIri });
    parsers.set(baseIri, parser);
  }
  return parser;
};
const generator = new sparqljs.Generator();

/** True when any node of the query AST (patterns, subqueries, EXISTS in expressions) is a SERVICE pattern. */
export function usesService(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(usesService);
  if (typeof node !== 'object' || node === null) return false;
  // RDF/JS terms carry termType, never a pattern type; strings and numbers end the walk.
  if ((node as { type?: unknown }).type === 'service') return true;
  return Object.values(node).some(usesService);
}

/** True for a SELECT of aggregates without GROUP BY: its answer has exactly one row, so no cap is needed. */
function singleRow(query: sparqljs.Query): boolean {
  if (query.queryType !== 'SELECT' || query.group !== undefined || query.having !== undefined) return false;
  const variables = query.variables as unknown[];
  return variables.length > 0 && variables.every((v) => typeof v === 'object' && v !== null && 'expression' in v && isAggregate((v as { expression: unknown }).expression));
}

const isAggregate = (expression: unknown): boolean => typeof expression === 'object' && expression !== null && (expression as { type?: unknown }).type === 'aggregate';

/** The parser's message (with its line and pointer), as the client's own query is the only thing it shows. */
const syntaxMessage = (err: unknown): string => {
  const text = err instanceof Error ? err.message : String(err);
  return `Invalid SPARQL query: ${text.trim()}`;
};

/** Parses and checks `query` against the endpoint's policy; throws 403 for updates and 400 otherwise. */
export function prepareQuery(query: string, dataset: ProtocolDataset, options: PolicyOptions): PreparedQuery {
  let parsed: sparqljs.SparqlQuery;
  try {
    parsed = parserFor(options.baseIri).parse(query);
  } catch (err) {
    throw new BadRequestError(syntaxMessage(err));
  }
  if (parsed.type === 'update') throw new ForbiddenError(UPDATE_REFUSED);
  if (usesService(parsed)) throw new BadRequestError(SERVICE_REFUSED);

  const ast = parsed as Limited;
  let rewrite = false;
  const protocolDataset = dataset.defaultGraphs.length > 0 || dataset.namedGraphs.length > 0;
  if (protocolDataset) {
    ast.from = {
      default: dataset.defaultGraphs.map((iri) => DataFactory.namedNode(iri)),
      named: dataset.namedGraphs.map((iri) => DataFactory.namedNode(iri)),
    };
    rewrite = true;
  }
  const hasDataset = ast.from !== undefined && (ast.from.default.length > 0 || ast.from.named.length > 0);

  let rowCapApplied = false;
  if (ast.queryType !== 'ASK' && !singleRow(ast) && (ast.limit === undefined || ast.limit > options.maxRows)) {
    ast.limit = options.maxRows;
    rowCapApplied = true;
    rewrite = true;
  }

  // Relative IRIs resolve against the endpoint: the parser resolved them in the AST; an unchanged text gets
  // the endpoint as its outer BASE (a BASE of the query's own, written after it, still wins).
  const text = rewrite ? generator.stringify(ast) : `BASE <${options.baseIri}>\n${query}`;
  return { form: ast.queryType.toLowerCase() as QueryForm, text, unionDefaultGraph: !hasDataset, rowCapApplied };
}
