/**
 * The deprecated v1 interface, mounted at /v1 (spec, Deprecated v1 interface): a set of shapers and route
 * declarations over the v2 engine, not a second service. Order: deprecation headers and the sunset switch →
 * rate limit → read-only methods → readiness gate → public paths, then the keyed paths behind the API key →
 * 404 → the v1 error headers (the app's error handler answers).
 */
import { Router } from 'express';
import type { AppContext } from '../engine/app-context.js';
import { NotFoundError } from '../http/errors.js';
import { allowMethods } from '../http/methods.js';
import { v2RateLimit } from '../http/rate-limit.js';
import type { SharedRateLimitCounters } from '../http/rate-limit-store.js';
import { requireReadyStore } from '../http/readiness.js';
import { requireApiKey } from './api-key.js';
import { colorRoutes } from './color-routes.js';
import { collectionRoutes } from './collection-routes.js';
import { curatedRoutes } from './curated-routes.js';
import { deprecatedErrors, deprecation, type DeprecationOptions } from './deprecation.js';
import { dumpRoutes } from './dump-routes.js';
import { V1_OBJECTS } from './kinds.js';
import { V1Pages } from './pages.js';
import { PrivateObjects, privateObjectRoutes } from './private-objects.js';
import { recordRoutes } from './record-routes.js';
import { V1Links } from './shaping/links.js';

export interface V1Options {
  /** The clock, in milliseconds since the epoch (Date.now by default); tests move it past the sunset. */
  now?: (() => number) | undefined;
  /** Rate-limit counters shared by replicas (REDIS_URL); v1 counts under its own scope, apart from v2. */
  counters?: SharedRateLimitCounters | undefined;
}

/** The v1 router of an app. */
export function v1Routes(ctx: AppContext, options: V1Options = {}): Router {
  const links = new V1Links(ctx.iris);
  const pages = new V1Pages(ctx);
  const deprecationOptions: DeprecationOptions = { links, sunset: ctx.config.v1Sunset, now: options.now ?? Date.now };
  const keyed = requireApiKey(ctx.config.v1ApiKeys);

  const router = Router();
  router.use(
    deprecation(deprecationOptions),
    v2RateLimit(ctx.config.rateLimitPerMinute, ctx.logger, options.counters && { counters: options.counters, scope: 'v1' }),
    allowMethods(['GET', 'HEAD', 'OPTIONS']),
    requireReadyStore(ctx.store),
  );
  router.use(collectionRoutes(pages, links), recordRoutes(ctx, links), colorRoutes(pages, links), curatedRoutes(pages, links));
  router.use('/id/private-objects', keyed);
  router.use('/dump', keyed);
  router.use(privateObjectRoutes(new PrivateObjects(ctx, pages.of(V1_OBJECTS)), links), dumpRoutes(pages, links));
  router.use((_req, _res, next) => next(new NotFoundError()));
  router.use(deprecatedErrors(deprecationOptions));
  return router;
}
