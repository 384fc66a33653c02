/**
 * One error class per HTTP status. Code anywhere throws them (or passes them to `next`); `error-handler.ts`
 * is the only place that turns them into responses. Default messages are the service's generic texts;
 * endpoints pass the exact texts of reference/error-bodies.json (e.g. "Object not found").
 */

export interface HttpErrorOptions {
  /** Response headers to set with the error (Retry-After, Allow, Link, ...). */
  headers?: Readonly<Record<string, string>>;
  /** Replaces the default `{"error": message}` body, for bodies with more keys or a fixed key order. */
  body?: Readonly<Record<string, unknown>>;
  /** The underlying error; logged server-side, never sent. */
  cause?: unknown;
}

export class HttpError extends Error {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly #body: Readonly<Record<string, unknown>> | undefined;

  constructor(status: number, message: string, options: HttpErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.status = status;
    this.headers = options.headers ?? {};
    this.#body = options.body;
  }

  /** The JSON body sent to the client. */
  body(): Readonly<Record<string, unknown>> {
    return this.#body ?? { error: this.message };
  }
}

export class BadRequestError extends HttpError {
  constructor(message = 'Bad request', options?: HttpErrorOptions) {
    super(400, message, options);
  }
}

export class UnauthorizedError extends HttpError {
  constructor(message = 'Unauthorized', options?: HttpErrorOptions) {
    super(401, message, options);
  }
}

export class ForbiddenError extends HttpError {
  constructor(message = 'Forbidden', options?: HttpErrorOptions) {
    super(403, message, options);
  }
}

export class NotFoundError extends HttpError {
  constructor(message = 'Not found', options?: HttpErrorOptions) {
    super(404, message, options);
  }
}

export class MethodNotAllowedError extends HttpError {
  constructor(allowed: readonly string[], message = 'Method not allowed') {
    super(405, message, { headers: { Allow: allowed.join(', ') } });
  }
}

export class NotAcceptableError extends HttpError {
  constructor(message = 'Not acceptable', options?: HttpErrorOptions) {
    super(406, message, options);
  }
}

export class GoneError extends HttpError {
  constructor(message = 'Gone', options?: HttpErrorOptions) {
    super(410, message, options);
  }
}

export class UnprocessableEntityError extends HttpError {
  constructor(message = 'Unprocessable entity', options?: HttpErrorOptions) {
    super(422, message, options);
  }
}

/** The exact text of the rate-limit body (reference/error-bodies.json, rate_limit_429). */
export const TOO_MANY_REQUESTS_MESSAGE = 'Too many requests. Please slow down.';

export class TooManyRequestsError extends HttpError {
  constructor(options: Omit<HttpErrorOptions, 'body'> = {}) {
    // The reference body carries the status before the message; key order is part of the contract.
    super(429, TOO_MANY_REQUESTS_MESSAGE, { ...options, body: { status: 429, error: TOO_MANY_REQUESTS_MESSAGE } });
  }
}

export class InternalServerError extends HttpError {
  constructor(message = 'Internal Server Error', options?: HttpErrorOptions) {
    super(500, message, options);
  }
}

export class ServiceUnavailableError extends HttpError {
  readonly retryAfterSeconds: number;

  constructor(retryAfterSeconds: number, message = 'Service unavailable', options: HttpErrorOptions = {}) {
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
    super(503, message, { ...options, headers: { ...options.headers, 'Retry-After': String(seconds) } });
    this.retryAfterSeconds = seconds;
  }
}

export class GatewayTimeoutError extends HttpError {
  constructor(message = 'Query deadline exceeded', options?: HttpErrorOptions) {
    super(504, message, options);
  }
}
