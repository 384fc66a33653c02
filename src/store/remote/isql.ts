/**
 * Virtuoso's SQL port through its own client, `isql-vt` (Debian's virtuoso-opensource): the bulk loader
 * (`ld_dir`, `rdf_loader_run`, `checkpoint`) is reached only there. SQL goes on the client's stdin, one
 * statement per line (the client runs `a; b;` on one line as one statement and fails, SQ074). The client exits
 * 0 after a failed statement and says so on stderr as `*** Error …`, so any such line fails the call.
 *
 * The password is an argument of the client process (the client reads it nowhere else): it is never logged,
 * never part of an error message, and a host where other users can list processes must not run the service
 * with bulk publication (docs/operations.md).
 */
import { spawn } from 'node:child_process';

export interface IsqlOptions {
  /** `host:port` of the server's SQL port (virtuoso.ini [Parameters] ServerPort, 1111 on Debian). */
  address: string;
  user: string;
  password: string;
  /** The client program; default `isql-vt` (Debian's name) from PATH. */
  bin?: string;
}

/** A failed SQL call: the server's error lines, never the credentials. */
export class IsqlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IsqlError';
  }
}

export class Isql {
  constructor(private readonly options: IsqlOptions) {}

  /**
   * Runs `statements` (each ending in `;`, one per line); resolves with what the server printed. The client is
   * killed after `timeoutMs` (0: never), or when `signal` aborts: the call then rejects.
   */
  run(statements: readonly string[], timeoutMs = 0, signal?: AbortSignal): Promise<string> {
    const { address, user, password, bin = 'isql-vt' } = this.options;
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(new IsqlError(`the SQL call was cancelled: ${String(signal.reason)}`));
        return;
      }
      const child = spawn(bin, [address, user, password, 'VERBOSE=OFF', 'BANNER=OFF', 'PROMPT=OFF', 'ECHO=OFF'], { stdio: ['pipe', 'pipe', 'pipe'] });
      const cancel = (): void => void child.kill('SIGKILL');
      signal?.addEventListener('abort', cancel, { once: true });
      child.once('close', () => signal?.removeEventListener('abort', cancel));
      let out = '';
      let err = '';
      const timer = timeoutMs > 0 ? setTimeout(() => child.kill('SIGKILL'), timeoutMs) : undefined;
      child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
      child.once('error', (e: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        reject(new IsqlError(e.code === 'ENOENT' ? `the SQL client ${bin} is not installed (Debian: apt-get install virtuoso-opensource)` : `the SQL client ${bin} did not start: ${e.message}`));
      });
      const cancelled = (): unknown => (signal?.aborted ? signal.reason : undefined);
      child.once('close', (code, killedBy) => {
        clearTimeout(timer);
        const errors = err
          .split('\n')
          .filter((line) => line.startsWith('*** Error'))
          .join('; ');
        if (killedBy !== null && cancelled()) reject(new IsqlError(`the SQL call was cancelled: ${String(cancelled())}`));
        else if (killedBy !== null) reject(new IsqlError(`the SQL client ${bin} was stopped (${killedBy}) after ${timeoutMs} ms`));
        else if (code !== 0 || errors !== '') reject(new IsqlError(`SQL at ${address} failed: ${errors || `the client exited with ${code}`}`));
        else resolve(out);
      });
      child.stdin.on('error', () => undefined);
      child.stdin.end(statements.map((s) => `${s.replace(/\s*\n\s*/g, ' ')}\n`).join(''));
    });
  }
}

/** The single number that `statement` answers (a count), as the client prints it. */
export const sqlNumber = async (isql: Isql, statement: string, timeoutMs = 0): Promise<number> => Number((await isql.run([statement], timeoutMs)).trim());

/** A SQL string literal. */
export const sqlString = (text: string): string => `'${text.replace(/'/g, "''")}'`;
