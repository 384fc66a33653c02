/**
 * What an app derives from each generation its REST store serves: one collection index per kind, and the
 * record statuses. They are built as soon as a generation serves, when the store announces it (StoreManager
 * emits `ready` and `swap`), one after the other so the store is not asked for every kind's SELECTs at once;
 * a build that fails is tried again in the background. Requests never wait for a build (index-manager.ts,
 * forRequest), and /readyz says ready only once nothing is left to build (`derivedBuilding`). Shared per store,
 * so the collections and any index endpoint read the same one.
 *
 * Start-up from stored work (docs/architecture.md): the SELECT answers they are built from come from the
 * generation's stored index when it holds them (collection-index/stored-index.ts). When the store starts loading
 * a generation (`loading`), its stored index is read and everything is built from it at once, while the store
 * is still loading, and the store switches to the generation once that is done (`hold`), the old one serving
 * meanwhile; once the generation serves, only what the stored index lacked is asked of the store, and a
 * stored index that was missing, stale, damaged or incomplete is written again (where the folder is writable).
 * On a remote store a missing or unusable stored index is computed first, from the generation's files, as the
 * data commands compute it (`compute`): the server's answers to the index queries take minutes at a few
 * thousand objects. Whatever is wrong with a stored index, the generation serves: the structures are then
 * built from the store.
 *
 * `writeGenerationIndex` (generation-index.ts) writes the stored index of a generation being made (harvest, load, demo).
 */
import type { AppContext } from './app-context.js';
import { buildCollectionIndex } from '../collection-index/build.js';
import type { CollectionIndex } from '../collection-index/collection-index.js';
import { CollectionIndexes, RETRY_BUILD_MS } from '../collection-index/index-manager.js';
import type { RecordTable, Row } from '../collection-index/record-table.js';
import { storedIndexFile, storedSelect, StoredIndex, type AnswerCounts, type IndexedGeneration } from '../collection-index/stored-index.js';
import { sharedStatusIndex } from '../records/records.js';
import { STATUS_QUERY, type StatusIndex } from '../records/status-index.js';
import { generationDir } from '../store/generations.js';
import { indexingStore } from '../store/stores.js';
import type { GenerationManifest, QueryStore } from '../store/types.js';
import { computeGenerationIndex } from './generation-index.js';
import type { ResourceKind } from './kind.js';

/**
 * What the derived structures need of an app. With the kinds, the base URL and a remote store (`config.store`),
 * a generation that comes without its stored index gets one before it serves (GenerationDerived.compute).
 */
type IndexContext = Pick<AppContext, 'store' | 'queries' | 'iris' | 'logger'> &
  Partial<Pick<AppContext, 'kinds'>> & { config: Pick<AppContext['config'], 'dataDir'> & Partial<Pick<AppContext['config'], 'store' | 'baseUrl'>> };

/** What StoreManager's `loading` event carries. */
interface LoadingEvent {
  generationDir: string;
  manifest: GenerationManifest;
  /** Given by a store that serves the generation only once `work` is settled (RemoteStore): the old one serves meanwhile. */
  hold?: (work: Promise<unknown>) => void;
}

const derived = new WeakMap<QueryStore, GenerationDerived>();

/** The index manager of `kind` in the app of `ctx`. */
export function sharedIndexes<T extends RecordTable>(ctx: IndexContext, kind: ResourceKind<T>): CollectionIndexes<T> {
  let forStore = derived.get(ctx.store);
  if (!forStore) {
    forStore = new GenerationDerived(ctx);
    derived.set(ctx.store, forStore);
  }
  return forStore.indexesOf(kind);
}

/**
 * What the app of `ctx` still builds before every kind's requests answer from its index (/readyz): the stored
 * index and the kinds built ahead while no generation serves yet, else the served generation's kinds whose
 * index is not built and its record statuses. Empty when nothing is left.
 */
export function derivedBuilding(ctx: Pick<IndexContext, 'store'>): string[] {
  return derived.get(ctx.store)?.building() ?? [];
}

