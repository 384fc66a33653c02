/**
 * The embedded implementation of `QueryStore`: one store worker serving one generation, replaced without a
 * failed request on `swap`, restarted after a crash or a query past its deadline (docs/architecture.md,
 * "Store workers"). While no worker is ready, queries reject at once with `StoreUnavailableError`.
 *
 * With `standby` a second worker stays loaded on the served generation: when the serving worker dies, the
 * standby serves at once and a new standby loads behind it, so a query past its deadline costs `/sparql`
 * milliseconds instead of a full reload. A swap drops the standby while the new generation loads (so that a
 * swap never holds three heaps) and loads a new one after the switch. With `share` as well (the service's
 * embedded store, shared-store.ts) the two workers also share the queries, each the other's standby.
 *
 * A generation whose manifest counts more quads than one WebAssembly heap holds is refused before any worker
 * starts (`GenerationTooLargeError`, embedded-limit.ts).
 *
 * Events: 'loading' ({ generationDir, manifest, hold }) when a worker starts loading a generation (start, swap
 * or restart; not a standby), so that work derived from the generation's folder can begin meanwhile (`hold(work)`:
 * a start or a swap switches only once `work` is settled, the old generation serving meanwhile); 'ready'
 * (manifest) after `start`; 'swap' ({ from, to, change? }) when a new generation serves (`change`: the records a
 * worker applied and how long it took, when the new generation was applied to a worker rather than loaded);
 * 'crash' (Error) when a worker dies, a restart fails or a standby fails to load; 'restart' ({ reason,
 * generation, standby }) when a restarted worker, or the standby (`standby: true`), serves again;
 * 'standby' (manifest) when a standby worker has loaded.
 */
import { EventEmitter } from 'node:events';
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { checkFitsEmbeddedStore, embeddedQuadLimit } from './embedded-limit.js';
import { QueryDeadlineError, StoreUnavailableError } from './errors.js';
import { generationFiles } from './generations.js';
import { parseManifest } from './manifest.js';
import { queryForm } from './query-form.js';
import { queryText, type GenerationManifest, type QueryOptions, type QueryStore, type StoreQuery, type WorkerMemoryReport } from './types.js';
import { WorkerHandle } from './worker-handle.js';

export type QueryOutcome = 'ok' | 'error' | 'deadline' | 'unavailable';

/** How a failed query ended, for metrics (every QueryStore reports it the same way). */
export const queryOutcome = (err: unknown): QueryOutcome =>
  err instanceof QueryDeadlineError ? 'deadline' : err instanceof StoreUnavailableError ? 'unavailable' : 'error';

export interface StoreManagerOptions {
  /** Load nonpublic.nq.gz too (the REST store); the SPARQL store serves the public quads only. */
  includeNonPublic: boolean;
  /** Metrics hook, called once per query with its time in ms, its label (or form) and its outcome. */
  onQuery?: (ms: number, kind: string, outcome: QueryOutcome) => void;
  /** How long a swapped-out worker may finish its queries before it is ended (default 60 s). */
  drainTimeoutMs?: number;
  /**
   * Keep a standby worker loaded on the served generation, which takes over at once when the serving worker
   * dies (a query past its deadline, a crash); costs one more heap (docs/operations.md). The SPARQL store.
   */
  standby?: boolean;
  /**
   * With `standby`: the two workers share the queries while both are loaded, each the other's standby. Clients'
   * queries (`clientQuery`, the SPARQL endpoint's, which may run until their deadline or trap the engine) run on
   * the serving worker, and only while the other is loaded too: a client's query never runs on the last live
   * worker, so whatever it does, one worker is left to the REST API. The service's own queries go to whichever
   * worker runs no client query and has fewer queries waiting. When one worker dies, the other serves the
   * service's queries alone until a new one has loaded, and clients' queries get StoreUnavailableError (503).
   */
  share?: boolean;
  /** Most quads one worker may load (default: EMBEDDED_MAX_QUADS, or the environment's override). */
  maxQuads?: number;
  /** Enables `crashForTest()`. */
  testHooks?: boolean;
}

