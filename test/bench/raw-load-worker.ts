/**
 * Worker thread of the raw `store.load` baselines: loads N-Quads files into a fresh Oxigraph store with the
 * options the store worker uses, reports time, quads and RSS, then waits to be terminated. A thread of its
 * own, so that its WebAssembly heap is released with it and later RSS figures stay clean.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import oxigraph from 'oxigraph';
import { fileChunks } from '../../src/store/file-feed.js';

export interface RawLoadRequest {
  files: string[];
  /** 'plain': 1 MiB `readSync` chunks of uncompressed files on this thread; 'feed': the store worker's reader thread (gunzip there). */
  via: 'plain' | 'feed';
}

export type RawLoadReply =
  | { ok: true; ms: number; quads: number; rssMiB: number }
  /** `lines`: N-Quads lines handed to the store before it failed (how much fits in one WebAssembly heap). */
  | { ok: false; message: string; ms: number; lines: number; rssMiB: number };

const CHUNK = 1 << 20;

function* plainChunks(file: string): Generator<Uint8Array> {
  const fd = openSync(file, 'r');
  try {
    for (;;) {
      const buffer = new Uint8Array(CHUNK);
      const n = readSync(fd, buffer, 0, CHUNK, null);
      if (n === 0) return;
      yield n === CHUNK ? buffer : buffer.subarray(0, n);
    }
  } finally {
    closeSync(fd);
  }
}

let lines = 0;
function* counted(chunks: Iterable<Uint8Array>): Generator<Uint8Array> {
  for (const chunk of chunks) {
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
    yield chunk;
  }
}

const port = parentPort;
if (!port) throw new Error('raw-load-worker.ts runs only as a worker thread');
const { files, via } = (workerData as { data: RawLoadRequest }).data;
let reply: RawLoadReply;
const started = performance.now();
try {
  const store = new oxigraph.Store();
  for (const file of files) store.load(counted(via === 'plain' ? plainChunks(file) : fileChunks(file)), { format: 'application/n-quads', lenient: true });
  const ms = performance.now() - started;
  reply = { ok: true, ms, quads: store.size, rssMiB: process.memoryUsage().rss / 2 ** 20 };
} catch (err) {
  const rssMiB = process.memoryUsage().rss / 2 ** 20;
  reply = { ok: false, message: String((err as Error).message ?? err), ms: performance.now() - started, lines, rssMiB };
}
port.postMessage(reply);
