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
import { freePort, ISQL_BIN, type VirtuosoServer } from '../helpers/virtuoso.js';
import { log, rssMiBOfPid, type BenchRow } from './report.js';

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
  /** The SPARQL server's pid, for its peak RSS. */
  serverPid?: number;
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
  /** Where the harvest's and the load's time went: their steps, and the replica's first page, on one clock. */
  harvestSteps: Step[];
  loadSteps?: Step[];
  /** Highest RSS of the data commands and of the SPARQL server (when its pid was given), sampled every 500 ms, in MiB. */
  harvestPeakRssMiB: number | undefined;
  loadPeakRssMiB?: number | undefined;
  serverPeakRssMiB?: number | undefined;
}

/** A step of a data command: a line it wrote (the end of a phase, a step begun or done) and when, from its start. */
export interface Step {
  atMs: number;
  line: string;
}

/** Peak RSS of a process, sampled every 500 ms until `stop()`. */
function peakRss(pid: () => number | undefined): { peak: () => number | undefined; stop: () => void } {
  let peak: number | undefined;
  const sample = (): void => {
    const rss = rssMiBOfPid(pid());
    if (rss !== undefined) peak = Math.max(peak ?? 0, rss);
  };
  const timer = setInterval(sample, 500);
  return {
    peak: () => peak,
    stop: () => {
      sample();
      clearInterval(timer);
    },
  };
}

/**
 * Where the minutes went: every step with the time since the one before, the command's exit and the first page
 * the replica served from its generation last. Lines as "  +  34.2 s  at  210.5 s  harvest: check, …, done in 34 s".
 */
