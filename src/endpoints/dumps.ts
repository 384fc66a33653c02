/**
 * N-Quads dumps under /v2/dumps (docs/architecture.md, "Exact dumps": dumps are streamed from files):
 *   - collection.nq.gz: the served generation's public.nq.gz itself, the file the SPARQL store loads;
 *   - <collection>.nq.gz (objects.nq.gz, agents.nq.gz, …), one per kind: the record graphs of that kind
 *     (kind-dumps.ts writes them once per generation, on first request).
 * Every dump is sent from its file (never built in memory) with Range support, so a broken download resumes,
 * and validators of the generation: a strong ETag (the bytes of a generation never change) and its creation
 * time as Last-Modified. A generation swap changes both.
 */
import { Router, type NextFunction, type Request, type Response } from 'express';
import type { AppContext } from '../engine/app-context.js';
import { RECORD_CACHE_CONTROL } from '../http/caching.js';
import { NotFoundError, ServiceUnavailableError } from '../http/errors.js';
import { KindDumps, kindDumpFile } from '../sparql/kind-dumps.js';
import { generationFiles, readGeneration, type Generation } from '../store/generations.js';
import { generationKinds } from '../store/manifest.js';
import type { RecordKind } from '../vocab/iris.js';
import type { RecordKinds } from '../vocab/record-kinds.js';

/** Dump file names under /v2/dumps/ and the record kind each holds (undefined: the whole collection). */
export function dumpFiles(kinds: RecordKinds): ReadonlyMap<string, RecordKind | undefined> {
  return new Map<string, RecordKind | undefined>([['collection.nq.gz', undefined], ...kinds.list.map((k) => [`${k.collection}.nq.gz`, k.kind] as const)]);
}

/** How long a request waits for the per-kind files of a new generation before it is told to come back. */
const BUILD_WAIT_MS = 5_000;
const BUILD_RETRY_AFTER_S = 30;
/** Read size of a dump file (send passes it to fs.createReadStream): 1 MiB chunks rather than 64 KiB. */
const READ_CHUNK = 1 << 20;

// Validators are set by the handler; send() must not make its own from the file's mtime and size.
const SEND_OPTIONS = { etag: false, lastModified: false, cacheControl: false, acceptRanges: true, dotfiles: 'allow' as const, highWaterMark: READ_CHUNK };

/** Routes under /v2 for the dumps (mount after the readiness gate). */
export function dumpRoutes(ctx: Pick<AppContext, 'config' | 'store'>, kinds: RecordKinds): Router {
  const files = dumpFiles(kinds);
  const kindDumps = new KindDumps(ctx.config.dataDir);
  let known: Generation | undefined;

  /** The generation the REST store serves (its folder read once per generation). */
  const served = async (): Promise<Generation> => {
    const id = ctx.store.generation?.id;
    if (id === undefined) throw new ServiceUnavailableError(5, 'No generation is being served yet.');
    if (known?.id !== id) known = await readGeneration(ctx.config.dataDir, id);
    return known;
  };

  const sendDump = async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const name = String(req.params.name);
    if (!files.has(name)) throw new NotFoundError();
    const kind = files.get(name);
    const generation = await served();
    // A generation written before the kind was declared holds none of its records, and so no dump of them.
    if (kind !== undefined && !generationKinds(generation.manifest).includes(kind)) throw new NotFoundError();
    let file = generationFiles(generation.dir).public;
    if (kind !== undefined) {
      const building = kindDumps.ensure(generation);
      const waited = await Promise.race([building.then(() => true), new Promise<false>((r) => setTimeout(r, BUILD_WAIT_MS, false).unref())]);
      if (!waited) {
        throw new ServiceUnavailableError(BUILD_RETRY_AFTER_S, `The ${kind} dump of generation ${generation.id} is being prepared; retry shortly.`);
      }
      file = kindDumpFile(ctx.config.dataDir, generation.id, kind);
    }
    res.setHeader('ETag', `"${generation.id}-${name.replace('.nq.gz', '')}"`);
    res.setHeader('Last-Modified', new Date(generation.manifest.created).toUTCString());
    res.setHeader('Cache-Control', RECORD_CACHE_CONTROL);
    res.setHeader('Content-Type', 'application/gzip');
    res.setHeader('Content-Disposition', `attachment; filename="${name}"`);
    // send() answers 304, 206 and 416 itself, reading the validators set above (If-None-Match, If-Range).
    res.sendFile(file, SEND_OPTIONS, (err) => {
      if (err && !res.headersSent) next(err);
    });
  };

  const router = Router();
  router.get('/dumps/:name', sendDump);
  return router;
}
