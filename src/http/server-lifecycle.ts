/** Listening and graceful shutdown of the HTTP server (the process side lives in src/server.ts). */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Express } from 'express';
import type { Logger } from 'pino';

/** In-flight requests get this long after a shutdown signal before the process exits regardless. */
export const SHUTDOWN_GRACE_MS = 10_000;

/** Starts listening on `port` (all interfaces unless `host`) and resolves once the socket is bound. */
export function listen(app: Express, port: number, host?: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = host === undefined ? app.listen(port) : app.listen(port, host);
    server.once('listening', () => resolve(server));
    server.once('error', reject);
  });
}

export interface ShutdownOptions {
  /** Runs after the last request has finished (closing the store). */
  cleanup: () => Promise<void>;
  /** process.exit in the server; tests pass a recorder. */
  exit?: (code: number) => void;
  graceMs?: number;
}

/**
 * Returns `shutdown(code)`: stop accepting connections, let in-flight requests finish, run `cleanup`, then
 * exit with `code`; exit with 1 if that takes longer than the grace period. Calling it again does nothing.
 */
export function gracefulShutdown(server: Server, logger: Logger, options: ShutdownOptions): (code: number) => void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const graceMs = options.graceMs ?? SHUTDOWN_GRACE_MS;
  let stopping = false;
  return (code) => {
    if (stopping) return;
    stopping = true;
    logger.info({ graceMs }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('in-flight requests did not finish in time; exiting');
      exit(1);
    }, graceMs);
    force.unref();
    // Requests still arriving on open keep-alive connections get their answer, then the connection closes.
    server.on('request', (_req: IncomingMessage, res: ServerResponse) => res.setHeader('Connection', 'close'));
    // A connection becomes idle when its in-flight request ends; close it then rather than at keep-alive timeout.
    const sweep = setInterval(() => server.closeIdleConnections(), 100);
    sweep.unref();
    server.close(() => {
      clearInterval(sweep);
      options
        .cleanup()
        .catch((err: unknown) => logger.error({ err }, 'error while closing the store'))
        .finally(() => {
          clearTimeout(force);
          logger.info('stopped');
          exit(code);
        });
    });
    // Keep-alive connections with no request in flight would otherwise hold server.close() open.
    server.closeIdleConnections();
  };
}
