/**
 * The v1 collections (spec, Deprecated v1 interface): `/id/objects` with `pageNumber`, `itemsPerPage`,
 * `fullRecord`, `license`, `onDisplay`, `hasImage` and `colors`; `/id/agents`, `/id/exhibitions` and
 * `/id/concepts` with `pageNumber`, `itemsPerPage` and `fullRecord`. The v2 filters of the objects index do the
 * selecting (`hasImage` is v2's `hasImages`, `onDisplay` the same three-state filter).
 */
import { Router, type Request, type Response } from 'express';
import type { RawQuery } from '../collection-index/filters/filter.js';
import { objectFilters, V1_AGENTS, V1_CONCEPTS, V1_EXHIBITIONS, V1_OBJECTS, type V1Kind } from './kinds.js';
import type { V1Pages } from './pages.js';
import { parseChoice, parseFlag, parseOptionalFlag, parsePaging } from './params.js';
import { sendPage } from './send.js';
import type { V1Links } from './shaping/links.js';

/** Values of `license`: v1 serves every licence together; the real service's per-licence keys are not served here. */
export const LICENSES = ['ALL'] as const;

/** The v2 parameters of a v1 request's `onDisplay` and `hasImage`. */
function v2Params(onDisplay: boolean | undefined, hasImage: boolean): Record<string, string> {
  const params: Record<string, string> = {};
  if (onDisplay !== undefined) params.onDisplay = String(onDisplay);
  if (hasImage) params.hasImages = 'true';
  return params;
}

/** Routes of the four collections (mounted under /v1). */
export function collectionRoutes(pages: V1Pages, links: V1Links): Router {
  const router = Router();

  router.get('/id/objects', async (req: Request, res: Response) => {
    const query = req.query as RawQuery;
    const paging = parsePaging(query);
    const fullRecord = parseFlag(query, 'fullRecord');
    const license = parseChoice(query, 'license', LICENSES, 'ALL');
    const onDisplay = parseOptionalFlag(query, 'onDisplay');
    const hasImage = parseFlag(query, 'hasImage');
    const colors = parseFlag(query, 'colors');
    const params: [string, string][] = [];
    if (fullRecord) params.push(['fullRecord', 'true']);
    if (query.license !== undefined) params.push(['license', license]);
    if (onDisplay !== undefined) params.push(['onDisplay', String(onDisplay)]);
    if (hasImage) params.push(['hasImage', 'true']);
    if (colors) params.push(['colors', 'true']);
    await sendPage(res, {
      pages: pages.of(V1_OBJECTS),
      listing: { filters: objectFilters(v2Params(onDisplay, hasImage)) },
      paging,
      collection: links.url('/id/objects'),
      params,
      view: colors,
      member: (record) => (fullRecord ? V1_OBJECTS.full(links, record, colors) : V1_OBJECTS.stub(links, record, colors)),
    });
  });

  const plain = (kind: V1Kind, path: string): void => {
    router.get(path, async (req: Request, res: Response) => {
      const query = req.query as RawQuery;
      const paging = parsePaging(query);
      const fullRecord = parseFlag(query, 'fullRecord');
      await sendPage(res, {
        pages: pages.of(kind),
        listing: {},
        paging,
        collection: links.url(path),
        params: fullRecord ? [['fullRecord', 'true']] : [],
        view: false,
        member: (record) => (fullRecord ? kind.full(links, record, false) : kind.stub(links, record, false)),
      });
    });
  };
  plain(V1_AGENTS, '/id/agents');
  plain(V1_EXHIBITIONS, '/id/exhibitions');
  plain(V1_CONCEPTS, '/id/concepts');
  return router;
}