/** The per-generation structures of one store, and the stored indexes they are built from. */
class GenerationDerived {
  private readonly kinds = new Map<string, { kind: ResourceKind<RecordTable>; indexes: CollectionIndexes<RecordTable> }>();
  private readonly statuses: StatusIndex;
  /** Stored indexes being built from (the generation loading and the one served), released once all is built. */
  private readonly books = new Map<string, Promise<StoredIndex>>();
  /** Folders of the generations seen loading, by id. */
  private readonly dirs = new Map<string, string>();
  /** Status rows being read, by generation, so that a record request and the warm-up share one query. */
  private readonly statusReads = new Map<string, Promise<Row[]>>();
  private queue: Promise<unknown> = Promise.resolve();
  private warmScheduled = false;
  /** The generation whose stored index is being computed (no usable file: a remote replica's generation). */
  private computing: string | undefined;
  /** Kinds whose index is being built ahead, before their generation serves. */
  private readonly ahead = new Set<string>();
  /** The generations whose record statuses are prepared: the served one, and one built ahead during a swap. */
  private readonly statusesOf = new Set<string>();

  constructor(private readonly ctx: IndexContext) {
    this.statuses = sharedStatusIndex(ctx);
    this.statuses.readFrom((generationId) => this.statusRows(generationId));
    const events = ctx.store as Partial<Pick<NodeJS.EventEmitter, 'on'>>;
    if (typeof events.on === 'function') {
      events.on.call(ctx.store, 'loading', (event: LoadingEvent) => this.preload(event));
      events.on.call(ctx.store, 'ready', () => this.scheduleWarm());
      events.on.call(ctx.store, 'swap', () => this.scheduleWarm());
    }
    if (ctx.store.ready()) this.scheduleWarm();
  }

  indexesOf<T extends RecordTable>(kind: ResourceKind<T>): CollectionIndexes<T> {
    const existing = this.kinds.get(kind.collection);
    if (existing) return existing.indexes as unknown as CollectionIndexes<T>;
    const indexes = new CollectionIndexes<T>(
      (generationId) => this.serially(() => this.build(kind, generationId, true)),
      () => this.ctx.store.generation?.id,
      kind.collection,
    );
    this.kinds.set(kind.collection, {
      kind: kind as unknown as ResourceKind<RecordTable>,
      indexes: indexes as unknown as CollectionIndexes<RecordTable>,
    });
    return indexes;
  }

  /** Builds a kind's index; `fromStore: false` builds from the stored index only (the store is still loading). */
  private async build<T extends RecordTable>(kind: ResourceKind<T>, generationId: string, fromStore: boolean): Promise<CollectionIndex<T>> {
    const answers: AnswerCounts = { stored: 0, asked: 0 };
    const stored = await this.storedIndex(generationId);
    const index = await buildCollectionIndex(this.ctx, kind.index, generationId, storedSelect(this.ctx, stored, { fromStore }, answers));
    this.ctx.logger.info(
      { generation: generationId, kind: kind.collection, ...index.report, answers, ahead: !fromStore },
      'collection index built',
    );
    return index;
  }

  /** What is left to build (derivedBuilding). */
  building(): string[] {
    const served = this.ctx.store.generation?.id;
    if (served === undefined) return [...(this.computing === undefined ? [] : ['stored index']), ...this.ahead];
    const kinds = [...this.kinds.values()].filter(({ indexes }) => !indexes.builtFor(served)).map(({ kind }) => kind.collection);
    return this.statusesOf.has(served) ? kinds : [...kinds, 'record statuses'];
  }

