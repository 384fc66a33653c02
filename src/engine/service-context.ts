/**
 * What every module that serves receives, but the kinds (app-context.ts adds them): the validated configuration,
 * IRI minting, the store seam, the query library, the metrics and the logger. A kind's index endpoints are made
 * from this (src/engine/kind.ts), so the declarations a kind fills in need not know the app that serves them.
 */
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { Iris } from '../vocab/iris.js';
import type { QueryStore } from '../store/types.js';
import type { Metrics } from '../http/metrics.js';
import type { QueryLibrary } from '../queries/library.js';

export interface ServiceContext {
  config: Config;
  iris: Iris;
  store: QueryStore;
  logger: Logger;
  metrics: Metrics;
  queries: QueryLibrary;
  /**
   * The base URL the IIIF router mounted at /iiif names itself by, when it is not BASE_URL (a demo whose images
   * were harvested from another port): the pages for people link such URLs by their path here.
   */
  iiifBase?: string;
}
