/**
 * The API description and its human page, outside /v2 (never rate-limited, served before the store is ready):
 *   - GET /openapi.json: the OpenAPI 3.1 document (src/openapi/document.ts), built once per app, with a weak
 *     ETag and 304; `application/json`, or `application/vnd.oai.openapi+json` to a client that prefers it;
 *   - GET /docs: Swagger UI rendering it, its scripts and styles from swagger-ui-dist in node_modules
 *     (/docs/assets/*), no CDN;
 *   - GET /api-docs: 301 to /docs (the museum service's own path of its documentation).
 */
import { fileURLToPath } from 'node:url';
import { Router, type RequestHandler } from 'express';
import type { AppContext } from '../engine/app-context.js';
import type { RecordTable } from '../collection-index/record-table.js';
import type { ResourceKind } from '../engine/kind.js';
import { sendAnswer } from '../http/answer.js';
import { weakEtag } from '../http/caching.js';
import { packageFolder, staticFileRoutes } from '../pages/layout.js';
import { negotiate, varyOnAccept } from '../http/negotiation.js';
import { buildOpenApiDocument } from './document.js';
import { docsPage } from './docs-page.js';

export const OPENAPI_PATH = '/openapi.json';
export const DOCS_PATH = '/docs';
const DOCUMENT_TYPES = ['application/json', 'application/vnd.oai.openapi+json'] as const;
const CACHE_CONTROL = 'public, max-age=3600';
const DOCS_TITLE = 'Design Museum Gent — Collection API v2';

const PUBLIC_DIR = fileURLToPath(new URL('../../public/docs', import.meta.url));

/** Static files of the page: Swagger UI's bundle and styles, and this service's own script and styles. */
const assetRoutes = (): Router =>
  staticFileRoutes([
    { dir: packageFolder('swagger-ui-dist/package.json'), files: ['swagger-ui-bundle.js', 'swagger-ui.css', 'swagger-ui-bundle.js.map', 'swagger-ui.css.map'] },
    { dir: PUBLIC_DIR, files: ['docs.js', 'docs.css'] },
  ]);

export interface ApiDocsOptions {
  kinds: readonly ResourceKind<RecordTable>[];
  /** Whether /sparql is mounted, so the document describes it. */
  sparql: boolean;
}

/** Routes of /openapi.json, /docs and /api-docs (mount at the root). */
export function apiDocsRoutes(ctx: Pick<AppContext, 'config'>, options: ApiDocsOptions): Router {
  const body = JSON.stringify(buildOpenApiDocument({ baseUrl: ctx.config.baseUrl, kinds: options.kinds, sparql: options.sparql }));
  const etag = weakEtag('openapi', body);
  const page = docsPage({ title: DOCS_TITLE, documentPath: OPENAPI_PATH });

  const sendDocument: RequestHandler = async (req, res) => {
    varyOnAccept(res);
    // Never 406: a client that accepts neither JSON type still gets the document as application/json.
    const type = negotiate(req, DOCUMENT_TYPES) ?? DOCUMENT_TYPES[0];
    await sendAnswer(req, res, { validators: { etag }, cacheControl: CACHE_CONTROL, contentType: `${type}; charset=utf-8`, body });
  };

  const router = Router();
  router.get(OPENAPI_PATH, sendDocument);
  router.use(`${DOCS_PATH}/assets`, assetRoutes());
  router.get(DOCS_PATH, (_req, res) => {
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Cache-Control', CACHE_CONTROL);
    res.send(page);
  });
  router.get('/api-docs', (_req, res) => res.redirect(301, DOCS_PATH));
  return router;
}