  /**
   * A generation starts loading: with a stored index, everything is built from it meanwhile (on a remote store,
   * a missing one is computed first: open). A store that can wait (`hold`) serves it once that is done.
   */
  private preload({ generationDir: dir, manifest, hold }: LoadingEvent): void {
    this.dirs.set(manifest.id, dir);
    for (const id of [...this.dirs.keys()].slice(0, -4)) this.dirs.delete(id);
    const kinds = [...this.kinds.values()];
    // A worker restarting on the served generation: its structures are there already.
    if (kinds.every(({ indexes }) => indexes.has(manifest.id))) return;
    const read = this.open(manifest, dir);
    const settled = (work: Promise<unknown>): Promise<void> => work.then(() => undefined, () => undefined);
    const builds = kinds.map(({ kind, indexes }) => {
      this.ahead.add(kind.collection);
      return settled(indexes.preload(manifest.id, () => this.serially(() => this.build(kind, manifest.id, false)))).then(() => {
        this.ahead.delete(kind.collection);
      });
    });
    const statuses = this.serially(async () => {
      this.statuses.prepare(manifest.id, await storedSelect(this.ctx, await read, { fromStore: false })(STATUS_QUERY));
      this.statusesPrepared(manifest.id);
    });
    hold?.(Promise.all([...builds, settled(statuses)]));
  }

  /** Notes that the statuses of `generationId` are prepared; only the last two generations' are remembered. */
  private statusesPrepared(generationId: string): void {
    this.statusesOf.delete(generationId);
    this.statusesOf.add(generationId);
    for (const id of [...this.statusesOf].slice(0, -2)) this.statusesOf.delete(id);
  }

  /** Warms the served generation soon: deferred, so that every kind an app declares while it is built warms in one pass. */
  private scheduleWarm(): void {
    if (this.warmScheduled) return;
    this.warmScheduled = true;
    setImmediate(() => {
      this.warmScheduled = false;
      void this.warm();
    });
  }

  /** Builds everything for the served generation (what was built ahead is taken as is), then saves the stored index. */
  private async warm(): Promise<void> {
    const generation = this.ctx.store.generation;
    if (!generation) return;
    const { logger } = this.ctx;
    const built = await Promise.all(
      [...this.kinds.values()].map(({ kind, indexes }) =>
        indexes.current().then(
          () => true,
          (err: unknown) => {
            logger.error({ err, kind: kind.collection }, 'collection index build failed');
            return false;
          },
        ),
      ),
    );
    // After the collections: a first record request reads the statuses itself meanwhile (through statusRows).
    const statuses = await this.statusRows(generation.id).then(
      (rows) => {
        this.statuses.prepare(generation.id, rows);
        this.statusesPrepared(generation.id);
        return true;
      },
      (err: unknown) => {
        logger.error({ err }, 'record statuses could not be read');
        return false;
      },
    );
    if (built.every(Boolean) && statuses && this.ctx.store.generation?.id === generation.id) await this.save(generation.id);
    // Tried again in the background, never by requests in a row: /readyz says what is still built meanwhile.
    else if (this.ctx.store.generation?.id === generation.id) setTimeout(() => this.scheduleWarm(), RETRY_BUILD_MS).unref();
  }

  /** The rows of the status query of a generation: from its stored index, else from the store (one query at a time). */
  private statusRows(generationId: string): Promise<Row[]> {
    const reading = this.statusReads.get(generationId);
    if (reading) return reading;
    const read = this.storedIndex(generationId)
      .then((stored) => storedSelect(this.ctx, stored, { fromStore: true })(STATUS_QUERY))
      .finally(() => this.statusReads.delete(generationId));
    this.statusReads.set(generationId, read);
    return read;
  }

  /** Writes the stored index of `generationId` when the store had to be asked for anything, then releases it. */
  private async save(generationId: string): Promise<void> {
    const book = this.books.get(generationId);
    if (!book) return;
    this.books.delete(generationId);
    const stored = await book;
    if (!stored.changed) return;
    const file = storedIndexFile(stored.generation.dir);
    try {
      const written = await stored.write();
      this.ctx.logger.info({ generation: generationId, file, ...written }, 'stored index written');
    } catch (err) {
      this.ctx.logger.warn({ generation: generationId, file, problem: (err as Error).message }, 'stored index not written; the next start builds from the store again');
    }
  }

