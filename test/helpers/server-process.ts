/**
 * A server program started by a test (Virtuoso, Redis): its own temporary folder, the tail of its output kept
 * for error messages, stopped with SIGTERM (SIGKILL after 5 s) and its folder removed; killed with the test
 * process if `stop()` is never called.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';

export interface ServerProcessOptions {
  /** The program's name in error messages. */
  name: string;
  bin: string;
  args: string[];
  /** Variables added to (or, when undefined, removed from) the test process's environment. */
  env?: Record<string, string | undefined>;
  /** The server's temporary folder: its working directory, removed by stop(). */
  dir: string;
  /** True once the server answers; errors count as "not yet". */
  ready: () => Promise<boolean>;
  /** What `ready` waits for, in error messages ("answer PING on port 6379"). */
  readyWhat: string;
  timeoutMs: number;
  pollMs: number;
  /** Called with every chunk the program writes (stdout and stderr), beside the tail kept for errors. */
  onOutput?: (text: string) => void;
  /** Called when the program ends without stop() (a crash, the OOM killer), with how, after its last output is printed. */
  onUnexpectedExit?: (how: string) => void;
}

const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));

/**
 * How `stop` ends the server: SIGTERM (SIGKILL after 5 s) and its folder removed, by default; `kill` sends
 * SIGKILL at once, as a crash or the OOM killer would, and `keepDir` leaves the folder for a restart on it.
 */
export interface StopOptions {
  kill?: boolean;
  keepDir?: boolean;
}

/** Starts the program and resolves with its `stop` once `ready` says so; throws with its output otherwise. */
export async function startServerProcess(options: ServerProcessOptions): Promise<(how?: StopOptions) => Promise<void>> {
  const { name, dir } = options;
  const started = Date.now();
  const env = options.env === undefined ? process.env : { ...process.env, ...options.env };
  const child = spawn(options.bin, options.args, { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const keep = (d: Buffer): void => {
    const text = d.toString('utf8');
    log = (log + text).slice(-4000);
    options.onOutput?.(text);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let spawnError: Error | undefined;
  child.once('error', (e) => (spawnError = e));

  // A test process that ends without stop() (a crash, a forgotten afterAll) still takes its server along.
  const killOnExit = (): void => {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', killOnExit);
  // A server that ends while a test still uses it (a crash, the OOM killer) is reported with its last output,
  // which is often the only trace of why the test's requests then failed.
  let stopping = false;
  child.once('exit', (code, signal) => {
    if (stopping) return;
    const how = signal ?? `exit ${code}`;
    console.error(`${name} exited unexpectedly (${how}); its last output:\n${log}`);
    options.onUnexpectedExit?.(how);
  });
  const stop = async (how: StopOptions = {}): Promise<void> => {
    stopping = true;
    if (child.exitCode === null && child.signalCode === null) {
      child.kill(how.kill ? 'SIGKILL' : 'SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited(child);
      clearTimeout(timer);
    }
    process.removeListener('exit', killOnExit);
    if (!how.keepDir) await rm(dir, { recursive: true, force: true });
  };

  for (;;) {
    if (spawnError !== undefined || child.exitCode !== null || child.signalCode !== null) {
      await stop();
      throw new Error(`${name} exited before answering (${spawnError?.message ?? `exit ${child.exitCode ?? child.signalCode}`}):\n${log}`);
    }
    if (Date.now() > started + options.timeoutMs) {
      await stop();
      throw new Error(`${name} did not ${options.readyWhat} within ${options.timeoutMs} ms:\n${log}`);
    }
    if (await options.ready().catch(() => false)) return stop;
    await new Promise((resolve) => setTimeout(resolve, options.pollMs));
  }
}
