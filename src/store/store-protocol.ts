/** Messages between StoreManager (main thread) and store-worker.ts. */
import type { ShapingJob } from './shaped-records.js';
import type { QueryResultFormat } from './types.js';

export interface StoreWorkerData {
  generationDir: string;
  /** The REST store loads the non-public file too; the SPARQL store never does. */
  includeNonPublic: boolean;
  /** Accept the `exit` message (tests simulate a crash with it). */
  testHooks: boolean;
}

export type ToWorker =
  | {
      type: 'query';
      id: number;
      sparql: string;
      format: QueryResultFormat | undefined;
      union: boolean;
      nonPublic: boolean;
      /** Shape the answer's records and answer them packed (shaped-records.ts) instead of the answer. */
      shape?: ShapingJob;
    }
  /** Change the held generation into the one in `generationDir`, written on it (record-delta.ts). */
  | { type: 'apply'; generationDir: string }
  | { type: 'exit' };

/** A worker's own memory: its V8 isolate's heap, its external memory (Oxigraph's WebAssembly memory) and ArrayBuffers. */
export interface WorkerMemory {
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

export type FromWorker =
  /** Sent first: the worker thread's id on Linux (thread-priority.ts). */
  | { type: 'thread'; threadId: number }
  | { type: 'ready'; quads: number; ms: number }
  | ({ type: 'memory' } & WorkerMemory)
  | { type: 'loadFailed'; message: string }
  /** The change is applied: the worker holds the new generation (its statements, and the records put in or taken out). */
  | { type: 'applied'; quads: number; records: number; ms: number }
  /** The change could not be applied; the worker exits, since its store may hold part of it. */
  | { type: 'applyFailed'; message: string }
  | { type: 'answer'; id: number; body: string; ms: number }
  | { type: 'failed'; id: number; message: string };
