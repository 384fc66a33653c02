/**
 * Starts the service's worker threads, from the TypeScript sources (tests, `tsx`) or from the compiled
 * JavaScript in dist/ (`npm start`): a module names its worker by `workerModule(import.meta.url, name)`, which
 * takes the extension of the module that asks. Node 20 cannot run a .ts file in a worker (not even with
 * --import tsx), so a TypeScript worker goes through worker-bootstrap.mjs, which registers tsx first; a
 * compiled one starts directly, with no TypeScript loader in the process.
 */
import { Worker, type TransferListItem } from 'node:worker_threads';

const BOOTSTRAP = new URL('./worker-bootstrap.mjs', import.meta.url);

/** The data a worker started by `startTsWorker` reads as `workerData.data`. */
export interface TsWorkerData<T> {
  entry: string;
  data: T;
}

/** The worker module `name` beside the module at `base` (its import.meta.url), in that module's own language. */
export const workerModule = (base: string, name: string): URL => new URL(`./${name}${base.endsWith('.ts') ? '.ts' : '.js'}`, base);

/** Starts `entry` (a module URL, .ts or .js) in a new worker thread; it receives `data` as `workerData.data`. */
export function startTsWorker<T>(entry: URL, data: T, transferList: TransferListItem[] = []): Worker {
  const workerData: TsWorkerData<T> = { entry: entry.href, data };
  return new Worker(entry.pathname.endsWith('.ts') ? BOOTSTRAP : entry, { workerData, transferList });
}
