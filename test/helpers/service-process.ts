/**
 * The service as `npm start` runs it (src/server.ts through tsx, in a process of its own) on a data folder, for
 * tests of what only a serving process does: the remote server's watchdog and following `current`. Ready once
 * /readyz answers 200; stopped with SIGTERM (SIGKILL after 5 s).
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './redis.js';
import { startServerProcess } from './server-process.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TSX_LOADER = join(ROOT, 'node_modules/tsx/dist/loader.mjs');

export interface ServiceProcess {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  stop(): Promise<void>;
}

/** Starts the service with `env` (DATA_DIR, BASE_URL, STORE_URL, …; no rate limit, warnings only logged). */
export async function startService(env: Record<string, string>, timeoutMs = 60_000): Promise<ServiceProcess> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const stop = await startServerProcess({
    name: 'the service (src/server.ts)',
    bin: process.execPath,
    args: ['--import', TSX_LOADER, join(ROOT, 'src/server.ts')],
    // Its working directory, removed by stop(); the data folder is the caller's.
    dir: await mkdtemp(join(tmpdir(), 'service-')),
    env: { RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'warn', DEMO_OBJECTS: '10', ...env, PORT: String(port), NODE_OPTIONS: undefined },
    ready: async () => (await fetch(`${origin}/readyz`, { signal: AbortSignal.timeout(2000) })).ok,
    readyWhat: `answer ${origin}/readyz with 200`,
    timeoutMs,
    pollMs: 200,
  });
  return { origin, stop };
}
