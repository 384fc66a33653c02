/**
 * One log line per request (method, path, redacted query, status, duration), written when the response
 * ends or the client goes away. pino-http would do more than needed and log headers we do not want.
 * Path and query are redacted and cut to LOG_TEXT_MAX (src/config/redact.ts); levels in docs/operations.md ("Logs").
 */
import type { RequestHandler, Response } from 'express';
import type { Level, Logger } from 'pino';
import { redactUrl } from '../config/redact.js';

/** Probe and scrape paths, polled every few seconds: logged at debug only, whatever their answer. */
const PROBE_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * True for the probe paths. Their answer, a 503 included, is itself what the supervisor reads, so logging each
 * poll at info would only repeat it every few seconds (a loading store logs its own progress).
 */
export function isProbePath(path: string): boolean {
  return PROBE_PATHS.has(path);
}

/**
 * The level of a request's line. IIIF requests are debug when they succeed, and HEADs when they answer below
 * 500: a viewer fetches dozens of tiles per page, and a harvest's image check HEADs every image of the service's
 * own /iiif (its colour analysis GETs the kept ones), about 520 lines on a first `npm start`. The harvest writes one
 * summary of its check instead (kept and dropped images), and /metrics still counts every request.
 */
export function requestLevel(method: string, path: string, status: number, finished: boolean): Level {
  if (isProbePath(path)) return 'debug';
  if (!finished) return 'warn';
  // An expected state of the service (loading, a query past its deadline): the client is told to come back.
  if (status === 503 || status === 504) return 'warn';
  if (status >= 500) return 'error';
  if (path === '/iiif' || path.startsWith('/iiif/')) {
    if (method === 'HEAD' || ((method === 'GET' || method === 'OPTIONS') && status < 400)) return 'debug';
  }
  return 'info';
}

const NOT_SERVED = 'notServedReason';

/** Why a request answered 503 or 504 (loading, a deadline), for its request line; set by the error handler. */
export function setNotServedReason(res: Response, reason: string): void {
  res.locals[NOT_SERVED] = reason;
}

/** Middleware that logs every request once (levels: requestLevel). */
export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once('close', () => {
      const level = requestLevel(req.method, req.originalUrl.split('?', 1)[0] ?? '', res.statusCode, res.writableFinished);
      // Redaction walks the whole query string: skip it when the line would not be written anyway.
      if (!logger.isLevelEnabled(level)) return;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const { path, query } = redactUrl(req.originalUrl);
      const line = {
        method: req.method,
        path,
        ...(query === '' ? {} : { query }),
        status: res.statusCode,
        ms: Math.round(ms * 10) / 10,
        ...(res.writableFinished ? {} : { aborted: true }),
        ...(NOT_SERVED in res.locals ? { error: res.locals[NOT_SERVED] as string } : {}),
      };
      logger[level](line, res.writableFinished ? 'request' : 'request aborted');
    });
    next();
  };
}
