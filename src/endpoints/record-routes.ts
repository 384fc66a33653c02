/**
 * The single-record endpoint of a kind (`GET|HEAD /v2/id/<kind>/{PID}` and any alias path the kind declares).
 * The handler reads like the spec: parse, look up, shape, send; 301 for redirected and 410 for removed
 * records, 404 for unknown, private or unhealthy ones (the service never confirms that a non-public record
 * exists). JSON-LD by default; Turtle, N-Triples, N-Quads or RDF/XML of the record's CONSTRUCT graph on
 * request, each with its own ETag (a digest of its bytes: src/records/records.ts), `Vary: Accept` and 304 on
 * either validator.
 */
import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../engine/app-context.js';
import type { ResourceKind } from '../engine/kind.js';
import { sharedIndexes } from '../engine/indexes.js';
import type { RecordTable } from '../collection-index/record-table.js';
import { BadRequestError, GoneError, NotFoundError } from '../http/errors.js';
import { sendAnswer } from '../http/answer.js';
import { weakEtag } from '../http/caching.js';
import { alternatesLinkHeader, pageLanguage, viewContext } from '../pages/negotiation.js';
import { kindName } from '../pages/messages.js';
import type { JsonObject } from '../shaping/jsonld.js';
import { linkedCards } from './linked-records.js';
import { recordPage } from '../pages/record-page.js';
import { messagePage } from '../pages/error-page.js';
import type { JsonNode } from '../pages/jsonld-view.js';
import { JSON_LD_CONTENT_TYPE } from '../http/json-ld.js';
import { HTML_CONTENT_TYPE, negotiateRepresentation, rdfContentType, representationEtag, serialiseQuads, varyOnAccept } from '../http/negotiation.js';
import { isValidPid } from '../vocab/iris.js';
import { canonicalGraph } from '../records/canonical-graph.js';
import { recordBody, recordBodyEtag, recordEtag, sharedRecords } from '../records/records.js';
import { booleanParam } from '../collection-index/filters/params.js';

/** The body of a 410 (reference/error-bodies.json, object_410). */
const removedMessage = (noun: string): string => `This ${noun} has been permanently removed from our collection.`;

const REDIRECT_MESSAGE = {
  merged: (noun: string, to: string) => `This ${noun} has been merged into ${to}.`,
  renumbered: (noun: string, to: string) => `This ${noun} has been renumbered to ${to}.`,
  withdrawn: (noun: string, to: string) => `This ${noun} has been withdrawn; its record continues as ${to}.`,
} as const;

/** The records the kind relates to the record `iri`, with their labels, from the served generation's index. */
async function relatedRecords<T extends RecordTable>(ctx: AppContext, kind: ResourceKind<T>, iri: string): Promise<{ href: string; label: string; why: string }[]> {
  const index = await sharedIndexes(ctx, kind).forRequest();
  const id = index.table.idOf.get(iri);
  if (id === undefined || kind.related === undefined) return [];
  return kind.related(index.table, id, RELATED_ON_PAGE).map((r) => ({
    href: index.table.iris[r.id]!.slice(ctx.iris.base.length),
    label: r.label,
    why: r.why,
  }));
}

/** Related records a page shows. */
const RELATED_ON_PAGE = 8;

/** Routes under /v2 for the single records of `kind`. */
export function recordRoutes<T extends RecordTable>(ctx: AppContext, kind: ResourceKind<T>): Router {
  const router = Router();
  const records = sharedRecords(ctx, kind);
  const { record: declaration } = kind;

  const handler = async (req: Request, res: Response): Promise<void> => {
    const pid = String(req.params.pid);
    if (!isValidPid(kind.kind, pid)) throw new BadRequestError(declaration.messages.invalidPid);
    declaration.parseQuery?.(req.query);
    const view = declaration.view !== undefined && booleanParam(req.query, declaration.view.param) === true;

    const found = await records.lookup(pid);
    switch (found.kind) {
      case 'redirect': {
        const message = REDIRECT_MESSAGE[found.state](kind.kind, found.toPid);
        res.status(301).location(found.to);
        varyOnAccept(res);
        if (negotiateRepresentation(req, { pages: true }).kind === 'html') {
          res.setHeader('Content-Type', HTML_CONTENT_TYPE);
          res.end(messagePage(301, message, { href: found.to.slice(ctx.iris.base.length), text: found.to }, pageLanguage(req, res)));
          return;
        }
        res.json({ message, resolved: found.to });
        return;
      }
      case 'removed':
        throw new GoneError(removedMessage(kind.kind));
      case 'notFound':
        throw new NotFoundError(declaration.messages.notFound);
      case 'found': {
        const representation = negotiateRepresentation(req, { pages: true });
        varyOnAccept(res);
        const { record } = found;
        const lastModified = await records.lastModified(pid, record);
        const iri = ctx.iris.record(kind.kind, pid);
        // Every answer names the others (docs/html.md); the page also links them for people.
        const headers = { Link: alternatesLinkHeader(iri) };
        if (representation.kind === 'html') {
          // The page shows everything the record has: the kind's view (objects' colours) included.
          const lang = pageLanguage(req, res);
          const related = kind.related === undefined ? [] : await relatedRecords(ctx, kind, iri);
          const document = JSON.parse(recordBody(record, declaration.view !== undefined)) as JsonNode;
          const body = recordPage(document, {
            ...viewContext(ctx),
            path: iri.slice(ctx.iris.base.length),
            noun: kindName(kind.kind, lang),
            lang,
            related,
            ...(kind.facts !== undefined ? { facts: kind.facts(document as JsonObject, lang) } : {}),
            linked: await linkedCards(ctx, kind, pid, document, lang),
          });
          await sendAnswer(req, res, { validators: { etag: weakEtag(body), lastModified }, cacheControl: declaration.cacheControl, contentType: HTML_CONTENT_TYPE, headers, body });
          return;
        }
        if (representation.kind === 'rdf') {
          // The whole stored graph in a fixed form (src/records/canonical-graph.ts), whose digest is the tag.
          const graph = await canonicalGraph(await records.constructRecord(iri));
          await sendAnswer(req, res, {
            validators: { etag: representationEtag(recordEtag(pid, record.lastModified, graph.digest), representation), lastModified },
            cacheControl: declaration.cacheControl,
            contentType: rdfContentType(representation.syntax),
            headers,
            // N-Quads name the record's graph, which holds every statement of the answer (record.rq).
            body: () => serialiseQuads(graph.quads, representation.syntax, iri),
          });
          return;
        }
        // The view is another document, with its own tag.
        await sendAnswer(req, res, {
          validators: { etag: recordBodyEtag(record, view), lastModified },
          cacheControl: declaration.cacheControl,
          contentType: JSON_LD_CONTENT_TYPE,
          headers,
          body: () => recordBody(record, view),
        });
      }
    }
  };
  for (const path of declaration.paths) router.get(path, handler);
  return router;
}
