/**
 * Rate-limit counters shared by every replica through Redis (`REDIS_URL`), so that a client's minute is one
 * minute whichever replica answers. One Redis connection per process (node-redis' `@redis/client`); each
 * limiter (`/v2`, `/sparql`) gets its own express-rate-limit store with its own key prefix,
 * `<REDIS_KEY_PREFIX>rate-limit:<scope>:<client>`, counted by rate-limit-redis' Lua script (a fixed window:
 * the first hit sets the key with a one-minute expiry, later hits increment it).
 *
 * Redis unreachable (docs/operations.md, "Rate limits across replicas"): no request fails or waits long
 * because of it. A counter update that does not succeed within `timeoutMs` (1 s), or any Redis error,
 * counts the request in this process's memory instead, as without `REDIS_URL`; Redis is then left alone for
 * `retryAfterMs` (2 s) or until the connection is ready again. So during an outage each replica limits on its
 * own (a client may get the limit once per replica), and sharing resumes by itself. The switch is logged once
 * each way (warn, then info), `rate_limit_redis_up` says which mode is in force and
 * `rate_limit_local_counts_total{scope}` counts the requests counted locally. The URL is logged without its
 * password ({@link SecretUrl}).
 */
import { createClient } from '@redis/client';
import { MemoryStore, type ClientRateLimitInfo, type IncrementResponse, type Options, type Store } from 'express-rate-limit';
import type { Logger } from 'pino';
import { Counter, Gauge, type Registry } from 'prom-client';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import type { SecretUrl } from '../config/secret-url.js';

const UP = 'rate_limit_redis_up';
const LOCAL = 'rate_limit_local_counts_total';

export interface SharedCountersOptions {
  url: SecretUrl;
  /** Prefix of every key (REDIS_KEY_PREFIX). */
  keyPrefix: string;
  logger: Logger;
  /** Where the two series go (the app's registry); none in some tests. */
  registry?: Registry;
  /** Milliseconds a counter update may take before the request is counted locally. */
  timeoutMs?: number;
  /** Milliseconds Redis is left alone after a failure (unless its connection becomes ready again sooner). */
  retryAfterMs?: number;
}

/** The process's Redis connection and the state of the counters: shared while Redis answers, local otherwise. */
export class SharedRateLimitCounters {
  readonly #client: ReturnType<typeof createClient>;
  readonly #logger: Logger;
  readonly #keyPrefix: string;
  readonly #timeoutMs: number;
  readonly #retryAfterMs: number;
  readonly #local: Counter<'scope'> | undefined;
  /** Whether the last attempt reached Redis (starts true, so that a first failure is logged). */
  #shared = true;
  #pausedUntil = 0;
  #closed = false;

