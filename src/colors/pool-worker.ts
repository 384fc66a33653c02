/**
 * A colour worker thread: analyses the images it is sent, several at a time (ColorPool decides how many),
 * and answers each with its colours or the error message. Started by ColorPool through startTsWorker.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { analyseImage } from './extract.js';
import { namedColors } from './named-colors.js';
import type { ColorWorkerData, FromColorWorker, ToColorWorker } from './pool-protocol.js';

const { options } = (workerData as { data: ColorWorkerData }).data;
const port = parentPort;
if (!port) throw new Error('pool-worker.ts runs only as a worker thread');
const send = (message: FromColorWorker): void => port.postMessage(message);

// Build the name index now rather than inside the first analysis.
namedColors();

port.on('message', (message: ToColorWorker) => {
  if (message.type === 'close') {
    // Nothing is in flight (the pool waits for that): closing the port lets the thread end by itself,
    // which is safer than terminate() while sharp may still hold native work.
    port.close();
    return;
  }
  analyseImage(message.input, options).then(
    (colors) => send({ type: 'done', id: message.id, colors }),
    (err: unknown) => send({ type: 'failed', id: message.id, message: err instanceof Error ? err.message : String(err) }),
  );
});
