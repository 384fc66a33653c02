/**
 * The v2 rate limit (spec, Limits: 10 requests per minute, above it 429): a fixed one-minute window per
 * client IP (IPv6 clients per /56, as express-rate-limit advises), IETF `RateLimit` and `RateLimit-Policy`
 * headers (draft-8) on every response and `Retry-After` on a 429. Without shared counters they live in the
 * process's memory, so each process limits on its own; with {@link SharedRateLimitCounters} (`REDIS_URL`)
 * they live in Redis and every replica counts the same minute (rate-limit-store.ts, also for what happens
 * while Redis is unreachable).
 */
import type { RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { Logger } from 'pino';
import { TooManyRequestsError } from './errors.js';
import type { SharedRateLimitCounters } from './rate-limit-store.js';

const WINDOW_MS = 60_000;

/** Counters shared between replicas, and the name of this limiter's counters among them. */
export interface SharedLimit {
  counters: SharedRateLimitCounters;
  /** `v2`, `sparql`: limiters with different scopes count separately. */
  scope: string;
}

/**
 * Middleware limiting each client to `perMinute` requests a minute; a pass-through when `perMinute` is 0.
 * With `shared`, the counters are those of every replica using the same Redis and key prefix.
 */
export function v2RateLimit(perMinute: number, logger?: Logger, shared?: SharedLimit): RequestHandler {
  if (perMinute <= 0) return (_req, _res, next) => next();
  return rateLimit({
    windowMs: WINDOW_MS,
    limit: perMinute,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    identifier: `${perMinute}-per-minute`,
    // The default key is req.ip (so `trust proxy` decides which address counts), IPv6 masked to /56.
    // The body is the error handler's job, like every other error body.
    handler: (_req, _res, next) => next(new TooManyRequestsError()),
    ...(shared === undefined ? {} : { store: shared.counters.store(shared.scope) }),
    ...(logger === undefined ? {} : { logger }),
  });
}
