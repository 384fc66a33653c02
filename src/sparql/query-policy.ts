/**
 * What the endpoint lets a query do, decided on the parsed query (sparqljs), never on its text:
 *   - updates are refused (403): the endpoint is read-only;
 *   - SERVICE is refused (400) wherever it occurs (nested groups, subqueries, EXISTS): no query reaches the network;
 *   - the protocol's default-graph-uri / named-graph-uri replace the query's FROM / FROM NAMED (SPARQL 1.1
 *     Protocol §2.1.4); without any dataset the default graph is the union of all graphs of the public store;
 *   - a query asking more than `maxRows` solutions (no LIMIT, or a larger one) gets LIMIT `maxRows`.
 * The query the store runs is the client's text when nothing changes, else the query regenerated from the AST.
 * Before any parse, the text must keep the bounds of query-bounds.ts (nesting depth, length), and the parsed
 * tree a depth (long operator chains parse deep): past them the answer is 400 at once, naming the limit. The
 * parsed query must then keep the cost limits of query-cost.ts (UNION width, OPTIONALs, string growth, products).
 * The verdict is a pure function of the query text, the protocol dataset, the base IRI and the row cap, so
 * `QueryPolicy` keeps it per text and dataset in a bounded LRU: a repeated query costs a map look-up, not a
 * parse (about 0.2-1 ms), a walk and a regeneration. What is not in the cache is decided in the parse worker
 * (src/sparql/parse-worker.ts), off the event loop, within its time budget.
 */
import { createHash } from 'node:crypto';
import sparqljs from 'sparqljs';
import { DataFactory } from 'n3';
import { BadRequestError, ForbiddenError, ServiceUnavailableError } from '../http/errors.js';
import { ParseBudgetError, ParseBusyError, ParseRefusedError } from './parse-errors.js';
import { boundsViolation, MAX_AST_DEPTH, treeTooDeepMessage } from '../queries/query-bounds.js';
import { costViolation } from '../queries/query-cost.js';
import { astDepth, parserFor, walkAst } from '../queries/sparql-ast.js';
import { BoundedLru } from './bounded-lru.js';

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
  /**
   * The query as the endpoint decided to run it, blind to layout, comments and prefix names: a sha256 of the
   * canonical JSON of the rewritten AST (see `normalisedKey`). Equal keys mean equal queries over equal datasets.
   */
  normalised: string;
}

export const UPDATE_REFUSED =
  'This SPARQL endpoint is read-only: updates (INSERT, DELETE, LOAD, CLEAR, CREATE, DROP, COPY, MOVE, ADD) are refused.';
export const SERVICE_REFUSED = 'SERVICE is not allowed: a query on this endpoint cannot reach other endpoints.';

type Limited = sparqljs.Query & { limit?: number };

const generator = new sparqljs.Generator();

/** True when any node of the query AST (patterns, subqueries, EXISTS in expressions) is a SERVICE pattern. */
export function usesService(node: unknown): boolean {
  // RDF/JS terms carry termType, never a pattern type.
  return walkAst(node, (n) => n.type === 'service' || undefined);
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

/**
 * Terms (RDF/JS objects, whose `termType` may sit on the prototype, as sparqljs's wildcard's does) are written
 * with their type, and `undefined` (UNDEF in VALUES) as a marker, since JSON.stringify would drop both.
 */
const UNDEF = { undef: true };
function canonical(_key: string, value: unknown): unknown {
  if (value === undefined) return UNDEF;
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as { termType?: unknown }).termType === 'string') {
    const term = value as { termType: string; value?: unknown };
    return { termType: term.termType, value: term.value, ...value };
  }
  return value;
}

/**
 * The result cache's key of a checked, rewritten AST: its JSON without the prefix map (every prefixed name
 * is already expanded in the AST), terms typed, UNDEF kept, hashed. The base IRI stays in it, since IRI("x")
 * resolves against it when the query runs.
 */
function normalisedKey(ast: sparqljs.SparqlQuery): string {
  const { prefixes: _prefixes, ...rest } = ast;
  return createHash('sha256').update(JSON.stringify(rest, canonical), 'utf8').digest('base64url');
}

/** Parses and checks `query` against the endpoint's policy; throws 403 for updates and 400 otherwise. */
export function prepareQuery(query: string, dataset: ProtocolDataset, options: PolicyOptions): PreparedQuery {
  const violation = boundsViolation(query);
  if (violation !== undefined) throw new BadRequestError(violation);
  let parsed: sparqljs.SparqlQuery;
  try {
    parsed = parserFor(options.baseIri).parse(query);
  } catch (err) {
    throw new BadRequestError(syntaxMessage(err));
  }
  // The regeneration, the cache key's JSON and the store's own parser all recurse over this tree.
  if (astDepth(parsed, MAX_AST_DEPTH) > MAX_AST_DEPTH) throw new BadRequestError(treeTooDeepMessage());
  if (parsed.type === 'update') throw new ForbiddenError(UPDATE_REFUSED);
  if (usesService(parsed)) throw new BadRequestError(SERVICE_REFUSED);
  const tooCostly = costViolation(parsed);
  if (tooCostly !== undefined) throw new BadRequestError(tooCostly);

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
  return { form: ast.queryType.toLowerCase() as QueryForm, text, unionDefaultGraph: !hasDataset, rowCapApplied, normalised: normalisedKey(ast) };
}

