/**
 * Which store serves: the embedded Oxigraph workers (default) or a remote SPARQL server (`STORE_URL`). This is
 * the one place that chooses; everything else sees a `ServingStore`. With a remote store, a generation is
 * written to the server while it is made (`publishStep`), before it can become current, and generations pruned
 * from the data folder are dropped from the server too.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { access, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config/config.js';
import { generationFiles, isLive, type CreateOptions, type Generation } from './generations.js';
import { parseManifest } from './manifest.js';
import { BulkFiles, type BulkFilesOptions } from './remote/bulk-files.js';
import { BulkLoader } from './remote/bulk-load.js';
import { generationGraphs } from './remote/graph-view.js';
import { Isql } from './remote/isql.js';
import { dropGenerations, isPublished, publishedGenerations, publishGeneration, publishUnion, type PublishOptions, type PublishReport, type UnionReport } from './remote/publish.js';
import { RemoteServer } from './remote/remote-server.js';
import { RemoteStore } from './remote/remote-store.js';
import { ServerWatchdog } from './remote/watchdog.js';
import { sharedEmbeddedStores } from './shared-store.js';
import type { QueryOutcome, StoreManager } from './store-manager.js';
import type { ServingStore } from './types.js';

export type { ServingStore } from './types.js';

export interface StoreChoice {
  /** Serves the REST API: public and non-public quads (the non-public part when a query asks for it). */
  rest: ServingStore;
  /** Serves the SPARQL endpoint: public quads only. */
  sparql: ServingStore;
  /** 'embedded' or the remote query URL (safe to log: credentials are never part of it). */
  kind: string;
  /** The two are views of one store (the embedded one): the same workers, the same events. */
  shared?: boolean;
  /** The embedded store's manager of the two workers (tests and benchmarks set its `yieldClientQueries`). */
  manager?: StoreManager;
  /**
   * The remote server of the REST store, and its watchdog, not started: a serving process starts it (data
   * commands never do). Undefined for the embedded store. With SPARQL_STORE_URL, `sparql` is the public
   * endpoint's own server and its watchdog; without it, both stores share `server`.
   */
  remote?: { server: RemoteServer; watchdog: ServerWatchdog; sparql?: { server: RemoteServer; watchdog: ServerWatchdog } };
}

type StoreConfig = Pick<Config, 'store' | 'baseUrl'>;

/** Which remote server: the REST API's (STORE_URL), or the public SPARQL endpoint's own (SPARQL_STORE_URL). */
export type ServerRole = 'rest' | 'sparql';

/**
 * The remote server of `config` in `role`, when STORE_URL is set: the REST API's, or (`sparql`, with
 * SPARQL_STORE_URL) the public endpoint's own. Its update and Graph Store endpoints are Virtuoso's beside its query
 * endpoint; the credentials are the same on both (docs/operations.md creates the same account on each).
 */
export function remoteServer(config: Pick<Config, 'store'>, role: ServerRole = 'rest'): RemoteServer | undefined {
  const settings = config.store;
  if (settings === undefined || (role === 'sparql' && settings.sparql === undefined)) return undefined;
  const credentials = {
    ...(settings.user === undefined ? {} : { user: settings.user }),
    ...(settings.password === undefined ? {} : { password: settings.password.reveal() }),
  };
  if (role === 'sparql' && settings.sparql !== undefined) return new RemoteServer({ queryUrl: settings.sparql.url, ...credentials });
  return new RemoteServer({
    queryUrl: settings.url,
    ...(settings.updateUrl === undefined ? {} : { updateUrl: settings.updateUrl }),
    ...(settings.graphStoreUrl === undefined ? {} : { graphStoreUrl: settings.graphStoreUrl }),
    ...credentials,
  });
}

/** The roles of the servers `config` names: the REST API's, then the SPARQL endpoint's own when it has one. */
export const serverRoles = (config: Pick<Config, 'store'>): ServerRole[] => (config.store === undefined ? [] : config.store.sparql === undefined ? ['rest'] : ['rest', 'sparql']);

/**
 * The bulk loader of `config` (STORE_BULK_DIR and STORE_ISQL) for the server in `role` (SPARQL_STORE_ISQL for the
 * SPARQL endpoint's own, reading the same folder), or undefined: the Graph Store Protocol writes.
 */
export function bulkLoader(config: Pick<Config, 'store'>, role: ServerRole = 'rest'): BulkLoader | undefined {
  const settings = config.store;
  const bulk = settings?.bulk;
  if (settings === undefined || bulk === undefined || settings.user === undefined || settings.password === undefined) return undefined;
  const address = role === 'sparql' ? settings.sparql?.isql : bulk.isql;
  if (address === undefined) return undefined;
  return new BulkLoader({
    dir: bulk.dir,
    serverDir: bulk.serverDir,
    loaders: bulk.loaders,
    isql: new Isql({ address, bin: bulk.isqlBin, user: settings.user, password: settings.password.reveal() }),
  });
}

