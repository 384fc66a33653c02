/**
 * /sparql: the SPARQL 1.1 Protocol query endpoint over the public store (docs/sparql.md). The handler reads
 * like the protocol: read the operation, apply the endpoint's policy, negotiate the answer's format, run the
 * query under the concurrency cap and the deadline, send. A GET without a query is answered with the query
 * editor (browsers) or the service description (RDF clients). Mount outside /v2: it has its own rate limit
 * and accepts POST.
 */
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import type { AppContext } from '../app-context.js';
import { isNotModified, sendNotModified, weakEtag } from '../http/caching.js';
import { staticFileRoutes } from '../http/html.js';
import { BadRequestError, GatewayTimeoutError, MethodNotAllowedError, NotAcceptableError, ServiceUnavailableError } from '../http/errors.js';
import { negotiate, rdfContentType, serialiseQuads, varyOnAccept, type RdfSyntax } from '../http/negotiation.js';
import { v2RateLimit } from '../http/rate-limit.js';
import { editorPage } from '../sparql/editor-page.js';
import { readOperation } from '../sparql/protocol-request.js';
import { deadlineMessage, QueryGate } from '../sparql/query-gate.js';
import { prepareQuery } from '../sparql/query-policy.js';
import { contentTypeOf, offersFor } from '../sparql/result-formats.js';
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
  /** Queries allowed to wait for a slot (default four per concurrent slot). */
  maxQueued?: number;
}

/** Translates store failures into the endpoint's answers (400, 503, 504) with messages a researcher can act on. */
function storeFailure(err: unknown, deadlineMs: number): unknown {
  if (err instanceof QueryDeadlineError) return new GatewayTimeoutError(deadlineMessage(deadlineMs), { cause: err });
  if (err instanceof StoreUnavailableError) {
    return new ServiceUnavailableError(
      err.retryAfterSeconds,
      `The SPARQL store is not answering now (it restarts after a query past its deadline, or loads new data); retry in ${err.retryAfterSeconds} s.`,
      { cause: err },
    );
  }
  if (err instanceof QueryError) return new BadRequestError(`The query could not be evaluated: ${err.message}`, { cause: err });
  return err;
}

/** The directory of the YASGUI build in node_modules (served as is: no copy, no CDN). */
function yasguiBuildDir(): string {
  const require = createRequire(import.meta.url);
  return dirname(require.resolve('@zazuko/yasgui/build/yasgui.min.js'));
}

const PUBLIC_DIR = fileURLToPath(new URL('../../public/sparql', import.meta.url));

/** Static files of the editor: YASGUI's build and this service's own script and styles. */
const assetRoutes = (): Router =>
  staticFileRoutes([
    { dir: yasguiBuildDir(), files: ['yasgui.min.js', 'yasgui.min.css', 'yasgui.min.js.map'] },
    { dir: PUBLIC_DIR, files: ['editor.js', 'editor.css'] },
  ]);

/** Routes of /sparql (mount at /sparql). */
export function sparqlRoutes(ctx: AppContext, options: SparqlRouteOptions): Router {
  const { store } = options;
  const { baseUrl, sparqlTimeoutMs: deadlineMs, sparqlMaxRows: maxRows, sparqlMaxConcurrent } = ctx.config;
  const endpoint = `${baseUrl}/sparql`;
  const gate = new QueryGate(sparqlMaxConcurrent, options.maxQueued ?? 4 * sparqlMaxConcurrent);
  const limiter = v2RateLimit(options.rateLimitPerMinute ?? ctx.config.rateLimitPerMinute, ctx.logger);
  // Only queries count against the limit: the editor page, its assets and the description are free.
  const limitQueries: RequestHandler = (req, res, next) => (req.method === 'POST' || req.originalUrl.includes('query=') ? limiter(req, res, next) : next());

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
    const prepared = prepareQuery(operation.query, operation, { baseIri: endpoint, maxRows });
    const offers = offersFor(prepared.form);
    const mediaType = negotiate(req, offers.map((o) => o.mediaType));
    const format = offers.find((o) => o.mediaType === mediaType);
    if (format === undefined) {
      throw new NotAcceptableError(`A ${prepared.form.toUpperCase()} answer is available as ${offers.map((o) => o.mediaType).join(', ')}.`);
    }
    // Same generation, same query, same format: the same answer, so a client may revalidate without a re-run.
    const etag = weakEtag('sparql', store.generation?.id ?? '', format.mediaType, String(prepared.unionDefaultGraph), prepared.text);
    res.setHeader('ETag', etag);
    if (prepared.rowCapApplied) res.setHeader(MAX_ROWS_HEADER, String(maxRows));
    if (isNotModified(req, { etag })) {
      sendNotModified(res);
      return;
    }

    const gone = new AbortController();
    res.once('close', () => gone.abort());
    let body: string;
    try {
      body = await gate.run(
        arrived + deadlineMs,
        deadlineMs,
        (remainingMs) =>
          store.query(prepared.text, {
            format: format.storeFormat,
            deadlineMs: remainingMs,
            unionDefaultGraph: prepared.unionDefaultGraph,
            label: `sparql-${prepared.form}`,
          }),
        gone.signal,
      );
    } catch (err) {
      throw storeFailure(err, deadlineMs);
    }
    res.setHeader('Content-Type', contentTypeOf(format));
    res.send(body);
  };

  const router = Router();
  router.use('/assets', assetRoutes());
  router.all('/', limitQueries, express.raw({ type: () => true, limit: MAX_BODY }), answer);
  return router;
}

