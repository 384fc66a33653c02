/**
 * One store worker thread seen from the main thread: its loading, its in-flight queries with their
 * deadlines, and its death. Policy (restart, swap) belongs to StoreManager.
 */
import type { Worker } from 'node:worker_threads';
import { QueryDeadlineError, QueryError, StoreUnavailableError } from './errors.js';
import type { FromWorker, StoreWorkerData, ToWorker, WorkerMemory } from './store-protocol.js';
import { LONG_QUERY_NICE, LOWER_PRIORITY_AFTER_MS, setThreadNice } from './thread-priority.js';
import { startTsWorker, workerModule } from '../threads/ts-worker.js';
import type { GenerationManifest, QueryOptions } from './types.js';

/** What a worker's query takes of QueryOptions (the label is the manager's, for metrics). */
export type WorkerQueryOptions = Omit<QueryOptions, 'label'>;

interface Pending {
  resolve: (body: string) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout | undefined;
  /** A client's query (QueryOptions.clientQuery). */
  client: boolean;
  /** A client's query: lowers the thread's priority if it is still running then (thread-priority.ts). */
  lower: NodeJS.Timeout | undefined;
}

export interface HandleOptions {
  includeNonPublic: boolean;
  testHooks: boolean;
  /** Seconds a client should wait before retrying when this worker fails its queries. */
  retryAfterSeconds: () => number;
  /** Whether a client's long query lowers this worker thread's priority (StoreManager.yieldClientQueries). */
  yieldClientQueries?: () => boolean;
}

/** A store worker on one generation folder (another after {@link WorkerHandle.apply}). */
export class WorkerHandle {
  generationDir: string;
  manifest: GenerationManifest;
  /** Settles when the worker has loaded its generation (with the load time) or failed to. */
  readonly loaded: Promise<{ quads: number; ms: number }>;
  /** Called once when the worker dies without `stop()`: a crash, or a query past its deadline. */
  onDeath: ((reason: Error) => void) | undefined;

  /** The worker's memory as it last reported it (after its load, then after answers). */
  memory: WorkerMemory | undefined;
  /** Queries it has answered (with a result or a query error). */
  answered = 0;
  private readonly worker: Worker;
  private readonly options: HandleOptions;
  private readonly pending = new Map<number, Pending>();
  private readonly drainWaiters: (() => void)[] = [];
  private state: 'loading' | 'ready' | 'dead' = 'loading';
  private stopping = false;
  private nextId = 1;
  private clients = 0;
  /** The worker's thread id (Linux), whose priority a client's long query lowers. */
  private thread: number | undefined;
  /** The thread runs at the lowered priority; `restoreRefused` when the system kept it there. */
  private lowered = false;
  private restoreRefused = false;
  private settleLoad: { resolve: (v: { quads: number; ms: number }) => void; reject: (err: Error) => void } | undefined;
  /** A change being applied (apply): the worker answers nothing new meanwhile. */
  private settleApply: { resolve: (v: { records: number; ms: number }) => void; reject: (err: Error) => void } | undefined;

  constructor(generationDir: string, manifest: GenerationManifest, options: HandleOptions) {
    this.generationDir = generationDir;
    this.manifest = manifest;
    this.options = options;
    this.loaded = new Promise((resolve, reject) => {
      this.settleLoad = { resolve, reject };
    });
    // A failed load is reported through `loaded`; callers that never await it must not see an unhandled rejection.
    this.loaded.catch(() => undefined);
    const data: StoreWorkerData = { generationDir, includeNonPublic: options.includeNonPublic, testHooks: options.testHooks };
    this.worker = startTsWorker(workerModule(import.meta.url, 'store-worker'), data);
    this.worker.on('message', (message: FromWorker) => this.onMessage(message));
    this.worker.on('error', (err) => this.die(err));
    this.worker.on('exit', (code) => this.die(new Error(`store worker exited with code ${code}`)));
  }

  /** True once loaded and until it dies or is stopped. */
  get ready(): boolean {
    return this.state === 'ready' && !this.stopping && this.settleApply === undefined;
  }

  /**
   * Changes the worker's generation into the one in `generationDir`, written on the one it holds (record-delta.ts),
   * after the queries already sent to it. Resolves once it holds the new one (`generationDir` and `manifest` then
   * name it); rejects when it could not, and the worker is then dead.
   */
  apply(generationDir: string, manifest: GenerationManifest): Promise<{ records: number; ms: number }> {
    if (!this.ready) return Promise.reject(this.unavailable('the store is not ready'));
    return new Promise((resolve, reject) => {
      this.settleApply = {
        resolve: (v) => {
          this.generationDir = generationDir;
          this.manifest = manifest;
          resolve(v);
        },
        reject,
      };
      this.post({ type: 'apply', generationDir });
    });
  }

