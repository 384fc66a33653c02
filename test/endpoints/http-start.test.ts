/**
 * Start as the README says (issue 43): on a fresh data folder the service listens before it prepares the demo,
 * so every data route answers 503 with Retry-After until the store is ready, never a refused connection; each
 * such answer is one log line. The service runs as `npm start` runs it, in a process of its own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../helpers/redis.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TSX_LOADER = join(ROOT, 'node_modules/tsx/dist/loader.mjs');
const DATA_ROUTES = ['/v2/id/objects', '/v1/id/objects', '/sparql?query=ASK%7B%7D', '/iiif/manifest/1482'];

interface Seen {
  at: number;
  path: string;
  status: number;
  retryAfter: string | null;
}

interface LogLine {
  time: number;
  level: number;
  msg: string;
  path?: string;
  status?: number;
}

let dir: string;
let child: ChildProcess | undefined;

afterAll(async () => {
  child?.kill('SIGKILL');
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Start', () => {
  it('answers 503 with Retry-After on every data route from before the demo is prepared until ready, one log line each', async () => {
    dir = await mkdtemp(join(tmpdir(), 'start-'));
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const env = { ...process.env, NODE_OPTIONS: undefined, DATA_DIR: join(dir, 'data'), PORT: String(port), RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'info', DEMO_OBJECTS: '60' };
    const lines: LogLine[] = [];
    let rest = '';
    child = spawn(process.execPath, ['--import', TSX_LOADER, join(ROOT, 'src/server.ts')], { cwd: dir, env, stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout!.on('data', (chunk: Buffer) => {
      const text = rest + chunk.toString('utf8');
      const parts = text.split('\n');
      rest = parts.pop()!;
      for (const part of parts) if (part.startsWith('{')) lines.push(JSON.parse(part) as LogLine);
    });

    const seen: Seen[] = [];
    let readyAt = -1;
    for (let round = 0; round < 1200 && readyAt < 0; round++) {
      const ready = await fetch(`${origin}/readyz`).then((res) => res.ok, () => false);
      if (ready) readyAt = seen.length;
      else {
        for (const path of DATA_ROUTES) {
          const res = await fetch(`${origin}${path}`).catch(() => undefined);
          if (res === undefined) continue;
          await res.arrayBuffer();
          seen.push({ at: Date.now(), path, status: res.status, retryAfter: res.headers.get('retry-after') });
        }
      }
      await sleep(50);
    }
    expect(readyAt).toBeGreaterThan(0);
    const listening = lines.findIndex((line) => line.msg === 'listening');
    const prepared = lines.findIndex((line) => line.msg === 'demo images ready');
    // The port answers before the demo's source and images are made, and every route was answered then.
    expect(listening).toBeGreaterThanOrEqual(0);
    expect(prepared).toBeGreaterThan(listening);
    const beforePrepared = seen.filter((s) => s.at < lines[prepared]!.time);
    expect(new Set(beforePrepared.map((s) => s.path))).toEqual(new Set(DATA_ROUTES));
    // Until the demo's images exist every route answers 503 with Retry-After; then IIIF serves them to the demo's
    // harvest, and the store's routes answer 503 until the store has loaded the whole generation (never an answer
    // from a half-made collection). REST may answer before /readyz says ready (the indexes are still being built, or
    // the SPARQL worker is still loading), but once a route has answered it does not go back to 503.
    const fromStore = (s: Seen): boolean => !s.path.startsWith('/iiif/');
    const unavailable = (s: Seen): boolean => s.status === 503 && s.retryAfter !== null;
    expect(beforePrepared.filter((s) => !unavailable(s))).toEqual([]);
    const storeAnswers = seen.filter(fromStore);
    expect(storeAnswers.filter((s) => !unavailable(s) && s.status !== 200)).toEqual([]);
    for (const path of DATA_ROUTES.filter((p) => !p.startsWith('/iiif/'))) {
      const statuses = storeAnswers.filter((s) => s.path === path).map((s) => s.status);
      const firstAnswer = statuses.indexOf(200);
      if (firstAnswer >= 0) expect(statuses.slice(firstAnswer).filter((status) => status !== 200)).toEqual([]);
    }
    expect(seen.filter((s) => s.status >= 500 && s.status !== 503)).toEqual([]);
    // One line for each: the request line, at warn, no second line.
    await sleep(200);
    const about503 = lines.filter((line) => line.status === 503 && line.path !== '/readyz');
    expect(about503.length).toBe(seen.filter((s) => s.status === 503).length);
    expect(new Set(about503.map((line) => [line.level, line.msg].join(' ')))).toEqual(new Set(['40 request']));
    // Ready: the same routes answer.
    expect((await fetch(`${origin}/v2/id/objects`)).status).toBe(200);
  }, 240_000);
});
