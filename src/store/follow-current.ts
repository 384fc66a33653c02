/**
 * A serving process follows `current`: whenever the data commands (harvest, load, rollback) point it at another
 * generation, the stores swap to it, one after the other. A swap that fails (the SPARQL server restarting or not
 * answering, a generation it does not hold yet) leaves the old generation serving and is retried with back-off,
 * 1 s doubling to 60 s, each time towards what `current` names then: a newer generation replaces the one that
 * failed, and when the generation is gone (`current` falls back to a generation the stores serve) the retries
 * end. A store whose swap failed serves on as before (StoreManager and RemoteStore keep nothing of a failed
 * swap), and a store that did switch is not swapped again. Only a generation too large for the embedded store
 * is not retried: it would fail the same way every time. The SPARQL store of a remote server waits for the
 * generation's union graph, which its publisher loads after `current` moved: looked at again every 5 s, logged
 * as information, not as a failure.
 */
import type { Logger } from 'pino';
import { GenerationTooLargeError } from './embedded-limit.js';
import { currentGeneration, watchCurrent, type Generation } from './generations.js';
import { UnionPendingError } from './remote/publish.js';
import type { ServingStore } from './types.js';

/** The first retry of a failed swap, in milliseconds; each further one waits twice as long, up to MAX_RETRY_MS. */
export const FIRST_RETRY_MS = 1_000;
export const MAX_RETRY_MS = 60_000;
/** How often a store that waits for a generation's union graph (/sparql's) looks again. */
export const UNION_POLL_MS = 5_000;

export interface FollowCurrentOptions {
  dataDir: string;
  /** Swapped in this order (the REST store first: /readyz names its generation). */
  stores: readonly ServingStore[];
  logger: Logger;
  /** Runs after each switch (pruning old generations); a failure is logged and the switch stands. */
  afterSwap?: (generation: Generation) => Promise<void>;
  firstRetryMs?: number;
  maxRetryMs?: number;
  /** How often `current` is looked at (default 2 s, watchCurrent's). */
  pollMs?: number;
}

/** Swaps the stores to the generation `current` names, retrying failed swaps; `wanted` is that generation. */
export class CurrentFollower {
  private wantedId: string | undefined;
  /** Attempts run one after the other; each one catches its own failures. */
  private queue: Promise<void> = Promise.resolve();
  private retryTimer: NodeJS.Timeout | undefined;
  /** Failed attempts in a row on `failedId`. */
  private failures = 0;
  private failedId: string | undefined;
  private stopWatching: (() => void) | undefined;
  private stopped = false;

  constructor(private readonly options: FollowCurrentOptions) {}

  /** The id of the generation `current` names (as last read), which the stores are made to serve. */
  get wanted(): string | undefined {
    return this.wantedId;
  }

  /** Watches `current`, and swaps at once if it moved while the stores started. */
  start(): void {
    if (this.stopWatching || this.stopped) return;
    const { dataDir, pollMs } = this.options;
    this.stopWatching = pollMs === undefined ? watchCurrent(dataDir, () => this.follow()) : watchCurrent(dataDir, () => this.follow(), pollMs);
    this.follow();
  }

  /** Runs a waiting retry now (the SPARQL server answers again). */
  nudge(): void {
    if (this.retryTimer !== undefined) this.follow();
  }

  /** Stops watching and retrying (a swap under way fails when its stores are closed, and is not retried). */
  stop(): void {
    this.stopped = true;
    this.stopWatching?.();
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }

  private follow(): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.queue = this.queue.then(() => this.attempt());
  }

  private async attempt(): Promise<void> {
    if (this.stopped) return;
    const { dataDir, stores, logger } = this.options;
    const target = await currentGeneration(dataDir).catch((err: unknown) => {
      logger.error({ err }, 'the current generation could not be read; the stores keep serving theirs');
      return undefined;
    });
    if (target === undefined) return;
    this.wantedId = target.id;
    if (target.id !== this.failedId) this.failures = 0;
    if (stores.every((s) => s.generation?.id === target.id)) {
      this.failedId = undefined;
      return;
    }
    logger.info({ from: stores[0]?.generation?.id, to: target.id, ...(this.failures > 0 ? { attempt: this.failures + 1 } : {}) }, 'new current generation; swapping stores');
    try {
      for (const store of stores) if (store.generation?.id !== target.id) await store.swap(target.dir);
    } catch (err) {
      this.failures++;
      this.failedId = target.id;
      if (err instanceof UnionPendingError) {
        // Not a failure: the publishing command loads the union graph after `current` moved (remote/publish.ts).
        this.failures = 0;
        logger.info({ generation: target.id, retryInMs: UNION_POLL_MS }, err.message);
        if (!this.stopped) this.retryTimer = setTimeout(() => this.follow(), UNION_POLL_MS).unref();
        return;
      }
      if (err instanceof GenerationTooLargeError) {
        logger.error({ err, generation: target.id }, 'swap to the new current generation failed; the old one keeps serving (not retried: too large)');
        return;
      }
      const retryInMs = Math.min((this.options.firstRetryMs ?? FIRST_RETRY_MS) * 2 ** (this.failures - 1), this.options.maxRetryMs ?? MAX_RETRY_MS);
      logger.error({ err, generation: target.id, attempt: this.failures, retryInMs }, 'swap to the new current generation failed; the old one keeps serving until a retry succeeds');
      if (!this.stopped) this.retryTimer = setTimeout(() => this.follow(), retryInMs).unref();
      return;
    }
    this.failures = 0;
    this.failedId = undefined;
    await this.options.afterSwap?.(target).catch((err: unknown) => logger.error({ err, generation: target.id }, 'clean-up after the swap failed; the new generation serves'));
  }
}
