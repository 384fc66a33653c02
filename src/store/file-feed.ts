/**
 * A synchronous iterable over a file's bytes, for `store.load`, which takes only a synchronous iterable and
 * must get the whole file in one call (each call renames blank nodes afresh, so a file split over calls
 * would break blank nodes shared across the cut). Reading and gunzip run in a helper thread; this side
 * blocks in `Atomics.wait` until the next chunk is there and takes it with `receiveMessageOnPort`.
 */
import { MessageChannel, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { startTsWorker, workerModule } from './ts-worker.js';

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

/** The bytes of `file` (gunzipped when gzip) as a synchronous iterable of chunks; throws on read errors. */
export function* fileChunks(file: string): Generator<Uint8Array> {
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