const MAX_RESTART_DELAY_MS = 30_000;

/** Serves queries from a store worker on one generation folder at a time. */
export class StoreManager extends EventEmitter implements QueryStore {
  private readonly options: StoreManagerOptions;
  private active: WorkerHandle | undefined;
  private incoming: WorkerHandle | undefined;
  /** The standby worker (option `standby`), loading or ready, on the generation `active` serves. */
  private standby: WorkerHandle | undefined;
  private served: GenerationManifest | undefined;
  /** Workers still loading (start, swap, restart), ended by close(). */
  private readonly loading = new Set<WorkerHandle>();
  /** What `loading` listeners hold a starting worker's switch for, by worker (untilHeld). */
  private readonly held = new WeakMap<WorkerHandle, Promise<unknown>[]>();
  private restarting = false;
  private restartTimer: NodeJS.Timeout | undefined;
  private failedRestarts = 0;
  private lastLoadMs = 5000;
  private closed = false;
  /**
   * A client's query past LOWER_PRIORITY_AFTER_MS lowers its worker thread's priority (thread-priority.ts). Always
   * on in the service; the shared benchmark turns it off for a run to measure what it buys.
   */
  yieldClientQueries = true;

  constructor(options: StoreManagerOptions) {
    super();
    this.options = options;
  }

  /** The generation being served (kept while a crashed worker restarts on it). */
  get generation(): GenerationManifest | undefined {
    return this.served;
  }

  /** The folder of the generation being served. */
  get generationDir(): string | undefined {
    return this.active?.generationDir;
  }

  /** True when a query would be answered now. */
  ready(): boolean {
    return this.active?.ready ?? false;
  }

  /** The memory each worker last reported: the serving one, the standby, and any loading a generation. */
  workerMemory(): WorkerMemoryReport[] {
    const roles: [WorkerHandle | undefined, WorkerMemoryReport['worker']][] = [
      [this.active, 'serving'],
      [this.standby, 'standby'],
      ...[this.incoming, ...this.loading].filter((h) => h !== this.active && h !== this.standby).map((h): [WorkerHandle | undefined, WorkerMemoryReport['worker']] => [h, 'loading']),
    ];
    const seen = new Set<WorkerHandle>();
    const reports: WorkerMemoryReport[] = [];
    for (const [handle, worker] of roles) {
      if (handle === undefined || seen.has(handle) || handle.memory === undefined) continue;
      seen.add(handle);
      reports.push({ worker, ...handle.memory, answered: handle.answered });
    }
    return reports;
  }

  /** True when a client's query would be answered now: with option `share`, while both workers are loaded. */
  clientReady(): boolean {
    return this.options.share ? this.sharing() !== undefined : this.ready();
  }

  /** True when a standby worker has loaded and would take over at once (option `standby`). */
  standbyReady(): boolean {
    return this.standby?.ready ?? false;
  }

  /** Starts the first worker on `generationDir`; resolves with its manifest once it serves. */
  async start(generationDir: string): Promise<GenerationManifest> {
    if (this.active || this.incoming) throw new Error('the store is already started; use swap()');
    const handle = await this.spawn(generationDir);
    this.incoming = handle;
    try {
      await this.untilLoaded(handle);
      await this.untilHeld(handle);
    } finally {
      this.incoming = undefined;
    }
    this.activate(handle);
    this.emit('ready', handle.manifest);
    this.fillStandby();
    return handle.manifest;
  }

