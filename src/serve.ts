/**
 * The service behind the port `npm start` bound (src/server.ts): builds the stores and the app, takes the
 * server's requests over from the starting answer (503 with Retry-After until the store is ready, /healthz 200),
 * prepares the generation to serve (the demo data set on a fresh DATA_DIR or with DEMO=1), starts the store on it,
 * and shuts down gracefully on SIGTERM/SIGINT.
 */
import express from 'express';
import type { AppContext } from './engine/app-context.js';
import { createApp } from './app.js';
import type { Server } from 'node:http';
import type { Logger } from 'pino';
import type { Config } from './config/config.js';
import { demoPaths, ensureGeneration, prepareDemoSource, wantsDemo } from './demo/bootstrap.js';
import { createIiifRouter } from './iiif/router.js';
import { ServedIiifAccess, sourceAccess, type IiifAccess } from './iiif/served-access.js';
import { Metrics } from './http/metrics.js';
import { notReadyError } from './http/readiness.js';
import { SharedRateLimitCounters } from './http/rate-limit-store.js';
import { handOver } from './http/early-answer.js';
import { gracefulShutdown } from './http/server-lifecycle.js';
import { QueryLibrary } from './queries/library.js';
import { closeSharedParseWorker } from './sparql/parse-worker.js';
import { CurrentFollower } from './store/follow-current.js';
import { cleanStaging, listGenerations, pruneGenerations, type Generation } from './store/generations.js';
import { CredentialsRefusedError, type RemoteServer } from './store/remote/remote-server.js';
import { createStores, dropRemoteGenerations, ensurePublished, ensureUnion, unionPending, type ServerRole } from './store/stores.js';
import { UnionPendingError } from './store/remote/publish.js';
import { Iris } from './vocab/iris.js';
import { KIND_NAMES } from './kinds/index.js';

