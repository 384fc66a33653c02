/**
 * Liveness and readiness for process supervisors and load balancers, outside /v2 so they are never
 * rate-limited: /healthz answers while the process runs, /readyz only while the store answers queries. /readyz
 * names the generation served and the one wanted (what `current` names), which differ while a swap is retried.
 */
import { Router } from 'express';
import type { QueryStore } from '../store/types.js';
import { notReadyError } from '../http/readiness.js';

type Readiness = Pick<QueryStore, 'ready' | 'generation' | 'unavailableReason'>;

/**
 * GET /healthz (always 200) and GET /readyz (200 when the store is ready, else 503 with Retry-After), with the
 * served and the wanted generation; `wanted` defaults to the served one. With a SPARQL store, /readyz waits
 * for its first start too (it starts after the REST store), so that a load balancer sends no /sparql request
 * to a replica that would answer it 503; its later restarts (a runaway query ended) do not make the replica
 * unready, since the REST endpoints still answer then.
 */
export function healthRoutes(store: Readiness, wanted?: () => string | undefined, sparqlStore?: Pick<QueryStore, 'generation'>): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ status: 'ok' });
  });
  router.get('/readyz', (_req, res, next) => {
    const generation = store.generation?.id ?? null;
    const generations = { generation, wanted: wanted?.() ?? generation };
    if (!store.ready() || (sparqlStore !== undefined && sparqlStore.generation === undefined)) {
      next(notReadyError(store, { status: store.unavailableReason?.() === undefined ? 'loading' : 'unavailable', ...generations }));
      return;
    }
    res.setHeader('Cache-Control', 'no-store');
    res.json({ status: 'ready', ...generations });
  });
  return router;
}
