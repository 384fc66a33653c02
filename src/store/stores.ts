/**
 * Which store serves: the embedded Oxigraph workers (default) or a remote SPARQL server (`STORE_URL`). This is
 * the one place that chooses; everything else sees a `ServingStore`. With a remote store, a generation is
 * written to the server while it is made (`publishStep`), before it can become current, and generations pruned
 * from the data folder are dropped from the server too.
 */
import type { EventEmitter } from 'node:events';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config/config.js';
import { generationFiles, type CreateOptions, type Generation } from './generations.js';
import { parseManifest } from './manifest.js';
import { BulkLoader } from './remote/bulk-load.js';
import { Isql } from './remote/isql.js';
import { dropGenerations, isPublished, publishedGenerations, publishGeneration, type PublishOptions, type PublishReport } from './remote/publish.js';
import { RemoteServer } from './remote/remote-server.js';
import { RemoteStore } from './remote/remote-store.js';
import { ServerWatchdog } from './remote/watchdog.js';
import { sharedEmbeddedStores } from './shared-store.js';
import type { QueryOutcome } from './store-manager.js';
import type { GenerationManifest, QueryStore } from './types.js';

/** A store that serves one generation folder at a time (StoreManager or RemoteStore). */
export interface ServingStore extends QueryStore, Pick<EventEmitter, 'on' | 'once' | 'off'> {
  start(generationDir: string): Promise<GenerationManifest>;
  swap(generationDir: string): Promise<GenerationManifest>;
  close(): Promise<void>;
}

export interface StoreChoice {
  /** Serves the REST API: public and non-public quads (the non-public part when a query asks for it). */
  rest: ServingStore;
  /** Serves the SPARQL endpoint: public quads only. */
  sparql: ServingStore;
  /** 'embedded' or the remote query URL (safe to log: credentials are never part of it). */
  kind: string;
  /** The two are views of one store (the embedded one): the same workers, the same events. */
  shared?: boolean;
  /**
   * The remote server both stores share, and its watchdog, not started: a serving process starts it (data
   * commands never do). Undefined for the embedded store.
   */
  remote?: { server: RemoteServer; watchdog: ServerWatchdog };
}

type StoreConfig = Pick<Config, 'store' | 'baseUrl'>;

/** The remote server of `config`, when STORE_URL is set. */
export function remoteServer(config: Pick<Config, 'store'>): RemoteServer | undefined {
  const settings = config.store;
  if (settings === undefined) return undefined;
  return new RemoteServer({
    queryUrl: settings.url,
    ...(settings.updateUrl === undefined ? {} : { updateUrl: settings.updateUrl }),
    ...(settings.graphStoreUrl === undefined ? {} : { graphStoreUrl: settings.graphStoreUrl }),
    ...(settings.user === undefined ? {} : { user: settings.user }),
    ...(settings.password === undefined ? {} : { password: settings.password.reveal() }),
  });
}

/** The bulk loader of `config` (STORE_BULK_DIR and STORE_ISQL), or undefined: the Graph Store Protocol writes. */
export function bulkLoader(config: Pick<Config, 'store'>): BulkLoader | undefined {
  const settings = config.store;
  const bulk = settings?.bulk;
  if (settings === undefined || bulk === undefined || settings.user === undefined || settings.password === undefined) return undefined;
  return new BulkLoader({
    dir: bulk.dir,
    serverDir: bulk.serverDir,
    loaders: bulk.loaders,
    isql: new Isql({ address: bulk.isql, bin: bulk.isqlBin, user: settings.user, password: settings.password.reveal() }),
  });
}

/** How `config` writes generations to the remote server. */
const publishOptions = (config: Pick<Config, 'store'>): PublishOptions => {
  const bulk = bulkLoader(config);
  return bulk === undefined ? {} : { bulk };
};

/** The REST and SPARQL stores `config` asks for. */
export function createStores(config: StoreConfig, onQuery?: (ms: number, kind: string, outcome: QueryOutcome) => void): StoreChoice {
  const server = remoteServer(config);
  if (server === undefined) {
    // Two workers that hold the whole generation and share the work, each the other's standby: a client's query
    // past its deadline ends one, and the other serves everything at once while it reloads (shared-store.ts).
    const { rest, sparql } = sharedEmbeddedStores(onQuery);
    return { rest, sparql, kind: 'embedded', shared: true };
  }
  const common = { server, baseIri: `${config.baseUrl}/sparql`, rowLimit: config.store?.rowLimit ?? 10_000, ...(onQuery ? { onQuery } : {}) };
  return {
    rest: new RemoteStore({ ...common, includeNonPublic: true }),
    sparql: new RemoteStore({ ...common, includeNonPublic: false }),
    kind: server.queryUrl,
    remote: { server, watchdog: new ServerWatchdog(server) },
  };
}

