/**
 * v1 is deprecated (spec, Versioning): every v1 answer, errors included, carries `Deprecation`, `Sunset` and a
 * `Link` to its v2 successor; from the sunset instant on, every v1 path answers 410 with a pointer to v2, as
 * the real service does since its retirement (reference/error-bodies.json, v1_retired_410). The clock is
 * passed in, so tests move time rather than wait for it.
 */
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { toHttpError } from '../endpoints/error-handler.js';
import { GatewayTimeoutError, GoneError, HttpError, ServiceUnavailableError, type HttpErrorOptions } from '../http/errors.js';
import { isValidPid } from '../vocab/iris.js';
import type { V1Links } from './shaping/links.js';

/** The reference's value: v1 is deprecated as a whole, not from a date. */
export const DEPRECATION = 'true';
export const RETIRED_MESSAGE = 'API v1 has been retired.';
/** How long a retirement answer may be cached (the reference's value). */
const RETIRED_CACHE_CONTROL = 'public, max-age=86400';

/** v1's paths and their v2 successors: v1 served these four kinds and is frozen (new kinds have no v1 paths). */
const V1_TO_V2: readonly [RegExp, (match: RegExpMatchArray) => string][] = [
  [/^\/id\/(objects|private-objects)\/?$/, () => '/id/objects'],
  [/^\/id\/exhibitions\/billboardseries\/?$/, () => '/id/exhibitions?q=billboard'],
  [/^\/id\/(agents|exhibitions|concepts)\/?$/, (m) => `/id/${m[1]}`],
  // A malformed identifier (percent-encoded or not a pid at all) points to its collection instead.
  [/^\/id\/(object|agent|exhibition|concept)\/([^/?#]+)$/, (m) => (isValidPid(m[1]!, m[2]!) ? `/id/${m[1]}/${m[2]}` : `/id/${m[1]}s`)],
  [/^\/colors\/?$/, () => '/id/colors'],
  [/^\/color-api\/([^/?#]+)$/, () => '/id/colors'],
  [/^\/pattern-api\/?$/, () => '/id/objects?hasImages=true'],
  [/^\/dump\/(objects|agents|exhibitions|concepts)$/, (m) => `/dumps/${m[1]}.nq.gz`],
];

/** The v2 equivalent of a v1 path (relative to /v1), else the v2 catalog. */
export function successorOf(links: V1Links, v1Path: string): string {
  for (const [pattern, to] of V1_TO_V2) {
    const match = v1Path.match(pattern);
    if (match) return links.v2(to(match));
  }
  return links.v2('/');
}

export interface DeprecationOptions {
  links: V1Links;
  sunset: Date;
  /** The clock (milliseconds since the epoch); tests inject one. */
  now: () => number;
}

/** The headers every v1 answer carries for a request to `v1Path`. */
export function deprecationHeaders(options: DeprecationOptions, v1Path: string): Record<string, string> {
  return {
    Deprecation: DEPRECATION,
    Sunset: options.sunset.toUTCString(),
    Link: `<${successorOf(options.links, v1Path)}>; rel="successor-version"`,
  };
}

/** Sets the deprecation headers on every v1 response; from the sunset on, answers 410 instead. */
export function deprecation(options: DeprecationOptions): RequestHandler {
  return (req, res, next) => {
    const headers = deprecationHeaders(options, req.path);
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    if (options.now() < options.sunset.getTime()) {
      next();
      return;
    }
    next(
      new GoneError(RETIRED_MESSAGE, {
        headers: { ...headers, 'Cache-Control': RETIRED_CACHE_CONTROL },
        body: {
          status: 410,
          error: RETIRED_MESSAGE,
          retired_on: options.sunset.toISOString().slice(0, 10),
          successor: options.links.v2('/'),
          documentation: options.links.url('').replace(/\/v1$/, '/docs'),
        },
      }),
    );
  };
}

/**
 * Errors of v1 keep the deprecation headers (the app's error handler drops `Link` from any answer it
 * replaces) and, on keyed paths, `Cache-Control: no-store`; the app's error handler then answers as usual.
 */
export function deprecatedErrors(options: DeprecationOptions): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    const error = toHttpError(err);
    const headers = { ...deprecationHeaders(options, req.path), ...(res.locals.keyed === true ? { 'Cache-Control': 'no-store' } : {}), ...error.headers };
    next(withHeaders(error, { headers, body: error.body(), cause: error.cause ?? err }));
  };
}

/** The same error with other headers, of the classes the error handler tells apart (503 and 504 are logged as states, not failures). */
function withHeaders(error: HttpError, options: HttpErrorOptions): HttpError {
  if (error instanceof ServiceUnavailableError) return new ServiceUnavailableError(error.retryAfterSeconds, error.message, options);
  if (error instanceof GatewayTimeoutError) return new GatewayTimeoutError(error.message, options);
  return new HttpError(error.status, error.message, options);
}
