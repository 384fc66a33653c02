/**
 * `npm start` on a port that another process holds (issue 28, production start): one line that names the port
 * and what to do, exit code 1, no stack trace. The service runs as `npm start` runs it, in a process of its own.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('starting on a port that is in use', () => {
  it('prints one line naming the port and exits 1', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, resolve));
    const port = (blocker.address() as AddressInfo).port;
    const dataDir = await mkdtemp(join(tmpdir(), 'port-in-use-'));
    try {
      const child = spawn(process.execPath, ['--import', join(ROOT, 'node_modules/tsx/dist/loader.mjs'), join(ROOT, 'src/server.ts')], {
        cwd: dataDir,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', DEMO: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code).toBe(1);
      expect(stderr.trim().split('\n')).toEqual([`PORT ${port} is in use by another process: stop that process or set another PORT`]);
      expect(stdout).not.toMatch(/\bat \S+ \(/);
    } finally {
      blocker.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
