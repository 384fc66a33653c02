/**
 * Producer side of file-feed.ts: reads a file (gunzipping gzip) in its own thread and posts its bytes as
 * transferred chunks, keeping at most AHEAD chunks unconsumed.
 */
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { workerData, type MessagePort } from 'node:worker_threads';
import { createGunzip } from 'node:zlib';
import { isGzipFile } from './line-reader.js';
import type { FeedMessage, FeedWorkerData } from './file-feed.js';

const AHEAD = 8;
const { file, port, counters: shared } = (workerData as { data: FeedWorkerData }).data;
const counters = new Int32Array(shared);

function post(port: MessagePort, message: FeedMessage, transfer: ArrayBuffer[] = []): void {
  port.postMessage(message, transfer);
  // The consumer sleeps on counters[0]; the message is already queued when it wakes.
  Atomics.add(counters, 0, 1);
  Atomics.notify(counters, 0);
}

try {
  const raw = createReadStream(file, { highWaterMark: 1 << 20 });
  const bytes: Readable = (await isGzipFile(file)) ? raw.pipe(createGunzip({ chunkSize: 1 << 20 })) : raw;
  raw.on('error', (err) => bytes.destroy(err));
  for await (const chunk of bytes as AsyncIterable<Buffer>) {
    // A copy owns its ArrayBuffer, so it can be transferred rather than cloned.
    const copy = new Uint8Array(chunk);
    post(port, { kind: 'chunk', chunk: copy }, [copy.buffer]);
    while (Atomics.load(counters, 0) - Atomics.load(counters, 1) >= AHEAD) await sleep(2);
  }
  post(port, { kind: 'end' });
} catch (err) {
  post(port, { kind: 'error', message: `${file}: ${(err as Error).message}` });
}
port.close();