/**
 * How `config` writes generations to the remote server in `role`: the SPARQL endpoint's own server gets the
 * public statements only (it serves no other query), so that nothing private is on a server that runs anonymous
 * queries, whatever they name.
 */
const publishOptions = (config: Pick<Config, 'store'>, role: ServerRole = 'rest'): PublishOptions => {
  const bulk = bulkLoader(config, role);
  return { ...(bulk === undefined ? {} : { bulk }), ...(role === 'sparql' ? { publicOnly: true } : {}) };
};

/** The REST and SPARQL stores `config` asks for. */
export function createStores(config: StoreConfig, onQuery?: (ms: number, kind: string, outcome: QueryOutcome) => void): StoreChoice {
  const server = remoteServer(config);
  if (server === undefined) {
    // Two workers that hold the whole generation and share the work, each the other's standby: a client's query
    // past its deadline ends one, and the other serves everything at once while it reloads (shared-store.ts).
    const { rest, sparql, manager } = sharedEmbeddedStores(onQuery);
    return { rest, sparql, kind: 'embedded', shared: true, manager };
  }
  const common = { baseIri: `${config.baseUrl}/sparql`, rowLimit: config.store?.rowLimit ?? 10_000, ...(onQuery ? { onQuery } : {}) };
  // With SPARQL_STORE_URL, clients' queries run on a server the REST API never asks (separate failure domains).
  const apart = remoteServer(config, 'sparql');
  return {
    rest: new RemoteStore({ ...common, server, includeNonPublic: true }),
    sparql: new RemoteStore({ ...common, server: apart ?? server, includeNonPublic: false }),
    kind: server.queryUrl,
    remote: { server, watchdog: new ServerWatchdog(server), ...(apart === undefined ? {} : { sparql: { server: apart, watchdog: new ServerWatchdog(apart) } }) },
  };
}

/**
 * What runs once a generation is checked, beside or after its publication (the stored index): `serversHold`, when
 * given, resolves once every server holds the generation complete (and rejects when the publication failed).
 */
export type AfterPublication = ((staged: Generation, serversHold?: Promise<void>) => Promise<void>) & {
  /** Sees the generation as it is written (the stored index's answers by graph): given to it on the embedded store. */
  tap?: CreateOptions['tap'];
};

