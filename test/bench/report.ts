/**
 * What a benchmark module hands back: rows of figure, baseline and goal, printed as one table and, when run
 * by run.ts, written as JSON to the file named by BENCH_RESULT_FILE (run.ts gathers them into
 * .bench/results-<date>.json). Benchmarks never assert: a goal is reported as met or not.
 */
import { readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';

export interface BenchRow {
  /** What was measured, such as "harvest (records/s)". */
  figure: string;
  value: number;
  unit: string;
  /** What the figure is compared with, such as "raw store.load". */
  baselineName?: string;
  baseline?: number;
  /** value / baseline (for times: how many times slower than the baseline). */
  ratio?: number;
  /** The goal in words, such as "≥ 2,000 records/s". */
  goal?: string;
  met?: boolean;
  note?: string;
}

export interface BenchResult {
  benchmark: string;
  objects: number;
  startedAt: string;
  seconds: number;
  rows: BenchRow[];
  /** Free-form facts of the run (quad counts, sizes, options, how a figure was taken). */
  details: Record<string, unknown>;
}

/** Rounds for display: three significant digits for small numbers, none for large ones. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 1000) return Math.round(value).toLocaleString('en');
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 10) return value.toFixed(1);
  if (abs >= 1) return value.toFixed(2);
  return value.toPrecision(3);
}

/** The result as a fixed-width text table, one row per figure. */
export function formatTable(result: BenchResult): string {
  const header = ['figure', 'value', 'baseline', 'ratio', 'goal', 'met'];
  const lines = result.rows.map((r) => [
    r.figure,
    `${formatNumber(r.value)} ${r.unit}`,
    r.baseline === undefined ? '' : `${formatNumber(r.baseline)} ${r.unit} (${r.baselineName ?? 'baseline'})`,
    r.ratio === undefined ? '' : `${r.ratio.toFixed(2)}×`,
    r.goal ?? '',
    r.met === undefined ? '' : r.met ? 'yes' : 'NO',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const row = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  const notes = result.rows.filter((r) => r.note).map((r) => `  * ${r.figure}: ${r.note}`);
  const load = result.details.loadavgAtStart;
  if (Array.isArray(load)) notes.push(`  (machine load average at start ${load.map((l: number) => l.toFixed(2)).join(' / ')}; ratio = cost ÷ baseline cost)`);
  return [
    `== ${result.benchmark}, ${result.objects.toLocaleString('en')} objects (${result.seconds.toFixed(0)} s) ==`,
    row(header),
    row(widths.map((w) => '-'.repeat(w))),
    ...lines.map(row),
    ...notes,
  ].join('\n');
}

/** Prints the table on stdout and writes the JSON result where run.ts asked for it. */
export function emitResult(result: BenchResult): void {
  process.stdout.write(`${formatTable(result)}\n`);
  const file = process.env.BENCH_RESULT_FILE;
  if (file) writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
}

/**
 * Rows that are also logged the moment each is measured, so a long run stopped part-way (a 1M-object run
 * outlasts a working session) still leaves the figures it reached in its log.
 */
export function loggedRows(): BenchRow[] {
  const rows: BenchRow[] = [];
  rows.push = (...added: BenchRow[]): number => {
    for (const r of added) {
      const baseline = r.baseline === undefined ? '' : ` beside ${formatNumber(r.baseline)} ${r.unit} (${r.baselineName ?? 'baseline'})`;
      log(`figure: ${r.figure}: ${formatNumber(r.value)} ${r.unit}${baseline}${r.note ? `; ${r.note}` : ''}`);
    }
    return Array.prototype.push.apply(rows, added);
  };
  return rows;
}

/** A progress line on stderr (run.ts relays it), stamped with seconds since the process started. */
export function log(message: string): void {
  process.stderr.write(`[${(performance.now() / 1000).toFixed(1)}s] ${message}\n`);
}

/** Process RSS in MiB. */
export const rssMiB = (): number => process.memoryUsage().rss / 2 ** 20;

/** This process's CPU time (user and system, all its threads) since `start` (a process.cpuUsage()), in ms. */
export const cpuMsSince = (start: NodeJS.CpuUsage): number => ((used) => (used.user + used.system) / 1000)(process.cpuUsage(start));

/** Resident set size of process `pid` in MiB, from /proc; undefined once it is gone (or without a pid). */
export function rssMiBOfPid(pid: number | string | undefined): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

/**
 * The pid of a running process whose command line contains `needle` and, when given, whose working directory
 * is `cwd` (from /proc: a server the bench started through a helper that keeps its pid to itself).
 */
export function pidOfProcess(needle: string, cwd?: string): number | undefined {
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(needle)) continue;
      if (cwd !== undefined && readlinkSync(`/proc/${pid}/cwd`) !== cwd) continue;
      return Number(pid);
    } catch {
      // The process ended meanwhile, or is another user's.
    }
  }
  return undefined;
}

/** The `q`-quantile (0..1) of `values` (nearest rank on a sorted copy). */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}

/** `--objects N` from argv (one size; run.ts starts one process per size). */
export function objectsArg(argv: string[] = process.argv.slice(2), fallback = 10_000): number {
  const at = argv.indexOf('--objects');
  const raw = at >= 0 ? argv[at + 1] : argv.find((a) => a.startsWith('--objects='))?.slice('--objects='.length);
  if (raw === undefined) return fallback;
  const n = Number(raw.replace(/_/g, ''));
  if (!Number.isInteger(n) || n < 1) throw new Error(`--objects must be a positive integer, got ${raw}`);
  return n;
}
