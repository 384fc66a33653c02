/**
 * `npm run bench [-- --objects 10000,100000] [--only foundation,object,collection,kinds,indexes,sparql,shared,colors,hotpath,startup,search,changes,streams,pages] [--store remote] [--max-old-space-size=MiB] [other flags]`
 *
 * `--store remote` runs the remote-store benchmark (remote.ts: the service on a throw-away Virtuoso) instead
 * of the embedded ones; it is never part of the default set. Nor is `--only soak` (soak.ts, issue 44: REST and
 * /sparql on two Virtuosos, two replicas and Redis under mixed and hostile load for `--minutes M`, default 20,
 * with a harvest and a kill of the SPARQL server in the middle): `npm run bench -- --only soak --objects 100000`.
 * Nor is `--only ready` (ready.ts: remote.ts's harvest-to-ready and load-to-ready alone, from the source export,
 * with where every minute went; the section that fits a session at a million objects), nor `--only incremental`
 * (incremental.ts, issue 46: a harvest on the current generation of the export with 1 % changed and 0.1 %
 * removed, beside a `--full` harvest of it; `--embedded` for the embedded store).
 *
 * For each size: builds the bench collection if missing (bench-data.ts, its own process, so that no
 * benchmark pays for it; with `colors` among the benchmarks also its colour variant, bench-data.ts --colors),
 * then runs each benchmark module that exists in test/bench/ in a child process of its own (a fresh heap and
 * clean RSS figures) with `--objects N` and any other flags given here. Children
 * print their tables; a child that writes its result to BENCH_RESULT_FILE (report.ts) has it gathered into
 * .bench/results-<date>.json, any other child's output is kept there as text. Peak RSS of each child is
 * sampled from /proc. Nothing is asserted: a benchmark that fails is reported and the next one runs.
 * `--max-old-space-size=MiB` is given to node in every child (the JS heap limit), not to the modules.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rssMiBOfPid, type BenchResult } from './report.js';

const BENCHMARKS = ['foundation', 'object', 'collection', 'kinds', 'indexes', 'sparql', 'shared', 'colors', 'hotpath', 'startup', 'search', 'changes', 'streams', 'pages', 'remote', 'soak', 'ready', 'incremental'] as const;
/** Run only when asked: `--store remote` or `--only remote`, `--only soak`, `--only ready`, `--only incremental`. */
const ON_REQUEST = new Set<string>(['remote', 'soak', 'ready', 'incremental']);
/** Benchmarks that need the source export only, never the bench generation (a million objects take most of an hour to harvest). */
const SOURCE_ONLY = new Set<string>(['ready', 'incremental']);
const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Args {
  sizes: number[];
  only: string[];
  /** Passed on to every benchmark module. */
  extra: string[];
  /** Passed to node in every child. */
  nodeFlags: string[];
}

