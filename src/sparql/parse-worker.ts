/**
 * The SPARQL parse worker seen from the main thread. sparqljs parses in the thread that calls it, and a large
 * or deeply nested query takes it hundreds of milliseconds or more (issue 27: seconds at 3,000 nested groups,
 * during which /healthz did not answer), so client queries are parsed, checked and rewritten in one worker
 * thread (parse-worker-thread.ts) instead of on the HTTP event loop:
 *   - one query at a time, in arrival order; at most `maxQueued` wait, beyond that a call rejects at once
 *     (ParseBusyError);
 *   - each query has `budgetMs` once the worker has it: past that the thread is ended (sparqljs cannot be
 *     interrupted), the call rejects with ParseBudgetError, and a new thread takes over;
 *   - a thread that dies (a crash) fails the query it had, and a new one is started for the queries waiting;
 *   - the thread starts on first use and never keeps the process alive while idle; `close()` ends it (a later
 *     call starts a new one).
 * One worker serves the process (`sharedParseWorker`): the SPARQL endpoint's policy and the remote store's
 * rewrite of its public queries share it, as they share the queries.
 */
import type { Worker } from 'node:worker_threads';
import type { PolicyOptions, PreparedQuery, ProtocolDataset } from './query-policy.js';
import type { RewriteOptions, ViewQuery } from '../store/remote/graph-view.js';
import { startTsWorker, workerModule } from '../threads/ts-worker.js';
import { ParseBudgetError, ParseBusyError, ParseRefusedError } from './parse-errors.js';
import type { FromParseWorker, ToParseWorker } from './parse-protocol.js';

/** The time a query may take in the worker (a 230 kB flat query parses in about 0.6 s). */
export const PARSE_BUDGET_MS = 5000;
/** Queries that may wait for the worker besides the one it has. */
export const PARSE_MAX_QUEUED = 16;

const ENTRY = workerModule(import.meta.url, 'parse-worker-thread');

export interface ParseWorkerOptions {
  budgetMs?: number;
  maxQueued?: number;
  /** The worker module (tests give one that misbehaves on purpose); default parse-worker-thread.ts. */
  entry?: URL;
}

/** A message to the worker without its id, which the handle assigns. */
type WithoutId<M> = M extends unknown ? Omit<M, 'id'> : never;
type Request = WithoutId<ToParseWorker>;
type Answer = PreparedQuery | ViewQuery;

interface Job {
  id: number;
  request: Request;
  resolve: (answer: Answer) => void;
  reject: (err: Error) => void;
  timer?: NodeJS.Timeout;
}

/** One parse worker thread and its queue. */
export class ParseWorker {
  readonly budgetMs: number;
  readonly maxQueued: number;
  private readonly entry: URL;
  private worker: Worker | undefined;
  private ready = false;
  private current: Job | undefined;
  private readonly queue: Job[] = [];
  private nextId = 1;

  constructor(options: ParseWorkerOptions = {}) {
    this.budgetMs = options.budgetMs ?? PARSE_BUDGET_MS;
    this.maxQueued = options.maxQueued ?? PARSE_MAX_QUEUED;
    this.entry = options.entry ?? ENTRY;
  }

  /** Queries waiting for the worker now (not counting the one it has). */
  get waiting(): number {
    return this.queue.length;
  }

  /** The endpoint's policy verdict on `query` (prepareQuery in the worker). */
  prepare(query: string, dataset: ProtocolDataset, options: PolicyOptions): Promise<PreparedQuery> {
    // Plain copies: the dataset may be a request object with more in it than the worker needs.
    const plain = { defaultGraphs: [...dataset.defaultGraphs], namedGraphs: [...dataset.namedGraphs] };
    return this.submit({ type: 'prepare', query, dataset: plain, options: { baseIri: options.baseIri, maxRows: options.maxRows } }) as Promise<PreparedQuery>;
  }

  /** The remote store's rewrite of `text` for the public view of generation `generation` (rewriteForView in the worker). */
  rewrite(text: string, generation: string, options: RewriteOptions): Promise<ViewQuery> {
    return this.submit({ type: 'rewrite', text, generation, options: { ...options } }) as Promise<ViewQuery>;
  }

  /** Starts the thread now, so that the first query does not wait for it (about a second: tsx, sparqljs). */
  warm(): void {
    if (this.worker !== undefined) return;
    this.start();
    this.holdProcess(false);
  }

