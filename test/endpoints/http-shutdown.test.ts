import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { gracefulShutdown, listen } from '../../src/http/server-lifecycle.js';
import { memoryLogger } from '../helpers/http-context.js';

/** A GET over a real socket; resolves with status and body, rejects on connection errors. */
function get(port: number, path: string, agent?: http.Agent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

/** A server with one request that waits until the test releases it. */
async function serverWithSlowRoute() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let arrived!: () => void;
  const hasArrived = new Promise<void>((resolve) => (arrived = resolve));
  const app = express();
  app.get('/slow', async (_req, res) => {
    arrived();
    await released;
    res.send('done');
  });
  app.get('/fast', (_req, res) => {
    res.send('fast');
  });
  const server = await listen(app, 0, '127.0.0.1');
  const { port } = server.address() as AddressInfo;
  return { server, port, release, hasArrived };
}

/** An exit recorder: `exited` resolves with the first code passed. */
function exitRecorder() {
  let exit!: (code: number) => void;
  const exited = new Promise<number>((resolve) => (exit = resolve));
  return { exit, exited };
}

describe('graceful shutdown', () => {
  it('stops accepting connections, finishes the request in flight, closes the store, then exits 0', async () => {
    const { server, port, release, hasArrived } = await serverWithSlowRoute();
    const { exit, exited } = exitRecorder();
    const closed: string[] = [];
    const shutdown = gracefulShutdown(server, memoryLogger().logger, {
      cleanup: async () => {
        closed.push('store');
      },
      exit,
      graceMs: 60_000,
    });

    const inFlight = get(port, '/slow');
    await hasArrived;
    shutdown(0);
    await expect(get(port, '/fast')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(closed).toEqual([]);

    release();
    await expect(inFlight).resolves.toEqual({ status: 200, body: 'done' });
    expect(await exited).toBe(0);
    expect(closed).toEqual(['store']);
  });

  it('does not wait for idle keep-alive connections', async () => {
    const { server, port } = await serverWithSlowRoute();
    const agent = new http.Agent({ keepAlive: true });
    expect((await get(port, '/fast', agent)).status).toBe(200);
    const { exit, exited } = exitRecorder();
    gracefulShutdown(server, memoryLogger().logger, { cleanup: async () => undefined, exit, graceMs: 60_000 })(0);
    expect(await exited).toBe(0);
    agent.destroy();
  });

  it('exits 1 when a request is still running at the end of the grace period', async () => {
    const { server, port, release, hasArrived } = await serverWithSlowRoute();
    const { exit, exited } = exitRecorder();
    const inFlight = get(port, '/slow').catch(() => undefined);
    await hasArrived;
    gracefulShutdown(server, memoryLogger().logger, { cleanup: async () => undefined, exit, graceMs: 50 })(0);
    expect(await exited).toBe(1);
    release();
    await inFlight;
    server.closeAllConnections();
  });
});
