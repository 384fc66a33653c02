/** Messages between ColorPool (pool.ts) and its worker threads (pool-worker.ts). */
import type { AnalyseOptions, ImageColors } from './extract.js';

/** workerData.data of a colour worker. */
export interface ColorWorkerData {
  options: Partial<AnalyseOptions>;
}

export type ToColorWorker = { type: 'analyse'; id: number; input: Uint8Array } | { type: 'close' };

export type FromColorWorker = { type: 'done'; id: number; colors: ImageColors } | { type: 'failed'; id: number; message: string };