  /**
   * Sends a query to the public part of the generation, or its non-public part (`nonPublic`); rejects with
   * QueryError, QueryDeadlineError or StoreUnavailableError.
   */
  query(sparql: string, opts: WorkerQueryOptions = {}): Promise<string> {
    if (!this.ready) return Promise.reject(this.unavailable('the store is not ready'));
    const id = this.nextId++;
    const { deadlineMs, clientQuery: client = false } = opts;
    return new Promise<string>((resolve, reject) => {
      const timer = deadlineMs === undefined ? undefined : setTimeout(() => this.expire(id, deadlineMs), deadlineMs);
      const lower = client && this.thread !== undefined ? setTimeout(() => this.lowerPriority(), LOWER_PRIORITY_AFTER_MS) : undefined;
      this.pending.set(id, { resolve, reject, timer, client, lower });
      if (client) this.clients++;
      this.post({ type: 'query', id, sparql, format: opts.format, union: opts.unionDefaultGraph ?? false, nonPublic: opts.nonPublic ?? false, ...(opts.shape ? { shape: opts.shape } : {}) });
    });
  }

  /** Queries sent and not yet answered (the worker answers one at a time: the rest wait their turn). */
  get inFlight(): number {
    return this.pending.size;
  }

  /** Clients' queries among them (QueryOptions.clientQuery), which may run until their deadline. */
  get clientsInFlight(): number {
    return this.clients;
  }

  /** Resolves when no query is in flight. */
  drained(): Promise<void> {
    if (this.pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  /** Ends the worker on purpose; queries still in flight reject with `reason`. */
  async stop(reason: Error): Promise<void> {
    this.stopping = true;
    this.failAll(() => reason);
    this.settleLoad?.reject(reason);
    await this.worker.terminate();
  }

  /** Test hook: makes the worker exit as if it had crashed (only when started with `testHooks`). */
  crashForTest(): void {
    this.post({ type: 'exit' });
  }

  private post(message: ToWorker): void {
    this.worker.postMessage(message);
  }

  private onMessage(message: FromWorker): void {
    switch (message.type) {
      case 'thread':
        this.thread = message.threadId;
        return;
      case 'ready':
        this.state = 'ready';
        this.settleLoad?.resolve({ quads: message.quads, ms: message.ms });
        this.settleLoad = undefined;
        return;
      case 'memory':
        this.memory = { heapUsed: message.heapUsed, external: message.external, arrayBuffers: message.arrayBuffers };
        return;
      case 'applied':
      case 'applyFailed': {
        const settle = this.settleApply;
        this.settleApply = undefined;
        if (message.type === 'applied') settle?.resolve({ records: message.records, ms: message.ms });
        else settle?.reject(new Error(`applying ${this.generationDir}'s change failed: ${message.message}`));
        return;
      }
      case 'loadFailed':
        this.settleLoad?.reject(new Error(`loading ${this.generationDir} failed: ${message.message}`));
        this.settleLoad = undefined;
        return;
      case 'answer':
        this.answered++;
        this.settle(message.id)?.resolve(message.body);
        this.restorePriority();
        return;
      case 'failed':
        this.answered++;
        this.settle(message.id)?.reject(new QueryError(message.message));
        this.restorePriority();
        return;
    }
  }

  /**
   * A client's query still running after LOWER_PRIORITY_AFTER_MS: the thread yields to the rest of the service.
   * Its timer is cleared when the query settles, the worker's death included, so the thread is alive here.
   */
  private lowerPriority(): void {
    if (this.thread === undefined || this.lowered || this.options.yieldClientQueries?.() === false) return;
    this.lowered = setThreadNice(this.thread, LONG_QUERY_NICE);
  }

  /**
   * Back to the usual priority once no client's query is left, on a thread that has just answered (so is alive:
   * a dead thread's id may belong to another thread by now). Linux allows it with CAP_SYS_NICE only; without,
   * the thread keeps the lowered priority, and no later query tries again.
   */
  private restorePriority(): void {
    if (!this.lowered || this.restoreRefused || this.clients > 0 || this.thread === undefined) return;
    if (setThreadNice(this.thread, 0)) this.lowered = false;
    else this.restoreRefused = true;
  }

  private settle(id: number): Pending | undefined {
    const pending = this.pending.get(id);
    if (!pending) return undefined;
    clearTimeout(pending.timer);
    clearTimeout(pending.lower);
    this.pending.delete(id);
    if (pending.client) this.clients--;
    if (this.pending.size === 0) for (const wake of this.drainWaiters.splice(0)) wake();
    return pending;
  }

  /** A query past its deadline: only ending the thread stops it (Oxigraph has no cancellation). */
  private expire(id: number, deadlineMs: number): void {
    const pending = this.settle(id);
    if (!pending) return;
    pending.reject(new QueryDeadlineError(deadlineMs));
    this.die(new QueryDeadlineError(deadlineMs));
    void this.worker.terminate();
  }

  private die(reason: Error): void {
    if (this.state === 'dead') return;
    const wasLoading = this.state === 'loading';
    this.state = 'dead';
    this.failAll(() => this.unavailable('the store worker stopped; it is being restarted'));
    if (wasLoading) this.settleLoad?.reject(new Error(`loading ${this.generationDir} failed: ${reason.message}`));
    this.settleLoad = undefined;
    this.settleApply?.reject(new Error(`the store worker died while it applied a change: ${reason.message}`));
    this.settleApply = undefined;
    if (!this.stopping && !wasLoading) this.onDeath?.(reason);
  }

  private failAll(error: () => Error): void {
    for (const id of [...this.pending.keys()]) this.settle(id)?.reject(error());
  }

  private unavailable(message: string): StoreUnavailableError {
    return new StoreUnavailableError(message, this.options.retryAfterSeconds());
  }
}
