/**
 * GET /v2/changes (the OrderedCollection) and /v2/changes/page/{n} (its pages), mounted inside /v2 after the
 * readiness gate: a change is listed only once the service serves the generation it belongs to.
 *
 * Every page but the last is complete and can never change (the log is append-only, and a page's `next`
 * exists only once a later page does): strong ETag and a year of freshness. The collection and the last page
 * change with the next generation: revalidated on every use (`no-cache`), so a poller pays a 304.
 */
import { createHash } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../engine/app-context.js';
import { sendAnswer } from '../http/answer.js';
import { NotAcceptableError, NotFoundError } from '../http/errors.js';
import { negotiate, varyOnAccept } from '../http/negotiation.js';
import { ChangeFeed, DEFAULT_PAGE_SIZE } from '../changes/feed.js';
import type { RecordKinds } from '../vocab/record-kinds.js';

/** Media type of an Activity Streams document, as the IIIF Change Discovery API gives it. */
export const ACTIVITY_STREAMS_CONTENT_TYPE = 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"; charset=utf-8';
const CHANGES_OFFERS = ['application/ld+json', 'application/activity+json', 'application/json'] as const;
const CHANGES_NOT_ACCEPTABLE = 'The change feed is available as application/ld+json (Activity Streams, IIIF Change Discovery 1.0) only.';
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
export const REVALIDATE_CACHE_CONTROL = 'public, no-cache';

/** A page (or group) number of a path, 1 to 10 digits without a leading zero; NaN for anything else. */
export function pageNumber(raw: unknown): number {
  const text = String(raw);
  return /^[1-9]\d{0,9}$/.test(text) ? Number(text) : NaN;
}

export interface ChangeRouteOptions {
  /** Changes per page; DEFAULT_PAGE_SIZE unless given (tests use small pages). */
  pageSize?: number;
}

/** The change feed routes; mount inside /v2. */
export function changeRoutes(ctx: Pick<AppContext, 'config' | 'store'>, kinds: RecordKinds, options: ChangeRouteOptions = {}): Router {
  const feed = new ChangeFeed(ctx.config.dataDir, `${ctx.config.baseUrl}/v2/changes`, kinds, options.pageSize ?? DEFAULT_PAGE_SIZE);
  const served = (): string | undefined => ctx.store.generation?.id;

  const send = async (req: Request, res: Response, doc: unknown, immutable: boolean): Promise<void> => {
    // Activity Streams documents whose context is remote (IIIF Change Discovery): JSON-LD only, as the API says.
    varyOnAccept(res);
    if (negotiate(req, CHANGES_OFFERS) === undefined) throw new NotAcceptableError(CHANGES_NOT_ACCEPTABLE);
    const body = JSON.stringify(doc);
    await sendAnswer(req, res, {
      validators: { etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` },
      cacheControl: immutable ? IMMUTABLE_CACHE_CONTROL : REVALIDATE_CACHE_CONTROL,
      contentType: ACTIVITY_STREAMS_CONTENT_TYPE,
      body,
    });
  };

  const router = Router();
  router.get('/changes', async (req, res) => {
    await send(req, res, await feed.collection(served()), false);
  });
  router.get('/changes/page/:n', async (req, res) => {
    const n = pageNumber(req.params.n);
    const page = Number.isNaN(n) ? undefined : await feed.page(served(), n);
    if (page === undefined) throw new NotFoundError('No such page of changes');
    await send(req, res, page, page.next !== undefined);
  });
  return router;
}
