/** Starts a worker thread on a TypeScript module through worker-bootstrap.mjs (Node 20 needs the detour). */
import { Worker, type TransferListItem } from 'node:worker_threads';

const BOOTSTRAP = new URL('./worker-bootstrap.mjs', import.meta.url);

/** The data a worker started by `startTsWorker` reads as `workerData.data`. */
export interface TsWorkerData<T> {
  entry: string;
  data: T;
}

/** Starts `entry` (a .ts module URL) in a new worker thread; it receives `data` as `workerData.data`. */
export function startTsWorker<T>(entry: URL, data: T, transferList: TransferListItem[] = []): Worker {
  const workerData: TsWorkerData<T> = { entry: entry.href, data };
  return new Worker(BOOTSTRAP, { workerData, transferList });
}
