/**
 * /sparql: the SPARQL 1.1 Protocol query endpoint over the public store (docs/sparql.md). The handler reads
 * like the protocol: read the operation, apply the endpoint's policy (its verdict cached per query text, else
 * decided in the parse worker, off the event loop), negotiate the answer's format, answer from the
 * generation's result cache or run the query under the concurrency cap and the deadline (identical queries
 * running at once share one run), send. A GET without a query is answered with the query editor (browsers)
 * or the service description (RDF clients). Mount outside /v2: it has its own rate limit and accepts POST.
 */
import { fileURLToPath } from 'node:url';
import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import type { AppContext } from '../engine/app-context.js';
import { sendAnswer } from '../http/answer.js';
import { weakEtag } from '../http/caching.js';
import { packageFolder, staticFileRoutes } from '../pages/layout.js';
import { BadRequestError, GatewayTimeoutError, MethodNotAllowedError, NotAcceptableError, ServiceUnavailableError } from '../http/errors.js';
import { negotiate, rdfContentType, serialiseQuads, varyOnAccept, type RdfSyntax } from '../http/negotiation.js';
import { v2RateLimit } from '../http/rate-limit.js';
import type { SharedRateLimitCounters } from '../http/rate-limit-store.js';
import { editorPage } from '../sparql/editor-page.js';
import { readOperation } from '../sparql/protocol-request.js';
import { cacheMetrics } from '../sparql/cache-metrics.js';
import { Cancellation } from '../sparql/cancellation.js';
import { sharedParseWorker } from '../sparql/parse-worker.js';
import { deadlineMessage, QueryGate } from '../sparql/query-gate.js';
import { QueryPolicy, type PreparedQuery, type QueryPreparer } from '../sparql/query-policy.js';
import { ResultCache, type GenerationAnswer } from '../sparql/result-cache.js';
import { contentTypeOf, offersFor, type ResultFormat } from '../sparql/result-formats.js';
import { serviceDescription } from '../sparql/service-description.js';
import { QueryDeadlineError, QueryError, StoreUnavailableError } from '../store/errors.js';
import type { QueryStore } from '../store/types.js';

const ALLOWED_METHODS = ['GET', 'HEAD', 'POST', 'OPTIONS'] as const;
/** Largest accepted POST body; a longer query is a mistake or an attack. */
const MAX_BODY = '256kb';
/** Header naming the row cap when it lowered (or added) the query's LIMIT. */
export const MAX_ROWS_HEADER = 'X-SPARQL-MaxRows';
const EDITOR_TITLE = 'Design Museum Gent — SPARQL';
const DESCRIPTION_OFFERS: readonly RdfSyntax[] = ['text/turtle', 'application/n-triples', 'application/rdf+xml'];

export interface SparqlRouteOptions {
  /** The SPARQL store: the public quads of the served generation only. */
  store: QueryStore;
  /** Queries a minute per client (default: the v2 limit); 0 disables. */
  rateLimitPerMinute?: number;
  /** Counters shared with other replicas (REDIS_URL); the endpoint's own scope among them. */
  rateLimitCounters?: SharedRateLimitCounters;
  /** Queries allowed to wait for a slot (default four per concurrent slot). */
  maxQueued?: number;
  /** Where queries are parsed and checked (default: the process's parse worker, src/sparql/parse-worker.ts). */
  parser?: QueryPreparer;
}

/** Translates store failures into the endpoint's answers (400, 503, 504) with messages a researcher can act on. */
function storeFailure(err: unknown, deadlineMs: number): unknown {
  if (err instanceof QueryDeadlineError) return new GatewayTimeoutError(deadlineMessage(deadlineMs), { cause: err });
  if (err instanceof StoreUnavailableError) {
    return new ServiceUnavailableError(
      err.retryAfterSeconds,
      `The SPARQL store is not answering now (it restarts after a query past its deadline, loads new data, or waits for its server to answer again); retry in ${err.retryAfterSeconds} s.`,
      { cause: err },
    );
  }
  if (err instanceof QueryError) return new BadRequestError(`The query could not be evaluated: ${err.message}`, { cause: err });
  return err;
}

const PUBLIC_DIR = fileURLToPath(new URL('../../public/sparql', import.meta.url));

/** Static files of the editor: YASGUI's build and this service's own script and styles. */
const assetRoutes = (): Router =>
  staticFileRoutes([
    { dir: packageFolder('@zazuko/yasgui/build/yasgui.min.js'), files: ['yasgui.min.js', 'yasgui.min.css', 'yasgui.min.js.map'] },
    { dir: PUBLIC_DIR, files: ['editor.js', 'editor.css'] },
  ]);

