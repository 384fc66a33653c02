/**
 * What crosses between the SPARQL parse worker (parse-worker-thread.ts) and its callers (parse-worker.ts): the
 * messages, and the errors a call rejects with, which say what happened without choosing an HTTP status or a
 * store error (the endpoint's policy and the remote store each translate them).
 */
import type { PolicyOptions, PreparedQuery, ProtocolDataset } from '../sparql/query-policy.js';
import type { RewriteOptions, ViewQuery } from '../store/remote/graph-view.js';

export type ToParseWorker =
  | { type: 'prepare'; id: number; query: string; dataset: ProtocolDataset; options: PolicyOptions }
  /** The remote store's rewrite of a query for the public view of `generation`, rebuilt in the worker. */
  | { type: 'rewrite'; id: number; text: string; generation: string; options: RewriteOptions };

export type FromParseWorker =
  | { type: 'ready' }
  | { type: 'prepared'; id: number; prepared: PreparedQuery }
  | { type: 'rewritten'; id: number; query: ViewQuery }
  /** The policy refused the query (400, 403), or the rewrite could not rewrite it (400). */
  | { type: 'refused'; id: number; status: 400 | 403; message: string }
  /** Anything else went wrong: a bug, not a verdict. */
  | { type: 'failed'; id: number; message: string };

/** The query is refused: by the policy (with its status) or by the rewrite (400). */
export class ParseRefusedError extends Error {
  override readonly name = 'ParseRefusedError';
  constructor(
    readonly status: 400 | 403,
    message: string,
  ) {
    super(message);
  }
}

/** The query took longer than the worker's budget; the worker was ended and replaced. */
export class ParseBudgetError extends Error {
  override readonly name = 'ParseBudgetError';
  constructor(readonly budgetMs: number) {
    super(`the query is too complex to parse within ${budgetMs} ms`);
  }
}

/** Too many queries are waiting for the worker already. */
export class ParseBusyError extends Error {
  override readonly name = 'ParseBusyError';
  constructor(readonly maxQueued: number) {
    super(`${maxQueued} queries are waiting to be parsed already`);
  }
}
