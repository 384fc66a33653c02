/**
 * Waits, as a load balancer polling /readyz does, until an app built over a started store has built what its
 * requests answer from (every kind's collection index, the record statuses): a request meanwhile is answered
 * 503, not made to wait for the build (src/collection-index/index-manager.ts).
 */
import { derivedBuilding } from '../../src/engine/indexes.js';
import type { QueryStore } from '../../src/store/types.js';

/** Resolves once nothing is left to build for the app over `ctx.store`; rejects with what is not built after `timeoutMs`. */
export async function untilIndexesBuilt(ctx: { store: QueryStore }, timeoutMs = 120_000): Promise<void> {
  const started = performance.now();
  for (;;) {
    const building = derivedBuilding(ctx);
    if (building.length === 0) return;
    if (performance.now() - started > timeoutMs) throw new Error(`still building after ${timeoutMs} ms: ${building.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
