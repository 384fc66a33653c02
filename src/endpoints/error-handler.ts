/**
 * The only place where errors become responses: a JSON body (`{"error": "..."}` or the error's own body),
 * the error's headers, and nothing else. Internal errors are logged with their stack and answered with the
 * generic 500 text; no stack, message of an unknown error or other internal detail reaches the client.
 */
import { STATUS_CODES } from 'node:http';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { QueryDeadlineError, StoreUnavailableError } from '../store/errors.js';
import { IndexNotReadyError } from '../collection-index/index-manager.js';
import {
  BadRequestError,
  GatewayTimeoutError,
  HttpError,
  InternalServerError,
  NotFoundError,
  ServiceUnavailableError,
} from '../http/errors.js';
import { cutForLog, redactUrl } from '../config/redact.js';
import { HTML_CONTENT_TYPE, negotiate } from '../http/negotiation.js';
import { messagePage } from '../pages/error-page.js';
import { pageLanguage } from '../pages/messages.js';
import { setNotServedReason } from '../http/request-log.js';

/** Offers of an error body: JSON unless the client prefers HTML (a browser). */
const ERROR_OFFERS = ['application/json', 'application/ld+json', 'text/html'] as const;

/** Headers describing a representation that an error response replaces. */
const REPRESENTATION_HEADERS = ['ETag', 'Last-Modified', 'Cache-Control', 'Content-Disposition', 'Content-Location', 'Link'];

const numericStatus = (err: object): number | undefined => {
  const candidate = 'status' in err ? err.status : 'statusCode' in err ? err.statusCode : undefined;
  return typeof candidate === 'number' && Number.isInteger(candidate) ? candidate : undefined;
};

/** Maps anything thrown to the HttpError that describes it to a client. */
export function toHttpError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  // Its message says which index is built (the store's own reasons stay in the log).
  if (err instanceof IndexNotReadyError) return new ServiceUnavailableError(err.retryAfterSeconds, err.message, { cause: err });
  if (err instanceof StoreUnavailableError) return new ServiceUnavailableError(err.retryAfterSeconds, undefined, { cause: err });
  if (err instanceof QueryDeadlineError) return new GatewayTimeoutError(undefined, { cause: err });
  // Express's router raises URIError (status 400) for a path parameter with broken percent-encoding.
  if (err instanceof URIError) return new BadRequestError('Malformed URL encoding', { cause: err });
  if (typeof err === 'object' && err !== null) {
    // body-parser style errors: `type` names the failure, `status` is the HTTP status.
    const type = 'type' in err ? err.type : undefined;
    if (type === 'entity.parse.failed') return new BadRequestError('Malformed request body', { cause: err });
    const status = numericStatus(err);
    if (status !== undefined && status >= 400 && status < 500) {
      return new HttpError(status, STATUS_CODES[status] ?? 'Bad request', { cause: err });
    }
  }
  return new InternalServerError(undefined, { cause: err });
}

const errorMessage = (err: unknown): string | undefined => (err instanceof Error ? err.message : undefined);

/** Final error middleware: logs server errors with their stack and answers with the mapped status and body. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    const httpError = toHttpError(err);
    const { path, query } = redactUrl(req.originalUrl);
    if (httpError instanceof ServiceUnavailableError || httpError instanceof GatewayTimeoutError) {
      // Expected states of the service (loading, restarting, a query past its deadline): no stack and no line
      // of their own; the request's one line (src/http/request-log.ts) carries the reason, at warn.
      setNotServedReason(res, cutForLog(errorMessage(httpError.cause) ?? httpError.message));
    } else if (httpError.status >= 500) {
      const cause = httpError.cause ?? httpError;
      logger.error({ err: cause, method: req.method, path, query, status: httpError.status }, 'request failed');
    } else {
      // A client error's message may quote the request (a parameter, a SPARQL text): cut like the query.
      logger.debug({ method: req.method, path, status: httpError.status, error: cutForLog(httpError.message) }, 'client error');
    }
    if (res.headersSent) {
      // Part of a response is on the wire; cutting the connection is the only honest signal left.
      res.destroy();
      return;
    }
    for (const name of REPRESENTATION_HEADERS) res.removeHeader(name);
    if (httpError.status >= 500 || httpError.status === 429) res.setHeader('Cache-Control', 'no-store');
    for (const [name, value] of Object.entries(httpError.headers)) res.setHeader(name, value);
    // res.end rather than res.json: Express would add an ETag and could turn an error into a 304.
    res.status(httpError.status);
    // A browser gets a page for people with the same message; every other client the JSON body.
    res.vary('Accept');
    if (negotiate(req, ERROR_OFFERS) === 'text/html') {
      const body = httpError.body() as { error?: unknown; message?: unknown };
      const message = typeof body.error === 'string' ? body.error : typeof body.message === 'string' ? body.message : httpError.message;
      res.setHeader('Content-Type', HTML_CONTENT_TYPE);
      res.end(messagePage(httpError.status, message, undefined, pageLanguage(req, res)));
      return;
    }
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.end(JSON.stringify(httpError.body()));
  };
}

/** Catch-all after every route: an unknown path is a 404 with the generic body. */
export const notFoundHandler: RequestHandler = (_req, _res, next) => {
  next(new NotFoundError());
};