  /**
   * Loads `generationDir` in a new worker while the current one keeps serving, switches when it is ready,
   * lets the old worker finish its queries, then ends it. A later swap supersedes one still loading.
   */
  async swap(generationDir: string): Promise<GenerationManifest> {
    const applied = await this.swapByChange(generationDir);
    if (applied !== undefined) return applied;
    const handle = await this.spawn(generationDir);
    const superseded = this.incoming;
    this.incoming = handle;
    if (superseded) void superseded.stop(new Error('superseded by a newer swap'));
    // The standby holds the old generation: ended now, so that the swap holds two heaps at most, not three.
    this.dropStandby();
    try {
      await this.untilLoaded(handle);
      await this.untilHeld(handle);
    } catch (err) {
      if (this.incoming === handle) {
        this.incoming = undefined;
        // The old worker keeps serving; if it died while this one loaded, restart it now.
        if (this.active && !this.active.ready) this.scheduleRestart(this.active.generationDir, err as Error);
        else this.fillStandby();
      }
      throw err;
    }
    this.incoming = undefined;
    const old = this.active;
    this.activate(handle);
    this.emit('swap', { from: old?.manifest, to: handle.manifest });
    // The new standby loads once the old worker is gone, for the same reason.
    if (old) void this.retire(old).then(() => this.fillStandby());
    else this.fillStandby();
    return handle.manifest;
  }

  /**
   * A swap to a generation written on the served one (docs/incremental.md), when two workers share the work and
   * both hold the served generation: the standby applies the change (the serving worker serves alone meanwhile,
   * as during any swap), then serves the new generation; the old worker answers what it was sent, applies the
   * same change and stands by. No generation is loaded whole. Undefined when the swap is not of that kind or the
   * change could not be applied (the worker that tried is then dead, and the swap loads the generation instead).
   */
  private async swapByChange(generationDir: string): Promise<GenerationManifest | undefined> {
    if (!this.options.share || this.incoming || this.closed) return undefined;
    const manifest = parseManifest(await readFile(generationFiles(generationDir).manifest, 'utf8'));
    const parent = (manifest.details?.changes as { parent?: unknown } | undefined)?.parent;
    // A standby still loading the served generation (this swap came soon after the last one) is waited for: it
    // started before a load of the new generation could, and applying the change to it is then the short way.
    const pending = this.standby;
    if (pending && !pending.ready && this.active?.ready && pending.generationDir === this.active.generationDir && parent === this.active.manifest.id) {
      await pending.loaded.catch(() => undefined);
    }
    const sharing = this.sharing();
    if (sharing === undefined || this.incoming || this.closed) return undefined;
    const [active, standby] = sharing;
    if (parent !== active.manifest.id) return undefined;
    this.standby = undefined;
    this.incoming = standby;
    const held: Promise<unknown>[] = [];
    this.held.set(standby, held);
    this.emit('loading', { generationDir, manifest, hold: (work: Promise<unknown>) => held.push(work) });
    let change: { records: number; ms: number };
    try {
      change = await standby.apply(generationDir, manifest);
      await this.untilHeld(standby);
    } catch (err) {
      if (this.incoming === standby) this.incoming = undefined;
      this.held.delete(standby);
      void standby.stop(err as Error);
      if (this.closed || (err as Error).message === 'superseded by a newer swap') throw err;
      return undefined;
    }
    this.incoming = undefined;
    this.activate(standby);
    this.emit('swap', { from: active.manifest, to: standby.manifest, change });
    void active.apply(generationDir, manifest).then(
      () => {
        if (this.closed || this.standby || this.incoming || this.active !== standby || standby.generationDir !== active.generationDir) {
          void this.retire(active);
          return;
        }
        this.makeStandby(active);
        this.emit('standby', active.manifest);
      },
      () => this.fillStandby(),
    );
    return standby.manifest;
  }

