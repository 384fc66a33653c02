/**
 * Prometheus metrics of one app: request counts and durations per Express route pattern (not raw path, so
 * a million object ids stay one series), store query durations and the generation being served. Each
 * instance has its own registry, so tests can build many apps in one process.
 */
import type { Request, RequestHandler } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { QueryStore } from '../store/types.js';

/** What the metrics need to know about the served generation (a subset of the store's manifest). */
export interface GenerationInfo {
  id: string;
  /** ISO 8601 creation time. */
  created: string;
}

export interface MetricsOptions {
  /** Also export Node process metrics (CPU, memory, event loop); on for the server, off in tests. */
  defaultMetrics?: boolean;
}

/** Route label of requests no route handled (unknown paths, rate-limited requests, preflights). */
export const UNMATCHED_ROUTE = 'unmatched';

type RequestLabels = 'route' | 'method' | 'status';

export class Metrics {
  readonly registry = new Registry();
  readonly #requests: Counter<RequestLabels>;
  readonly #requestDuration: Histogram<RequestLabels>;
  readonly #storeQueryDuration: Histogram<'kind'>;
  #generation: () => GenerationInfo | undefined = () => undefined;
  #stores: readonly { name: string; store: QueryStore }[] = [];

  constructor(options: MetricsOptions = {}) {
    const registers = [this.registry];
    this.#requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests by Express route pattern, method and status.',
      labelNames: ['route', 'method', 'status'],
      registers,
    });
    this.#requestDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from request to the end of the response, by route pattern, method and status.',
      labelNames: ['route', 'method', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.#storeQueryDuration = new Histogram({
      name: 'store_query_duration_seconds',
      help: 'Store query time, queueing included, by query kind.',
      labelNames: ['kind'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    const source = (): GenerationInfo | undefined => this.#generation();
    new Gauge({
      name: 'generation_info',
      help: 'The store generation being served (value 1, id as label).',
      labelNames: ['id'],
      registers,
      collect() {
        this.reset();
        const generation = source();
        if (generation !== undefined) this.set({ id: generation.id }, 1);
      },
    });
    new Gauge({
      name: 'generation_age_seconds',
      help: 'Seconds since the served generation was created.',
      registers,
      collect() {
        this.reset();
        const created = Date.parse(source()?.created ?? '');
        if (!Number.isNaN(created)) this.set((Date.now() - created) / 1000);
      },
    });
    const stores = (): readonly { name: string; store: QueryStore }[] => this.#stores;
    new Gauge({
      name: 'store_worker_memory_bytes',
      help: "Memory of each store worker thread as it last reported it (after its load, then after answers): its V8 heap in use, external memory (Oxigraph's WebAssembly memory is counted here), and ArrayBuffers. The process as a whole is process_resident_memory_bytes.",
      labelNames: ['store', 'worker', 'kind'],
      registers,
      collect() {
        this.reset();
        for (const { name, store } of stores()) {
          for (const report of store.workerMemory?.() ?? []) {
            this.set({ store: name, worker: report.worker, kind: 'heap_used' }, report.heapUsed);
            this.set({ store: name, worker: report.worker, kind: 'external' }, report.external);
            this.set({ store: name, worker: report.worker, kind: 'array_buffers' }, report.arrayBuffers);
          }
        }
      },
    });
    new Gauge({
      name: 'store_worker_answers',
      help: 'Queries each store worker has answered since it started. Two embedded workers share the REST queries, so both grow; a worker that is ended and loaded again starts from 0.',
      labelNames: ['store', 'worker'],
      registers,
      collect() {
        this.reset();
        for (const { name, store } of stores()) for (const report of store.workerMemory?.() ?? []) this.set({ store: name, worker: report.worker }, report.answered);
      },
    });
    if (options.defaultMetrics === true) collectDefaultMetrics({ register: this.registry });
  }

  /** Tells the worker memory gauge which stores to read at scrape time (`rest`, `sparql`). */
  addStore(name: string, store: QueryStore): void {
    this.#stores = [...this.#stores.filter((s) => s.name !== name), { name, store }];
  }

  /** Tells the generation gauges where to read the served generation at scrape time. */
  setGenerationSource(source: () => GenerationInfo | undefined): void {
    this.#generation = source;
  }

  /** Records one store query of `ms` milliseconds; `kind` is a small fixed set (query name or form). */
  observeStoreQuery(ms: number, kind: string): void {
    this.#storeQueryDuration.observe({ kind }, ms / 1000);
  }

  /** Middleware that counts and times every request under the pattern of the route that handled it. */
  middleware(): RequestHandler {
    return (req, res, next) => {
      const started = process.hrtime.bigint();
      const route = captureRoute(req);
      res.once('close', () => {
        const labels = { route: route.label ?? UNMATCHED_ROUTE, method: req.method, status: String(res.statusCode) };
        this.#requests.inc(labels);
        this.#requestDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
      });
      next();
    };
  }

  /** The `/metrics` handler: the registry in the Prometheus text exposition format. */
  readonly handler: RequestHandler = async (_req, res) => {
    const body = await this.registry.metrics();
    res.setHeader('Content-Type', this.registry.contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.send(body);
  };
}

/**
 * Records `baseUrl + route.path` at the moment the router assigns `req.route`. Reading both when the
 * response ends is not enough: when a route handler fails, Express restores `req.baseUrl` on the way out
 * of the router, and the label of e.g. `/v2/id/object/:pid` would lose its `/v2`.
 */
function captureRoute(req: Request): { label: string | undefined } {
  const captured: { label: string | undefined } = { label: undefined };
  let current: unknown = undefined;
  Object.defineProperty(req, 'route', {
    configurable: true,
    enumerable: true,
    get: () => current,
    set: (value: unknown) => {
      current = value;
      const path: unknown = typeof value === 'object' && value !== null && 'path' in value ? value.path : undefined;
      if (path !== undefined) captured.label = `${req.baseUrl}${typeof path === 'string' ? path : String(path)}`;
    },
  });
  return captured;
}