/** Routes of /sparql (mount at /sparql). */
export function sparqlRoutes(ctx: AppContext, options: SparqlRouteOptions): Router {
  const { store } = options;
  const { baseUrl, sparqlTimeoutMs: deadlineMs, sparqlMaxRows: maxRows, sparqlMaxConcurrent, sparqlResultCacheMb } = ctx.config;
  const endpoint = `${baseUrl}/sparql`;
  const gate = new QueryGate(sparqlMaxConcurrent, options.maxQueued ?? 4 * sparqlMaxConcurrent);
  // Verdicts not in the policy's cache are decided in the process's parse worker, off the event loop; its
  // thread starts now rather than with the first query.
  const parser = options.parser ?? sharedParseWorker();
  parser.warm?.();
  const policy = new QueryPolicy({ baseIri: endpoint, maxRows }, parser);
  const metrics = cacheMetrics(ctx.metrics.registry);
  const results = sparqlResultCacheMb > 0 ? new ResultCache({ maxBytes: sparqlResultCacheMb * 2 ** 20, onOutcome: metrics.outcome, onBytes: metrics.bytes }) : undefined;
  const shared = options.rateLimitCounters && { counters: options.rateLimitCounters, scope: 'sparql' };
  const limiter = v2RateLimit(options.rateLimitPerMinute ?? ctx.config.rateLimitPerMinute, ctx.logger, shared);
  // Only queries count against the limit: the editor page, its assets and the description are free.
  const limitQueries: RequestHandler = (req, res, next) => (req.method === 'POST' || req.originalUrl.includes('query=') ? limiter(req, res, next) : next());

  // A prepared query's ETags, per generation and media type, hashed once rather than per request.
  const etags = new WeakMap<Readonly<PreparedQuery>, Map<string, string>>();
  const etagOf = (prepared: Readonly<PreparedQuery>, generation: string, mediaType: string): string => {
    let known = etags.get(prepared);
    if (known === undefined) {
      known = new Map();
      etags.set(prepared, known);
    }
    const key = `${generation}\n${mediaType}`;
    let etag = known.get(key);
    if (etag === undefined) {
      // Generations come and go: a handful of tags per query is all that is ever current.
      if (known.size >= 16) known.clear();
      etag = weakEtag('sparql', generation, mediaType, String(prepared.unionDefaultGraph), prepared.text);
      known.set(key, etag);
    }
    return etag;
  };

  const describe = async (req: Request, res: Response): Promise<void> => {
    const choice = negotiate(req, ['text/turtle', 'text/html', ...DESCRIPTION_OFFERS.slice(1)]);
    if (choice === 'text/html') {
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.setHeader('Cache-Control', 'public, max-age=3600');
      res.send(editorPage({ title: EDITOR_TITLE, deadlineMs, maxRows }));
      return;
    }
    if (choice === undefined) throw new NotAcceptableError(`The service description is available as ${DESCRIPTION_OFFERS.join(', ')}; the editor as text/html.`);
    const body = await serialiseQuads(serviceDescription(endpoint, store.generation, { deadlineMs, maxRows }), choice);
    res.setHeader('Content-Type', rdfContentType(choice));
    res.send(body);
  };

  const answer: RequestHandler = async (req, res) => {
    const arrived = performance.now();
    if (!(ALLOWED_METHODS as readonly string[]).includes(req.method)) throw new MethodNotAllowedError(ALLOWED_METHODS);
    const operation = readOperation(req);
    varyOnAccept(res);
    if (operation.kind === 'none') {
      await describe(req, res);
      return;
    }
    const prepared = await policy.prepare(operation.query, operation);
    const offers = offersFor(prepared.form);
    const mediaType = negotiate(req, offers.map((o) => o.mediaType));
    const format = offers.find((o) => o.mediaType === mediaType);
    if (format === undefined) {
      throw new NotAcceptableError(`A ${prepared.form.toUpperCase()} answer is available as ${offers.map((o) => o.mediaType).join(', ')}.`);
    }
    // Same generation, same query, same format: the same answer, so a client may revalidate without a re-run.
    const generation = store.generation?.id;
    const etag = etagOf(prepared, generation ?? '', format.mediaType);
    if (prepared.rowCapApplied) res.setHeader(MAX_ROWS_HEADER, String(maxRows));
    // The store format, not the media type: application/json and application/sparql-results+json share answers.
    const key = `${format.storeFormat}\n${prepared.normalised}`;
    await sendAnswer(req, res, {
      validators: { etag },
      contentType: contentTypeOf(format),
      body: async () => (generation !== undefined ? results?.get(generation, key) : undefined) ?? (await evaluate(prepared, format, generation, key, arrived, res)),
    });
  };

  /**
   * Runs a query in the store under the concurrency cap, with the deadline counted from `arrived`; with the
   * result cache on, joins an identical query already running on `generation` and keeps the answer.
   */
  const evaluate = async (prepared: Readonly<PreparedQuery>, format: ResultFormat, generation: string | undefined, key: string, arrived: number, res: Response): Promise<string> => {
    // A response closed before it finished: the client went away. (An answered one closes too: nothing to do.)
    const gone = new Cancellation();
    res.once('close', () => {
      if (!res.writableFinished) gone.cancel();
    });
    // A shared run takes the deadline of the request that starts it; requests joining it arrived later.
    const run = (abandon: Cancellation): Promise<GenerationAnswer> =>
      gate.run(
        arrived + deadlineMs,
        deadlineMs,
        async (remainingMs) => {
          // The generation the answer comes from: the one served when the query is sent.
          const served = store.generation?.id;
          const body = await store.query(prepared.text, {
            format: format.storeFormat,
            deadlineMs: remainingMs,
            unionDefaultGraph: prepared.unionDefaultGraph,
            label: `sparql-${prepared.form}`,
          });
          return { body, generation: served };
        },
        () => abandon.signal,
      );
    try {
      return results !== undefined && generation !== undefined ? await results.run(generation, key, gone, run) : (await run(gone)).body;
    } catch (err) {
      throw storeFailure(err, deadlineMs);
    }
  };

  const router = Router();
  router.use('/assets', assetRoutes());
  router.all('/', limitQueries, express.raw({ type: () => true, limit: MAX_BODY }), answer);
  return router;
}

