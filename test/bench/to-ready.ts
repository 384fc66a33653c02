/**
 * Harvest-to-ready and load-to-ready, as an operator lives them: a real replica (`node dist/server.js`) serves a
 * copy of the bench data folder, then the data command runs as its own process (`dist/cli/harvest.js` on the
 * bench's source export, or `dist/cli/load.js` on the served generation's public dump) and the clock stops at
 * the first page the replica serves from the new generation. The replica's own start on the old generation is
 * measured the same way, as the baseline (start-up alone).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { freePort } from '../helpers/virtuoso.js';
import { log, rssMiBOfPid } from './report.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const node = (script: string): string[] => ['--enable-source-maps', path.join(ROOT, 'dist', script)];

export interface ToReadyOptions {
  /** The bench data folder (copied: the commands write a new generation into the copy). */
  dataDir: string;
  sourceDir: string;
  /** Everything a replica and the data commands need (BASE_URL, STORE_URL, bulk settings, …). */
  env: Record<string, string>;
  /** How long a replica may take to serve a new generation before the bench reports it as not ready (45 min). */
  readyTimeoutMs?: number;
}

export interface ToReadyFigures {
  /** Start of the replica to its first served page, on the copied generation. */
  startMs: number;
  /** Start of `harvest` to the first page served from its generation. */
  harvestToReadyMs: number;
  /** Of which the harvest process itself (source, files, stored index, publication, switch). */
  harvestMs: number;
  /** Start of `dump` of the served generation (not counted in load-to-ready). */
  dumpMs: number;
  /** Start of `load` of that dump to the first page served from its generation (absent when the load failed). */
  loadToReadyMs?: number;
  loadMs?: number;
  loadOutput?: string;
  /** Why the load failed. */
  loadError?: string;
  harvestOutput: string;
  /** RSS of the replica (one service process) at the end, and the highest sampled (every 500 ms), in MiB. */
  replicaRssMiB: number | undefined;
  replicaPeakRssMiB: number | undefined;
  /** The replica's own account at the end (its /metrics): V8 heap used and held, and external memory, in MiB. */
  replicaMemory?: { heapUsedMiB: number; heapTotalMiB: number; externalMiB: number };
}

/** The replica's heap and external memory from its Prometheus metrics (prom-client's default metrics). */
async function memoryOf(origin: string): Promise<ToReadyFigures['replicaMemory']> {
  try {
    const text = await (await fetch(`${origin}/metrics`)).text();
    const value = (name: string): number => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN) / 2 ** 20;
    return { heapUsedMiB: value('nodejs_heap_size_used_bytes'), heapTotalMiB: value('nodejs_heap_size_total_bytes'), externalMiB: value('nodejs_external_memory_bytes') };
  } catch {
    return undefined;
  }
}

export interface Readiness {
  status: string;
  generation: string | null;
}

/** The replica's /readyz answer (status and served generation), or undefined when it does not answer. */
export async function readiness(origin: string): Promise<Readiness | undefined> {
  try {
    return (await (await fetch(`${origin}/readyz`, { signal: AbortSignal.timeout(10_000) })).json()) as Readiness;
  } catch {
    return undefined;
  }
}

const READY_TIMEOUT_MS = 45 * 60_000;

/**
 * Waits until the replica serves a generation other than `not` (and a first page from it); its id. When `run`
 * (the data command that makes that generation) fails first, the wait ends with the command's error.
 */
async function servedOther(origin: string, not: string | null, child: ChildProcess, timeoutMs: number, run?: Promise<unknown>): Promise<string> {
  let failure: unknown;
  let failed = false;
  run?.catch((err: unknown) => {
    failure = err;
    failed = true;
  });
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (failed) throw failure;
    if (child.exitCode !== null) throw new Error(`the replica exited with ${child.exitCode}`);
    if (performance.now() > deadline) throw new Error(`the replica served no page of a new generation within ${timeoutMs / 60_000} minutes`);
    const r = await readiness(origin);
    if (r?.status === 'ready' && r.generation !== null && r.generation !== not) {
      const page = await fetch(`${origin}/v2/id/objects`, { signal: AbortSignal.timeout(Math.max(1, Math.ceil(deadline - performance.now()))) });
      await page.arrayBuffer();
      if (page.status === 200) return r.generation;
    }
    await sleep(100);
  }
}

/**
 * Runs a data command to its end; its wall time and its output (stdout and stderr). The end of each of its
 * phases ("…, done in 2 min 5 s") and its summary lines are logged as they come, so the bench's own log says
 * where the time went even when the run is stopped before its table.
 */
