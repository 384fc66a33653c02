/**
 * One log line per request (method, path, redacted query, status, duration), written when the response
 * ends or the client goes away. pino-http would do more than needed and log headers we do not want.
 */
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { redactUrl } from './redact.js';

/** Probe and scrape paths, polled every few seconds; their successes are logged at debug only. */
const PROBE_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** Middleware that logs every request once, at info (5xx at error, aborted at warn, probes at debug). */
export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once('close', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const { path, query } = redactUrl(req.originalUrl);
      const line = {
        method: req.method,
        path,
        ...(query === '' ? {} : { query }),
        status: res.statusCode,
        ms: Math.round(ms * 10) / 10,
        ...(res.writableFinished ? {} : { aborted: true }),
      };
      if (!res.writableFinished) logger.warn(line, 'request aborted');
      else if (res.statusCode >= 500) logger.error(line, 'request');
      else if (PROBE_PATHS.has(path) && res.statusCode < 400) logger.debug(line, 'request');
      else logger.info(line, 'request');
    });
    next();
  };
}
