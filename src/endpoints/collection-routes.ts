/**
 * The collection endpoint of a kind (`GET /v2/id/objects`, `/agents`, `/exhibitions`, `/concepts`): parse the
 * query, take the total and the page's ids from the generation's collection index, fetch and shape the page's
 * members with one query, send the Hydra envelope with its Link header (or the page's graph in an RDF syntax).
 * The ETag is a digest of the answer's bytes (a 304 is decided once the page is built); Last-Modified is the
 * serving generation's time.
 */
import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../engine/app-context.js';
import type { RecordTable } from '../collection-index/record-table.js';
import { sharedIndexes } from '../engine/indexes.js';
import type { ResourceKind } from '../engine/kind.js';
import { JSON_LD_CONTENT_TYPE } from '../http/json-ld.js';
import { sendAnswer } from '../http/answer.js';
import { weakEtag } from '../http/caching.js';
import { documentBody, HTML_CONTENT_TYPE, negotiateRepresentation, rdfContentType, varyOnAccept } from '../http/negotiation.js';
import { collectionDocument, linkHeader, pageLinks, type PageRequest } from '../shaping/collection.js';
import { parseCollectionQuery } from './collection-params.js';
import { CollectionMembers } from './collection-members.js';
import { collectionAlternates, collectionPage } from '../pages/collection-page.js';
import { facetViews } from '../pages/facets.js';
import type { JsonNode } from '../pages/jsonld-view.js';
import { collectionName, pageLanguage } from '../pages/messages.js';
import { viewContext } from '../pages/negotiation.js';

/** A request is tried up to this many times when the store swapped generations between the index and the page query. */
const ATTEMPTS = 3;

/** The collection router of `kind` (mounted under /v2). */
export function collectionRoutes<T extends RecordTable>(ctx: AppContext, kind: ResourceKind<T>): Router {
  const router = Router();
  const indexes = sharedIndexes(ctx, kind);
  const members = new CollectionMembers(ctx, kind);
  const collection = ctx.iris.collection(kind.collection);

  router.get(`/id/${kind.collection}`, async (req: Request, res: Response) => {
    const query = parseCollectionQuery(req.query, kind.index, kind.record.view?.param);
    const offset = (query.page - 1) * query.itemsPerPage;
    for (let attempt = 1; ; attempt++) {
      const index = await indexes.forRequest();
      const slice = index.select({ filters: query.filters, text: query.text, sort: query.sort, offset, limit: query.itemsPerPage });
      const page: PageRequest = { collection, page: query.page, itemsPerPage: query.itemsPerPage, total: slice.total, params: query.linkParams };
      const links = pageLinks(page);
      const representation = negotiateRepresentation(req, { pages: true });
      varyOnAccept(res);
      // A page for people shows its members as cards, made from the full records.
      const full = query.fullRecord || representation.kind === 'html';
      const bodies = full ? await members.fullRecords(slice.iris, index.generationId, query.view) : await members.stubs(slice.iris, index.generationId);
      // The page queries carry no admin check: the ids are servable in the index's generation, so the store
      // must still serve that generation once they are answered.
      if (bodies === undefined || ctx.store.generation?.id !== index.generationId) {
        if (attempt < ATTEMPTS) continue;
        throw new Error('the page changed generation on every attempt');
      }
      const document = collectionDocument(page, links, bodies);
      if (representation.kind === 'html') {
        const path = collection.slice(ctx.iris.base.length);
        const lang = pageLanguage(req, res);
        const body = collectionPage(JSON.parse(document) as JsonNode, {
          ...viewContext(ctx),
          lang,
          path,
          title: collectionName(kind.collection, lang),
          params: query.linkParams,
          facets: facetViews(kind, index, query.filters, query.text, lang),
          sortKeys: kind.index.sortKeys,
          ...(kind.facts !== undefined ? { facts: kind.facts } : {}),
        }, collectionAlternates(path, query.linkParams, query.page, query.itemsPerPage));
        const generation = ctx.store.generation;
        await sendAnswer(req, res, {
          validators: { etag: weakEtag(body), lastModified: generation?.id === index.generationId ? new Date(generation.created) : undefined },
          contentType: HTML_CONTENT_TYPE,
          headers: { Link: linkHeader(links) },
          body,
        });
        return;
      }
      // In an RDF syntax, the same graph as the JSON-LD page (envelope and members).
      const body = await documentBody(document, representation);
      // The tag is a digest of the bytes, so it changes exactly when they do (a new generation that leaves the
      // page as it was keeps it); Last-Modified is the serving generation's time, never earlier than the last
      // change. A revalidation builds the page (from the record cache when warm) to compare.
      const generation = ctx.store.generation;
      await sendAnswer(req, res, {
        validators: { etag: weakEtag(body), lastModified: generation?.id === index.generationId ? new Date(generation.created) : undefined },
        contentType: representation.kind === 'rdf' ? rdfContentType(representation.syntax) : JSON_LD_CONTENT_TYPE,
        headers: { Link: linkHeader(links) },
        body,
      });
      return;
    }
  });

  return router;
}
