/**
 * A throw-away Redis (Debian's `redis-server`, which `.ci/run` installs with apt-get) for tests: one server on
 * a free port of 127.0.0.1, no persistence (`--save '' --appendonly no`), its working directory a fresh
 * temporary directory that `stop()` removes. {@link redisCommand} speaks just enough RESP for a test.
 */
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess } from './server-process.js';

export const REDIS_BIN = ['/usr/bin/redis-server'].find((p) => existsSync(p));

/**
 * Ports handed to servers that a test starts as processes: below Linux's ephemeral range (32768–60999), which
 * `listen(0)` draws from. The port is free when returned but the server binds it only later (a replica after
 * its start-up); from the ephemeral range, an app another test process starts with `listen(0)` meanwhile could
 * take it, and the test would then talk to that app (it answers /readyz too) instead of its own server.
 */
const PORT_RANGE = { from: 20_000, to: 32_000 } as const;

const bindable = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/** Ports this test process handed out: never handed out twice, though a server may not have bound one yet. */
const handedOut = new Set<number>();

/** A port of 127.0.0.1 that was free a moment ago, drawn at random from {@link PORT_RANGE}. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = PORT_RANGE.from + Math.floor(Math.random() * (PORT_RANGE.to - PORT_RANGE.from));
    if (handedOut.has(port) || !(await bindable(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free port of 127.0.0.1 between ${PORT_RANGE.from} and ${PORT_RANGE.to} after 100 tries`);
}

/**
 * Starts a server on two free ports (it may use one), and again on fresh ones when it could not bind them. Node's check in
 * {@link freePort} binds with SO_REUSEADDR, so a port whose last connections linger in TIME_WAIT passes it, and
 * a server that binds without that option (Virtuoso) then fails; or another test process took the port between
 * the check and the server's bind. Either way the CI run of 2026-11-29 lost a test file to it.
 */
export async function onFreePorts<T>(start: (port: number, otherPort: number) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await freePort(), await freePort());
    } catch (e) {
      if (attempt === 3 || !/address already in use/i.test(String(e))) throw e;
    }
  }
}

export interface RedisServer {
  /** `redis://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Kills the server (SIGTERM, SIGKILL after 5 s) and removes its directory. */
  stop(): Promise<void>;
}

type RespValue = string | number | null | RespValue[];

/** One command over a fresh connection; rejects on a RESP error. Handles simple, error, integer, bulk and array replies. */
export function redisCommand(port: number, ...args: (string | number)[]): Promise<RespValue> {
  const request = `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(String(a))}\r\n${a}\r\n`).join('')}`;
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let buffer = Buffer.alloc(0);
    socket.setTimeout(5000, () => socket.destroy(new Error('redis: no answer within 5 s')));
    socket.once('error', reject);
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      const parsed = parseResp(buffer, 0);
      if (parsed === undefined) return;
      socket.end();
      if (parsed.error !== undefined) reject(new Error(`redis: ${parsed.error}`));
      else resolve(parsed.value);
    });
    socket.write(request);
  });
}

interface Parsed {
  value: RespValue;
  error?: string;
  end: number;
}

function parseResp(buf: Buffer, at: number): Parsed | undefined {
  const eol = buf.indexOf('\r\n', at);
  if (eol < 0) return undefined;
  const line = buf.toString('utf8', at + 1, eol);
  switch (String.fromCharCode(buf[at]!)) {
    case '+':
      return { value: line, end: eol + 2 };
    case '-':
      return { value: null, error: line, end: eol + 2 };
    case ':':
      return { value: Number(line), end: eol + 2 };
    case '$': {
      const length = Number(line);
      if (length < 0) return { value: null, end: eol + 2 };
      if (buf.length < eol + 2 + length + 2) return undefined;
      return { value: buf.toString('utf8', eol + 2, eol + 2 + length), end: eol + 2 + length + 2 };
    }
    case '*': {
      const count = Number(line);
      if (count < 0) return { value: null, end: eol + 2 };
      const items: RespValue[] = [];
      let end = eol + 2;
      for (let i = 0; i < count; i++) {
        const item = parseResp(buf, end);
        if (item === undefined) return undefined;
        items.push(item.value);
        end = item.end;
      }
      return { value: items, end };
    }
    default:
      throw new Error(`redis: unexpected reply ${JSON.stringify(buf.toString('utf8', at, eol))}`);
  }
}

/** A fresh Redis on a free port of 127.0.0.1 that answers PING. */
export async function startRedis(): Promise<RedisServer> {
  if (REDIS_BIN === undefined) throw new Error('redis-server is not installed (apt-get install redis-server)');
  const bin = REDIS_BIN;
  return onFreePorts(async (port) => {
    const dir = await mkdtemp(join(tmpdir(), 'redis-test-'));
    const stop = await startServerProcess({
      name: 'redis-server',
      bin,
      args: ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no'],
      dir,
      ready: async () => (await redisCommand(port, 'PING')) === 'PONG',
      readyWhat: `answer PING on port ${port}`,
      timeoutMs: 10_000,
      pollMs: 50,
    });
    return { url: `redis://127.0.0.1:${port}`, port, stop };
  });
}