/** Serves on `server` (bound by src/server.ts, answering as the service starts) with `config`. */
export async function serve(config: Config, logger: Logger, server: Server): Promise<void> {
  const metrics = new Metrics({ defaultMetrics: true });
  // The REST store reads the non-public quads too when a query asks (redirect, removal and health state of
  // records); the SPARQL store only the public ones. Embedded, both are views of two workers that share the work.
  const onQuery = (ms: number, kind: string): void => metrics.observeStoreQuery(ms, kind);
  // Embedded Oxigraph workers, or the remote SPARQL server named by STORE_URL (src/store/stores.ts).
  const { rest: store, sparql: sparqlStore, kind: storeKind, remote, shared } = createStores(config, onQuery);
  // The embedded store's two views share their workers and events: their lines are logged once.
  const logged = shared ? ([['embedded', store]] as const) : ([['rest', store], ['sparql', sparqlStore]] as const);
  for (const [name, manager] of logged) {
    manager.on('crash', (err: Error) => logger.error({ err, store: name }, 'store worker failed; restarting'));
    manager.on('restart', () => logger.info({ generation: manager.generation?.id, store: name }, 'store worker restarted'));
    manager.on('standby', () => logger.info({ generation: manager.generation?.id, store: name }, 'standby store worker loaded'));
  }
  const ctx: AppContext = { config, iris: new Iris(config.baseUrl), store, logger, metrics, queries: QueryLibrary.forKinds(KIND_NAMES.list), kinds: KIND_NAMES };
  // The demo only when asked for or on a fresh data folder (wantsDemo). It is prepared once the port answers
  // (503 with Retry-After meanwhile); its images must exist before the IIIF router first reads its image list,
  // so /iiif answers 503 too until they do.
  const withDemo = await wantsDemo(config);
  const demoDirs = demoPaths(config);
  let sourcePrepared = !withDemo;
  // The IIIF router answers for the objects public in the served generation only (src/iiif/served-access.ts).
  // While this start harvests the demo, no generation serves yet and the harvest checks the images through
  // the router: then the demo source's servable objects are what may be answered.
  const servedIiif = new ServedIiifAccess({ dataDir: config.dataDir, sourceDir: demoDirs.sourceDir });
  let harvestIiif: Promise<IiifAccess> | undefined;
  const iiifAccess = (): Promise<IiifAccess> =>
    store.generation === undefined && harvestIiif !== undefined ? harvestIiif : servedIiif.of(store.generation);
  // Rate-limit counters in Redis, shared with the other replicas (src/http/rate-limit-store.ts); none without a limit.
  const rateLimitCounters =
    config.redisUrl !== undefined && config.rateLimitPerMinute > 0
      ? new SharedRateLimitCounters({ url: config.redisUrl, keyPrefix: config.redisKeyPrefix, logger, registry: metrics.registry })
      : undefined;
  // Swaps to each new current generation, retrying failed swaps (src/store/follow-current.ts); started once the stores serve.
  const follower = new CurrentFollower({
    dataDir: config.dataDir,
    stores: [store, sparqlStore],
    logger,
    afterSwap: async (generation) => {
      // Reads the new generation's IIIF access now rather than on the first IIIF request after the swap.
      await servedIiif.of(store.generation).catch((err: unknown) => logger.error({ err }, 'IIIF access of the new generation not read; retried on the next IIIF request'));
      await pruneAfterSwap(config, logger, generation, remote && { rest: remote.server, ...(remote.sparql ? { sparql: remote.sparql.server } : {}) });
    },
  });
  // The remote server's watchdog (src/store/remote/watchdog.ts): a server that stops answering makes the stores
  // not ready at once, instead of every request waiting out its deadline.
  remote?.watchdog.on('silent', (reason: string) => logger.warn({ store: storeKind, reason }, 'the SPARQL server does not answer; store requests fail with 503 until it does'));
  remote?.watchdog.on('answering', () => {
    logger.info({ store: storeKind }, 'the SPARQL server answers again');
    follower.nudge();
  });
  remote?.watchdog.start();
  // The public SPARQL endpoint's own server (SPARQL_STORE_URL): watched alike; the REST API never waits for it.
  const apart = remote?.sparql;
  apart?.watchdog.on('silent', (reason: string) => logger.warn({ store: apart.server.queryUrl, reason }, "the public SPARQL endpoint's server does not answer; /sparql answers 503 until it does, REST is not affected"));
  apart?.watchdog.on('answering', () => {
    logger.info({ store: apart.server.queryUrl }, "the public SPARQL endpoint's server answers again");
    follower.nudge();
  });
  apart?.watchdog.start();
  const iiifRouter = express.Router();
  iiifRouter.use((_req, _res, next) => next(sourcePrepared ? undefined : notReadyError(store)));
  iiifRouter.use(createIiifRouter({ ...demoDirs, baseUrl: config.baseUrl, access: iiifAccess }));
  const app = createApp(ctx, {
    iiifRouter,
    sparqlStore,
    // On a server of its own, the SPARQL store's start is not the replica's readiness (separate failure domains).
    sparqlApart: apart !== undefined,
    rateLimitCounters,
    wantedGeneration: () => follower.wanted,
  });

  // From now on the app answers (its readiness gate still says 503 until the store serves).
  handOver(server, app);
  let closing = false;
  const cleanup = async (): Promise<void> => {
    closing = true;
    remote?.watchdog.stop();
    apart?.watchdog.stop();
    follower.stop();
    await Promise.all([store.close(), sparqlStore.close(), rateLimitCounters?.close(), closeSharedParseWorker()]);
  };
  const shutdown = gracefulShutdown(server, logger, { cleanup });
  /**
   * Starts the SPARQL store without holding the REST API: on its own server, publishes the generation there if
   * it lacks it; loads the generation's union graph if the command that published it did not live to (ensureUnion);
   * then serves. A failure (the server down, still loading, the union graph still being loaded by its publisher)
   * is logged and tried again every 5 s until it serves (then the follower swaps it like the REST store) or the
   * service stops. /sparql answers 503 with Retry-After meanwhile.
   */
  const startSparql = (generationDir: string): void => {
    const attempt = async (): Promise<void> => {
      if (closing || sparqlStore.generation !== undefined) return;
      try {
        const written = await ensurePublished(config, generationDir, ['sparql']);
        if (written) logger.info({ store: apart?.server.queryUrl, ...written }, "generation written to the public SPARQL endpoint's server");
        const union = await ensureUnion(config, generationDir);
        if (union) logger.info({ store: (apart ?? remote)?.server.queryUrl, ...union }, "the union graph (/sparql's default graph) of the generation loaded; its publication had not");
        const started = await sparqlStore.start(generationDir);
        logger.info({ store: apart?.server.queryUrl, generation: started.id }, 'the public SPARQL endpoint serves');
        follower.nudge();
      } catch (err) {
        if (closing) return;
        if (err instanceof UnionPendingError) logger.info({ store: (apart ?? remote)?.server.queryUrl }, `${err.message}; looking again in 5 s`);
        else logger.warn({ err, store: apart?.server.queryUrl }, 'the public SPARQL endpoint could not start on its server; trying again in 5 s (REST is not affected)');
        setTimeout(() => void attempt(), 5_000).unref();
      }
    };
    void attempt();
  };
  // `on`, not `once`: a second signal (Ctrl-C in a terminal reaches npm and the server both; npm passes its
  // own on) must not end the drain with Node's default action; shutdown() ignores repeats.
  process.on('SIGTERM', () => shutdown(0));
  process.on('SIGINT', () => shutdown(0));

  try {
    if (remote !== undefined) await checkStoreCredentials(remote.server, logger);
    // Staging folders left by a killed harvest or load are removed before anything else writes.
    await cleanStaging(config.dataDir);
    const demo = withDemo ? await prepareDemoSource(config, logger) : undefined;
    sourcePrepared = true;
    if (demo !== undefined) {
      harvestIiif = sourceAccess(demo.sourceDir);
      // Awaited by the IIIF requests of the harvest; a failure makes them fail (and drops the images), not the process.
      harvestIiif.catch((err: unknown) => logger.error({ err }, 'the demo source export could not be read for IIIF access'));
    }
    const generationDir = await ensureGeneration(config, logger, demo);
    harvestIiif = undefined;
    if (generationDir === undefined) {
      throw new Error(`no current generation in ${config.dataDir}: harvest or load one (docs/operations.md), or start with DEMO=1 for the demo collection`);
    }
    // A data folder made without STORE_URL (the demo's, an older one) is written to the server first.
    const published = await ensurePublished(config, generationDir, ['rest']);
    if (published) logger.info({ store: storeKind, ...published }, 'generation written to the SPARQL server');
    // One after the other: two 100k stores loading at once would double the peak memory for little gain.
    await store.start(generationDir);
    // Read while the SPARQL store starts, not on the first IIIF request; a failure is retried by that request.
    servedIiif.of(store.generation).catch((err: unknown) => logger.error({ err }, 'IIIF access of the generation not read'));
    // On one server, the SPARQL store starts with the REST store, unless the generation's union graph is still
    // to load (a harvest that moved `current` is loading it, or was killed before it did).
    if (apart === undefined && !(await unionPending(remote?.server, generationDir))) await sparqlStore.start(generationDir);
    else startSparql(generationDir);
    logger.info({ generation: store.generation?.id, baseUrl: config.baseUrl, store: storeKind }, 'ready');
    follower.start();
  } catch (err) {
    // Without a generation the service can never become ready; exit so the supervisor sees it. Credentials the
    // server refuses are an operator's setting: their one line on standard error says what to fix.
    if (err instanceof CredentialsRefusedError) process.stderr.write(`${err.message}\n`);
    logger.fatal({ err }, 'could not start the store');
    shutdown(1);
  }
}

