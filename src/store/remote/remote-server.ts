/**
 * The remote SPARQL server as the store sees it: the SPARQL 1.1 Protocol for queries, and, with credentials,
 * SPARQL 1.1 Update and the Graph Store Protocol for writing generations. Defaults fit a stock Virtuoso
 * (docs/virtuoso-notes.md): queries are POSTed form-encoded (Virtuoso never answers a POST of
 * `application/sparql-query`), N-Quads are asked for as N-Triples (Virtuoso answers 406 to N-Quads; a
 * CONSTRUCT's triples are N-Quads lines of the default graph), and writes go to the digest-protected `-auth`
 * endpoints. The password is held here only and never logged.
 *
 * A serving process marks the server silent when its watchdog (watchdog.ts) gets no answer: every request in
 * flight is then aborted and every new one fails at once with `StoreUnavailableError`, until the server is
 * marked answering again. Without a watchdog (the data commands) the server always counts as answering.
 *
 * Reads are asked again on an answer that says the server is briefly away, within the query's deadline: during
 * a publication's `checkpoint` Virtuoso's HTTP endpoint answered 404 and dropped connections for a moment (4 of
 * 16,535 REST requests got 503). Writes are never repeated here: a write whose answer was lost may have been done.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, fetch as undiciFetch } from 'undici';
import { QueryDeadlineError, QueryError, StoreUnavailableError } from '../errors.js';
import { digestFetch } from './digest-fetch.js';

export interface RemoteServerOptions {
  /** The SPARQL query endpoint, such as http://127.0.0.1:8890/sparql. */
  queryUrl: string;
  /** SPARQL Update endpoint; default `<queryUrl>-auth` (Virtuoso's). */
  updateUrl?: string;
  /** Graph Store Protocol endpoint; default `<origin>/sparql-graph-crud-auth` (Virtuoso's). */
  graphStoreUrl?: string;
  user?: string;
  password?: string;
}

/**
 * An answer the server cut at its row limit (Virtuoso's ResultSetMaxRows), which must never pass as whole. A
 * query error (400 at /sparql): the client can ask for less with LIMIT and OFFSET.
 */
export class TruncatedAnswerError extends QueryError {
  /** Where the server cut the answer. */
  readonly rows: number;

  constructor(rows: number) {
    super(
      `the answer is larger than the SPARQL server delivers in one answer (${rows} rows or triples); ` +
        'ask for fewer with LIMIT and OFFSET (operators: raise the server\'s row limit, docs/remote-store.md)',
    );
    this.name = 'TruncatedAnswerError';
    this.rows = rows;
  }
}

/**
 * The server refused STORE_USER and STORE_PASSWORD. Its message names the settings and the endpoint, never the
 * password, so that it can be printed as the one line a failed start leaves.
 */
export class CredentialsRefusedError extends Error {
  constructor(url: string, status: number) {
    super(`STORE_USER or STORE_PASSWORD is wrong: the SPARQL server at ${url} refuses them (${status}); set the user and password of a Virtuoso account with SPARQL_UPDATE`);
    this.name = 'CredentialsRefusedError';
  }
}

const N_TRIPLES = 'application/n-triples';

/**
 * Connections to the server at most, per process. Virtuoso gives each open HTTP connection a thread of its
 * ServerThreads (10 on Debian) while it is kept alive; Node's own fetch opens as many as it has requests in
 * flight, so two replicas and a data command starved each other of threads until every request hung.
 */
const MAX_CONNECTIONS = 3;

/** Seconds a client should wait before asking again while the server does not answer. */
const SILENT_RETRY_AFTER_SECONDS = 5;

/**
 * How long after its first request a read is still asked again, in milliseconds (within its deadline when that is
 * shorter): long enough for a checkpoint's pause, short enough that a server that stopped is reported within
 * seconds rather than at every request's deadline (the watchdog then marks it silent, and reads fail at once).
 */
const RETRY_WINDOW_MS = 5_000;

/** The wait before the `attempt`th repeat of a read: 50 ms, doubling, at most a second. */
const retryWait = (attempt: number): number => Math.min(1000, 50 * 2 ** (attempt - 1));

/** Socket failures of a server that is restarting or checkpointing: the connection refused, reset or closed. */
const TRANSIENT_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

/** A failure of one read attempt that a moment later may not recur, and the error to give if it does. */
class TransientFailure extends Error {
  constructor(readonly error: Error) {
    super(error.message);
  }
}

