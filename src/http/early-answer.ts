/**
 * The port's first answers (docs/operations.md, "Start"): `npm start` binds the port before it loads the rest of
 * the service (the store, the app, the demo), so that from its first second a client gets 503 with Retry-After,
 * never a refused connection, and a supervisor's /healthz its 200. This module imports nothing heavy: only
 * node:http and the readiness texts. The app takes the same server over once it is built (`hand over`).
 */
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { NOT_READY_MESSAGE, NOT_READY_RETRY_AFTER_SECONDS } from './readiness.js';

const PROBES = new Set(['/healthz', '/readyz', '/metrics']);

/** What the port answers while the service starts: /healthz 200, everything else 503 with Retry-After. */
export function startingAnswer(logger: Logger): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    const started = process.hrtime.bigint();
    const path = (req.url ?? '/').split('?', 1)[0] ?? '/';
    const healthy = path === '/healthz';
    const body = healthy
      ? { status: 'ok' }
      : path === '/readyz'
        ? { error: NOT_READY_MESSAGE, status: 'loading', generation: null, wanted: null }
        : { error: NOT_READY_MESSAGE };
    const status = healthy ? 200 : 503;
    res.writeHead(status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'no-store',
      ...(healthy ? {} : { 'Retry-After': String(NOT_READY_RETRY_AFTER_SECONDS) }),
    });
    res.end(req.method === 'HEAD' ? undefined : JSON.stringify(body));
    // One line per request, as the app writes them (src/http/request-log.ts): probes at debug, a 503 at warn.
    const line = { method: req.method, path, status, ms: Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10, ...(healthy ? {} : { error: NOT_READY_MESSAGE }) };
    if (PROBES.has(path)) logger.debug(line, 'request');
    else logger.warn(line, 'request');
  };
}

/** Binds `port` with the starting answer; rejects as `listen` does (EADDRINUSE, EACCES). */
export function listenStarting(port: number, logger: Logger, host?: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer(startingAnswer(logger));
    server.once('listening', () => resolve(server));
    server.once('error', reject);
    if (host === undefined) server.listen(port);
    else server.listen(port, host);
  });
}

/** Gives the server's requests to `app` from now on (the starting answer is removed). */
export function handOver(server: Server, app: RequestListener): void {
  server.removeAllListeners('request');
  server.on('request', app);
}
