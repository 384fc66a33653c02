/**
 * The REST store under an identity of an app's own. An app's record cache is kept per store object
 * (records.ts, sharedRecords), so two apps handed the one store would share the first app's cache, and its
 * size: the warm app then answered from no cache at all (every run before 2026-11-28). The view keeps what the
 * store says of itself (records shaped in its workers, records per query); `shapeOnMainThread` hides the first,
 * for the records shaped on the main thread beside those shaped in the workers (the shared bench's baseline,
 * test/store/worker-shaping.test.ts).
 */
import type { QueryStore } from '../../src/store/types.js';

export function storeOfItsOwn(store: QueryStore, options: { shapeOnMainThread?: boolean } = {}): QueryStore {
  return {
    query: (sparql, opts) => store.query(sparql, opts),
    get generation() {
      return store.generation;
    },
    ready: () => store.ready(),
    get shapesRecords() {
      return store.shapesRecords === true && options.shapeOnMainThread !== true;
    },
    ...(store.recordsPerQuery === undefined ? {} : { recordsPerQuery: store.recordsPerQuery }),
  };
}
