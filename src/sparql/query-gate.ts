/**
 * The cap on concurrent SPARQL queries: at most `maxConcurrent` run in the SPARQL store at once, at most
 * `maxQueued` wait for a slot, and a query's deadline counts from its arrival, so time spent waiting is
 * time the query no longer has. A full queue is answered at once (503), a wait past the deadline with 504,
 * and a client that goes away while waiting gives up its place.
 */
import { GatewayTimeoutError, ServiceUnavailableError } from '../http/errors.js';

export const BUSY_MESSAGE = 'The SPARQL endpoint is busy (too many queries are waiting); retry shortly.';

/** The 504 message for a query that did not get to run or ran past its deadline. */
export const deadlineMessage = (deadlineMs: number): string =>
  `The query ran past the deadline of ${deadlineMs} ms and was stopped. Narrow it down (a LIMIT, more selective patterns) and try again.`;

interface Waiter {
  start: () => void;
}

/** A counting semaphore with a bounded queue and per-entry deadlines. */
export class QueryGate {
  private running = 0;
  private readonly queue: Waiter[] = [];

  constructor(
    private readonly maxConcurrent: number,
    private readonly maxQueued: number,
  ) {}

  /** Queries running now. */
  get active(): number {
    return this.running;
  }

  /** Queries waiting for a slot now. */
  get waiting(): number {
    return this.queue.length;
  }

  /**
   * Runs `task` once a slot is free, with the milliseconds left before `deadlineAt` (a `performance.now()`
   * time); `deadlineMs` is the whole deadline, for the message. `signal` (or the function that makes it, called
   * only if the task has to wait) aborts when nobody wants the answer any more: the task then leaves the queue.
   */
  async run<T>(deadlineAt: number, deadlineMs: number, task: (remainingMs: number) => Promise<T>, signal?: AbortSignal | (() => AbortSignal)): Promise<T> {
    await this.acquire(deadlineAt, deadlineMs, signal);
    try {
      const remaining = Math.floor(deadlineAt - performance.now());
      if (remaining <= 0) throw new GatewayTimeoutError(deadlineMessage(deadlineMs));
      return await task(remaining);
    } finally {
      this.release();
    }
  }

  private acquire(deadlineAt: number, deadlineMs: number, lazySignal: AbortSignal | (() => AbortSignal) | undefined): Promise<void> {
    if (this.running < this.maxConcurrent) {
      this.running++;
      return Promise.resolve();
    }
    if (this.queue.length >= this.maxQueued) return Promise.reject(new ServiceUnavailableError(1, BUSY_MESSAGE));
    const signal = typeof lazySignal === 'function' ? lazySignal() : lazySignal;
    if (signal?.aborted) return Promise.reject(new Error('the client went away'));
    return new Promise<void>((resolve, reject) => {
      const leave = (err: Error): void => {
        const at = this.queue.indexOf(waiter);
        if (at >= 0) this.queue.splice(at, 1);
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        reject(err);
      };
      const onAbort = (): void => leave(new Error('the client went away'));
      const waiter: Waiter = {
        start: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const timer = setTimeout(() => leave(new GatewayTimeoutError(deadlineMessage(deadlineMs))), Math.max(0, deadlineAt - performance.now()));
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
    });
  }

  private release(): void {
    const next = this.queue.shift();
    // The slot passes straight to the next waiter, so `running` stays the same.
    if (next) next.start();
    else this.running--;
  }
}
