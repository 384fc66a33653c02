/**
 * `npm start`: validate the configuration, listen at once (v2 answers 503 with Retry-After until the store is
 * ready, /healthz answers 200), prepare the generation to serve (the demo data set on a fresh DATA_DIR), start
 * the store on it, and shut down gracefully on SIGTERM/SIGINT.
 */
import type { AppContext } from './app-context.js';
import { createApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config/config.js';
import { createLogger } from './config/logger.js';
import { ensureGeneration, prepareDemoSource } from './demo/bootstrap.js';
import { createIiifRouter } from './iiif/router.js';
import { Metrics } from './http/metrics.js';
import { gracefulShutdown, listen } from './http/server-lifecycle.js';
import { QueryCatalogue } from './queries/catalogue.js';
import { StoreManager } from './store/store-manager.js';
import { Iris } from './vocab/iris.js';

/** Reads the configuration, or prints its one-line problem and exits 1. */
function configOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
}

async function main(): Promise<void> {
  const config = configOrExit();
  const logger = createLogger(config);
  const metrics = new Metrics({ defaultMetrics: true });
  // The REST store holds the non-public quads too (redirect, removal and health state of records).
  // TODO(lead): the SPARQL endpoint gets its own StoreManager with includeNonPublic: false.
  const store = new StoreManager({ includeNonPublic: true, onQuery: (ms, kind) => metrics.observeStoreQuery(ms, kind) });
  store.on('crash', (err: Error) => logger.error({ err }, 'store worker failed; restarting'));
  store.on('restart', () => logger.info({ generation: store.generation?.id }, 'store worker restarted'));
  const ctx: AppContext = { config, iris: new Iris(config.baseUrl), store, logger, metrics, queries: new QueryCatalogue() };
  // The demo's images must exist before the IIIF router first reads its image list.
  const demo = await prepareDemoSource(config, logger);
  const app = createApp(ctx, { iiifRouter: createIiifRouter({ ...demo, baseUrl: config.baseUrl }) });

  const server = await listen(app, config.port);
  logger.info(
    { port: config.port, baseUrl: config.baseUrl, dataDir: config.dataDir, rateLimitPerMinute: config.rateLimitPerMinute },
    'listening',
  );
  const shutdown = gracefulShutdown(server, logger, { cleanup: () => store.close() });
  process.once('SIGTERM', () => shutdown(0));
  process.once('SIGINT', () => shutdown(0));

  try {
    const generationDir = await ensureGeneration(config, logger, demo);
    await store.start(generationDir);
    logger.info({ generation: store.generation?.id, baseUrl: config.baseUrl }, 'ready');
  } catch (err) {
    // Without a generation the service can never become ready; exit so the supervisor sees it.
    logger.fatal({ err }, 'could not start the store');
    shutdown(1);
  }
}

await main();
