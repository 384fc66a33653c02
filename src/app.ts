/**
 * The Express application of one deployment, built from its context and never listening (server.ts
 * listens; tests drive it with supertest). Middleware order is the contract:
 *   request log → metrics → CORS → compression → /healthz /readyz /metrics / /openapi.json /docs → /iiif (not rate-limited)
 *   → /v2: rate limit → read-only methods → catalog (/v2/, /v2/dcat) → readiness gate → resource routes
 *   → /v1 (deprecated; its own deprecation headers, sunset switch, rate limit and keyed paths: src/v1/router.ts)
 *   → 404 → error handler.
 * The catalog is static, so it is served before the store is ready; every other /v2 route answers 503 with
 * Retry-After until then. `/` redirects (302) to the catalog at /v2/, the entry point of the API, except for
 * browsers, which get a landing page; /openapi.json describes the API and /docs renders that description.
 */
import { constants as zlibConstants } from 'node:zlib';
import compression from 'compression';
import express, { type Router } from 'express';
import type { AppContext } from './engine/app-context.js';
import { apiDocsRoutes } from './openapi/api-docs.js';
import { changeRoutes, type ChangeRouteOptions } from './endpoints/change-feed.js';
import { streamRoutes, type StreamRouteOptions } from './endpoints/event-streams.js';
import { catalogRoutes } from './endpoints/catalog.js';
import { dumpRoutes } from './endpoints/dumps.js';
import { healthRoutes } from './endpoints/health.js';
import { landingRoutes } from './endpoints/landing.js';
import { pageAssetRoutes } from './pages/layout.js';
import { vocabularyRoutes } from './endpoints/vocabulary.js';
import { indexRoutes } from './endpoints/index-endpoints.js';
import { derivedBuilding } from './engine/indexes.js';
import { collectionRoutes } from './endpoints/collection-routes.js';
import { recordRoutes } from './endpoints/record-routes.js';
import { sparqlRoutes } from './endpoints/sparql-endpoint.js';
import { v1Routes } from './v1/router.js';
import { corsMiddleware } from './http/cors.js';
import { errorHandler, notFoundHandler } from './endpoints/error-handler.js';
import { allowMethods } from './http/methods.js';
import { v2RateLimit } from './http/rate-limit.js';
import type { SharedRateLimitCounters } from './http/rate-limit-store.js';
import { requireReadyStore } from './http/readiness.js';
import { requestLog } from './http/request-log.js';
import type { RecordTable } from './collection-index/record-table.js';
import type { ResourceKind } from './engine/kind.js';
import type { QueryStore } from './store/types.js';

export interface AppOptions {
  /** IIIF Image API routes, mounted at /iiif outside the v2 rate limit (viewers fetch many tiles). */
  iiifRouter?: Router;
  /** The SPARQL store (public quads only); /sparql is mounted when given, outside /v2 with its own rate limit. */
  sparqlStore?: QueryStore;
  /**
   * The SPARQL store runs on a server of its own (SPARQL_STORE_URL): /readyz does not wait for it, since the REST
   * API never depends on it; /sparql answers 503 until it serves.
   */
  sparqlApart?: boolean;
  /** Rate-limit counters shared with other replicas through Redis (REDIS_URL); without them each process counts alone. */
  rateLimitCounters?: SharedRateLimitCounters;
  /** The change feed at /v2/changes (src/endpoints/change-feed.ts); tests set a small page size. */
  changes?: ChangeRouteOptions;
  /** Options of the event streams (page size). */
  streams?: StreamRouteOptions;
  /** The clock of the v1 sunset, in milliseconds since the epoch (Date.now by default); tests inject one. */
  now?: () => number;
  /** The generation `current` names, shown by /readyz beside the served one (src/store/follow-current.ts). */
  wantedGeneration?: () => string | undefined;
}

/** Bodies smaller than this are sent uncompressed. */
export const COMPRESSION_THRESHOLD = 8 * 1024;

/** Builds the app for `ctx`; mounts the v2 resource routes, health, metrics and the error handling. */
export function createApp(ctx: AppContext, options: AppOptions = {}): express.Express {
  const kinds = ctx.kinds.list;
  for (const kind of kinds) {
    if (kind.queries !== undefined && !ctx.queries.includes(kind.queries)) {
      throw new Error(`kind ${kind.kind}: its queries (${kind.queries}) are not in the app's query library; make it with QueryLibrary.forKinds`);
    }
  }
  const app = express();
  app.disable('x-powered-by');
  // Every cacheable answer sets its own validators (records, pages, indexes, catalog, dumps, static files);
  // Express's own ETag would hash every other body, errors included, for nothing.
  app.set('etag', false);
  const { trustProxy } = ctx.config;
  app.set('trust proxy', typeof trustProxy === 'object' ? [...trustProxy] : trustProxy);
  ctx.metrics.setGenerationSource(() => ctx.store.generation);
  ctx.metrics.addStore('rest', ctx.store);
  if (options.sparqlStore !== undefined) ctx.metrics.addStore('sparql', options.sparqlStore);

  app.use(requestLog(ctx.logger));
  app.use(ctx.metrics.middleware());
  app.use(corsMiddleware());
  // Compression where it pays: bodies from 8 KiB (a page of records, an index; a single record stays plain),
  // for clients that ask, at zlib's fastest level (a 700 KB page of 100 records: about 2 ms for a tenth of
  // its size, where the default level 6 spends 8 ms for a fourteenth).
  const compress = compression({ threshold: COMPRESSION_THRESHOLD, level: zlibConstants.Z_BEST_SPEED });
  // A client that asks for no encoding skips the compression wrappers altogether.
  app.use((req, res, next) => (req.headers['accept-encoding'] === undefined ? next() : compress(req, res, next)));

  app.use(healthRoutes(ctx.store, { wanted: options.wantedGeneration, sparqlStore: options.sparqlApart ? undefined : options.sparqlStore, building: () => derivedBuilding(ctx) }));
  app.get('/metrics', ctx.metrics.handler);
  app.use(landingRoutes(kinds));
  app.use('/assets/pages', pageAssetRoutes());
  app.use(vocabularyRoutes(ctx));
  app.use(apiDocsRoutes(ctx, { kinds, sparql: options.sparqlStore !== undefined }));
  if (options.iiifRouter !== undefined) app.use('/iiif', options.iiifRouter);

  const kindRoutes = <T extends RecordTable>(kind: ResourceKind<T>): Router[] => [recordRoutes(ctx, kind), collectionRoutes(ctx, kind)];
  app.use(
    '/v2',
    v2RateLimit(ctx.config.rateLimitPerMinute, ctx.logger, options.rateLimitCounters && { counters: options.rateLimitCounters, scope: 'v2' }),
    allowMethods(['GET', 'HEAD', 'OPTIONS']),
    catalogRoutes(ctx),
    requireReadyStore(ctx.store),
    ...kinds.flatMap(kindRoutes),
    indexRoutes(ctx, kinds),
    dumpRoutes(ctx, ctx.kinds),
    changeRoutes(ctx, ctx.kinds, options.changes),
    streamRoutes(ctx, options.streams),
  );
  if (options.sparqlStore !== undefined) app.use('/sparql', sparqlRoutes(ctx, { store: options.sparqlStore, rateLimitCounters: options.rateLimitCounters }));
  app.use('/v1', v1Routes(ctx, { now: options.now, counters: options.rateLimitCounters }));

  app.use(notFoundHandler);
  app.use(errorHandler(ctx.logger));
  return app;
}
