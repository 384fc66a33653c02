/**
 * Benchmark of start-up (issue "The hot path at first touch": start-up from stored work) for one collection size
 * (`--objects N`): the time from `npm start`'s process start until the generation is ready, with the generation's
 * stored index and without it (every derived structure rebuilt from store SELECTs, as before stored indexes),
 * split into
 *   - other: process start until the server listens (module loading, configuration, the demo source check);
 *   - store load: from listening until /readyz answers 200 (the REST store worker has loaded both files);
 *   - index: from /readyz until the last collection index is built (reading the stored index and building from it,
 *     or the SELECTs and the build), i.e. until a first collection request no longer waits;
 * and, apart, how long the indexes took to build ahead (during the store load) and when the SPARQL store, which
 * loads after the REST store, was ready too (the server's `ready` log line).
 *
 * Each run is a real server process (`node --import tsx src/server.ts`, what `npm start` runs without npm's and
 * tsx's wrapper processes) on a scratch DATA_DIR whose generation is hard-linked from the cached bench generation,
 * timed from its spawn through its JSON log lines and a /readyz poll every 50 ms. CPU seconds of the process (all
 * its threads) until ready are read from /proc, a figure that machine load changes less than wall time.
 * The stored index of the `stored` runs is the one the first `rebuild` run wrote, as a server writes it.
 *
 * Run through run.ts, or alone: npx tsx test/bench/startup.ts --objects N [--runs R] [--server REPO_ROOT]
 * (`--server` runs another checkout's src/server.ts on the same data, e.g. an export of the commit before).
 */
import { spawn } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { STORED_INDEX_FILE } from '../../src/collection-index/stored-index.js';
import { loadConfig } from '../../src/config/config.js';
import { prepareDemoSource } from '../../src/demo/bootstrap.js';
import { generationDir, MANIFEST_FILE, NONPUBLIC_FILE, PUBLIC_FILE } from '../../src/store/generations.js';
import { BENCH_BASE_URL, benchGeneration } from './bench-data.js';
import { emitResult, log, objectsArg, type BenchRow } from './report.js';

const objects = objectsArg();
const argv = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 ? argv[at + 1] : argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
};
const runs = Number(option('runs') ?? 2);
const serverRoot = resolve(option('server') ?? fileURLToPath(new URL('../..', import.meta.url)));
const startedAt = new Date().toISOString();
const rows: BenchRow[] = [];
const details: Record<string, unknown> = { loadavgAtStart: loadavg(), serverRoot, runs };
const seconds = (ms: number): number => ms / 1000;
const TICKS_PER_SECOND = 100;

/** One server start, in ms from its spawn. */
interface StartRun {
  mode: 'stored' | 'rebuild';
  listening: number;
  restReady: number;
  /** Last collection index built (or restReady when none was logged after it). */
  indexed: number;
  /** The server's `ready` line: both stores (REST, then SPARQL) loaded. */
  bothStoresReady: number | undefined;
  /** Built before the REST store served (from the stored index, during its load). */
  builtAhead: number;
  /** Sum of the index builds' own time, and of their SELECT (or stored answer) part. */
  buildMs: number;
  queriesMs: number;
  storedRead: { ms: number; answers: number } | undefined;
  storedWritten: { ms: number; bytes: number } | undefined;
  cpuSecondsAtReady: number | undefined;
}

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

function cpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** Starts the server on `dataDir`, waits until the generation is ready and its indexes are built, then stops it. */
async function startServer(dataDir: string, mode: StartRun['mode']): Promise<StartRun> {
  const port = await freePort();
  const env = { ...process.env, DATA_DIR: dataDir, PORT: String(port), BASE_URL: BENCH_BASE_URL, LOG_LEVEL: 'info', RATE_LIMIT_PER_MINUTE: '0', NODE_OPTIONS: '' };
  const spawnedAt = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { cwd: serverRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines: Record<string, unknown>[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    try {
      lines.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // Not a log line.
    }
  });
  const at = (line: Record<string, unknown> | undefined): number | undefined => (line ? Number(line.time) - spawnedAt : undefined);
  const find = (msg: string): Record<string, unknown> | undefined => lines.find((line) => line.msg === msg);
  const built = (): Record<string, unknown>[] => lines.filter((line) => line.msg === 'collection index built');
  try {
    let restReady: number | undefined;
    let cpuSecondsAtReady: number | undefined;
    const deadline = Date.now() + 15 * 60_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}: ${stderr.slice(-2000)}`);
      if (restReady === undefined) {
        const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then((res) => res.status === 200, () => false);
        if (ok) restReady = Date.now() - spawnedAt;
      }
      if (restReady !== undefined && built().length >= 4) {
        cpuSecondsAtReady = cpuSeconds(child.pid!);
        break;
      }
      await new Promise((wait) => setTimeout(wait, 50));
    }
    if (restReady === undefined || built().length < 4) throw new Error('the server did not become ready in 15 minutes');
    // The SPARQL store loads after; its `ready` line follows, and after a rebuild the stored index is written
    // (by a server that knows stored indexes: one that logs about them).
    const knowsStoredIndexes = (): boolean => lines.some((line) => /stored index/.test(String(line.msg)));
    const saved = (): boolean => lines.some((line) => /^stored index (written|not written)/.test(String(line.msg)));
    const more = Date.now() + 10 * 60_000;
    while (Date.now() < more && child.exitCode === null && (find('ready') === undefined || (mode === 'rebuild' && knowsStoredIndexes() && !saved()))) {
      await new Promise((wait) => setTimeout(wait, 100));
    }
    const builds = built();
    const listening = at(find('listening')) ?? NaN;
    const indexed = Math.max(restReady, ...builds.map((line) => at(line)!));
    const read = find('stored index read');
    const written = find('stored index written');
    return {
      mode,
      listening,
      restReady,
      indexed,
      bothStoresReady: at(find('ready')),
      builtAhead: builds.filter((line) => at(line)! < restReady!).length,
      buildMs: builds.reduce((sum, line) => sum + Number((line.ms as { total?: number } | undefined)?.total ?? 0), 0),
      queriesMs: builds.reduce((sum, line) => sum + Number((line.ms as { queries?: number } | undefined)?.queries ?? 0), 0),
      storedRead: read ? { ms: Number(read.ms), answers: Number(read.answers) } : undefined,
      storedWritten: written ? { ms: Number(written.ms), bytes: Number(written.bytes) } : undefined,
      cpuSecondsAtReady,
    };
  } finally {
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  }
}

// The cached bench generation, hard-linked (its quads and manifest only) into a scratch DATA_DIR.
const data = await benchGeneration(objects);
const generation = data.generation;
const root = join(data.root, 'startup-scratch');
const dataDir = join(root, 'data');
rmSync(root, { recursive: true, force: true });
const target = generationDir(dataDir, generation.id);
mkdirSync(target, { recursive: true });
for (const file of [PUBLIC_FILE, NONPUBLIC_FILE, MANIFEST_FILE]) linkSync(join(generation.dir, file), join(target, file));
writeFileSync(join(dataDir, 'current'), `${generation.id}\n`);
const storedFile = join(target, STORED_INDEX_FILE);
details.generation = { id: generation.id, counts: generation.manifest.counts, bytes: generation.manifest.bytes };

// The demo source export and images every `npm start` checks, prepared once so that no run pays for them.
log('preparing the demo source export in the scratch DATA_DIR…');
await prepareDemoSource(loadConfig({ DATA_DIR: dataDir, BASE_URL: BENCH_BASE_URL, LOG_LEVEL: 'silent' }), pino({ level: 'silent' }));

const results: StartRun[] = [];
for (let i = 0; i < runs; i++) {
  for (const mode of ['rebuild', 'stored'] as const) {
    if (mode === 'rebuild') rmSync(storedFile, { force: true });
    else if (!existsSync(storedFile)) {
      log('no stored index was written by the rebuild run; skipping the stored run');
      continue;
    }
    log(`run ${i + 1}/${runs}, ${mode}…`);
    try {
      const run = await startServer(dataDir, mode);
      results.push(run);
      log(`  listening ${seconds(run.listening).toFixed(1)} s, REST store ready ${seconds(run.restReady).toFixed(1)} s, indexes ${seconds(run.indexed).toFixed(1)} s, both stores ${run.bothStoresReady === undefined ? '?' : seconds(run.bothStoresReady).toFixed(1)} s`);
    } catch (err) {
      log(`  FAILED: ${(err as Error).message}`);
      rows.push({ figure: `start (${mode})`, value: NaN, unit: '', note: `failed: ${(err as Error).message.slice(0, 300)}` });
    }
  }
}
details.runs = results;

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted.length % 2 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
};
const of = (mode: StartRun['mode']): StartRun[] => results.filter((run) => run.mode === mode);
const figure = (mode: StartRun['mode'], pick: (run: StartRun) => number | undefined): number => median(of(mode).map(pick).filter((v): v is number => v !== undefined).map(seconds));
const list = (mode: StartRun['mode'], pick: (run: StartRun) => number | undefined): string =>
  of(mode).map((run) => { const v = pick(run); return v === undefined ? '?' : seconds(v).toFixed(1); }).join(', ');

const goalSeconds = 20;
const ready = { stored: figure('stored', (r) => r.indexed), rebuild: figure('rebuild', (r) => r.indexed) };
rows.push({
  figure: 'start to ready, stored index',
  value: ready.stored,
  unit: 's',
  baselineName: 'rebuilt from the store',
  baseline: ready.rebuild,
  ratio: ready.stored / ready.rebuild,
  goal: objects >= 50_000 ? `≤ ${goalSeconds} s at 50k` : undefined,
  met: objects >= 50_000 ? ready.stored <= goalSeconds : undefined,
  note: `median of ${of('stored').length} (${list('stored', (r) => r.indexed)}); rebuild runs ${list('rebuild', (r) => r.indexed)}. Ready = /readyz 200 and every collection index built`,
});
for (const mode of ['stored', 'rebuild'] as const) {
  const label = mode === 'stored' ? 'stored index' : 'rebuild';
  rows.push({ figure: `  other (start to listening), ${label}`, value: figure(mode, (r) => r.listening), unit: 's', note: list(mode, (r) => r.listening) });
  rows.push({ figure: `  store load (listening to /readyz), ${label}`, value: figure(mode, (r) => r.restReady - r.listening), unit: 's', note: list(mode, (r) => r.restReady - r.listening) });
  rows.push({
    figure: `  index after the store is ready, ${label}`,
    value: figure(mode, (r) => r.indexed - r.restReady),
    unit: 's',
    note: `${list(mode, (r) => r.indexed - r.restReady)}; builds' own time ${list(mode, (r) => r.buildMs)} s (of which SELECTs or stored answers ${list(mode, (r) => r.queriesMs)} s); built ahead during the store load: ${of(mode).map((r) => r.builtAhead).join(', ')} of 4`,
  });
  rows.push({ figure: `  CPU seconds to ready, ${label}`, value: median(of(mode).map((r) => r.cpuSecondsAtReady).filter((v): v is number => v !== undefined)), unit: 's', note: 'the server process, all threads' });
  rows.push({ figure: `  both stores ready (REST, then SPARQL), ${label}`, value: figure(mode, (r) => r.bothStoresReady), unit: 's', note: list(mode, (r) => r.bothStoresReady) });
}
const read = of('stored').find((r) => r.storedRead)?.storedRead;
if (existsSync(storedFile)) {
  rows.push({
    figure: 'stored index file',
    value: statSync(storedFile).size / 2 ** 20,
    unit: 'MiB',
    note: `${read ? `${read.answers} answers, read and verified in ${read.ms} ms; ` : ''}written after a rebuild in ${of('rebuild').map((r) => r.storedWritten?.ms?.toFixed(0) ?? '?').join(', ')} ms`,
  });
}

details.loadavgAtEnd = loadavg();
rmSync(root, { recursive: true, force: true });
emitResult({ benchmark: 'startup', objects, startedAt, seconds: performance.now() / 1000, rows, details });
