/**
 * Liveness and readiness for process supervisors and load balancers, outside /v2 so they are never
 * rate-limited: /healthz answers while the process runs, /readyz only while the store answers queries.
 */
import { Router } from 'express';
import type { QueryStore } from '../store/types.js';
import { requireReadyStore } from '../http/readiness.js';

/** GET /healthz (always 200) and GET /readyz (200 when the store is ready, else 503 with Retry-After). */
export function healthRoutes(store: Pick<QueryStore, 'ready' | 'generation'>): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ status: 'ok' });
  });
  router.get('/readyz', requireReadyStore(store), (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ status: 'ready', generation: store.generation?.id ?? null });
  });
  return router;
}