/**
 * Fails the start when the SPARQL server refuses STORE_USER and STORE_PASSWORD: reads are anonymous, so a
 * replica would otherwise serve, say it is ready, and fail only at its first write (a publication, the drop of
 * pruned generations). A server that does not answer yet is left to the start's own first requests, as before.
 */
async function checkStoreCredentials(server: RemoteServer, logger: Logger): Promise<void> {
  try {
    await server.checkCredentials();
  } catch (err) {
    if (err instanceof CredentialsRefusedError) throw err;
    logger.warn({ problem: (err as Error).message }, 'STORE_USER and STORE_PASSWORD could not be checked; the server did not answer');
  }
}

/**
 * After a swap: prunes old generations from the data folder and drops from the remote server those no longer
 * kept, through the serving process's watched server (`shared`), so that a silent server fails the drop.
 */
async function pruneAfterSwap(config: Config, logger: Logger, generation: Generation, shared: Partial<Record<ServerRole, RemoteServer>> | undefined): Promise<void> {
  const removed = await pruneGenerations(config.dataDir, config.keepGenerations);
  const dropped = await dropRemoteGenerations(config, (await listGenerations(config.dataDir)).map((g) => g.id), shared);
  logger.info({ generation: generation.id, pruned: removed, ...(dropped.length > 0 ? { droppedFromServer: dropped } : {}) }, 'stores swapped');
}