  /** Runs a query on the serving worker. */
  async query(query: StoreQuery, opts: QueryOptions = {}): Promise<string> {
    const started = performance.now();
    const sparql = queryText(query);
    const kind = opts.label ?? queryForm(sparql) ?? 'unknown';
    // A library query names the part of the generation it reads (`#+ part: non-public`); a text says it in `opts`.
    const sent = { ...opts, nonPublic: opts.nonPublic ?? (typeof query !== 'string' && query.entry.nonPublic) };
    const handle = this.pick(sent);
    try {
      if (!handle?.ready) throw new StoreUnavailableError(this.unavailableMessage(sent), this.retryAfterSeconds());
      const body = await handle.query(sparql, sent).catch((err: unknown) => this.retryOnSuccessor(err, handle, sparql, sent, started));
      this.options.onQuery?.(performance.now() - started, kind, 'ok');
      return body;
    } catch (err) {
      this.options.onQuery?.(performance.now() - started, kind, queryOutcome(err));
      throw err;
    }
  }

  /**
   * Whether the service's records are shaped in the workers that read them (QueryOptions.shape): while two
   * workers share the service's queries (option `share`, both loaded on the served generation, neither running a
   * client's query). With one worker to go to, the records are shaped on the main thread, so that the worker's
   * queue holds queries alone and the two threads split each record's work.
   */
  get shapesRecords(): boolean {
    const sharing = this.sharing();
    return sharing !== undefined && sharing.every((handle) => handle.clientsInFlight === 0);
  }

  /** The two workers while they share the work (option `share`, both loaded on the served generation). */
  private sharing(): [active: WorkerHandle, standby: WorkerHandle] | undefined {
    const { active, standby } = this;
    return this.options.share && active?.ready && standby?.ready && standby.generationDir === active.generationDir ? [active, standby] : undefined;
  }

  /**
   * The worker a query goes to: the serving one, or (option `share`, both loaded on the served generation) the
   * serving one for a client's query and, for the service's own, the one without a client's query running and
   * then with fewer queries waiting, the serving one on a tie.
   */
  private pick(opts: QueryOptions): WorkerHandle | undefined {
    const sharing = this.sharing();
    if (opts.clientQuery) return this.options.share && sharing === undefined ? undefined : this.active;
    if (sharing === undefined) return this.active;
    const [active, standby] = sharing;
    const load = (handle: WorkerHandle): number => (handle.clientsInFlight > 0 ? Number.MAX_SAFE_INTEGER : handle.inFlight);
    return load(standby) < load(active) ? standby : active;
  }

  /**
   * A query whose worker died under it (ended at another query's deadline, or crashed) runs once more on the
   * worker that took over at once (the standby), within what is left of its deadline; any other failure stands.
   */
  private retryOnSuccessor(err: unknown, failed: WorkerHandle, sparql: string, opts: QueryOptions, started: number): Promise<string> {
    const successor = this.active;
    if (!(err instanceof StoreUnavailableError) || this.closed || !successor?.ready || successor === failed) throw err;
    // The successor is the last live worker now (option `share`): a client's query is not run there.
    if (opts.clientQuery && this.options.share) throw err;
    const { deadlineMs } = opts;
    const left = deadlineMs === undefined ? undefined : deadlineMs - (performance.now() - started);
    if (deadlineMs !== undefined && left !== undefined && left <= 0) throw new QueryDeadlineError(deadlineMs);
    return successor.query(sparql, { ...opts, ...(left === undefined ? {} : { deadlineMs: Math.ceil(left) }) });
  }

  /** Ends every worker; later queries reject with `StoreUnavailableError`. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.restartTimer);
    const closing = new StoreUnavailableError('the store is closed', this.retryAfterSeconds());
    const handles = new Set([this.active, this.incoming, this.standby, ...this.loading].filter((h): h is WorkerHandle => h !== undefined));
    this.active = undefined;
    this.incoming = undefined;
    this.standby = undefined;
    await Promise.all([...handles].map((h) => h.stop(closing)));
  }

  /** Test hook: the serving worker exits as if it had crashed (needs `testHooks`). */
  crashForTest(): void {
    if (!this.options.testHooks) throw new Error('crashForTest needs the testHooks option');
    this.active?.crashForTest();
  }