/** What a data command hears of its generation's write to the remote server. */
export interface PublishEvents {
  onStart?(): void;
  /** Once per server: the REST API's, then the SPARQL endpoint's own (SPARQL_STORE_URL). */
  onDone?(report: PublishReport, role: ServerRole): void;
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
export function publishStep(config: Pick<Config, 'store'>, after: AfterPublication | undefined, events: PublishEvents = {}): CreateOptions['derive'] {
  const roles = serverRoles(config);
  if (roles.length === 0) return after && ((staged) => after(staged));
  return async (staged: Generation) => {
    events.onStart?.();
    // Each server in turn, from the same generation files (and the same bulk files, written once per server):
    // the generation becomes current only once every server holds it complete.
    for (const role of roles) {
      const server = remoteServer(config, role) as RemoteServer;
      const report = await publishGeneration(server, staged.dir, staged.manifest, publishOptions(config, role)).finally(() => server.close());
      events.onDone?.(report, role);
    }
    await after?.(staged);
  };
}

/**
 * How a data command writes the generation it makes to the remote servers: the `derive` step (publishStep), and
 * when every server loads through the bulk loader, a `tap` as well: the bulk loader's files are written in the
 * same pass as the generation (nothing is read back), once for every server, and each server loads them as they
 * are finished, side by side, while the generation is still being made; a server marks the generation complete
 * only once the generation's own check has passed (`derive`), and a generation that fails is dropped from the
 * servers again. The files are removed after, whatever happened. For the embedded store, `after` alone.
 */
export function publication(
  config: Pick<Config, 'store'>,
  after: AfterPublication | undefined,
  events: PublishEvents = {},
  files: Pick<BulkFilesOptions, 'fileStatements'> = {},
): Publication {
  const roles = serverRoles(config);
  const bulk = config.store?.bulk;
  const loaders = roles.map((role) => bulkLoader(config, role));
  const derive = publishStep(config, after, events);
  const nothingLeft = async (): Promise<undefined> => undefined;
  // On the embedded store the stored index is computed while the generation is written, on the core the harvest
  // leaves idle; beside a server's bulk loader the cores are Virtuoso's (publishStep says what side by side cost).
  if (roles.length === 0) return { ...(derive === undefined ? {} : { derive }), ...(after?.tap === undefined ? {} : { tap: after.tap }), finish: nothingLeft };
  if (bulk === undefined || !loaders.every((loader) => loader !== undefined)) return { ...(derive === undefined ? {} : { derive }), finish: nothingLeft };
  let started: EarlyPublication | undefined;
  return {
    finish: async () => started?.finishUnion(),
    tap: async (id) => {
      const written = await BulkFiles.create({ ...files, dir: bulk.dir, ...(bulk.serverDir === undefined ? {} : { serverDir: bulk.serverDir }) }, id, generationGraphs(id));
      const publication = new EarlyPublication(config, roles, loaders as BulkLoader[], written, events);
      started = publication;
      const tap = written.tap();
      return { ...tap, abort: () => publication.abort() };
    },
    derive: async (staged) => {
      if (started === undefined) return derive?.(staged);
      events.onStart?.();
      const published = started.complete();
      published.catch(() => undefined);
      // The stored index reads the generation's files, not the servers: it is computed while they load the
      // generation, and a query the files cannot answer waits until they hold it.
      const indexed = after?.(staged, published);
      try {
        await published;
      } finally {
        await indexed?.catch(() => undefined);
      }
      await indexed;
    },
  };
}

/**
 * How a data command writes its generation to the servers (`publication`): the steps of createGeneration, and
 * `finish`, run once the generation is current: with bulk files written beside it, it loads the union graph's own
 * files into the server that serves /sparql (the REST API does not wait for them), and resolves with what it
 * loaded; undefined when nothing was left.
 */
export type Publication = Pick<CreateOptions, 'tap' | 'derive'> & { finish: () => Promise<UnionReport | undefined> };

/** How long a failed publication waits for each server to drop what it loaded (a stopped loader's server never answers). */
const ABORT_DROP_MS = 5 * 60_000;

/** The publications of one generation to every server, started with its first bulk file (`publication`). */
class EarlyPublication {
  private checked!: { resolve: () => void; reject: (err: Error) => void };
  private readonly published: Promise<PromiseSettledResult<void>[]>;

  constructor(
    private readonly config: Pick<Config, 'store'>,
    private readonly roles: readonly ServerRole[],
    private readonly loaders: readonly BulkLoader[],
    private readonly files: BulkFiles,
    events: PublishEvents,
  ) {
    const beforeComplete = new Promise<void>((resolve, reject) => (this.checked = { resolve, reject }));
    beforeComplete.catch(() => undefined);
    this.published = Promise.allSettled(
      roles.map(async (role, i) => {
        const server = remoteServer(config, role) as RemoteServer;
        const options: PublishOptions = { bulk: loaders[i] as BulkLoader, files, beforeComplete, ...(role === 'sparql' ? { publicOnly: true } : {}) };
        const report = await publishGeneration(server, files.folder, { id: files.id }, options).finally(() => server.close());
        events.onDone?.(report, role);
      }),
    );
  }

  /**
   * The generation passed its check: every server marks it complete, its union graph still to load; rejects with
   * the first failure (and removes the files). The files stay for {@link finishUnion}.
   */
  async complete(): Promise<void> {
    this.checked.resolve();
    const failed = (await this.published).find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (failed) {
      await this.files.remove();
      throw failed.reason;
    }
  }

  /**
   * Once the generation is current: its union graph's own files, into the server of /sparql (the SPARQL
   * endpoint's own with SPARQL_STORE_URL, which the REST server then does without); removes the files after.
   */
  async finishUnion(): Promise<UnionReport> {
    try {
      const i = this.roles.length - 1;
      const role = this.roles[i] as ServerRole;
      return (await withRemoteServer(this.config, (server) => publishUnion(server, this.loaders[i] as BulkLoader, this.files), undefined, role)) as UnionReport;
    } finally {
      await this.files.remove();
    }
  }

