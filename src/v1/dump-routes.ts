/**
 * `/dump/{objects|agents|exhibitions|concepts}` (spec, Deprecated v1 interface): a JSON-LD array of every
 * public record of a kind as v1 shapes it, behind an API key. It is streamed a hundred records at a time from
 * the collection index and the shared record cache, so memory does not grow with the collection; a generation
 * swap during the download cuts it (a truncated array is never passed off as whole). Private objects are not
 * in it: they are served by the private stream only.
 */
import { Router, type Request, type Response } from 'express';
import { UnprocessableEntityError } from '../http/errors.js';
import { JSON_LD_CONTENT_TYPE } from '../http/json-ld.js';
import { V1_COLLECTIONS } from './kinds.js';
import type { V1Pages } from './pages.js';
import type { V1Links } from './shaping/links.js';

/** Records fetched and written per step. */
const CHUNK = 100;

export const UNKNOWN_DUMP = 'There is no data dump for this type. Use objects, agents, exhibitions or concepts.';

/** Writes `text`, waiting when the client reads slower than the dump is made (or until it goes away). */
async function write(res: Response, text: string): Promise<void> {
  if (res.write(text)) return;
  await new Promise<void>((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** The dump route (mounted under /v1, behind requireApiKey). */
export function dumpRoutes(pages: V1Pages, links: V1Links): Router {
  const router = Router();
  router.get('/dump/:type', async (req: Request, res: Response) => {
    const type = String(req.params.type);
    if (!Object.hasOwn(V1_COLLECTIONS, type)) throw new UnprocessableEntityError(UNKNOWN_DUMP);
    const kind = V1_COLLECTIONS[type as keyof typeof V1_COLLECTIONS];
    const kindPages = pages.of(kind);
    const index = await kindPages.indexes.forRequest();
    res.setHeader('Content-Type', JSON_LD_CONTENT_TYPE);
    res.setHeader('Content-Disposition', `attachment; filename=dmg-api-${type}-dump.json`);
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    const { iris } = index.table;
    await write(res, '[');
    for (let start = 0; start < iris.length; start += CHUNK) {
      const records = await kindPages.records(iris.slice(start, start + CHUNK), index.generationId, true);
      if (records === undefined) throw new Error('the generation changed during the dump');
      const text = records.map((record) => JSON.stringify(kind.full(links, record, true))).join(',');
      await write(res, start === 0 ? text : `,${text}`);
      if (res.destroyed) return;
    }
    res.end(']');
  });
  return router;
}
