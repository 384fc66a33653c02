/**
 * Benchmark clients run in processes of their own, so they never share the server's event loop: a job of
 * http-load.ts, or any node script. Each prints its JSON result as its last stdout line.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LoadJob } from './http-load.js';

const SCRIPT = fileURLToPath(new URL('./http-load.ts', import.meta.url));

/**
 * Runs `node <args>` and returns the JSON of its last stdout line; `signal` ends the child (SIGKILL) and rejects.
 * `input`, when given, is written to the child's standard input.
 */
export function runChild<R>(args: readonly string[], signal?: AbortSignal, input?: string): Promise<R> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...args], { stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'inherit'], ...(signal ? { signal, killSignal: 'SIGKILL' as const } : {}) });
    if (input !== undefined) child.stdin?.end(input);
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`benchmark client exited with code ${code}`));
      else resolve(JSON.parse(out.trim().split('\n').pop() ?? '{}') as R);
    });
  });
}

/**
 * The result of one http-load.ts job; `signal` ends its process. The job goes on standard input (`-`): a list of
 * every path of a 10,000-object collection is past the kernel's limit on one argument (spawn E2BIG).
 */
export const runLoadClient = <R>(job: LoadJob, signal?: AbortSignal): Promise<R> => runChild<R>(['--import', 'tsx', SCRIPT, '-'], signal, JSON.stringify(job));