export class RemoteServer {
  readonly queryUrl: string;
  private readonly agent = new Agent({ connections: MAX_CONNECTIONS, keepAliveTimeout: 500, keepAliveMaxTimeout: 1_000 });
  readonly updateUrl: string;
  readonly graphStoreUrl: string;
  private readonly authFetch: ((url: string, init?: RequestInit) => Promise<Response>) | undefined;
  /**
   * The probe's own connections: the pool above may be full of requests the server never answers. No
   * keep-alive (pipelining 0), so a probe holds none of the server's threads between probes.
   */
  private readonly probeAgent = new Agent({ connections: 1, pipelining: 0 });
  /** Requests sent and not yet answered, aborted when the server is marked silent. */
  private readonly inFlight = new Set<AbortController>();
  /** Why the server counts as not answering (the watchdog's last failed probe); undefined while it answers. */
  private silence: string | undefined;

  constructor(options: RemoteServerOptions) {
    this.queryUrl = options.queryUrl;
    this.updateUrl = options.updateUrl ?? `${options.queryUrl}-auth`;
    this.graphStoreUrl = options.graphStoreUrl ?? `${new URL(options.queryUrl).origin}/sparql-graph-crud-auth`;
    this.authFetch =
      options.user !== undefined && options.password !== undefined
        ? digestFetch(options.user, options.password, (url, init) => undiciFetch(url, { ...(init as object), dispatcher: this.agent }) as unknown as Promise<Response>)
        : undefined;
  }

  /** False while the watchdog finds that the server does not answer (always true without a watchdog). */
  get answering(): boolean {
    return this.silence === undefined;
  }

  /** Marks the server as not answering: requests in flight are aborted and new ones fail at once. */
  markSilent(reason: string): void {
    this.silence = reason;
    for (const controller of this.inFlight) controller.abort(this.silentError());
  }

  /** Marks the server as answering again. */
  markAnswering(): void {
    this.silence = undefined;
  }

