/**
 * Liveness and readiness for process supervisors and load balancers, outside /v2 so they are never
 * rate-limited: /healthz answers while the process runs, /readyz only while the store answers queries and every
 * kind's collection index is built for the generation served, so that a replica that says ready answers every
 * collection from its index at once. /readyz names the generation served and the one wanted (what `current`
 * names), which differ while a swap is retried.
 */
import { Router } from 'express';
import type { QueryStore } from '../store/types.js';
import { indexingError, notReadyError } from '../http/readiness.js';

type Readiness = Pick<QueryStore, 'ready' | 'generation' | 'unavailableReason'>;

/** What /readyz is told beside the store. */
export interface HealthOptions {
  /** The generation `current` names; defaults to the served one. */
  wanted?: () => string | undefined;
  /** The SPARQL store, when /sparql is served. */
  sparqlStore?: Pick<QueryStore, 'generation'>;
  /** What is still built before every kind answers from its index (engine/indexes.ts, derivedBuilding); empty when done. */
  building?: () => string[];
}

/**
 * GET /healthz (always 200) and GET /readyz (200 when the store is ready and nothing is left to build, else 503
 * with Retry-After), with the served and the wanted generation. /readyz says `unavailable` while the store does
 * not answer, `indexing` (with `building`: the stored index, the kinds, the record statuses) while the derived
 * structures are built, else `loading`. With a SPARQL store, /readyz waits for its first start too (it starts
 * after the REST store), so that a load balancer sends no /sparql request to a replica that would answer it
 * 503; its later restarts (a runaway query ended) do not make the replica unready, since the REST endpoints
 * still answer then. A SPARQL store on a server of its own (SPARQL_STORE_URL) is not passed here: the REST API
 * never waits for it (app.ts).
 */
export function healthRoutes(store: Readiness, options: HealthOptions = {}): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ status: 'ok' });
  });
  router.get('/readyz', (_req, res, next) => {
    const generation = store.generation?.id ?? null;
    const generations = { generation, wanted: options.wanted?.() ?? generation };
    const building = options.building?.() ?? [];
    const sparqlStarting = options.sparqlStore !== undefined && options.sparqlStore.generation === undefined;
    if (store.unavailableReason?.() !== undefined) {
      next(notReadyError(store, { status: 'unavailable', ...generations }));
      return;
    }
    if (building.length > 0) {
      next(indexingError(building, { status: 'indexing', building, ...generations }));
      return;
    }
    if (!store.ready() || sparqlStarting) {
      next(notReadyError(store, { status: 'loading', ...generations }));
      return;
    }
    res.setHeader('Cache-Control', 'no-store');
    res.json({ status: 'ready', ...generations });
  });
  return router;
}
