/**
 * Colour analysis on worker threads: `new ColorPool({ size })`, `await pool.analyse(buffer)`, `await
 * pool.close()`. Each worker decodes with sharp and runs the JavaScript part of the analysis on its own
 * core; results are the same as `analyseImage` in the calling thread.
 */
// sharp's native library must be loaded by the main thread before any worker loads it: otherwise it is
// unloaded when the first worker ends and the process crashes (lovell/sharp#2263).
import 'sharp';
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startTsWorker, workerModule } from '../threads/ts-worker.js';
import type { AnalyseOptions, ImageColors } from './extract.js';
import { resolveOptions } from './extract.js';
import type { ColorWorkerData, FromColorWorker, ToColorWorker } from './pool-protocol.js';

/** An image the pool could not analyse: not decodable, or its worker died. */
export class ColorAnalysisError extends Error {
  override readonly name = 'ColorAnalysisError';
}

export interface ColorPoolOptions {
  /** Worker threads (default: os.availableParallelism()). */
  size?: number;
  /** Images each worker has in hand at once, so that one decodes while another is clustered (default 2). */
  perWorker?: number;
  /** Analysis settings, the same for every image. */
  analyse?: Partial<AnalyseOptions>;
}

interface Task {
  id: number;
  input: Uint8Array;
  resolve: (colors: ImageColors) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  /** Set once the thread has failed or exited; a dead slot takes no work. */
  dead: boolean;
  inFlight: Map<number, Task>;
  exited: Promise<void>;
}

const CLOSE_TIMEOUT_MS = 10_000;

/** A fixed set of colour workers fed from one queue. */
export class ColorPool {
  readonly size: number;
  private readonly perWorker: number;
  private readonly data: ColorWorkerData;
  private readonly slots: Slot[] = [];
  private readonly queue: Task[] = [];
  private readonly idleWaiters: (() => void)[] = [];
  private nextId = 1;
  private closing = false;

  constructor(options: ColorPoolOptions = {}) {
    this.size = options.size ?? availableParallelism();
    this.perWorker = options.perWorker ?? 2;
    if (!Number.isInteger(this.size) || this.size < 1) throw new RangeError(`ColorPool size must be a positive integer: ${this.size}`);
    if (!Number.isInteger(this.perWorker) || this.perWorker < 1) throw new RangeError(`ColorPool perWorker must be a positive integer: ${this.perWorker}`);
    // Settings are checked here, once, rather than failing every image in the workers.
    resolveOptions(options.analyse);
    this.data = { options: options.analyse ?? {} };
    for (let k = 0; k < this.size; k++) this.slots.push(this.start());
  }

  /** The colours of one image; rejects with ColorAnalysisError when it cannot be analysed. */
  analyse(input: Uint8Array): Promise<ImageColors> {
    if (this.closing) return Promise.reject(new ColorAnalysisError('the colour pool is closed'));
    return new Promise<ImageColors>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, input, resolve, reject });
      this.dispatch();
    });
  }

  /** Finishes the queued images, then ends the workers. Further `analyse` calls reject. */
  async close(): Promise<void> {
    this.closing = true;
    if (this.queue.length > 0 || this.slots.some((s) => s.inFlight.size > 0)) {
      await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    }
    await Promise.all(
      this.slots.map(async (slot) => {
        slot.worker.postMessage({ type: 'close' } satisfies ToColorWorker);
        const timer = setTimeout(() => void slot.worker.terminate(), CLOSE_TIMEOUT_MS);
        await slot.exited;
        clearTimeout(timer);
      }),
    );
  }

  private start(): Slot {
    const worker = startTsWorker<ColorWorkerData>(workerModule(import.meta.url, 'pool-worker'), this.data);
    const slot: Slot = { worker, dead: false, inFlight: new Map(), exited: new Promise((resolve) => worker.once('exit', () => resolve())) };
    worker.on('message', (message: FromColorWorker) => this.settle(slot, message));
    worker.on('error', (err) => this.lose(slot, `colour worker failed: ${err.message}`));
    worker.on('exit', (code) => this.lose(slot, `colour worker exited with code ${code}`));
    return slot;
  }

  private settle(slot: Slot, message: FromColorWorker): void {
    const task = slot.inFlight.get(message.id);
    if (!task) return;
    slot.inFlight.delete(message.id);
    if (message.type === 'done') task.resolve(message.colors);
    else task.reject(new ColorAnalysisError(message.message));
    this.dispatch();
  }

  /** A worker died: its images fail, and unless the pool is closing a new worker takes its place. */
  private lose(slot: Slot, reason: string): void {
    if (slot.dead) return;
    slot.dead = true;
    for (const task of slot.inFlight.values()) task.reject(new ColorAnalysisError(reason));
    slot.inFlight.clear();
    if (!this.closing) this.slots[this.slots.indexOf(slot)] = this.start();
    this.dispatch();
  }

  private dispatch(): void {
    if (this.slots.every((s) => s.dead)) {
      // Only while closing (otherwise dead workers are replaced): nothing is left to run the queue.
      for (const task of this.queue.splice(0)) task.reject(new ColorAnalysisError('every colour worker has ended'));
    }
    while (this.queue.length > 0) {
      let slot: Slot | undefined;
      for (const s of this.slots) if (!s.dead && s.inFlight.size < this.perWorker && (!slot || s.inFlight.size < slot.inFlight.size)) slot = s;
      if (!slot) break;
      const task = this.queue.shift() as Task;
      slot.inFlight.set(task.id, task);
      slot.worker.postMessage({ type: 'analyse', id: task.id, input: task.input } satisfies ToColorWorker);
    }
    if (this.queue.length === 0 && this.slots.every((s) => s.inFlight.size === 0)) {
      for (const resolve of this.idleWaiters.splice(0)) resolve();
    }
  }
}
