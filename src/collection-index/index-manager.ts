/**
 * Keeps the collection index of the generation the store serves. The first request for a generation (or
 * `warm()`) starts the build; requests that arrive meanwhile wait for it rather than answer from another
 * generation's index, because the page is then fetched from the store, which already serves the new one.
 * A build during which the store swapped generations is thrown away and done again. An index may also be
 * built ahead (`preload`, from the generation's stored index while the store still loads it): the generation
 * takes it when it serves, and a failed preload is forgotten for the usual build.
 *
 * Requests take the index through `forRequest()`, which never makes them wait for a build: an index query can
 * take minutes on a remote server (50.8 s for the agents' at 5,000 objects through ISQL), far past any request's
 * budget, so a request for a kind whose index is not built waits a moment for a build under way and is then
 * answered 503 with Retry-After (`IndexNotReadyError`) while the build goes on. A failed build is started again
 * by requests only after `RETRY_BUILD_MS`, so that a query the server ends at its time limit does not run again
 * for every request.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { StoreUnavailableError } from '../store/errors.js';
import type { CollectionIndex } from './collection-index.js';
import type { RecordTable } from './record-table.js';

/** How long a request waits for a build under way: one built ahead (from the stored index) is done by then. */
export const REQUEST_WAIT_MS = 1_000;

/** How long after a failed build requests start none: the build runs in the background, not once per request. */
export const RETRY_BUILD_MS = 30_000;

/** Seconds a client should wait before asking again while an index is built. */
export const INDEX_RETRY_AFTER_SECONDS = 5;

/** A request for a kind whose collection index is not built for the served generation yet: 503 with Retry-After. */
export class IndexNotReadyError extends StoreUnavailableError {
  constructor(readonly collection: string | undefined) {
    super(`The ${collection === undefined ? 'collection' : collection} index is being built. Please retry shortly.`, INDEX_RETRY_AFTER_SECONDS);
    this.name = 'IndexNotReadyError';
  }
}

interface Build<T extends RecordTable> {
  generationId: string;
  done: Promise<CollectionIndex<T>>;
}

export class CollectionIndexes<T extends RecordTable = RecordTable> {
  private index: CollectionIndex<T> | undefined;
  private building: Build<T> | undefined;
  /** One index built ahead, for a generation the store does not serve yet. */
  private prepared: Build<T> | undefined;
  /** The index built ahead, once its build is done: taken at once when its generation serves. */
  private preparedIndex: CollectionIndex<T> | undefined;
  /** The last failed build, so that requests do not start the next one at once. */
  private failed: { generationId: string; at: number } | undefined;

  constructor(
    private readonly build: (generationId: string) => Promise<CollectionIndex<T>>,
    private readonly servedGeneration: () => string | undefined,
    /** The collection the index is of (`agents`), named by the 503 of a request that finds it not built. */
    private readonly collection?: string,
  ) {}

  /**
   * True when the index of `generationId` is built: taken, or built ahead and done (taken by the next request),
   * so that /readyz does not say 503 between a swap and the moment the new generation's index is taken.
   */
  builtFor(generationId: string): boolean {
    return this.index?.generationId === generationId || this.preparedIndex?.generationId === generationId;
  }

  /**
   * The index of the served generation for a request: built, or done within REQUEST_WAIT_MS by a build under
   * way (started here when none is, unless one failed within RETRY_BUILD_MS); else IndexNotReadyError.
   */
  async forRequest(): Promise<CollectionIndex<T>> {
    const generationId = this.servedGeneration();
    const taken = generationId === undefined ? undefined : this.taken(generationId);
    if (taken) return taken;
    const underWay = generationId !== undefined && (this.building?.generationId === generationId || this.prepared?.generationId === generationId);
    const failedLately = this.failed !== undefined && this.failed.generationId === generationId && Date.now() - this.failed.at < RETRY_BUILD_MS;
    if (generationId === undefined || (!underWay && failedLately)) throw new IndexNotReadyError(this.collection);
    const build = this.current();
    // Failures are the builder's to report (and are recorded by current); this request only stops waiting.
    build.catch(() => undefined);
    const stop = new AbortController();
    const waited = delay(REQUEST_WAIT_MS, undefined, { signal: stop.signal }).catch(() => undefined);
    const index = await Promise.race([build.catch(() => undefined), waited]).finally(() => stop.abort());
    if (index === undefined) throw new IndexNotReadyError(this.collection);
    return index;
  }

  /** The index of the served generation, built first when needed. */
  async current(): Promise<CollectionIndex<T>> {
    const generationId = this.servedGeneration();
    if (generationId === undefined) throw new Error('no generation is served yet');
    const taken = this.taken(generationId);
    if (taken) return taken;
    if (this.building?.generationId !== generationId) {
      let ahead: Promise<CollectionIndex<T>> | undefined;
      if (this.prepared?.generationId === generationId) {
        ahead = this.prepared.done;
        this.prepared = undefined;
        this.preparedIndex = undefined;
      }
      const done = this.buildFor(generationId, ahead)
        .catch((err: unknown) => {
          this.failed = { generationId, at: Date.now() };
          throw err;
        })
        .finally(() => {
          if (this.building?.done === done) this.building = undefined;
        });
      this.building = { generationId, done };
    }
    return this.building.done;
  }

  /** Starts building the served generation's index without waiting; failures surface on the next request. */
  warm(onError: (error: unknown) => void): void {
    if (this.servedGeneration() === undefined) return;
    this.current().catch(onError);
  }

  /**
   * Builds the index of generation `generationId` with `build` before the store serves it (it replaces an
   * earlier one built ahead); nothing is done when that generation's index is already there or under way.
   * Resolves or rejects with that build (the one under way, if any).
   */
  preload(generationId: string, build: () => Promise<CollectionIndex<T>>): Promise<unknown> {
    if (this.index?.generationId === generationId) return Promise.resolve();
    if (this.building?.generationId === generationId) return this.building.done;
    if (this.prepared?.generationId === generationId) return this.prepared.done;
    const done = build();
    // Observed here: a failed preload only means the usual build, which reports its own failures.
    done.then(
      (index) => {
        if (this.prepared?.done === done) this.preparedIndex = index;
      },
      () => undefined,
    );
    this.prepared = { generationId, done };
    this.preparedIndex = undefined;
    return done;
  }

  /** The taken index of `generationId`, after taking the one built ahead if it is done; else undefined. */
  private taken(generationId: string): CollectionIndex<T> | undefined {
    if (this.index?.generationId === generationId) return this.index;
    if (this.preparedIndex?.generationId !== generationId) return undefined;
    this.index = this.preparedIndex;
    this.prepared = undefined;
    this.preparedIndex = undefined;
    return this.index;
  }

  /** True when `generationId`'s index is built, being built, or built ahead. */
  has(generationId: string): boolean {
    return [this.index?.generationId, this.building?.generationId, this.prepared?.generationId].includes(generationId);
  }

  private async buildFor(generationId: string, ahead: Promise<CollectionIndex<T>> | undefined): Promise<CollectionIndex<T>> {
    const index = ahead ? await ahead.catch(() => this.build(generationId)) : await this.build(generationId);
    if (this.servedGeneration() !== generationId) return this.current();
    this.index = index;
    return index;
  }
}
