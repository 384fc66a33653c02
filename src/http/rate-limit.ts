/**
 * The v2 rate limit (spec, Limits: 10 requests per minute, above it 429): a fixed one-minute window per
 * client IP (IPv6 clients per /56, as express-rate-limit advises), IETF `RateLimit` and `RateLimit-Policy`
 * headers (draft-8) on every response and `Retry-After` on a 429. The counters live in memory, so each
 * process limits on its own (DESIGN.md: several replicas would share them in Redis).
 */
import type { RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { Logger } from 'pino';
import { TooManyRequestsError } from './errors.js';

const WINDOW_MS = 60_000;

/** Middleware limiting each client to `perMinute` requests a minute; a pass-through when `perMinute` is 0. */
export function v2RateLimit(perMinute: number, logger?: Logger): RequestHandler {
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
    ...(logger === undefined ? {} : { logger }),
  });
}