  /**
   * Starts a worker on `generationDir`. Its manifest is read first, so a bad folder, or a generation larger than
   * one heap holds (GenerationTooLargeError), fails here before any worker starts. A standby is not announced.
   */
  private async spawn(generationDir: string, announce = true): Promise<WorkerHandle> {
    if (this.closed) throw new Error('the store is closed');
    const manifest = parseManifest(await readFile(generationFiles(generationDir).manifest, 'utf8'));
    checkFitsEmbeddedStore(manifest, this.options.includeNonPublic, this.options.maxQuads ?? embeddedQuadLimit());
    if (this.closed) throw new Error('the store is closed');
    const handle = new WorkerHandle(generationDir, manifest, {
      includeNonPublic: this.options.includeNonPublic,
      testHooks: this.options.testHooks ?? false,
      retryAfterSeconds: () => this.retryAfterSeconds(),
      yieldClientQueries: () => this.yieldClientQueries,
    });
    this.loading.add(handle);
    if (announce) {
      const held: Promise<unknown>[] = [];
      this.held.set(handle, held);
      this.emit('loading', { generationDir, manifest, hold: (work: Promise<unknown>) => held.push(work) });
    }
    return handle;
  }

  /**
   * Waits for what `loading` listeners hold the switch for (the app's collection indexes, built from the
   * generation's stored index while the worker loads), so that a swap keeps the old generation serving until
   * they are done; their failures are theirs. Throws when a newer swap superseded `handle` meanwhile.
   */
  private async untilHeld(handle: WorkerHandle): Promise<void> {
    const held = this.held.get(handle) ?? [];
    this.held.delete(handle);
    await Promise.allSettled(held);
    if (this.closed) throw new Error('the store is closed');
    if (this.incoming !== handle) throw new Error('superseded by a newer swap');
  }

  /** Waits until `handle` has loaded; a worker that fails to load is ended. */
  private async untilLoaded(handle: WorkerHandle): Promise<void> {
    try {
      const { ms } = await handle.loaded;
      this.lastLoadMs = ms;
    } catch (err) {
      await handle.stop(err as Error);
      throw err;
    } finally {
      this.loading.delete(handle);
    }
    if (this.closed) {
      await handle.stop(new Error('the store is closed'));
      throw new Error('the store is closed');
    }
  }

  private activate(handle: WorkerHandle): void {
    this.active = handle;
    this.served = handle.manifest;
    this.failedRestarts = 0;
    handle.onDeath = (reason) => {
      if (handle !== this.active) return;
      this.emit('crash', reason);
      if (!this.promoteStandby(handle, reason)) this.scheduleRestart(handle.generationDir, reason);
    };
  }

  /** Lets a loaded standby on the dead worker's generation serve at once, and loads a new standby behind it. */
  private promoteStandby(dead: WorkerHandle, reason: Error): boolean {
    const standby = this.standby;
    if (!standby?.ready || standby.generationDir !== dead.generationDir) return false;
    this.standby = undefined;
    this.activate(standby);
    this.emit('restart', { reason, generation: standby.manifest, standby: true });
    this.fillStandby();
    return true;
  }

  /**
   * Starts loading a standby worker on the served generation when the `standby` option asks for one, none is
   * there, and no swap is loading. A standby that fails to load is reported ('crash') and not retried until
   * the next change of serving worker; one that dies after loading is replaced.
   */
  private fillStandby(): void {
    if (!this.options.standby || this.closed || this.standby || this.incoming || !this.active?.ready) return;
    const serving = this.active;
    this.spawn(serving.generationDir, false).then(
      (handle) => {
        // Things may have moved on while the manifest was read (a swap, another standby, close).
        if (this.closed || this.standby || this.incoming || this.active !== serving) {
          this.loading.delete(handle);
          void handle.stop(new Error('the standby is not needed'));
          return;
        }
        this.makeStandby(handle);
        handle.loaded.then(
          ({ ms }) => {
            this.loading.delete(handle);
            this.lastLoadMs = ms;
            if (handle === this.standby) this.emit('standby', handle.manifest);
          },
          (err: Error) => {
            this.loading.delete(handle);
            void handle.stop(err);
            if (handle !== this.standby) return;
            this.standby = undefined;
            if (!this.closed) this.emit('crash', new Error(`the standby store worker could not load: ${err.message}`));
          },
        );
      },
      (err: Error) => {
        if (!this.closed) this.emit('crash', err);
      },
    );
  }

