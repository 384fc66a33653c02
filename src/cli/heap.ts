/**
 * A data command sized to its input: Node's default heap limit (about 4 GiB on a 64-bit machine of 16 GiB or
 * more, less on smaller ones) is below what a harvest of a million objects needs, because the harvest holds every
 * record of the export between its read and its write (measured at 100,000 objects: 760 MiB of heap at the peak
 * for a 195 MiB export, 3.9 bytes per byte). A command whose input calls for more heap than it was given runs
 * itself again in a child node with `--max-old-space-size`, and says so on stderr. An operator who chose a limit
 * (`--max-old-space-size` in NODE_OPTIONS or on node's command line) keeps it: the command never overrides one.
 */
import { spawn } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { constants, totalmem } from 'node:os';
import { getHeapStatistics } from 'node:v8';

/** Set in the child, so that it never starts a child of its own. */
const RAISED = 'MUSEUM_LD_HEAP_RAISED';
const MIB = 2 ** 20;

/** The heap an input asks for, in MiB: `bytesOfHeapPerByte` per byte of input and 512 MiB for everything else. */
export function heapWanted(inputBytes: number, bytesOfHeapPerByte: number): number {
  return Math.ceil((inputBytes * bytesOfHeapPerByte) / MIB) + 512;
}

/** Whether node was given a heap limit by hand: on its command line or in NODE_OPTIONS. */
export function heapChosen(execArgv: readonly string[] = process.execArgv, env: NodeJS.ProcessEnv = process.env): boolean {
  const flag = /(^|\s)--max[-_]old[-_]space[-_]size\b/;
  return execArgv.some((arg) => flag.test(arg)) || flag.test(env.NODE_OPTIONS ?? '');
}

/**
 * The limit to run with, in MiB, or undefined to run here: when the wanted heap exceeds this process's limit and
 * nobody chose one. Never more than three quarters of the machine's memory.
 */
export function heapToRaise(wantedMiB: number, options: { limitMiB?: number; totalMiB?: number; chosen?: boolean; raised?: boolean } = {}): number | undefined {
  const limit = options.limitMiB ?? getHeapStatistics().heap_size_limit / MIB;
  if ((options.chosen ?? heapChosen()) || (options.raised ?? process.env[RAISED] === '1') || wantedMiB <= limit) return undefined;
  const ceiling = Math.floor(((options.totalMiB ?? totalmem() / MIB) * 3) / 4);
  const raised = Math.min(wantedMiB, ceiling);
  return raised > limit ? raised : undefined;
}

/** Bytes of the regular files directly in `dir` (a source export's JSON Lines files); 0 when it cannot be read (the command then says why). */
export async function bytesOfFolder(dir: string): Promise<number> {
  let bytes = 0;
  try {
    for (const entry of await readdir(dir, { withFileTypes: true })) if (entry.isFile()) bytes += (await stat(path.join(dir, entry.name))).size;
  } catch {
    return 0;
  }
  return bytes;
}

/**
 * Runs this command again with a heap of `heapMiB` (same node, flags, arguments and environment; signals passed
 * on) and ends this process with the child's exit code once it ends. Resolves never: the caller stops here.
 */
export function rerunWithHeap(command: string, heapMiB: number, inputBytes: number): Promise<never> {
  const limit = getHeapStatistics().heap_size_limit / MIB;
  process.stderr.write(
    `${command}: ${(inputBytes / 2 ** 30).toFixed(2)} GiB of input wants a heap of about ${(heapMiB / 1024).toFixed(1)} GiB and node's ` +
      `limit here is ${(limit / 1024).toFixed(1)} GiB: running again with --max-old-space-size=${heapMiB} ` +
      `(set NODE_OPTIONS=--max-old-space-size=<MiB> to choose the limit yourself)\n`,
  );
  const child = spawn(process.execPath, [...process.execArgv, `--max-old-space-size=${heapMiB}`, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, [RAISED]: '1' },
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => child.kill(signal));
  return new Promise<never>(() => {
    child.on('exit', (code, signal) => process.exit(code ?? 128 + (signal ? constants.signals[signal] : 0)));
    child.on('error', (err) => {
      process.stderr.write(`${command}: could not run again with a larger heap: ${err.message}\n`);
      process.exit(1);
    });
  });
}