  /** Ends the thread; calls in flight or waiting reject. A later call starts a new thread. */
  async close(): Promise<void> {
    const closed = new Error('the SPARQL parse worker was closed');
    for (const job of [...(this.current ? [this.current] : []), ...this.queue.splice(0)]) {
      clearTimeout(job.timer);
      job.reject(closed);
    }
    this.current = undefined;
    const worker = this.worker;
    this.worker = undefined;
    this.ready = false;
    if (worker) await worker.terminate();
  }

  private submit(request: Request): Promise<Answer> {
    if (this.queue.length >= this.maxQueued) return Promise.reject(new ParseBusyError(this.maxQueued));
    return new Promise<Answer>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, request, resolve, reject });
      this.pump();
    });
  }

  /** Hands the next waiting query to the worker when it is free, starting a thread if there is none. */
  private pump(): void {
    if (this.current !== undefined || this.queue.length === 0) {
      this.holdProcess(this.current !== undefined);
      return;
    }
    if (this.worker === undefined) this.start();
    this.holdProcess(true);
    if (!this.ready) return;
    const job = this.queue.shift() as Job;
    this.current = job;
    // The budget counts from here: a thread's start (loading sparqljs) is no query's cost.
    job.timer = setTimeout(() => this.overBudget(job), this.budgetMs);
    this.worker?.postMessage({ ...job.request, id: job.id } as ToParseWorker);
  }

  /** An idle thread must not keep the process alive; one with work must (a script may wait for nothing else). */
  private holdProcess(busy: boolean): void {
    if (busy) this.worker?.ref();
    else this.worker?.unref();
  }

  private start(): void {
    const worker = startTsWorker(this.entry, {});
    this.worker = worker;
    this.ready = false;
    worker.on('message', (message: FromParseWorker) => this.onMessage(worker, message));
    worker.on('error', (err) => this.lost(worker, err));
    worker.on('exit', (code) => this.lost(worker, new Error(`the SPARQL parse worker exited with code ${code}`)));
  }

  private onMessage(worker: Worker, message: FromParseWorker): void {
    if (worker !== this.worker) return;
    if (message.type === 'ready') {
      this.ready = true;
      this.pump();
      return;
    }
    const job = this.current;
    if (job === undefined || job.id !== message.id) return;
    clearTimeout(job.timer);
    this.current = undefined;
    if (message.type === 'prepared') job.resolve(message.prepared);
    else if (message.type === 'rewritten') job.resolve(message.query);
    else if (message.type === 'refused') job.reject(new ParseRefusedError(message.status, message.message));
    else job.reject(new Error(`the SPARQL parse worker failed: ${message.message}`));
    this.pump();
  }

  /** The query ran past the budget: only ending the thread stops sparqljs. */
  private overBudget(job: Job): void {
    if (this.current !== job) return;
    this.current = undefined;
    job.reject(new ParseBudgetError(this.budgetMs));
    const worker = this.worker;
    this.worker = undefined;
    this.ready = false;
    void worker?.terminate();
    // A fresh thread at once: the next query should not pay for its start.
    this.start();
    this.pump();
  }

  /** The thread died on its own: the query it had fails; one that died before it was ready fails the queue. */
  private lost(worker: Worker, reason: Error): void {
    if (worker !== this.worker) return;
    const wasReady = this.ready;
    this.worker = undefined;
    this.ready = false;
    const job = this.current;
    this.current = undefined;
    if (job) {
      clearTimeout(job.timer);
      job.reject(new Error(`the SPARQL parse worker stopped while parsing the query: ${reason.message}`, { cause: reason }));
    }
    // A thread that cannot even start would be restarted forever: the waiting queries fail instead, and the
    // next call tries again.
    if (!wasReady) for (const waiting of this.queue.splice(0)) waiting.reject(new Error(`the SPARQL parse worker did not start: ${reason.message}`, { cause: reason }));
    else this.start();
    this.pump();
  }
}

let shared: ParseWorker | undefined;

/** The process's parse worker, made on first use. */
export function sharedParseWorker(): ParseWorker {
  shared ??= new ParseWorker();
  return shared;
}

/** Ends the process's parse worker thread, if one runs (the service's shutdown, a test's end). */
export async function closeSharedParseWorker(): Promise<void> {
  await shared?.close();
}