const command = (script: string, args: string[], env: Record<string, string>): Promise<{ ms: number; output: string }> => runDataCommand(node(script), args, env);

/** A data command as `node <program> <args>` (program: node's flags and the script, last), as {@link command} runs it. */
/** A running progress line of a data command: `harvest: write, 12,000 records, 4,589 records/s`. */
const PROGRESS_LINE = /^\w[\w-]*: .*\d [\w ]+\/s\b/;

export async function runDataCommand(program: string[], args: string[], env: Record<string, string>): Promise<{ ms: number; output: string }> {
  const started = performance.now();
  const child = spawn(process.execPath, [...program, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const name = path.basename(program.at(-1) ?? 'command').replace(/\.[jt]s$/, '');
  let output = '';
  let partial = '';
  const relay = (d: string): void => {
    output += d;
    const lines = (partial + d).split('\n');
    partial = lines.pop() ?? '';
    // Every line but the command's running progress (a rate, no "done in"): the steps between them (writing to
    // the SPARQL server, the stored index) say when each began, which a soak's failures are laid beside.
    for (const line of lines) if (line !== '' && (line.includes(', done in ') || !PROGRESS_LINE.test(line))) log(`${name}: ${line}`);
  };
  child.stdout.setEncoding('utf8').on('data', relay);
  child.stderr.setEncoding('utf8').on('data', relay);
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`${program.at(-1) ?? 'command'} ${args.join(' ')} exited with ${code}:\n${output.slice(-2000)}`);
  return { ms: performance.now() - started, output };
}

export async function measureToReady(options: ToReadyOptions): Promise<ToReadyFigures> {
  // The processes run dist/: rebuilt first when src/ is newer, as `npm start` and the data commands do.
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build-if-stale.mjs')], { stdio: 'inherit' });
  const work = await mkdtemp(path.join(tmpdir(), 'bench-to-ready-'));
  const dataDir = path.join(work, 'data');
  await cp(options.dataDir, dataDir, { recursive: true });
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const env = { ...options.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' };
  const started = performance.now();
  const replica = spawn(process.execPath, node('server.js'), { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  let replicaPeakRssMiB: number | undefined;
  const sampler = setInterval(() => {
    const rss = rssMiBOfPid(replica.pid);
    if (rss !== undefined) replicaPeakRssMiB = Math.max(replicaPeakRssMiB ?? 0, rss);
  }, 500);
  try {
    const timeoutMs = options.readyTimeoutMs ?? READY_TIMEOUT_MS;
    const first = await servedOther(origin, null, replica, timeoutMs);
    const startMs = performance.now() - started;
    log(`replica ready on the bench generation in ${(startMs / 1000).toFixed(1)} s`);

    const harvestStarted = performance.now();
    const harvesting = command('cli/harvest.js', [options.sourceDir, '--no-image-check'], env);
    const harvested = await servedOther(origin, first, replica, timeoutMs, harvesting);
    const harvestToReadyMs = performance.now() - harvestStarted;
    log(`harvest-to-ready: ${(harvestToReadyMs / 1000).toFixed(1)} s (the replica serves generation ${harvested})`);
    const harvest = await harvesting;

    // A failed load still leaves the harvest's figures to report (a 250k run takes more than an hour).
    const dumpFile = path.join(work, 'public.nq.gz');
    const dump = await command('cli/dump.js', [dumpFile], env);
    const loadStarted = performance.now();
    const loading = command('cli/load.js', [dumpFile], env);
    let loaded: { loadToReadyMs: number; loadMs: number; loadOutput: string } | { loadError: string };
    try {
      await servedOther(origin, harvested, replica, timeoutMs, loading);
      const loadToReadyMs = performance.now() - loadStarted;
      log(`load-to-ready: ${(loadToReadyMs / 1000).toFixed(1)} s`);
      const load = await loading;
      loaded = { loadToReadyMs, loadMs: load.ms, loadOutput: load.output };
    } catch (err) {
      loaded = { loadError: (err as Error).message };
    }
    const replicaRssMiB = rssMiBOfPid(replica.pid);
    const replicaMemory = await memoryOf(origin);
    return { startMs, harvestToReadyMs, harvestMs: harvest.ms, dumpMs: dump.ms, harvestOutput: harvest.output, replicaRssMiB, replicaPeakRssMiB, ...(replicaMemory ? { replicaMemory } : {}), ...loaded };
  } finally {
    clearInterval(sampler);
    replica.kill('SIGTERM');
    if (replica.exitCode === null) await once(replica, 'exit');
    await rm(work, { recursive: true, force: true });
  }
}
