/**
 * The v1 single records (spec, Deprecated v1 interface): `/id/object/{identifier}` (`easy=true` for the
 * simplified view), `/id/agent/{PID}`, `/id/concept/{CONCEPT-PID}`, `/id/exhibition/{EXHIBITION-PID}`. The
 * record is v2's finished record from the shared cache, shaped for v1. Status codes as v1 gave them: 400 for a
 * malformed identifier, 422 for a well-formed one that names no published record (unknown, private or
 * unhealthy alike), 410 for a removed object; a merged, renumbered or withdrawn object is answered with the
 * record it continues as (v1 never redirected), its address in `Content-Location`.
 */
import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../engine/app-context.js';
import { sendAnswer } from '../http/answer.js';
import { RECORD_CACHE_CONTROL } from '../http/caching.js';
import { JSON_LD_CONTENT_TYPE } from '../http/json-ld.js';
import { BadRequestError, GoneError, UnprocessableEntityError } from '../http/errors.js';
import { sharedRecords, type FinishedRecord } from '../records/records.js';
import type { JsonObject } from '../shaping/jsonld.js';
import { isValidPid } from '../vocab/iris.js';
import { V1_AGENTS, V1_CONCEPTS, V1_EXHIBITIONS, V1_OBJECTS, type V1Kind } from './kinds.js';
import { parseFlag } from './params.js';
import { v1EasyObject } from './shaping/object.js';
import type { V1Links } from './shaping/links.js';

/** Exact body of reference/error-bodies.json (v1_object_410_special_path_removed). */
export const OBJECT_REMOVED_BODY = { 410: 'the object is permanently removed from our collection' } as const;

const removed = (): GoneError => new GoneError(OBJECT_REMOVED_BODY[410], { body: OBJECT_REMOVED_BODY });

/** Routes of the single records (mounted under /v1). */
export function recordRoutes(ctx: AppContext, links: V1Links): Router {
  const router = Router();

  const route = (kind: V1Kind): void => {
    const records = sharedRecords(ctx, kind.engine);

    /** The finished record of a pid, following a redirect once; with the pid it was found under. */
    const find = async (pid: string): Promise<{ record: FinishedRecord; pid: string }> => {
      const found = await records.lookup(pid);
      if (found.kind === 'found') return { record: found.record, pid };
      if (found.kind === 'removed') throw removed();
      if (found.kind === 'redirect') {
        const canonical = await records.lookup(found.toPid);
        if (canonical.kind === 'found') return { record: canonical.record, pid: found.toPid };
        if (canonical.kind === 'removed') throw removed();
      }
      throw new UnprocessableEntityError(kind.notPublished);
    };

    router.get(`/id/${kind.kind}/:pid`, async (req: Request, res: Response) => {
      const pid = String(req.params.pid);
      // The real v1 answered its special path /id/object/removed with this 410.
      if (kind === V1_OBJECTS && pid === 'removed') throw removed();
      if (!isValidPid(kind.kind, pid)) throw new BadRequestError(kind.engine.record.messages.invalidPid);
      const easy = kind === V1_OBJECTS && parseFlag(req.query, 'easy');
      const { record, pid: servedPid } = await find(pid);
      const headers = servedPid !== pid ? { 'Content-Location': links.page(kind.kind, servedPid) } : undefined;
      // v1 is made from the v2 view body: its tag follows that body's (src/records/records.ts).
      const validators = { etag: `${(record.viewEtag ?? record.etag).slice(0, -1)}-v1${easy ? '-easy' : ''}"`, lastModified: await records.lastModified(servedPid, record) };
      await sendAnswer(req, res, {
        validators,
        cacheControl: RECORD_CACHE_CONTROL,
        contentType: JSON_LD_CONTENT_TYPE,
        headers,
        body: () => {
          const v2 = JSON.parse(record.viewBody ?? record.body) as JsonObject;
          return JSON.stringify(easy ? v1EasyObject(links, v2) : kind.full(links, v2, true));
        },
      });
    });
  };
  for (const kind of [V1_OBJECTS, V1_AGENTS, V1_EXHIBITIONS, V1_CONCEPTS]) route(kind);
  return router;
}