export function timeline(steps: Step[], exitMs: number, readyMs: number): string[] {
  const all = [...steps, { atMs: exitMs, line: '(the command exits)' }, { atMs: readyMs, line: '(the replica serves its first page from the new generation)' }].sort((a, b) => a.atMs - b.atMs);
  let previous = 0;
  return all.map((s) => {
    const line = `  + ${((s.atMs - previous) / 1000).toFixed(1).padStart(6)} s  at ${(s.atMs / 1000).toFixed(1).padStart(7)} s  ${s.line}`;
    previous = s.atMs;
    return line;
  });
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
const command = (script: string, args: string[], env: Record<string, string>): Promise<DataCommandRun> => runDataCommand(node(script), args, env);

export interface DataCommandRun {
  ms: number;
  output: string;
  /** Its lines but the running progress, each with when it came. */
  steps: Step[];
  peakRssMiB: number | undefined;
}

/** A data command as `node <program> <args>` (program: node's flags and the script, last), as {@link command} runs it. */
/** A running progress line of a data command: `harvest: write, 12,000 records, 4,589 records/s`. */
const PROGRESS_LINE = /^\w[\w-]*: .*\d [\w ]+\/s\b/;

export async function runDataCommand(program: string[], args: string[], env: Record<string, string>): Promise<DataCommandRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [...program, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const rss = peakRss(() => child.pid);
  const name = path.basename(program.at(-1) ?? 'command').replace(/\.[jt]s$/, '');
  let output = '';
  let partial = '';
  const steps: Step[] = [];
  const relay = (d: string): void => {
    output += d;
    const lines = (partial + d).split('\n');
    partial = lines.pop() ?? '';
    // Every line but the command's running progress (a rate, no "done in"): the steps between them (writing to
    // the SPARQL server, the stored index) say when each began, which a soak's failures are laid beside.
    for (const line of lines) {
      if (line === '' || (!line.includes(', done in ') && PROGRESS_LINE.test(line))) continue;
      log(`${name}: ${line}`);
      steps.push({ atMs: performance.now() - started, line });
    }
  };
  child.stdout.setEncoding('utf8').on('data', relay);
  child.stderr.setEncoding('utf8').on('data', relay);
  const [code] = (await once(child, 'exit')) as [number | null];
  rss.stop();
  if (code !== 0) throw new Error(`${program.at(-1) ?? 'command'} ${args.join(' ')} exited with ${code}:\n${output.slice(-2000)}`);
  return { ms: performance.now() - started, output, steps, peakRssMiB: rss.peak() };
}

/** The settings that point a replica and the data commands at a test Virtuoso, with its bulk loader. */
export function virtuosoEnv(virtuoso: VirtuosoServer): Record<string, string> {
  return {
    STORE_URL: virtuoso.sparqlUrl,
    STORE_USER: virtuoso.user,
    STORE_PASSWORD: virtuoso.password,
    STORE_ROW_LIMIT: '0',
    STORE_BULK_DIR: virtuoso.loadDir,
    STORE_ISQL: `127.0.0.1:${virtuoso.isqlPort}`,
    STORE_ISQL_BIN: ISQL_BIN as string,
    STORE_BULK_LOADERS: '2',
  };
}

/** A replica (`node dist/server.js`) serving a copy of a data folder, and data commands timed to what it serves. */
export interface Replica {
  origin: string;
  /** The copy it serves, which the data commands write into. */
  dataDir: string;
  /** Its settings, which the data commands get too. */
  env: Record<string, string>;
  /** Its start to its first page. */
  startMs: number;
  /** The generation it serves now. */
  served: string;
  /**
   * Runs a data command (`cli/harvest.js`, …) and times it to the first page the replica serves from another
   * generation than it served; `served` then names that generation.
   */
  toReady(script: string, args: string[]): Promise<{ toReadyMs: number; run: DataCommandRun; generation: string }>;
  rssMiB(): number | undefined;
  peakRssMiB(): number | undefined;
  memory(): Promise<ToReadyFigures['replicaMemory']>;
}

/** Starts a replica on a copy of `options.dataDir`, hands it to `use`, and stops it (and removes the copy) after. */
export async function withReplica<T>(options: Pick<ToReadyOptions, 'dataDir' | 'env' | 'readyTimeoutMs'>, use: (replica: Replica) => Promise<T>): Promise<T> {
  // The processes run dist/: rebuilt first when src/ is newer, as `npm start` and the data commands do.
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build-if-stale.mjs')], { stdio: 'inherit' });
  const work = await mkdtemp(path.join(tmpdir(), 'bench-to-ready-'));
  const dataDir = path.join(work, 'data');
  await cp(options.dataDir, dataDir, { recursive: true });
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const env = { ...options.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' };
  const timeoutMs = options.readyTimeoutMs ?? READY_TIMEOUT_MS;
  const started = performance.now();
  const child = spawn(process.execPath, node('server.js'), { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  const rss = peakRss(() => child.pid);
  try {
    const first = await servedOther(origin, null, child, timeoutMs);
    const replica: Replica = {
      origin,
      dataDir,
      env,
      startMs: performance.now() - started,
      served: first,
      toReady: async (script, args) => {
        const commandStarted = performance.now();
        const running = command(script, args, env);
        const generation = await servedOther(origin, replica.served, child, timeoutMs, running);
        const toReadyMs = performance.now() - commandStarted;
        replica.served = generation;
        return { toReadyMs, run: await running, generation };
      },
      rssMiB: () => rssMiBOfPid(child.pid),
      peakRssMiB: () => rss.peak(),
      memory: () => memoryOf(origin),
    };
    return await use(replica);
  } finally {
    rss.stop();
    child.kill('SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
    await rm(work, { recursive: true, force: true });
  }
}

export async function measureToReady(options: ToReadyOptions): Promise<ToReadyFigures> {
  const serverRss = peakRss(() => options.serverPid);
  try {
    return await withReplica(options, async (replica) => {
      log(`replica ready on the bench generation in ${(replica.startMs / 1000).toFixed(1)} s`);
      const harvested = await replica.toReady('cli/harvest.js', [options.sourceDir, '--no-image-check']);
      const { toReadyMs: harvestToReadyMs, run: harvest } = harvested;
      log(`harvest-to-ready: ${(harvestToReadyMs / 1000).toFixed(1)} s (the replica serves generation ${harvested.generation})`);
      for (const line of timeline(harvest.steps, harvest.ms, harvestToReadyMs)) log(line);

      // A failed load still leaves the harvest's figures to report (a 250k run takes more than an hour).
      const dumpFile = path.join(path.dirname(replica.dataDir), 'public.nq.gz');
      const dump = await command('cli/dump.js', [dumpFile], replica.env);
      let loaded: Pick<ToReadyFigures, 'loadToReadyMs' | 'loadMs' | 'loadOutput' | 'loadSteps' | 'loadPeakRssMiB'> | { loadError: string };
      try {
        const { toReadyMs: loadToReadyMs, run: load } = await replica.toReady('cli/load.js', [dumpFile]);
        log(`load-to-ready: ${(loadToReadyMs / 1000).toFixed(1)} s`);
        loaded = { loadToReadyMs, loadMs: load.ms, loadOutput: load.output, loadSteps: load.steps, loadPeakRssMiB: load.peakRssMiB };
        for (const line of timeline(load.steps, load.ms, loadToReadyMs)) log(line);
      } catch (err) {
        loaded = { loadError: (err as Error).message };
      }
      const replicaMemory = await replica.memory();
      serverRss.stop();
      return {
        startMs: replica.startMs,
        harvestToReadyMs,
        harvestMs: harvest.ms,
        dumpMs: dump.ms,
        harvestOutput: harvest.output,
        harvestSteps: harvest.steps,
        harvestPeakRssMiB: harvest.peakRssMiB,
        serverPeakRssMiB: serverRss.peak(),
        replicaRssMiB: replica.rssMiB(),
        replicaPeakRssMiB: replica.peakRssMiB(),
        ...(replicaMemory ? { replicaMemory } : {}),
        ...loaded,
      };
    });
  } finally {
    serverRss.stop();
  }
}

/** How long a replica may take to serve a new generation of `objects` objects (2.5 hours a million, 45 minutes at least). */
export const readyTimeoutMs = (objects: number): number => Math.max(45, (objects / 1_000_000) * 150) * 60_000;

/** Issue 45's goals for harvest-to-ready, by size: ≤ 30 minutes at a million objects, ≤ 8 at 250,000. */
function harvestGoal(objects: number): { goal: string; minutes: number } | undefined {
  if (objects >= 1_000_000) return { goal: '≤ 30 minutes at 1M objects (moonshot 10)', minutes: 30 };
  if (objects >= 250_000) return { goal: '≤ 8 minutes at 250k objects', minutes: 8 };
  return undefined;
}

const mib = (v: number | undefined): string => (v === undefined ? '?' : `${v.toFixed(0)} MiB`);

/** The rows of harvest-to-ready and load-to-ready (remote.ts section 6, ready.ts): times, then peak memory. */
export function toReadyRows(toReady: ToReadyFigures, objects: number, records: number, startNote = 'start-up of that replica on the previous generation (s)'): BenchRow[] {
  const goal = harvestGoal(objects);
  const { loadToReadyMs, loadMs, loadError } = toReady;
  return [
    {
      figure: 'harvest-to-ready (`npm run harvest` start to the first page from its generation on a running replica)',
      value: toReady.harvestToReadyMs / 1000,
      unit: 's',
      baselineName: startNote,
      baseline: toReady.startMs / 1000,
      ratio: toReady.harvestToReadyMs / toReady.startMs,
      ...(goal ? { goal: goal.goal, met: toReady.harvestToReadyMs <= goal.minutes * 60_000 } : {}),
      note: `harvest process ${(toReady.harvestMs / 1000).toFixed(1)} s (${(records / (toReady.harvestMs / 1000)).toFixed(0)} records/s whole: source, files, stored index, bulk publication, switch)`,
    },
    {
      figure: 'load-to-ready (`npm run load` of the public dump to the first page from its generation)',
      value: loadToReadyMs === undefined ? NaN : loadToReadyMs / 1000,
      unit: 's',
      baselineName: 'harvest-to-ready of the same collection (s)',
      baseline: toReady.harvestToReadyMs / 1000,
      ratio: loadToReadyMs === undefined ? NaN : loadToReadyMs / toReady.harvestToReadyMs,
      note:
        loadMs === undefined
          ? `the load failed: ${(loadError ?? '?').split('\n').slice(-6).join(' ').slice(0, 600)}`
          : `load process ${(loadMs / 1000).toFixed(1)} s; the dump itself took ${(toReady.dumpMs / 1000).toFixed(1)} s (not counted)`,
    },
    {
      figure: 'peak RSS of the harvest process (no heap flag given)',
      value: toReady.harvestPeakRssMiB ?? NaN,
      unit: 'MiB',
      note: `load process ${mib(toReady.loadPeakRssMiB)}; the SPARQL server (Virtuoso) ${mib(toReady.serverPeakRssMiB)} at its peak during both; sampled every 500 ms`,
    },
    {
      figure: 'service RSS: the replica (one process, one app) after its switches to the harvested and the loaded generation',
      value: toReady.replicaRssMiB ?? NaN,
      unit: 'MiB',
      goal: '≤ 1.5 GiB',
      met: toReady.replicaRssMiB !== undefined && (toReady.replicaPeakRssMiB ?? toReady.replicaRssMiB) <= 1536,
      note:
        `peak ${toReady.replicaPeakRssMiB?.toFixed(0) ?? '?'} MiB, sampled every 500 ms from its start to the last switch` +
        (toReady.replicaMemory
          ? `; at the end its V8 heap ${toReady.replicaMemory.heapUsedMiB.toFixed(0)} MiB used of ${toReady.replicaMemory.heapTotalMiB.toFixed(0)} held, external ${toReady.replicaMemory.externalMiB.toFixed(0)} MiB`
          : ''),
    },
  ];
}

/** The figures for the result's details: outputs cut to their last lines, steps as timelines. */
export function toReadyDetails(toReady: ToReadyFigures): Record<string, unknown> {
  return {
    ...toReady,
    harvestOutput: toReady.harvestOutput.slice(-3000),
    loadOutput: toReady.loadOutput?.slice(-3000),
    harvestTimeline: timeline(toReady.harvestSteps, toReady.harvestMs, toReady.harvestToReadyMs),
    loadTimeline: toReady.loadSteps && toReady.loadMs !== undefined && toReady.loadToReadyMs !== undefined ? timeline(toReady.loadSteps, toReady.loadMs, toReady.loadToReadyMs) : undefined,
  };
}
