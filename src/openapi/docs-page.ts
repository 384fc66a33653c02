/**
 * The human documentation page at /docs: Swagger UI rendering /openapi.json, served from this service's own
 * files (swagger-ui-dist in node_modules, no CDN). Nothing on the page fetches from another host: the
 * validator badge is off (`validatorUrl: null`), there is no top bar to load another document from, and the
 * OpenAPI document holds no external reference.
 */

import { escapeHtml, scriptJson } from '../pages/html.js';

/** Path where the page's scripts and styles are served. */
export const DOCS_ASSETS_PATH = '/docs/assets';


export interface DocsPageOptions {
  title: string;
  /** Path of the OpenAPI document on this host. */
  documentPath: string;
}

/** The documentation page. */
export function docsPage(options: DocsPageOptions): string {
  const config = { url: options.documentPath };
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${escapeHtml(options.title)}</title>
    <link rel="stylesheet" href="${DOCS_ASSETS_PATH}/swagger-ui.css">
    <link rel="stylesheet" href="${DOCS_ASSETS_PATH}/docs.css">
  </head>
  <body>
    <header>
      <h1>${escapeHtml(options.title)}</h1>
      <p>The machine-readable description is <a href="${escapeHtml(options.documentPath)}">${escapeHtml(options.documentPath)}</a> (OpenAPI 3.1).
        Also: <a href="/v2/">DCAT catalog</a> · <a href="/sparql">SPARQL editor</a> · <a href="/v2/dumps/collection.nq.gz">N-Quads dump</a> · <a href="/">home</a></p>
    </header>
    <main id="swagger-ui"></main>
    <script type="application/json" id="docs-config">${scriptJson(config)}</script>
    <script src="${DOCS_ASSETS_PATH}/swagger-ui-bundle.js"></script>
    <script src="${DOCS_ASSETS_PATH}/docs.js"></script>
  </body>
</html>
`;
}