  /** Makes `handle` the standby; one that dies is reported ('crash') and replaced. */
  private makeStandby(handle: WorkerHandle): void {
    this.standby = handle;
    handle.onDeath = (reason) => {
      if (handle !== this.standby) return;
      this.standby = undefined;
      this.emit('crash', reason);
      this.fillStandby();
    };
  }

  /** Ends the standby worker, if any; one that shares the queries (`share`) finishes those it has first. */
  private dropStandby(): void {
    const standby = this.standby;
    if (!standby) return;
    this.standby = undefined;
    this.loading.delete(standby);
    if (this.options.share && standby.ready) void this.retire(standby);
    else void standby.stop(new Error('the standby is not needed'));
  }

  /** Lets a swapped-out worker finish its queries (up to the drain timeout), then ends it. */
  private async retire(old: WorkerHandle): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.options.drainTimeoutMs ?? 60_000);
    });
    await Promise.race([old.drained(), timeout]);
    clearTimeout(timer);
    await old.stop(new StoreUnavailableError('the store was swapped to a new generation', 1));
  }

  /** Restarts a worker on the same generation, with a growing delay while restarts keep failing. */
  private scheduleRestart(generationDir: string, reason: Error): void {
    // A swap in progress brings its own worker; if it fails, swap() calls back here.
    if (this.closed || this.restarting || this.incoming) return;
    this.restarting = true;
    const delay = this.failedRestarts === 0 ? 0 : Math.min(200 * 2 ** this.failedRestarts, MAX_RESTART_DELAY_MS);
    const restart = async (): Promise<void> => {
      // A standby still loading on this generation is the restart: no third heap.
      const standby = this.standby?.generationDir === generationDir ? this.standby : undefined;
      if (standby) this.standby = undefined;
      if (standby?.ready) {
        this.activate(standby);
        this.emit('restart', { reason, generation: standby.manifest, standby: true });
        this.fillStandby();
        return;
      }
      const handle = standby ?? (await this.spawn(generationDir));
      await this.untilLoaded(handle);
      if (this.active?.ready) {
        // A swap finished meanwhile: the restarted worker is not needed.
        await handle.stop(new Error('not needed'));
        return;
      }
      this.activate(handle);
      this.emit('restart', { reason, generation: handle.manifest, standby: false });
      this.fillStandby();
    };
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      restart().then(
        () => {
          this.restarting = false;
        },
        (err: Error) => {
          this.restarting = false;
          if (this.closed) return;
          this.failedRestarts++;
          this.emit('crash', err);
          if (this.active && !this.active.ready) this.scheduleRestart(generationDir, reason);
        },
      );
    }, delay);
  }

  /** Why a query finds no worker: closed, starting or restarting, or (a client's, option `share`) one worker only. */
  private unavailableMessage(opts: QueryOptions): string {
    if (this.closed) return 'the store is closed';
    if (opts.clientQuery && this.options.share && this.active?.ready) {
      return "one store worker is loading (at start, after a swap, or after a query past its deadline); until it has, the other serves the REST API alone and clients' queries wait";
    }
    return 'the store is not ready (starting or restarting)';
  }

  private retryAfterSeconds(): number {
    return Math.max(1, Math.ceil(this.lastLoadMs / 1000));
  }
}