  constructor(options: SharedCountersOptions) {
    this.#logger = options.logger.child({ redis: options.url.toString() });
    this.#keyPrefix = options.keyPrefix;
    this.#timeoutMs = options.timeoutMs ?? 1000;
    this.#retryAfterMs = options.retryAfterMs ?? 2000;
    this.#client = createClient({
      url: options.url.reveal(),
      // A command while disconnected fails at once (the request is counted locally) instead of waiting.
      disableOfflineQueue: true,
      // A Redis that stops answering without closing the connection cannot make unanswered commands pile up.
      commandsQueueMaxLength: 1000,
      socket: { connectTimeout: 2000, reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 2000) },
    });
    // Every failed reconnection is an 'error' event; only the change of mode is logged.
    this.#client.on('error', (err: Error) => this.failed(err));
    let connected = false;
    this.#client.on('ready', () => {
      this.#pausedUntil = 0;
      if (connected) this.succeeded();
      else this.#logger.info({ keyPrefix: this.#keyPrefix }, 'connected to Redis: rate-limit counters are shared with the other replicas');
      connected = true;
      this.#shared = true;
    });
    // connect() keeps retrying on its own; it rejects only when the client is closed before it connects.
    this.#client.connect().catch(() => undefined);

    if (options.registry !== undefined) {
      const registers = [options.registry];
      this.#local =
        (options.registry.getSingleMetric(LOCAL) as Counter<'scope'> | undefined) ??
        new Counter({ name: LOCAL, help: 'Rate-limited requests counted in this process because Redis did not answer, by limiter.', labelNames: ['scope'], registers });
      options.registry.removeSingleMetric(UP);
      const counters = (): SharedRateLimitCounters => this;
      new Gauge({
        name: UP,
        help: 'Whether the rate-limit counters are shared through Redis (1) or counted in this process because Redis is unreachable (0).',
        registers,
        collect() {
          this.set(counters().shared ? 1 : 0);
        },
      });
    }
  }

  /** True while counters go to Redis; false while this process counts on its own. */
  get shared(): boolean {
    return this.#shared && this.#client.isReady;
  }

  /** A new express-rate-limit store for the limiter `scope` (`v2`, `sparql`): one per limiter. */
  store(scope: string): Store {
    return new FallbackStore(this, scope, `${this.#keyPrefix}rate-limit:${scope}:`);
  }

  /** Whether Redis should be asked now. */
  get available(): boolean {
    return !this.#closed && this.#client.isReady && Date.now() >= this.#pausedUntil;
  }

  /** Sends one command, or rejects within the time allowed. */
  send(args: string[]): Promise<RedisReply> {
    return this.bounded(this.#client.sendCommand<RedisReply>(args));
  }

  /** `promise`, or a rejection once `timeoutMs` has passed. */
  bounded<T>(promise: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Redis did not answer within ${this.#timeoutMs} ms`)), this.#timeoutMs);
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
  }

  /** A counter update reached Redis. */
  succeeded(): void {
    if (this.#shared) return;
    this.#shared = true;
    this.#logger.info('Redis answers again: rate-limit counters are shared by the replicas again');
  }

  /** A counter update (or the connection) failed: count locally for a while. */
  failed(err: unknown): void {
    if (this.#closed) return;
    this.#pausedUntil = Date.now() + this.#retryAfterMs;
    if (!this.#shared) return;
    this.#shared = false;
    const message = err instanceof Error ? err.message : String(err);
    this.#logger.warn({ reason: message }, 'Redis unreachable: rate limits are counted by this process alone until it answers again');
  }

  /** A request of `scope` was counted locally. */
  countedLocally(scope: string): void {
    this.#local?.inc({ scope });
  }

  /** Closes the connection (at shutdown). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#client.isReady) await this.#client.close().catch(() => this.#client.destroy());
    else if (this.#client.isOpen) this.#client.destroy();
  }
}

/**
 * One limiter's store: rate-limit-redis while Redis answers, express-rate-limit's MemoryStore otherwise. The
 * Lua scripts are loaded again after any failure (a restarted Redis has forgotten them, and a load that
 * failed would otherwise be remembered as failed).
 */
class FallbackStore implements Store {
  /** Keys are shared with other processes (express-rate-limit's double-count check reads this and `prefix`). */
  readonly localKeys = false;
  readonly prefix: string;
  readonly #counters: SharedRateLimitCounters;
  readonly #scope: string;
  readonly #redis: RedisStore;
  readonly #memory = new MemoryStore();
  #options: Options | undefined;
  #scripts: Promise<void> | undefined;

  constructor(counters: SharedRateLimitCounters, scope: string, prefix: string) {
    this.#counters = counters;
    this.#scope = scope;
    this.prefix = prefix;
    this.#redis = new RedisStore({ sendCommand: (...args: string[]) => counters.send(args), prefix });
  }

  init(options: Options): void {
    this.#options = options;
    this.#memory.init(options);
  }

  /** `operation` on Redis, or undefined when Redis is not to be asked or fails. */
  async #viaRedis<T>(operation: () => Promise<T>): Promise<T | undefined> {
    const options = this.#options;
    if (options === undefined || !this.#counters.available) return undefined;
    try {
      this.#scripts ??= this.#redis.init(options);
      await this.#counters.bounded(this.#scripts);
      const result = await operation();
      this.#counters.succeeded();
      return result;
    } catch (err) {
      this.#scripts = undefined;
      this.#counters.failed(err);
      return undefined;
    }
  }

  async increment(key: string): Promise<IncrementResponse> {
    const shared = await this.#viaRedis(() => this.#redis.increment(key));
    if (shared !== undefined) return shared;
    this.#counters.countedLocally(this.#scope);
    return this.#memory.increment(key);
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    return (await this.#viaRedis(() => this.#redis.get(key))) ?? this.#memory.get(key);
  }

  async decrement(key: string): Promise<void> {
    const done = await this.#viaRedis(async () => {
      await this.#redis.decrement(key);
      return true;
    });
    if (done === undefined) await this.#memory.decrement(key);
  }

  async resetKey(key: string): Promise<void> {
    await this.#viaRedis(async () => {
      await this.#redis.resetKey(key);
      return true;
    });
    await this.#memory.resetKey(key);
  }

  shutdown(): void {
    this.#memory.shutdown();
  }
}
