/**
 * `npm start` as a process manager runs it (issue 28, production start): the compiled server (dist/, no
 * TypeScript loader), started by npm, gets the signal that the manager sends to npm. While a slow request
 * runs (a large page of full records), SIGTERM (and SIGINT) to the npm process lets that request complete, then every process of the tree
 * exits and the port is free again.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MAX_ITEMS_PER_PAGE } from '../../src/endpoints/collection-params.js';
import { demoData, TEST_BASE_URL } from '../helpers/demo.js';
import { freePort } from '../helpers/redis.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The pids of `pid`'s descendants, from /proc. */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      // Field 4 of /proc/<pid>/stat is the parent pid; the command name (field 2) may hold spaces, so read after ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // Ended meanwhile.
    }
  }
  const out: number[] = [];
  for (let queue = [pid]; queue.length > 0; ) {
    const next = children.get(queue.shift() as number) ?? [];
    out.push(...next);
    queue.push(...next);
  }
  return out;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** True when a new server can listen on `port`. */
const portFree = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });

/**
 * A slow request: the largest page of full records, none shaped yet (a few hundred ms on the demo data). A REST
 * request, not a SPARQL query: a client's query past 100 ms runs at a lower priority (REST first), and on a
 * machine that other work keeps busy a second-long query outlived the 10 s grace period and was cut.
 */
const SLOW_PATH = `/v2/id/objects?itemsPerPage=${MAX_ITEMS_PER_PAGE}&fullRecord=true&page=2`;

describe.each(['SIGTERM', 'SIGINT'] as const)('npm start, then %s to the npm process', (signal) => {
  let dataDir: string;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    // What `npm start` does first (prestart), done here so that the timed test is the start and the signal alone:
    // nothing on CI, where `npm ci` built dist/; a minute in a checkout edited since its last build.
    execFileSync(process.execPath, [join(ROOT, 'scripts/build-if-stale.mjs')], { cwd: ROOT, stdio: 'ignore' });
    dataDir = await mkdtemp(join(tmpdir(), 'signals-'));
    await cp((await demoData()).dataDir, dataDir, { recursive: true });
  }, 600_000);

  afterAll(async () => {
    if (child?.pid !== undefined) for (const pid of [child.pid, ...descendants(child.pid)]) if (alive(pid)) process.kill(pid, 'SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('lets the running request complete, then every process exits and the port is free', async () => {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const started = spawn('npm', ['start'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), DATA_DIR: dataDir, BASE_URL: TEST_BASE_URL, LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '0', SPARQL_TIMEOUT_MS: '60000' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    let output = '';
    started.stdout?.setEncoding('utf8').on('data', (d: string) => (output += d));
    started.stderr?.setEncoding('utf8').on('data', (d: string) => (output += d));
    const exited = new Promise<void>((resolve) => started.once('exit', () => resolve()));

    for (let ready = false; !ready; await sleep(200)) {
      if (started.exitCode !== null) throw new Error(`npm start exited before it was ready:\n${output}`);
      ready = await fetch(`${origin}/readyz`).then((r) => r.ok, () => false);
    }
    const tree = [started.pid as number, ...descendants(started.pid as number)];
    // The server runs as compiled JavaScript, straight under npm (its script execs node): no tsx, no shell.
    const commands = tree.map((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' '));
    expect(commands.some((command) => /dist\/server\.js/.test(command))).toBe(true);
    expect(commands.filter((command) => /tsx|\bsh -c\b/.test(command))).toEqual([]);

    const slow = fetch(`${origin}${SLOW_PATH}`, { headers: { accept: 'application/ld+json' } }).then((response) => ({ response, at: Date.now() }));
    await sleep(30);
    const signalled = Date.now();
    process.kill(started.pid as number, signal);
    const { response: answer, at } = await slow;
    // Its answer (the headers come once the query is done) came after the signal: it was still running then.
    expect(at).toBeGreaterThanOrEqual(signalled);
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { 'hydra:member': unknown[] };
    expect(body['hydra:member']).toHaveLength(MAX_ITEMS_PER_PAGE);

    await exited;
    for (let waited = 0; tree.some(alive) && waited < 5000; waited += 100) await sleep(100);
    expect(tree.filter(alive)).toEqual([]);
    expect(await portFree(port)).toBe(true);
    expect(output).not.toMatch(/in-flight requests did not finish/);
  }, 120_000);
});
