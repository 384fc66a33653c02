/**
 * `npm start`: validate the configuration and bind the port at once, before the rest of the service is loaded,
 * so that from its first second the port answers (503 with Retry-After while the service starts, /healthz 200:
 * src/http/early-answer.ts); then load and run the service on that server (src/serve.ts).
 */
import { ConfigError, loadConfig, type Config } from './config/config.js';
import { createLogger } from './config/logger.js';
import { listenStarting } from './http/early-answer.js';

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

const config = configOrExit();
const logger = createLogger(config);
const server = await listenStarting(config.port, logger).catch((err: NodeJS.ErrnoException) => {
  // A port taken or not allowed is an operator's setting, not a crash: one line, exit 1.
  if (err.code !== 'EADDRINUSE' && err.code !== 'EACCES') throw err;
  const why = err.code === 'EADDRINUSE' ? 'is in use by another process' : 'may not be opened by this user (ports below 1024 need privileges)';
  process.stderr.write(`PORT ${config.port} ${why}: stop that process or set another PORT\n`);
  process.exit(1);
});
logger.info({ port: config.port, baseUrl: config.baseUrl, dataDir: config.dataDir, rateLimitPerMinute: config.rateLimitPerMinute }, 'listening');
// The rest of the service (stores, app, harvest) loads while the port already answers.
const { serve } = await import('./serve.js');
await serve(config, logger, server);
