/**
 * What every endpoint module receives: the validated configuration, IRI minting, the store seam, the query
 * library, the kinds and the logger. Handlers get their collaborators from here, never from module-level singletons,
 * so tests build an app around a real store on fixture data.
 */
import type { Logger } from 'pino';
import type { Config } from './config/config.js';
import type { Iris } from './vocab/iris.js';
import type { QueryStore } from './store/types.js';
import type { Metrics } from './http/metrics.js';
import type { QueryLibrary } from './queries/library.js';
import type { ResourceKind } from './engine/kind.js';
import type { RecordTable } from './collection-index/record-table.js';
import type { RecordKinds } from './vocab/record-kinds.js';

export interface AppContext {
  config: Config;
  iris: Iris;
  store: QueryStore;
  logger: Logger;
  metrics: Metrics;
  queries: QueryLibrary;
  /** The resource kinds served under /v2, in catalog order (src/kinds/index.ts, `KIND_NAMES`; a test may add its own). */
  kinds: RecordKinds<ResourceKind<RecordTable>>;
  /**
   * The base URL the IIIF router mounted at /iiif names itself by, when it is not BASE_URL (a demo whose images
   * were harvested from another port): the pages for people link such URLs by their path here.
   */
  iiifBase?: string;
}
