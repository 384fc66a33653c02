/** Errors the store layer throws; HTTP middleware maps them to statuses (503, 504, 400). */

/** The store cannot answer now (starting, restarting after a crash, swapping); the client may retry. */
export class StoreUnavailableError extends Error {
  readonly retryAfterSeconds: number;

  constructor(message: string, retryAfterSeconds = 5) {
    super(message);
    this.name = 'StoreUnavailableError';
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** A query ran past its deadline; its worker was ended. */
export class QueryDeadlineError extends Error {
  readonly deadlineMs: number;

  /** `message`: the server's own reason when it was the server that stopped or refused the query. */
  constructor(deadlineMs: number, message = `query exceeded its deadline of ${deadlineMs} ms`) {
    super(message);
    this.name = 'QueryDeadlineError';
    this.deadlineMs = deadlineMs;
  }
}

/** The store refused the query itself (syntax, unsupported format for the query form). */
export class QueryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QueryError';
  }
}

/** A line of an N-Quads file that does not parse; the message is `file:line: reason`. */
export class NQuadsSyntaxError extends Error {
  readonly file: string;
  readonly line: number;
  readonly reason: string;

  constructor(file: string, line: number, reason: string) {
    super(`${file}:${line}: ${reason}`);
    this.name = 'NQuadsSyntaxError';
    this.file = file;
    this.line = line;
    this.reason = reason;
  }
}
