/**
 * The query editor page answered to a browser at /sparql (Accept: text/html): YASGUI, served from this
 * service's own files (no CDN), with the example queries as buttons. The page queries the URL it was
 * loaded from, so it works behind any host name.
 */
import { escapeHtml, scriptJson } from '../pages/html.js';
import { EXAMPLE_QUERIES } from './examples.js';

/** Path (under the endpoint) where the editor's scripts and styles are served. */
export const ASSETS_PATH = '/sparql/assets';


/** The editor page. */
export function editorPage(options: { title: string; deadlineMs: number; maxRows: number }): string {
  const buttons = EXAMPLE_QUERIES.map(
    (e) => `<button type="button" class="example" data-example="${escapeHtml(e.id)}">${escapeHtml(e.title)}</button>`,
  ).join('\n        ');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${escapeHtml(options.title)}</title>
    <link rel="stylesheet" href="${ASSETS_PATH}/yasgui.min.css">
    <link rel="stylesheet" href="${ASSETS_PATH}/editor.css">
  </head>
  <body>
    <header>
      <h1>${escapeHtml(options.title)}</h1>
      <p>Read-only SPARQL 1.1 endpoint over the public records. Each record is a named graph; without FROM the
        default graph is the union of them all. Queries stop after ${options.deadlineMs / 1000} s and return at most
        ${options.maxRows} rows. <a href="/v2/">DCAT catalog</a> · dumps: <a href="/v2/dumps/collection.nq.gz">collection.nq.gz</a></p>
      <nav aria-label="Example queries">
        ${buttons}
      </nav>
    </header>
    <main id="yasgui"></main>
    <script type="application/json" id="sparql-examples">${scriptJson(EXAMPLE_QUERIES)}</script>
    <script src="${ASSETS_PATH}/yasgui.min.js"></script>
    <script src="${ASSETS_PATH}/editor.js"></script>
  </body>
</html>
`;
}