/** What a data command hears of its generation's write to the remote server. */
export interface PublishEvents {
  onStart?(): void;
  onDone?(report: PublishReport): void;
}

/**
 * The `derive` step that writes a generation being made to the remote server, then runs `after` (such as the
 * stored index, which reads the generation's files and asks the server, through `indexingStore`, only what the
 * files cannot answer); for the embedded store, `after` alone. A failed write fails the generation (it never
 * becomes current) and `after` does not run.
 *
 * One after the other, not side by side: on two cores the stored index's workers and the bulk loader's file
 * writer and loaders slowed each other down by more than the overlap gained. At 100,000 objects (`npm run bench
 * -- --store remote --objects 100000`, 2026-11-27) harvest-to-ready took 734 s against 801 s side by side
 * (the publication 428 s against 623 s, the stored index 114 s against 418 s), load-to-ready 741 s against 776 s;
 * at 10,000 objects 52 s against 57 s (load-to-ready 60 s against 52 s, within that size's run-to-run spread).
 */
export function publishStep(config: Pick<Config, 'store'>, after: ((staged: Generation) => Promise<void>) | undefined, events: PublishEvents = {}): CreateOptions['derive'] {
  const server = remoteServer(config);
  if (server === undefined) return after;
  return async (staged: Generation) => {
    events.onStart?.();
    const report = await publishGeneration(server, staged.dir, staged.manifest, publishOptions(config)).finally(() => server.close());
    events.onDone?.(report);
    await after?.(staged);
  };
}

/**
 * `work` done with the remote server of `config`, whose connections are closed after, or with `shared` (a
 * serving process's, which stays open); undefined for the embedded store.
 */
async function withRemoteServer<T>(config: Pick<Config, 'store'>, work: (server: RemoteServer) => Promise<T>, shared?: RemoteServer): Promise<T | undefined> {
  if (shared !== undefined) return work(shared);
  const server = remoteServer(config);
  if (server === undefined) return undefined;
  try {
    return await work(server);
  } finally {
    await server.close();
  }
}

/**
 * Drops from the remote server every generation that is neither in `keep` (ids) nor being made in the data
 * folder's staging/ (a harvest or load writing to the server now); nothing for the embedded store. A serving
 * process passes its watched server as `shared`, so that a server that stops answering fails the drop instead of
 * hanging it.
 */
export async function dropRemoteGenerations(config: Pick<Config, 'store' | 'dataDir'>, keep: readonly string[], shared?: RemoteServer): Promise<string[]> {
  const dropped = await withRemoteServer(config, async (server) => {
    const staging = await readdir(path.join(config.dataDir, 'staging')).catch(() => [] as string[]);
    const kept = new Set([...keep, ...staging]);
    const drop = (await publishedGenerations(server)).map((g) => g.id).filter((id) => !kept.has(id));
    await dropGenerations(server, drop, bulkLoader(config));
    return drop;
  }, shared);
  return dropped ?? [];
}

/**
 * Writes the generation in `generationDir` to the remote server unless the server holds it complete already
 * (a data folder made without STORE_URL); undefined when nothing was written or the store is embedded.
 */
export async function ensurePublished(config: Pick<Config, 'store'>, generationDir: string): Promise<(PublishReport & { generation: string }) | undefined> {
  return withRemoteServer(config, async (server) => {
    const manifest = parseManifest(await readFile(generationFiles(generationDir).manifest, 'utf8'));
    if (await isPublished(server, manifest.id)) return undefined;
    return { generation: manifest.id, ...(await publishGeneration(server, generationDir, manifest, publishOptions(config))) };
  });
}

/**
 * For the stored index of a generation being made with STORE_URL set: a REST store on the server, which holds
 * the generation by then (publishStep writes it first), so no embedded heap limits the collection's size.
 * Undefined for the embedded store (the stored index then loads the generation into a worker of its own).
 */
export function indexingStore(config: StoreConfig): (() => ServingStore) | undefined {
  return config.store === undefined ? undefined : () => createStores(config).rest;
}