  /**
   * Asks the server a trivial query (`ASK {}`) on a connection of its own; resolves when it answers 2xx within
   * `timeoutMs`, rejects with the reason otherwise.
   */
  async probe(timeoutMs: number): Promise<void> {
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const response = await undiciFetch(this.queryUrl, {
        dispatcher: this.probeAgent,
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/sparql-results+json' },
        body: new URLSearchParams({ query: 'ASK {}' }).toString(),
        signal,
      });
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`ASK {} answered ${response.status}`);
    } catch (err) {
      if (signal.aborted) throw new Error(`no answer to ASK {} within ${timeoutMs} ms`);
      // undici says "fetch failed" and puts what happened (ECONNREFUSED, a reset) in the cause.
      const cause: unknown = (err as Error).cause;
      throw cause instanceof Error ? new Error(`${(err as Error).message}: ${cause.message}`) : err;
    }
  }

  /**
   * Checks STORE_USER and STORE_PASSWORD with a cheap authenticated request (`ASK {}` at the update endpoint),
   * so that a replica the server would refuse every write fails at start, not at its first publication: the
   * query endpoint answers anonymous reads, so nothing else would notice. Resolves when no credentials were
   * given or the server takes them; rejects with `CredentialsRefusedError` when it refuses them (401 or 403).
   */
  async checkCredentials(timeoutMs = 10_000): Promise<void> {
    if (this.authFetch === undefined) return;
    const { status } = await this.write(this.updateUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/sparql-results+json' },
      body: new URLSearchParams({ query: 'ASK {}' }).toString(),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (status === 401 || status === 403) throw new CredentialsRefusedError(this.updateUrl, status);
  }

  /** True when credentials for writing were given. */
  get canWrite(): boolean {
    return this.authFetch !== undefined;
  }

  /**
   * Runs a query; `accept` is the wanted media type (N-Quads is asked as N-Triples). Rejects with
   * `QueryDeadlineError` past `deadlineMs`, `StoreUnavailableError` when the server cannot be reached or
   * fails, `QueryError` when it refuses the query. `maxRows` is the server's row limit when it says the
   * answer reached it (Virtuoso's `X-SPARQL-MaxRows`). A 404 of the query endpoint or a refused, reset or
   * closed connection is asked again after 50 ms, doubling, for up to {@link RETRY_WINDOW_MS} within the deadline;
   * a read still unanswered when its deadline or that window ends fails with what the server last answered.
   */
  async query(text: string, accept: string, deadlineMs?: number): Promise<{ body: string; maxRows?: number }> {
    const controller = this.track();
    const timer = deadlineMs === undefined ? undefined : setTimeout(() => controller.abort(new QueryDeadlineError(deadlineMs)), deadlineMs);
    const started = performance.now();
    /** What the server answered the last attempt that is worth asking again. */
    let away: Error | undefined;
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          // The server is given what is left of the deadline (a retry starts later than the first request).
          const left = deadlineMs === undefined ? undefined : Math.max(1, deadlineMs - (performance.now() - started));
          return await this.queryOnce(text, accept, controller, left);
        } catch (err) {
          if (!(err instanceof TransientFailure)) throw err;
          away = err.error;
          // Asked again only while the wait ends before the deadline; the deadline's timer ends a wait begun.
          const wait = retryWait(attempt);
          if (performance.now() - started + wait >= Math.min(deadlineMs ?? RETRY_WINDOW_MS, RETRY_WINDOW_MS)) throw err.error;
          await sleep(wait, undefined, { signal: controller.signal }).catch(() => {
            throw controller.signal.reason as Error;
          });
        }
      }
    } catch (err) {
      // A deadline that ends while the server is being asked again ends a read the server never answered: the
      // caller hears what the server said (503), whether the deadline ended during a wait or during a request.
      throw away !== undefined && err instanceof QueryDeadlineError && err === controller.signal.reason ? away : err;
    } finally {
      clearTimeout(timer);
      this.inFlight.delete(controller);
    }
  }

  /** One request of {@link query}; a failure worth asking again comes as a {@link TransientFailure}. */
  private async queryOnce(text: string, accept: string, controller: AbortController, deadlineMs: number | undefined): Promise<{ body: string; maxRows?: number }> {
    let response: Response;
    let body: string;
    try {
      response = (await undiciFetch(this.queryUrl, {
        dispatcher: this.agent,
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: accept === 'application/n-quads' ? N_TRIPLES : accept },
        body: new URLSearchParams({ query: text, ...serverDeadline(deadlineMs) }).toString(),
        signal: controller.signal,
      })) as unknown as Response;
      body = await response.text();
    } catch (err) {
      // Aborted at the deadline (QueryDeadlineError) or because the server went silent (StoreUnavailableError).
      const reason: unknown = controller.signal.reason;
      if (controller.signal.aborted && (reason instanceof QueryDeadlineError || reason instanceof StoreUnavailableError)) throw reason;
      // undici says "fetch failed" and puts what happened (ECONNREFUSED, a reset) in the cause.
      const cause = (err as Error).cause as NodeJS.ErrnoException | undefined;
      const unreachable = new StoreUnavailableError(`the SPARQL server at ${this.queryUrl} cannot be reached: ${(err as Error).message}${cause?.message ? `: ${cause.message}` : ''}`, 5);
      unreachable.cause = err;
      throw cause?.code !== undefined && TRANSIENT_CODES.has(cause.code) ? new TransientFailure(unreachable) : unreachable;
    }
    // The query endpoint is there whenever the server runs: a 404 is the server between two states (a checkpoint).
    if (response.status === 404) throw new TransientFailure(serverError(response.status, body, this.queryUrl, deadlineMs));
    if (!response.ok) throw serverError(response.status, body, this.queryUrl, deadlineMs);
    // Virtuoso's anytime answer: what it found before `timeout` ran out, marked by its SQL state. Never whole.
    if (response.headers.get('x-sql-state') === ANYTIME_STATE) throw new QueryDeadlineError(deadlineMs ?? 0, SERVER_STOPPED);
    const cap = response.headers.get('x-sparql-maxrows');
    return cap === null ? { body } : { body, maxRows: Number(cap) };
  }

  /** Runs a SPARQL Update (needs credentials). */
  async update(text: string): Promise<void> {
    const { ok, status, body } = await this.write(this.updateUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/plain' },
      body: new URLSearchParams({ update: text }).toString(),
    });
    if (!ok) throw new Error(`SPARQL update failed at ${this.updateUrl}: ${status} ${body.slice(0, 500)}`);
  }

  /** Adds N-Triples to a graph over the Graph Store Protocol (POST; blank nodes are scoped to the request). */
  async addToGraph(graph: string, nTriples: string): Promise<void> {
    const url = `${this.graphStoreUrl}?graph-uri=${encodeURIComponent(graph)}`;
    const { ok, status, body } = await this.write(url, { method: 'POST', headers: { 'content-type': N_TRIPLES }, body: nTriples });
    if (!ok) throw new Error(`writing graph <${graph}> failed: ${status} ${body.slice(0, 500)}`);
  }

  /** Closes the connections (a data command that is done, a store that is closed). */
  async close(): Promise<void> {
    await Promise.all([this.agent.close(), this.probeAgent.close()]);
  }

  /** One authenticated write, aborted like a query when the server goes silent; its status and body. */
  private async write(url: string, init: RequestInit): Promise<{ ok: boolean; status: number; body: string }> {
    const writer = this.writer();
    const controller = this.track();
    try {
      const signal = init.signal ? AbortSignal.any([init.signal, controller.signal]) : controller.signal;
      const response = await writer(url, { ...init, signal });
      return { ok: response.ok, status: response.status, body: await response.text() };
    } catch (err) {
      const reason: unknown = controller.signal.reason;
      throw controller.signal.aborted && reason instanceof StoreUnavailableError ? reason : err;
    } finally {
      this.inFlight.delete(controller);
    }
  }

  /** A controller for a new request, aborted if the server goes silent; throws at once while it is silent. */
  private track(): AbortController {
    if (this.silence !== undefined) throw this.silentError();
    const controller = new AbortController();
    this.inFlight.add(controller);
    return controller;
  }

  private silentError(): StoreUnavailableError {
    return new StoreUnavailableError(`the SPARQL server at ${this.queryUrl} does not answer (${this.silence ?? 'no answer'})`, SILENT_RETRY_AFTER_SECONDS);
  }

  private writer(): (url: string, init?: RequestInit) => Promise<Response> {
    if (this.authFetch === undefined) throw new Error('writing to the SPARQL server needs STORE_USER and STORE_PASSWORD');
    return this.authFetch;
  }
}