/** Reads --objects and --only (comma-separated lists, `=` or space form); keeps every other argument. */
function parseArgs(argv: string[]): Args {
  const args: Args = { sizes: [10_000, 100_000], only: BENCHMARKS.filter((b) => !ON_REQUEST.has(b)), extra: [], nodeFlags: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [name, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (name === '--max-old-space-size') {
      if (!/^\d+$/.test(inline ?? '')) throw new Error('--max-old-space-size=MiB needs a number');
      args.nodeFlags.push(arg);
      continue;
    }
    if (name === '--store') {
      const store = inline ?? argv[++i];
      if (store !== 'remote' && store !== 'embedded') throw new Error('--store must be remote or embedded');
      if (store === 'remote') args.only = ['remote'];
      continue;
    }
    if (name !== '--objects' && name !== '--only') {
      args.extra.push(arg);
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new Error(`${name} needs a value`);
    const list = value.split(',').map((v) => v.trim()).filter((v) => v !== '');
    if (name === '--objects') {
      args.sizes = list.map((v) => {
        const n = Number(v.replace(/_/g, '').replace(/k$/i, '000'));
        if (!Number.isInteger(n) || n < 1) throw new Error(`--objects: not a positive integer: ${v}`);
        return n;
      });
    } else {
      const unknown = list.filter((v) => !(BENCHMARKS as readonly string[]).includes(v));
      if (unknown.length > 0) throw new Error(`--only: unknown benchmark ${unknown.join(', ')} (known: ${BENCHMARKS.join(', ')})`);
      args.only = list;
    }
  }
  return args;
}

interface ChildRun {
  benchmark: string;
  objects: number;
  exitCode: number | null;
  signal: string | null;
  seconds: number;
  /** Highest resident set size of the child seen by sampling /proc every 500 ms. */
  peakRssMiB: number | undefined;
  result?: BenchResult;
  /** The child's stdout, kept when it wrote no JSON result. */
  output?: string;
}

/** Runs `script --objects N ...extra` under tsx, relaying its output, and collects its result. */
function runChild(benchmark: string, script: string, objects: number, extra: string[], resultFile: string): Promise<ChildRun> {
  const nodeFlags = args.nodeFlags;
  rmSync(resultFile, { force: true });
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', script, '--objects', String(objects), ...extra], {
      cwd: ROOT,
      env: { ...process.env, BENCH_RESULT_FILE: resultFile },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      output += chunk.toString('utf8');
    });
    let peak: number | undefined;
    const sampler = setInterval(() => {
      const rss = rssMiBOfPid(child.pid);
      if (rss !== undefined) peak = Math.max(peak ?? 0, rss);
    }, 500);
    child.on('error', reject);
    child.on('exit', (exitCode, signal) => {
      clearInterval(sampler);
      const run: ChildRun = { benchmark, objects, exitCode, signal, seconds: (performance.now() - started) / 1000, peakRssMiB: peak };
      if (existsSync(resultFile)) run.result = JSON.parse(readFileSync(resultFile, 'utf8')) as BenchResult;
      else run.output = output;
      resolve(run);
    });
  });
}

const args = parseArgs(process.argv.slice(2));
const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
const outDir = join(ROOT, '.bench');
mkdirSync(outDir, { recursive: true });
const outFile = join(outDir, `results-${stamp}.json`);
const resultFile = join(outDir, `.child-result-${process.pid}.json`);
const report = {
  startedAt: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  totalMemGiB: totalmem() / 2 ** 30,
  loadavgAtStart: loadavg(),
  argv: process.argv.slice(2),
  runs: [] as ChildRun[],
};
const save = (): void => writeFileSync(outFile, `${JSON.stringify(report, null, 2)}\n`);

for (const objects of args.sizes) {
  const prepareFlags = args.only.every((b) => SOURCE_ONLY.has(b)) ? ['--source-only'] : args.only.includes('colors') ? ['--colors'] : [];
  const prepare = await runChild('bench-data', join(HERE, 'bench-data.ts'), objects, prepareFlags, resultFile);
  if (prepare.exitCode !== 0) {
    process.stdout.write(`bench data for ${objects} objects failed (exit ${prepare.exitCode ?? prepare.signal}); skipping this size\n`);
    report.runs.push(prepare);
    save();
    continue;
  }
  for (const name of args.only) {
    const script = join(HERE, `${name}.ts`);
    if (!existsSync(script)) {
      process.stdout.write(`(no test/bench/${name}.ts; skipped)\n`);
      continue;
    }
    process.stdout.write(`\n-- ${name}, ${objects.toLocaleString('en')} objects --\n`);
    const run = await runChild(name, script, objects, args.extra, resultFile);
    const peak = run.peakRssMiB === undefined ? '?' : run.peakRssMiB.toFixed(0);
    process.stdout.write(`-- ${name}: exit ${run.exitCode ?? run.signal} after ${run.seconds.toFixed(0)} s, peak RSS ${peak} MiB --\n`);
    report.runs.push(run);
    save();
  }
}
rmSync(resultFile, { force: true });
save();
process.stdout.write(`\nresults: ${outFile}\n`);
