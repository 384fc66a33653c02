/**
 * GET /v2/id/objects (spec, "Objects collection"): parse the query, take the total and the page's ids from
 * the generation's collection index, fetch and shape the page's members with one query, send the Hydra
 * envelope with its Link header.
 */
import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../app-context.js';
import { buildCollectionIndex } from '../collection-index/build.js';
import { OBJECT_FILTERS } from '../collection-index/filters/index.js';
import { CollectionIndexes } from '../collection-index/index-manager.js';
import { JSON_LD_CONTENT_TYPE } from '../http/json-ld.js';
import { negotiateRepresentation, sendRdf, serialiseNQuads, varyOnAccept } from '../http/negotiation.js';
import { documentToNQuads, type JsonObject } from '../shaping/jsonld.js';
import { collectionDocument, linkHeader, pageLinks, type PageRequest } from '../shaping/collection.js';
import { parseObjectsQuery } from './collection-params.js';
import { ObjectMembers } from './objects-collection-members.js';

/** A request retries once when the store swapped generations between the index and the page query. */
const ATTEMPTS = 3;

/** The objects collection router (mounted under /v2). */
export function objectsCollectionRoutes(ctx: AppContext): Router {
  const router = Router();
  const indexes = new CollectionIndexes(
    async (generationId) => {
      const index = await buildCollectionIndex({ store: ctx.store, queries: ctx.queries, iris: ctx.iris, filters: OBJECT_FILTERS }, generationId);
      ctx.logger.info({ generation: generationId, ...index.report }, 'collection index built');
      return index;
    },
    () => ctx.store.generation?.id,
  );
  const members = new ObjectMembers(ctx);
  const warm = (): void => indexes.warm((err) => ctx.logger.error({ err }, 'collection index build failed'));
  // Build as soon as a generation serves, when the store announces it (StoreManager does); else on first use.
  const events = ctx.store as Partial<Pick<NodeJS.EventEmitter, 'on'>>;
  if (typeof events.on === 'function') {
    events.on.call(ctx.store, 'ready', warm);
    events.on.call(ctx.store, 'swap', warm);
  }
  if (ctx.store.ready()) warm();

  router.get('/id/objects', async (req: Request, res: Response) => {
    const query = parseObjectsQuery(req.query);
    const offset = (query.page - 1) * query.itemsPerPage;
    for (let attempt = 1; ; attempt++) {
      const index = await indexes.current();
      const slice = index.select({ filters: query.filters, text: query.text, sort: query.sort, offset, limit: query.itemsPerPage });
      const bodies = query.fullRecord ? await members.fullRecords(slice.iris, index.generationId) : await members.stubs(slice.iris, index.generationId);
      // The page queries carry no admin check: the ids are servable in the index's generation, so the store
      // must still serve that generation once they are answered.
      if (bodies === undefined || ctx.store.generation?.id !== index.generationId) {
        if (attempt < ATTEMPTS) continue;
        throw new Error('the page changed generation on every attempt');
      }
      const page: PageRequest = {
        collection: ctx.iris.collection('objects'),
        page: query.page,
        itemsPerPage: query.itemsPerPage,
        total: slice.total,
        params: query.linkParams,
      };
      const links = pageLinks(page);
      const document = collectionDocument(page, links, bodies);
      const representation = negotiateRepresentation(req);
      varyOnAccept(res);
      res.setHeader('Link', linkHeader(links));
      if (representation.kind === 'rdf') {
        // The same graph as the JSON-LD page (envelope and members), in the syntax asked for.
        const nquads = await documentToNQuads(JSON.parse(document) as JsonObject);
        sendRdf(res, representation.syntax, await serialiseNQuads(nquads, representation.syntax));
        return;
      }
      res.setHeader('Content-Type', JSON_LD_CONTENT_TYPE);
      res.send(document);
      return;
    }
  });

  return router;
}