/**
 * The SPARQL server's SQL state of an answer cut at its `timeout` (Virtuoso's "anytime" query: S1TAT, "Returning
 * incomplete results, query interrupted by result timeout"), sent as a header with a 200, or as the error of a 500.
 */
const ANYTIME_STATE = 'S1TAT';

/** Why a query the server stopped failed: the deadline it was given, or the server's own MaxQueryExecutionTime, ran out there. */
const SERVER_STOPPED = "the SPARQL server's time limit ended the query (the deadline it was given, or its own MaxQueryExecutionTime)";

/**
 * The deadline as the server keeps it: Virtuoso's `timeout` parameter (milliseconds) stops the query on the
 * server when it runs out, where a client that gives up leaves it running until the server's own
 * MaxQueryExecutionTime (measured on the demo data: a three-way cross product given `timeout=3000` answered in
 * 3.6 s and left the server idle; without it, Virtuoso worked on after the client's abort). Other SPARQL
 * servers ignore a parameter they do not know (SPARQL 1.1 Protocol). The compile phase is not interrupted
 * (a 1,000-branch UNION given 3 s took 6.4 s): the static cost check bounds that (src/queries/query-cost.ts).
 */
const serverDeadline = (deadlineMs: number | undefined): Record<string, string> => (deadlineMs === undefined ? {} : { timeout: String(Math.max(1, Math.ceil(deadlineMs))) });

/**
 * Virtuoso's refusals of a query that needs more of a per-query resource than the server gives one query: the
 * memory of transitive paths (TN…), the hash dictionary (D1CT0), MaxQueryMem, a temporary row's length (SR319).
 * The server is fine; the query is too large for it.
 */
const RESOURCE_LIMIT = /\bTN\.\.\.|\bD1CT0\b|MaxQueryMem|\bSR319\b/;

/** A failed answer: the server's refusal of a query (4xx, or Virtuoso's 500 with a SPARQL compiler error) or its failure. */
function serverError(status: number, body: string, url: string, deadlineMs: number | undefined): Error {
  const text = body.replace(/\s+/g, ' ').trim().slice(0, 500);
  // Virtuoso answers 500 for compile errors too: SPxxx codes are the SPARQL compiler's, SQxxx the SQL compiler's
  // (a variable bound twice, SQ149). The server's text quotes the rewritten query (graph names of the
  // generation): it stays out of the answer.
  if (status === 400 || /\bS[PQ]\d{3}\b|\b37000\b/.test(text)) return new QueryError('the SPARQL server cannot evaluate a construct of this query');
  // Its compiler ran out of stack on a wide query (32 sibling OPTIONALs, rewritten to the generation's graphs, on
  // some runs): a refusal of this query, answered at once, not an outage.
  if (/\bSR178\b/.test(text)) return new QueryError('the query is too complex for the SPARQL server to compile (its stack ran out); write it with fewer OPTIONALs or UNION branches side by side');
  if (RESOURCE_LIMIT.test(text)) return new QueryError('the query needs more memory than the SPARQL server gives one query; ask for less (a narrower pattern, LIMIT)');
  // The server's own time limit (Virtuoso's MaxQueryExecutionTime, or the query's `timeout`) ended the query.
  if (/\bSR171\b|\bS1T00\b|\bS1TAT\b/.test(text)) return new QueryDeadlineError(deadlineMs ?? 0, SERVER_STOPPED);
  // Its cost estimate (MaxQueryCostEstimationTime) refused the query before it ran. The estimate can be far off:
  // 157 s for a query answered in 0.4 s (docs/virtuoso-notes.md), so the reason is kept for the log.
  const estimate = /estimated execution time (-?\d+) \(sec\) exceeds the limit of (\d+)/.exec(text);
  if (estimate) return new QueryDeadlineError(deadlineMs ?? 0, `the SPARQL server refused the query: it estimated ${estimate[1]} s, over its limit of ${estimate[2]} s (MaxQueryCostEstimationTime)`);
  return new StoreUnavailableError(`the SPARQL server at ${url} failed (${status}): ${text}`, 5);
}