/** A cached verdict: the prepared query, or the refusal (status and message) to throw again. */
type Verdict = { prepared: Readonly<PreparedQuery> } | { refused: { status: 400 | 403; message: string } };

/** Bounds of the verdict cache: entries, and characters held (keys, texts), counted as UTF-16 bytes. */
const VERDICT_ENTRIES = 1000;
const VERDICT_BYTES = 16 * 2 ** 20;
const VERDICT_OVERHEAD = 256;

/** Where `QueryPolicy` has `prepareQuery` run: the parse worker (ParseWorker), or any stand-in with its errors. */
export interface QueryPreparer {
  /** The prepared query; rejects with ParseRefusedError, ParseBudgetError, ParseBusyError (or the HTTP errors of `prepareQuery`). */
  prepare(query: string, dataset: ProtocolDataset, options: PolicyOptions): Promise<PreparedQuery>;
  /** Gets ready ahead of the first query (the parse worker starts its thread). */
  warm?(): void;
}

/** The 503 of a query that found the parse worker's queue full. */
export const PARSE_BUSY_MESSAGE = 'The SPARQL endpoint is busy (too many queries are waiting to be parsed); retry shortly.';

/** The 400 of a query the parse worker could not finish within its budget. */
export const tooComplexMessage = (budgetMs: number): string =>
  `The query is too complex to parse within ${budgetMs} ms; simplify it (fewer or shorter patterns, less nesting).`;

const thrown = ({ status, message }: { status: 400 | 403; message: string }): Error => (status === 403 ? new ForbiddenError(message) : new BadRequestError(message));

/**
 * `prepareQuery` for one endpoint (base IRI, row cap), remembering the verdicts of the texts it was last asked.
 * The cache and the bounds check stay on the calling thread; a text not in the cache is prepared by
 * `preparer` (the parse worker), once however many requests ask it at the same time.
 */
export class QueryPolicy {
  private readonly verdicts = new BoundedLru<string, Verdict>({ maxEntries: VERDICT_ENTRIES, maxWeight: VERDICT_BYTES });
  private readonly deciding = new Map<string, Promise<Verdict>>();

  constructor(
    private readonly options: PolicyOptions,
    private readonly preparer: QueryPreparer,
  ) {}

  /** The verdict of `query` over `dataset`: the prepared query, or the same 400/403 as `prepareQuery` (503 when the parse worker is full). */
  async prepare(query: string, dataset: ProtocolDataset): Promise<Readonly<PreparedQuery>> {
    // IRIs cannot hold whitespace (protocol-request.ts checks them), so the separators are unambiguous.
    const key = `${dataset.defaultGraphs.join(' ')}\n${dataset.namedGraphs.join(' ')}\n${query}`;
    const verdict = this.verdicts.get(key) ?? (await this.decide(key, query, dataset));
    if ('prepared' in verdict) return verdict.prepared;
    throw thrown(verdict.refused);
  }

  private decide(key: string, query: string, dataset: ProtocolDataset): Promise<Verdict> {
    // Nested or oversized texts are refused here, in one pass over the characters: no worker hop, no parse.
    const violation = boundsViolation(query);
    if (violation !== undefined) return Promise.resolve(this.remember(key, { refused: { status: 400, message: violation } }));
    let running = this.deciding.get(key);
    if (running === undefined) {
      running = this.ask(key, query, dataset).finally(() => this.deciding.delete(key));
      this.deciding.set(key, running);
    }
    return running;
  }

  private async ask(key: string, query: string, dataset: ProtocolDataset): Promise<Verdict> {
    try {
      const prepared = Object.freeze(await this.preparer.prepare(query, dataset, this.options));
      return this.remember(key, { prepared });
    } catch (err) {
      // Only the policy's own refusals are verdicts. A parse past the budget is not: it depends on the load of
      // the moment (and a changed comment makes a new text anyway). Nor is a full queue, or a bug.
      if (err instanceof ParseRefusedError) return this.remember(key, { refused: { status: err.status, message: err.message } });
      if (err instanceof ForbiddenError || err instanceof BadRequestError) return this.remember(key, { refused: { status: err.status as 400 | 403, message: err.message } });
      if (err instanceof ParseBudgetError) throw new BadRequestError(tooComplexMessage(err.budgetMs), { cause: err });
      if (err instanceof ParseBusyError) throw new ServiceUnavailableError(1, PARSE_BUSY_MESSAGE, { cause: err });
      throw err;
    }
  }

  private remember(key: string, verdict: Verdict): Verdict {
    const held = 'prepared' in verdict ? verdict.prepared.text.length + verdict.prepared.normalised.length : verdict.refused.message.length;
    this.verdicts.set(key, verdict, 2 * (key.length + held) + VERDICT_OVERHEAD);
    return verdict;
  }
}
