/**
 * The v1 colour paths (spec, Deprecated v1 interface): `/colors/`, the colour tags (the base colours and named
 * tones the objects index knows), and `/color-api/{color}`, the objects showing a colour, paged like the other
 * v1 collections. A base colour selects with v2's `color` filter, any other value with its `cssColor` filter
 * (whole tone names, ignoring case); a colour no object shows is an empty collection.
 */
import { Router, type Request, type Response } from 'express';
import type { RawQuery } from '../collection-index/filters/filter.js';
import { BASE_COLORS } from '../colors/base-colors.js';
import { BadRequestError } from '../http/errors.js';
import type { ObjectTable } from '../kinds/objects/table.js';
import { objectFilters, V1_OBJECTS } from './kinds.js';
import type { V1Pages } from './pages.js';
import { parseFlag, parsePaging } from './params.js';
import { sendJsonLd, sendPage } from './send.js';
import type { V1Links } from './shaping/links.js';

/** Longest accepted colour in the path. */
const MAX_COLOR_LENGTH = 100;

/** The v2 parameter of a colour: `color` for a base colour, else `cssColor`. */
function colorParams(color: string): Record<string, string> {
  const lower = color.toLowerCase();
  return (BASE_COLORS as readonly string[]).includes(lower) ? { color: lower } : { cssColor: color };
}

/** Routes of the colour paths (mounted under /v1). */
export function colorRoutes(pages: V1Pages, links: V1Links): Router {
  const router = Router();
  const objects = pages.of(V1_OBJECTS);

  router.get('/colors', async (_req: Request, res: Response) => {
    const table = (await objects.indexes.forRequest()).table as unknown as ObjectTable;
    const bases = BASE_COLORS.filter((base) => (table.colors.bases.get(base)?.ids.length ?? 0) > 0);
    const tones = [...table.colors.tones.values()].filter((tone) => tone.ids.length > 0).map((tone) => tone.label).sort((a, b) => a.localeCompare(b, 'en'));
    sendJsonLd(res, { '@id': links.url('/colors'), 'rdfs:label': 'Colour tags', base_colors: bases, css_colors: tones });
  });

  router.get('/color-api/:color', async (req: Request, res: Response) => {
    const color = String(req.params.color).trim();
    if (color === '' || color.length > MAX_COLOR_LENGTH) throw new BadRequestError(`Invalid color: give a colour name of at most ${MAX_COLOR_LENGTH} characters.`);
    const query = req.query as RawQuery;
    const paging = parsePaging(query);
    const fullRecord = parseFlag(query, 'fullRecord');
    await sendPage(res, {
      pages: objects,
      listing: { filters: objectFilters(colorParams(color)) },
      paging,
      collection: links.url(`/color-api/${encodeURIComponent(color)}`),
      params: fullRecord ? [['fullRecord', 'true']] : [],
      view: true,
      member: (record) => (fullRecord ? V1_OBJECTS.full(links, record, true) : V1_OBJECTS.stub(links, record, true)),
    });
  });
  return router;
}
