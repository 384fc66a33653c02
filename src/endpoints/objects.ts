/**
 * Object endpoints under /v2. Handlers read like the spec: parse, query, shape, send; caching, errors and
 * negotiation live in src/http.
 */
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import type { AppContext } from '../app-context.js';
import { BadRequestError, GoneError, NotFoundError } from '../http/errors.js';
import { isNotModified, recordCacheHeaders } from '../http/caching.js';
import { JSON_LD_CONTENT_TYPE } from '../http/json-ld.js';
import { negotiateRepresentation, representationEtag, sendRdf, serialiseNQuads, varyOnAccept } from '../http/negotiation.js';
import { isValidPid } from '../vocab/iris.js';
import { sharedObjectRecords } from '../records/object-record.js';

/** Exact texts of reference/error-bodies.json. */
export const OBJECT_NOT_FOUND = 'Object not found';
export const OBJECT_REMOVED = 'This object has been permanently removed from our collection.';

const REDIRECT_MESSAGE = {
  merged: (to: string) => `This object has been merged into ${to}.`,
  renumbered: (to: string) => `This object has been renumbered to ${to}.`,
  withdrawn: (to: string) => `This object has been withdrawn; its record continues as ${to}.`,
} as const;

const booleanFlag = z
  .enum(['true', 'false', '1', '0'])
  .optional()
  .transform((value) => value === 'true' || value === '1');

const ObjectQuery = z.object({ colors: booleanFlag }).loose();

/** Reads and validates the query string of the single-object endpoint. */
function parseObjectQuery(req: Request): z.infer<typeof ObjectQuery> {
  const parsed = ObjectQuery.safeParse(req.query);
  if (!parsed.success) throw new BadRequestError('Invalid colors value. Use true or false.');
  return parsed.data;
}

/** Routes under /v2 for objects. */
export function objectRoutes(ctx: AppContext): Router {
  const router = Router();
  const records = sharedObjectRecords(ctx);

  router.get('/id/object/:pid', async (req: Request, res: Response) => {
    const pid = String(req.params.pid);
    if (!isValidPid('object', pid)) throw new BadRequestError('Invalid object number.');
    parseObjectQuery(req);

    const found = await records.lookup(pid);
    switch (found.kind) {
      case 'redirect':
        res.status(301).location(found.to).json({ message: REDIRECT_MESSAGE[found.state](found.toPid), resolved: found.to });
        return;
      case 'removed':
        throw new GoneError(OBJECT_REMOVED);
      case 'notFound':
        throw new NotFoundError(OBJECT_NOT_FOUND);
      case 'found': {
        // JSON-LD by default; Turtle, N-Triples, N-Quads or RDF/XML of the record's CONSTRUCT graph on request.
        const representation = negotiateRepresentation(req);
        varyOnAccept(res);
        const validators = { etag: representationEtag(found.record.etag, representation), lastModified: found.record.lastModified };
        recordCacheHeaders(res, validators);
        if (isNotModified(req, validators)) {
          res.status(304).end();
          return;
        }
        if (representation.kind === 'rdf') {
          const nquads = await records.constructRecord(ctx.iris.object(pid));
          sendRdf(res, representation.syntax, await serialiseNQuads(nquads, representation.syntax));
          return;
        }
        res.setHeader('Content-Type', JSON_LD_CONTENT_TYPE);
        res.send(found.record.body);
      }
    }
  });

  return router;
}
