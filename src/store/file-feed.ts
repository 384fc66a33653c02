/**
 * A synchronous iterable over a file's bytes, for `store.load`, which takes only a synchronous iterable and
 * must get the whole file in one call (each call renames blank nodes afresh, so a file split over calls
 * would break blank nodes shared across the cut). Reading and gunzip run in a helper thread; this side
 * blocks in `Atomics.wait` until the next chunk is there and takes it with `receiveMessageOnPort`.
 *
 * A small file is read and gunzipped in the calling thread instead: a helper thread costs more to start (about
 * 0.1 s compiled, 0.3 s from the TypeScript sources) than reading a few megabytes takes (the 1,000-object demo's
 * 3.3 MB public part gunzips in about 0.1 s), and its overlap with the load only pays on large files.
 */
import { readFileSync, statSync } from 'node:fs';
import { MessageChannel, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { gunzipSync } from 'node:zlib';
import { startTsWorker, workerModule } from '../threads/ts-worker.js';

export type FeedMessage = { kind: 'chunk'; chunk: Uint8Array } | { kind: 'end' } | { kind: 'error'; message: string };

export interface FeedWorkerData {
  file: string;
  port: MessagePort;
  /** Int32Array(2): [0] messages posted, [1] messages taken. */
  counters: SharedArrayBuffer;
}

const WAIT_MS = 10_000;
/** Waits without any message after which the reader thread is taken for dead. */
const MAX_IDLE_WAITS = 6;

/** Files up to this size (on disk) are read in the calling thread. */
export const SMALL_FILE_BYTES = 8 << 20;
const CHUNK_BYTES = 1 << 20;

/** The bytes of `file` (gunzipped when gzip) as a synchronous iterable of chunks; throws on read errors. */
export function* fileChunks(file: string): Generator<Uint8Array> {
  if (statSync(file).size <= SMALL_FILE_BYTES) {
    yield* smallFileChunks(file);
    return;
  }
  const { port1, port2 } = new MessageChannel();
  const shared = new SharedArrayBuffer(8);
  const counters = new Int32Array(shared);
  const reader = startTsWorker<FeedWorkerData>(workerModule(import.meta.url, 'file-feed-worker'), { file, port: port2, counters: shared }, [port2]);
  try {
    let idle = 0;
    for (;;) {
      const posted = Atomics.load(counters, 0);
      const received = receiveMessageOnPort(port1);
      if (!received) {
        if (Atomics.wait(counters, 0, posted, WAIT_MS) === 'timed-out' && ++idle >= MAX_IDLE_WAITS) {
          throw new Error(`${file}: the reader thread stopped sending data`);
        }
        continue;
      }
      idle = 0;
      Atomics.add(counters, 1, 1);
      const message = received.message as FeedMessage;
      if (message.kind === 'error') throw new Error(message.message);
      if (message.kind === 'end') return;
      yield message.chunk;
    }
  } finally {
    port1.close();
    void reader.terminate();
  }
}

/** A small file read whole in this thread, gunzipped when gzip, in chunks of a megabyte. */
function* smallFileChunks(file: string): Generator<Uint8Array> {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
    if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
  } catch (err) {
    throw new Error(`${file}: ${(err as Error).message}`);
  }
  for (let start = 0; start < bytes.length; start += CHUNK_BYTES) yield bytes.subarray(start, start + CHUNK_BYTES);
}
