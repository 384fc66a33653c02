/**
 * The errors a call of the SPARQL parse worker (parse-worker.ts) rejects with: they say what happened without
 * choosing an HTTP status or a store error (the endpoint's policy and the remote store each translate them).
 */
/** The query is refused: by the policy (with its status) or by the rewrite (400). */
export class ParseRefusedError extends Error {
  override readonly name = 'ParseRefusedError';
  constructor(
    readonly status: 400 | 403,
    message: string,
  ) {
    super(message);
  }
}

/** The query took longer than the worker's budget; the worker was ended and replaced. */
export class ParseBudgetError extends Error {
  override readonly name = 'ParseBudgetError';
  constructor(readonly budgetMs: number) {
    super(`the query is too complex to parse within ${budgetMs} ms`);
  }
}

/** Too many queries are waiting for the worker already. */
export class ParseBusyError extends Error {
  override readonly name = 'ParseBusyError';
  constructor(readonly maxQueued: number) {
    super(`${maxQueued} queries are waiting to be parsed already`);
  }
}
