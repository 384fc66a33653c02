/**
 * The messages that cross between the SPARQL parse worker (parse-worker-thread.ts) and its callers
 * (parse-worker.ts); a call rejects with the errors of parse-errors.ts.
 */
import type { PolicyOptions, PreparedQuery, ProtocolDataset } from './query-policy.js';
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
