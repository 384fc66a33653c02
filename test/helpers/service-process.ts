/**
 * The service as `npm start` runs it (commands.ts, `serviceLine`: in a process of its own) on a data folder, for
 * tests of what only a serving process does: the remote server's watchdog and following `current`. Ready once
 * /readyz answers 200; stopped with SIGTERM (SIGKILL after 5 s).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serviceLine } from './commands.js';
import { freePort } from './redis.js';
import { startServerProcess } from './server-process.js';


export interface ServiceProcess {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  stop(): Promise<void>;
}

/**
 * Starts the service with `env` (DATA_DIR, BASE_URL, STORE_URL, …; no rate limit, warnings only logged);
 * `onReadyz` hears every answer of /readyz until the first 200, that one included.
 */
export async function startService(env: Record<string, string>, timeoutMs = 60_000, onReadyz?: (answer: { status: number; body: string }) => void): Promise<ServiceProcess> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const service = serviceLine();
  const stop = await startServerProcess({
    name: 'the service (src/server.ts)',
    bin: service.file,
    args: service.args,
    // Its working directory, removed by stop(); the data folder is the caller's.
    dir: await mkdtemp(join(tmpdir(), 'service-')),
    env: { RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'warn', DEMO_OBJECTS: '10', ...env, PORT: String(port), NODE_OPTIONS: undefined },
    ready: async () => {
      const response = await fetch(`${origin}/readyz`, { signal: AbortSignal.timeout(2000) });
      onReadyz?.({ status: response.status, body: await response.text() });
      return response.ok;
    },
    readyWhat: `answer ${origin}/readyz with 200`,
    timeoutMs,
    pollMs: 200,
  });
  return { origin, stop };
}

/**
 * Runs the service with `env` until it exits by itself (a start that fails); its exit code and everything it
 * wrote, standard error apart. Killed, and rejected, when it still runs after `timeoutMs`.
 */
export async function runServiceToExit(env: Record<string, string>, timeoutMs = 30_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'service-'));
  const service = serviceLine();
  const child = spawn(service.file, service.args, {
    cwd: dir,
    env: { ...process.env, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'info', ...env, PORT: String(port), NODE_OPTIONS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`the service still ran after ${timeoutMs} ms:\n${stdout}${stderr}`));
      }, timeoutMs);
      // 'close', not 'exit': its output is read to the end by then.
      child.once('close', (exitCode) => {
        clearTimeout(timer);
        resolve(exitCode);
      });
    });
    return { code, stdout, stderr };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The first value `probe` gives (undefined, or a rejection, means "not yet"), asked every `pollMs`; throws
 * "`what` within `timeoutMs` ms" when none comes in time.
 */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number, pollMs = 200): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`${what} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