  /** The generation failed: the loads stop with the files, and what reached the servers is dropped from them. */
  async abort(): Promise<void> {
    this.checked.reject(new Error(`generation ${this.files.id} was not made`));
    await this.files.remove();
    await this.published;
    for (const role of this.roles) {
      const drop = withRemoteServer(this.config, (server) => dropGenerations(server, [this.files.id], bulkLoader(this.config, role)), undefined, role).catch(() => undefined);
      // Bounded: a server whose loader stopped may never answer; the next prune drops what is left.
      await Promise.race([drop, sleep(ABORT_DROP_MS, undefined, { ref: false })]);
    }
  }
}

/**
 * `work` done with the remote server of `config`, whose connections are closed after, or with `shared` (a
 * serving process's, which stays open); undefined for the embedded store.
 */
async function withRemoteServer<T>(config: Pick<Config, 'store'>, work: (server: RemoteServer) => Promise<T>, shared?: RemoteServer, role: ServerRole = 'rest'): Promise<T | undefined> {
  if (shared !== undefined) return work(shared);
  const server = remoteServer(config, role);
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
export async function dropRemoteGenerations(
  config: Pick<Config, 'store' | 'dataDir'>,
  keep: readonly string[],
  shared?: Partial<Record<ServerRole, RemoteServer>>,
): Promise<string[]> {
  const roles = serverRoles(config);
  if (roles.length === 0) return [];
  // Generations being made now (a harvest or load writing to the servers) are kept on every server.
  const staging = await readdir(path.join(config.dataDir, 'staging')).catch(() => [] as string[]);
  const kept = new Set([...keep, ...staging]);
  const dropped = new Set<string>();
  for (const role of roles) {
    const ids = await withRemoteServer(
      config,
      async (server) => {
        const drop = (await publishedGenerations(server)).map((g) => g.id).filter((id) => !kept.has(id));
        await dropGenerations(server, drop, bulkLoader(config, role));
        return drop;
      },
      shared?.[role],
      role,
    );
    for (const id of ids ?? []) dropped.add(id);
  }
  return [...dropped];
}

/**
 * Writes the generation in `generationDir` to the remote servers in `roles` (by default every server `config`
 * names) unless a server holds it complete already (a data folder made without STORE_URL); undefined when
 * nothing was written or the store is embedded.
 */
export async function ensurePublished(
  config: Pick<Config, 'store'>,
  generationDir: string,
  roles: readonly ServerRole[] = serverRoles(config),
): Promise<(PublishReport & { generation: string }) | undefined> {
  const named = serverRoles(config).filter((role) => roles.includes(role));
  if (named.length === 0) return undefined;
  const manifest = parseManifest(await readFile(generationFiles(generationDir).manifest, 'utf8'));
  let written: (PublishReport & { generation: string }) | undefined;
  for (const role of named) {
    const report = await withRemoteServer(
      config,
      async (server) => {
        if (await isPublished(server, manifest.id, role === 'sparql' ? 'public' : 'whole')) return undefined;
        return { generation: manifest.id, ...(await publishGeneration(server, generationDir, manifest, publishOptions(config, role))) };
      },
      undefined,
      role,
    );
    written ??= report;
  }
  return written;
}

/** Whether `server` holds the generation in `generationDir` with its union graph still to load (false for the embedded store). */
export async function unionPending(server: RemoteServer | undefined, generationDir: string): Promise<boolean> {
  if (server === undefined) return false;
  const { id } = parseManifest(await readFile(generationFiles(generationDir).manifest, 'utf8'));
  return (await isPublished(server, id, 'public')) && !(await isPublished(server, id, 'public', true));
}

/**
 * Loads the union graph of the generation in `generationDir` into the server of /sparql when its publication
 * left it pending and will not finish it: the command that published it was killed, or its load failed (its bulk
 * folder is gone, or its owner is). Undefined when there was nothing to do (the union graph whole, a publication
 * at work on it, no bulk loader, the embedded store).
 */
export async function ensureUnion(config: Pick<Config, 'store'>, generationDir: string): Promise<(UnionReport & { generation: string }) | undefined> {
  const role = serverRoles(config).at(-1);
  const loader = role && bulkLoader(config, role);
  const bulk = config.store?.bulk;
  if (role === undefined || loader === undefined || bulk === undefined) return undefined;
  const { id } = parseManifest(await readFile(generationFiles(generationDir).manifest, 'utf8'));
  return withRemoteServer(
    config,
    async (server) => {
      if (!(await isPublished(server, id, 'public')) || (await isPublished(server, id, 'public', true))) return undefined;
      const folder = path.join(bulk.dir, id);
      if ((await access(folder).then(() => true, () => false)) && (await isLive(folder))) return undefined;
      return { generation: id, ...(await publishUnion(server, loader, { generationDir, id })) };
    },
    undefined,
    role,
  );
}

/**
 * For the stored index of a generation being made with STORE_URL set: a REST store on the server, which holds
 * the generation by then (publishStep writes it first), so no embedded heap limits the collection's size.
 * Undefined for the embedded store (the stored index then loads the generation into a worker of its own).
 */
export function indexingStore(config: StoreConfig): (() => ServingStore) | undefined {
  return config.store === undefined ? undefined : () => createStores(config).rest;
}
