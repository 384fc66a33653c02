/**
 * Answers of repeated SPARQL queries, per generation: a generation's data never changes, so the same
 * normalised query over the same dataset, in the same format, has the same answer for as long as that
 * generation serves. Two mechanisms, both keyed by the generation and the caller's key:
 *   - a bounded LRU of finished answers (total bytes, and no answer above a per-answer size), emptied as soon
 *     as a request sees another generation, and never filled by a query that ran on another generation;
 *   - single flight: while a query runs, identical requests wait for the same answer instead of queueing for
 *     the store; they all get its answer, or all the same error. A failed query (deadline, store error,
 *     busy, restart) is never kept. The running query is abandoned only when every waiting client has gone.
 */
import { BoundedLru } from './bounded-lru.js';
import { Cancellation } from './cancellation.js';

/** What a query task reports: its answer and the generation that actually answered it. */
export interface GenerationAnswer {
  body: string;
  /** Generation id the store served when the query was sent; an answer of another generation is not kept. */
  generation: string | undefined;
}

/** How a request was answered: from the cache, by joining a running identical query, or by running it. */
export type CacheOutcome = 'hit' | 'joined' | 'miss';

export interface ResultCacheOptions {
  /** Most bytes of answers (UTF-8) held; must be > 0 (a disabled cache is no cache). */
  maxBytes: number;
  /** Largest answer kept, in bytes (default: a sixteenth of `maxBytes`). */
  maxAnswerBytes?: number;
  /** Called once per request with how it was answered. */
  onOutcome?: (outcome: CacheOutcome) => void;
  /** Called with the bytes held whenever they change. */
  onBytes?: (bytes: number) => void;
}

/** Per-entry cost beyond the answer: the Map slot, the key and its bookkeeping, roughly. */
const ENTRY_OVERHEAD = 160;
/** The entry bound only guards against a flood of tiny answers; bytes are the real bound. */
const MAX_ENTRIES = 100_000;

interface Flight {
  body: Promise<string>;
  /** Requests waiting for this flight whose clients are still there. */
  waiting: number;
  /** Cancelled when every waiting client has gone: the query gives up its place in the queue. */
  abandon: Cancellation;
}

/** A per-generation cache of query answers with single-flight coalescing of identical queries. */
export class ResultCache {
  private readonly answers: BoundedLru<string, string>;
  private readonly flights = new Map<string, Flight>();
  private readonly maxAnswerBytes: number;
  private generation: string | undefined;

  constructor(private readonly options: ResultCacheOptions) {
    if (!(options.maxBytes > 0)) throw new Error('a result cache needs a positive byte budget');
    this.answers = new BoundedLru({ maxEntries: MAX_ENTRIES, maxWeight: options.maxBytes });
    this.maxAnswerBytes = options.maxAnswerBytes ?? Math.floor(options.maxBytes / 16);
  }

  /** Answers held now. */
  get size(): number {
    return this.answers.size;
  }

  /** Bytes held now (as counted for the budget). */
  get bytes(): number {
    return this.answers.weight;
  }

  /** Queries running now on behalf of the cache. */
  get running(): number {
    return this.flights.size;
  }

  /** The cached answer of `key` on `generation`, if any (a request on a new generation empties the cache first). */
  get(generation: string, key: string): string | undefined {
    this.follow(generation);
    const body = this.answers.get(key);
    if (body !== undefined) this.options.onOutcome?.('hit');
    return body;
  }

  /**
   * The answer of `key` on `generation`: joins the identical query already running, or runs `task` (given a
   * cancellation that fires once every waiting client has gone) and keeps its answer when it succeeds on that
   * generation and is small enough. `gone` fires when this request's client goes away.
   */
  run(generation: string, key: string, gone: Cancellation, task: (abandon: Cancellation) => Promise<GenerationAnswer>): Promise<string> {
    this.follow(generation);
    const flightKey = `${generation}\n${key}`;
    let flight = this.flights.get(flightKey);
    if (flight !== undefined) this.options.onOutcome?.('joined');
    else {
      this.options.onOutcome?.('miss');
      flight = this.start(generation, key, flightKey, task);
    }
    return this.wait(flight, flightKey, gone);
  }

  private start(generation: string, key: string, flightKey: string, task: (abandon: Cancellation) => Promise<GenerationAnswer>): Flight {
    const abandon = new Cancellation();
    const flight: Flight = { body: Promise.resolve(''), waiting: 0, abandon };
    flight.body = (async () => {
      try {
        const answer = await task(abandon);
        if (answer.generation === generation) this.keep(generation, key, answer.body);
        return answer.body;
      } finally {
        if (this.flights.get(flightKey) === flight) this.flights.delete(flightKey);
      }
    })();
    this.flights.set(flightKey, flight);
    return flight;
  }

  private async wait(flight: Flight, flightKey: string, gone: Cancellation): Promise<string> {
    flight.waiting++;
    const leave = (): void => {
      flight.waiting--;
      if (flight.waiting > 0) return;
      // Nobody wants this answer any more; a later identical request starts afresh.
      if (this.flights.get(flightKey) === flight) this.flights.delete(flightKey);
      flight.abandon.cancel();
    };
    const stay = gone.onCancel(leave);
    try {
      return await flight.body;
    } finally {
      stay();
    }
  }

  /** Keeps an answer of `generation` while that generation is still the one requests see. */
  private keep(generation: string, key: string, body: string): void {
    if (this.generation !== generation || body.length > this.maxAnswerBytes) return;
    const bytes = Buffer.byteLength(body, 'utf8');
    if (bytes > this.maxAnswerBytes) return;
    this.answers.set(key, body, bytes + 2 * key.length + ENTRY_OVERHEAD);
    this.options.onBytes?.(this.answers.weight);
  }

  /** Empties the cache when requests move to another generation: answers are never shared across generations. */
  private follow(generation: string): void {
    if (this.generation === generation) return;
    this.generation = generation;
    this.answers.clear();
    this.options.onBytes?.(0);
  }
}
