/**
 * Prometheus series of the SPARQL result cache, registered on the app's own registry: requests by how they
 * were answered (`hit`, `joined` a running identical query, `miss` ran the query) and the bytes held. An app
 * built twice on one registry (tests do) shares the series instead of failing to register them again.
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { CacheOutcome } from './result-cache.js';

const REQUESTS = 'sparql_result_cache_requests_total';
const BYTES = 'sparql_result_cache_bytes';

export interface CacheMetrics {
  outcome(outcome: CacheOutcome): void;
  bytes(bytes: number): void;
}

/** The cache's series on `registry`, created on first use. */
export function cacheMetrics(registry: Registry): CacheMetrics {
  const registers = [registry];
  const requests =
    (registry.getSingleMetric(REQUESTS) as Counter<'outcome'> | undefined) ??
    new Counter({
      name: REQUESTS,
      help: 'SPARQL queries by how the result cache answered them: hit, joined (a running identical query), miss (ran the query).',
      labelNames: ['outcome'],
      registers,
    });
  const held =
    (registry.getSingleMetric(BYTES) as Gauge | undefined) ??
    new Gauge({ name: BYTES, help: 'Bytes of SPARQL answers held by the result cache of the served generation.', registers });
  return { outcome: (outcome) => requests.inc({ outcome }), bytes: (bytes) => held.set(bytes) };
}
