/**
 * The embedded store as the service runs it: one StoreManager whose two workers each hold the whole generation
 * (its public and non-public parts, kept apart in two datasets: store-worker.ts) and share the work (option
 * `share`), each the other's standby. The REST API and the SPARQL endpoint see it as two stores:
 *
 * - the REST store sends the service's own queries, which may read the non-public part when they ask for it;
 * - the SPARQL store sends clients' queries (`clientQuery`), always to the public part: public-only holds by
 *   which dataset a query reads, never by which worker holds what.
 *
 * Both are views of the one manager: starting or swapping either starts or swaps it once (the second call finds
 * it done or under way), and it closes when both are closed. Events are the manager's.
 */
import { QueryError } from './errors.js';
import { StoreManager, type QueryOutcome } from './store-manager.js';
import type { GenerationManifest, QueryOptions, ServingStore, StoreQuery, WorkerMemoryReport } from './types.js';

type Listener = (...args: unknown[]) => void;

/** The one manager and what its two views have asked of it. */
class Shared {
  readonly manager: StoreManager;
  private starting: Promise<GenerationManifest> | undefined;
  private swapping: { dir: string; done: Promise<GenerationManifest> } | undefined;
  private open = 2;

  constructor(onQuery?: (ms: number, kind: string, outcome: QueryOutcome) => void) {
    this.manager = new StoreManager({ includeNonPublic: true, standby: true, share: true, ...(onQuery ? { onQuery } : {}) });
  }

  start(dir: string): Promise<GenerationManifest> {
    this.starting ??= this.manager.start(dir);
    return this.starting;
  }

  async swap(dir: string): Promise<GenerationManifest> {
    if (this.swapping?.dir === dir) return this.swapping.done;
    if (this.swapping === undefined && this.manager.generationDir === dir && this.manager.generation) return this.manager.generation;
    const done = this.manager.swap(dir);
    const swapping = { dir, done };
    this.swapping = swapping;
    try {
      return await done;
    } finally {
      if (this.swapping === swapping) this.swapping = undefined;
    }
  }

  async close(): Promise<void> {
    this.open--;
    if (this.open === 0) await this.manager.close();
  }
}

/** One view of the shared manager: the REST store or the SPARQL store. */
class SharedView implements ServingStore {
  constructor(
    private readonly shared: Shared,
    private readonly role: 'rest' | 'sparql',
  ) {}

  /** The REST view's records are shaped in the workers while they share the work; the SPARQL view's never. */
  get shapesRecords(): boolean {
    return this.role === 'rest' && this.shared.manager.shapesRecords;
  }

  get generation(): GenerationManifest | undefined {
    return this.shared.manager.generation;
  }

  /** The REST view: a worker serves. The SPARQL view: clients' queries run, which needs both workers loaded (store-manager.ts). */
  ready(): boolean {
    return this.role === 'rest' ? this.shared.manager.ready() : this.shared.manager.clientReady();
  }

  /** True when the second worker has loaded and shares the work (and would take over at once). */
  standbyReady(): boolean {
    return this.shared.manager.standbyReady();
  }

  /** The workers' memory, reported by the REST view only (the SPARQL view's workers are the same ones). */
  workerMemory(): WorkerMemoryReport[] {
    return this.role === 'rest' ? this.shared.manager.workerMemory() : [];
  }

  query(sparql: StoreQuery, opts: QueryOptions = {}): Promise<string> {
    if (this.role === 'rest') return this.shared.manager.query(sparql, opts);
    if (opts.nonPublic) return Promise.reject(new QueryError('the SPARQL store reads the public part only'));
    if (opts.shape) return Promise.reject(new QueryError('the SPARQL store answers queries as they are'));
    return this.shared.manager.query(sparql, { ...opts, clientQuery: true });
  }

  start(generationDir: string): Promise<GenerationManifest> {
    return this.shared.start(generationDir);
  }

  swap(generationDir: string): Promise<GenerationManifest> {
    return this.shared.swap(generationDir);
  }

  close(): Promise<void> {
    return this.shared.close();
  }

  on(event: string | symbol, listener: Listener): StoreManager {
    return this.shared.manager.on(event, listener);
  }

  once(event: string | symbol, listener: Listener): StoreManager {
    return this.shared.manager.once(event, listener);
  }

  off(event: string | symbol, listener: Listener): StoreManager {
    return this.shared.manager.off(event, listener);
  }
}

/** The REST and SPARQL stores over one shared pair of embedded workers, and the manager itself (tests, metrics). */
export function sharedEmbeddedStores(onQuery?: (ms: number, kind: string, outcome: QueryOutcome) => void): {
  rest: ServingStore;
  sparql: ServingStore;
  manager: StoreManager;
} {
  const shared = new Shared(onQuery);
  return { rest: new SharedView(shared, 'rest'), sparql: new SharedView(shared, 'sparql'), manager: shared.manager };
}
