/**
 * The curated v1 paths: `/pattern-api?collection=tegels|panelen`, the tiles (every type under the thesaurus term
 * `tegel`) or tile panels (under `tegeltableau`) with images, each member its object's `@id` and an IIIF crop
 * URL of its pattern region; and `/id/exhibitions/billboardseries`, the exhibitions of the billboard series
 * (titles matching "billboard"), as `{billboards: [...]}` like the real service.
 */
import { Router, type Request, type Response } from 'express';
import type { RawQuery } from '../collection-index/filters/filter.js';
import { textQuery } from '../endpoints/collection-params.js';
import type { ObjectTable } from '../kinds/objects/table.js';
import type { JsonObject } from '../shaping/jsonld.js';
import { objectFilters, V1_EXHIBITIONS, V1_OBJECTS } from './kinds.js';
import type { V1Pages } from './pages.js';
import { parseChoice, parsePaging } from './params.js';
import { sendJsonLd, sendPage } from './send.js';
import { imagesOf } from './shaping/object.js';
import type { V1Links } from './shaping/links.js';

/** The pattern collections and the thesaurus term (type label) each one lists, narrower terms included. */
export const PATTERN_COLLECTIONS = { tegels: 'tegel', panelen: 'tegeltableau' } as const;
type PatternCollection = keyof typeof PATTERN_COLLECTIONS;

/** The region of a pattern: the central quarter of the image, in IIIF percentages (x, y, width, height). */
export const PATTERN_REGION = 'pct:25,25,50,50';

/** The IIIF Image API URL of `region` of an image URL (`{prefix}/{region}/{size}/{rotation}/{quality}.{format}`). */
export function cropUrl(imageUrl: string, region = PATTERN_REGION): string {
  const parts = imageUrl.split('/');
  if (parts.length < 5) return imageUrl;
  parts[parts.length - 4] = region;
  return parts.join('/');
}

/** The most exhibitions the billboard series lists. */
const MAX_BILLBOARDS = 100;

/** Routes of the curated paths (mounted under /v1). */
export function curatedRoutes(pages: V1Pages, links: V1Links): Router {
  const router = Router();
  const objects = pages.of(V1_OBJECTS);
  const exhibitions = pages.of(V1_EXHIBITIONS);

  router.get('/pattern-api', async (req: Request, res: Response) => {
    const query = req.query as RawQuery;
    const collection = parseChoice(query, 'collection', Object.keys(PATTERN_COLLECTIONS) as PatternCollection[], 'tegels');
    const paging = parsePaging(query);
    const table = (await objects.indexes.forRequest()).table as unknown as ObjectTable;
    const term = table.typeTerms.get(PATTERN_COLLECTIONS[collection])?.concepts[0];
    // Without the term in this generation, its label selects nothing, which is the answer.
    const raw: Record<string, string> = term === undefined ? { type: PATTERN_COLLECTIONS[collection] } : { concept: term, hasImages: 'true' };
    await sendPage(res, {
      pages: objects,
      listing: { filters: objectFilters(raw) },
      paging,
      collection: links.url('/pattern-api'),
      params: [['collection', collection]],
      view: false,
      member: (record): JsonObject => {
        const image = imagesOf(record)[0];
        return { '@id': links.id('object', record), image: image === undefined ? null : cropUrl(image.url) };
      },
    });
  });

  router.get('/id/exhibitions/billboardseries', async (_req: Request, res: Response) => {
    const text = textQuery({ q: 'billboard' })!.text;
    const page = await exhibitions.page((index) => index.select({ filters: [], text, sort: { key: 'pid', direction: 'asc' }, offset: 0, limit: MAX_BILLBOARDS }), false);
    sendJsonLd(res, { billboards: page.records.map((record) => V1_EXHIBITIONS.full(links, record, false)) });
  });
  return router;
}
