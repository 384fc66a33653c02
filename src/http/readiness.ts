/** The gate in front of data routes: until the store serves a generation, answer 503 with Retry-After. */
import type { RequestHandler } from 'express';
import type { QueryStore } from '../store/types.js';
import { ServiceUnavailableError } from './errors.js';

/** Seconds a client should wait before asking again while the store is not ready. */
export const NOT_READY_RETRY_AFTER_SECONDS = 5;

/** Message of the 503 sent while no generation is being served. */
export const NOT_READY_MESSAGE = 'The collection is loading. Please retry shortly.';

/** The 503 for a store that is not ready: its own reason (a SPARQL server that does not answer), else loading. */
export function notReadyError(store: Pick<QueryStore, 'unavailableReason'>, body?: Record<string, unknown>): ServiceUnavailableError {
  const message = store.unavailableReason?.() ?? NOT_READY_MESSAGE;
  return new ServiceUnavailableError(NOT_READY_RETRY_AFTER_SECONDS, message, body === undefined ? {} : { body: { error: message, ...body } });
}

/** The 503 of /readyz while the derived structures are built: what is built (`stored index`, the kinds, `record statuses`). */
export function indexingError(building: readonly string[], body: Record<string, unknown>): ServiceUnavailableError {
  const message = `Building ${building.join(', ')}. Please retry shortly.`;
  return new ServiceUnavailableError(NOT_READY_RETRY_AFTER_SECONDS, message, { body: { error: message, ...body } });
}

/** Middleware that passes a ServiceUnavailableError on until `store.ready()`. */
export function requireReadyStore(store: Pick<QueryStore, 'ready' | 'unavailableReason'>): RequestHandler {
  return (_req, _res, next) => {
    next(store.ready() ? undefined : notReadyError(store));
  };
}
