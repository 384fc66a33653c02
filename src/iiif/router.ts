/**
 * The demo IIIF server, mounted by the app at `/iiif`: Image API 3.0 under `/3/<id>` and Presentation 3
 * manifests under `/manifest/<objectNumber>`. Access follows images.jsonl: "ok" images are served,
 * "restricted" ones answer 403 and "missing" or unlisted ones 404, for GET and HEAD alike. With `access`, only the images and manifests of objects public in the served
 * generation answer at all; every other id is a 404 (src/iiif/served-access.ts). Errors are thrown
 * as HttpErrors; the app's error handler (src/endpoints/error-handler.ts) turns them into `{error}` responses.
 */
import { join } from 'node:path';
import express, { type Request, type Router } from 'express';
import { IMAGES_FILE } from '../harvest/schema.js';
import { BadRequestError, ForbiddenError, NotFoundError, type HttpErrorOptions } from '../http/errors.js';
import { readImageList, type ImageSpec } from './image-list.js';
import { checkImageRequest, type ImageRequestParams } from './image-request.js';
import { ImageProcessing } from './image-processing.js';
import { loadManifests } from './manifest-catalogue.js';
import type { IiifAccess } from './served-access.js';
import { PRESENTATION_CONTEXT } from './manifest.js';
import { imageServiceUrl } from './urls.js';

export interface IiifRouterOptions {
  /** Folder of the rendered images (renderImages' outDir). */
  imageDir: string;
  /** Source export folder with images.jsonl and objects.jsonl. */
  sourceDir: string;
  /** Public base URL of the service (scheme, host, optional path); ids are `<baseUrl>/iiif/...`. */
  baseUrl: string;
  /**
   * The objects and images that may be served now (src/iiif/served-access.ts): those public in the served
   * generation. Absent: whatever the source export serves (a harvest's own checking server, unit tests).
   */
  access?: () => Promise<IiifAccess>;
}

const IMAGE_CONTEXT = 'http://iiif.io/api/image/3/context.json';
const IMAGE_PROFILE = 'http://iiif.io/api/image/3/level2.json';
/** Demo images change only with a new source export, which comes with a new router. */
const CACHE_IMAGE = 'public, max-age=86400';
const CACHE_MANIFEST = 'public, max-age=3600';
/** Access answers must not outlive a new export, and the harvest's HEAD checks must see the current state. */
const UNCACHED: HttpErrorOptions = { headers: { 'Cache-Control': 'no-store' } };

/** The IIIF router; it reads the source files once, on the first request that needs them. */
export function createIiifRouter(options: IiifRouterOptions): Router {
  const { imageDir, sourceDir, baseUrl, access } = options;
  const processing = new ImageProcessing(imageDir, baseUrl);
  const images = once(() => emptyIfAbsent(readImageList(join(sourceDir, IMAGES_FILE))));
  const manifests = once(async () => emptyIfAbsent(loadManifests(sourceDir, await images(), baseUrl)));
  const router = express.Router();

  router.use((_req, res, next) => {
    // Viewers fetch info.json, manifests and tiles from other origins (the app's CORS middleware also
    // answers preflights; this keeps the router correct on its own).
    res.set('Access-Control-Allow-Origin', '*');
    next();
  });

  /** The listed image `id` if it may be served; throws 404 or 403 otherwise. */
  const servable = async (id: string): Promise<ImageSpec> => {
    // An image of no object public in the served generation is as unknown as an unlisted id (404, not 403):
    // the answer must not confirm that a private object has images.
    if (access !== undefined && !(await access()).images.has(id)) throw new NotFoundError('Image not found', UNCACHED);
    const image = (await images()).get(id);
    if (!image || image.status === 'missing') throw new NotFoundError('Image not found', UNCACHED);
    if (image.status === 'restricted') throw new ForbiddenError('Access to this image is restricted', UNCACHED);
    return image;
  };

  router.get('/3/:id', async (req: Request<{ id: string }>, res) => {
    const image = await servable(req.params.id);
    // Image API 3.0 (URI syntax): the base URI should redirect (303) to the image information document.
    res.set('Cache-Control', CACHE_IMAGE).redirect(303, `${imageServiceUrl(baseUrl, image.id)}/info.json`);
  });

  router.get('/3/:id/info.json', async (req: Request<{ id: string }>, res) => {
    const image = await servable(req.params.id);
    const result = await processing.info(image);
    if (result.type !== 'content') throw new Error(`info.json of ${image.id}: ${JSON.stringify(result)}`);
    // Image API 3.0 (image information): JSON-LD only when the client asks for it, plain JSON otherwise.
    const jsonLd = req.accepts(['application/json', 'application/ld+json']) === 'application/ld+json';
    res
      .vary('Accept')
      .set('Cache-Control', CACHE_IMAGE)
      .type(jsonLd ? `application/ld+json;profile="${IMAGE_CONTEXT}"` : 'application/json')
      .send(result.body);
  });

  router.get('/3/:id/:region/:size/:rotation/:quality.:format', async (req: Request<ImageRequestParams & { id: string }>, res) => {
    const image = await servable(req.params.id);
    const { region, size, rotation, quality, format } = req.params;
    const params = { region, size, rotation, quality, format };
    const checked = checkImageRequest(image, params);
    if (!checked.ok) throw new BadRequestError(checked.message);
    const canonical = `${imageServiceUrl(baseUrl, image.id)}/${checked.canonicalPath}`;
    res.set('Link', `<${canonical}>;rel="canonical", <${IMAGE_PROFILE}>;rel="profile"`).set('Cache-Control', CACHE_IMAGE);

    if (req.method === 'HEAD') {
      // A HEAD (the harvest's image validation) must not cost a decode; the file's presence is enough.
      if (!(await processing.isRendered(image))) throw new NotFoundError('Image not found', UNCACHED);
      return void res.type(checked.contentType).end();
    }
    const result = await processing.derivative(image, params);
    if (result.type === 'content') return void res.type(result.contentType).send(result.body);
    if (result.type === 'error' && result.statusCode === 404) throw new NotFoundError('Image not found', UNCACHED);
    if (result.type === 'error' && result.statusCode === 400) throw new BadRequestError(result.message);
    throw new Error(`image ${image.id} ${checked.canonicalPath}: ${JSON.stringify(result)}`);
  });

  router.get('/3/:id/*rest', async (req: Request<{ id: string }>) => {
    await servable(req.params.id);
    throw new BadRequestError('Not an Image API 3.0 request: expected {region}/{size}/{rotation}/{quality}.{format} or info.json');
  });

  router.get('/manifest/:objectNumber', async (req: Request<{ objectNumber: string }>, res) => {
    const { objectNumber } = req.params;
    // The source's flags are the export's; the served generation decides what is public now.
    const allowed = access === undefined || (await access()).objects.has(objectNumber);
    const manifest = allowed ? (await manifests()).get(objectNumber) : undefined;
    if (manifest === undefined) throw new NotFoundError('Manifest not found', UNCACHED);
    res.set('Cache-Control', CACHE_MANIFEST).type(`application/ld+json;profile="${PRESENTATION_CONTEXT}"`).send(manifest);
  });

  return router;
}

/** Without images.jsonl (objects.jsonl) the server simply has no images (manifests): every id answers 404. */
async function emptyIfAbsent<V>(load: Promise<Map<string, V>>): Promise<Map<string, V>> {
  try {
    return await load;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw err;
  }
}

/** Runs `load` once and shares its result; a failure is not kept, so the next call tries again. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () =>
    (pending ??= load().catch((err: unknown) => {
      pending = undefined;
      throw err;
    }));
}