  /** The stored index of a generation: the one open, else the served generation's, read from its folder. */
  private storedIndex(generationId: string): Promise<StoredIndex> {
    const open = this.books.get(generationId);
    if (open) return open;
    const served = this.ctx.store.generation;
    const dir = this.dirs.get(generationId) ?? generationDir(this.ctx.config.dataDir, generationId);
    if (served?.id === generationId) return this.open(served, dir);
    // A generation neither loading nor served (it was swapped out meanwhile): its build is thrown away anyway.
    return Promise.resolve(StoredIndex.empty({ dir, manifest: { id: generationId, checksums: { public: '', nonPublic: '' } } }));
  }

  /** Reads a generation's stored index (once while it is in use); a file that cannot be used is logged and left aside. */
  private open(manifest: GenerationManifest, dir: string): Promise<StoredIndex> {
    const open = this.books.get(manifest.id);
    if (open) return open;
    for (const id of this.books.keys()) if (id !== this.ctx.store.generation?.id) this.books.delete(id);
    const { logger } = this.ctx;
    const computes = this.computesMissing();
    const then = computes ? 'it is computed before the generation serves' : 'the derived structures are built from the store';
    const read = StoredIndex.read({ dir, manifest }).then(({ stored, problem, ms }) => {
      const where = { generation: manifest.id, file: storedIndexFile(dir), ms: Math.round(ms) };
      if (problem === undefined) logger.info({ ...where, answers: stored.size }, 'stored index read');
      else if (problem === 'missing') logger.info(where, `no stored index; ${then}`);
      else logger.warn({ ...where, problem }, `stored index ignored; ${then}`);
      return problem === undefined || !computes ? stored : this.compute({ dir, manifest }, stored);
    });
    this.books.set(manifest.id, read);
    return read;
  }

  /**
   * True when a generation without a usable stored index gets one before it serves: on a remote store, whose
   * index queries can take minutes (past the server's time limit, which ends them), while the generation's files
   * answer most of them in seconds. The embedded store builds from its worker instead, once loaded.
   */
  private computesMissing(): boolean {
    const { config, kinds } = this.ctx;
    return config.store !== undefined && config.baseUrl !== undefined && kinds !== undefined;
  }

  /**
   * Computes a generation's stored index as a data command does (from its files, asking the server only what
   * they cannot answer, with the store's generous default deadline) and writes it next to the generation, so
   * that the next replica reads it; a folder it may not write only costs the next replica the same work.
   * Whatever fails, `fallback` (the unusable file's empty index) is returned and the structures are built from
   * the store once the generation serves.
   */
  private async compute(generation: IndexedGeneration, fallback: StoredIndex): Promise<StoredIndex> {
    const { config, kinds, logger } = this.ctx;
    const { baseUrl, store } = config;
    if (baseUrl === undefined || store === undefined || kinds === undefined) return fallback;
    const where = { generation: generation.manifest.id, file: storedIndexFile(generation.dir) };
    this.computing = generation.manifest.id;
    try {
      const { stored, report } = await computeGenerationIndex(generation, { baseUrl, kinds: kinds.list, openStore: indexingStore({ baseUrl, store }) });
      logger.info({ ...where, ...report, ms: roundedMs(report.ms) }, 'stored index computed');
      try {
        const written = await stored.write();
        logger.info({ ...where, ...written, ms: Math.round(written.ms) }, 'stored index written');
      } catch (err) {
        logger.warn({ ...where, problem: (err as Error).message }, 'stored index not written; the next start computes it again');
      }
      return stored;
    } catch (err) {
      logger.error({ ...where, err }, 'stored index could not be computed; the derived structures are built from the store');
      return fallback;
    } finally {
      this.computing = undefined;
    }
  }

  /** Runs builds one after the other. */
  private serially<R>(run: () => Promise<R>): Promise<R> {
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }
}

/** Milliseconds rounded for a log line. */
const roundedMs = (ms: Record<string, number>): Record<string, number> => Object.fromEntries(Object.entries(ms).map(([part, value]) => [part, Math.round(value)]));
