/**
 * `/`, the root of the service. A browser (an Accept header that prefers text/html) gets a small page for
 * people: what the service is and where to go. Every other client (JSON-LD clients, curl's `*∕*`, no Accept
 * at all) keeps the 302 to the DCAT catalog at /v2/, the entry point of the API. Both say `Vary: Accept`.
 * The page is self-contained: no script, no external asset.
 */
import { Router } from 'express';
import type { RecordTable } from '../collection-index/record-table.js';
import { indexDatasets, type LandingLink } from '../engine/catalog-dataset.js';
import type { ResourceKind } from '../engine/kind.js';
import { sendAnswer } from '../http/answer.js';
import { weakEtag } from '../http/caching.js';
import { negotiate, varyOnAccept } from '../http/negotiation.js';

/** Offers in the server's order of preference: a tie, `*∕*` or no Accept goes to the catalog. */
const OFFERS = ['application/ld+json', 'application/json', 'text/html'] as const;
export const CATALOG_PATH = '/v2/';

interface Link extends LandingLink {
  href: string;
}

const API: readonly Link[] = [
  { href: '/docs', text: 'API documentation', note: 'every endpoint, parameter and response, rendered from the OpenAPI description' },
  { href: '/openapi.json', text: 'OpenAPI 3.1 description', note: 'the machine-readable contract of the API' },
  { href: '/v2/', text: 'DCAT catalog', note: 'the entry point of the REST API (JSON-LD): datasets, distributions and endpoints' },
  { href: '/sparql', text: 'SPARQL editor', note: 'query the public records with SPARQL 1.1, with example queries' },
  { href: '/v2/dumps/collection.nq.gz', text: 'N-Quads dump', note: 'the whole public collection in one gzip file, one named graph per record' },
];

const list = (links: readonly Link[]): string =>
  links.map((link) => `        <li><a href="${link.href}">${link.text}</a> <span>— ${link.note}</span></li>`).join('\n');

/** The landing page: its collections and indexes are those of `kinds`, with each kind's own texts. */
export function landingPage(kinds: readonly ResourceKind<RecordTable>[]): string {
  const collections = kinds.map((kind): Link => ({ href: `/v2/id/${kind.collection}`, ...kind.api.landing }));
  const indexes = indexDatasets(kinds).flatMap((d): Link[] => (d.landing === undefined ? [] : [{ href: `/v2/id/${d.name}`, ...d.landing }]));
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Design Museum Gent — collection as linked data</title>
    <link rel="alternate" type="application/ld+json" href="${CATALOG_PATH}" title="DCAT catalog">
    <link rel="service-desc" type="application/json" href="/openapi.json">
    <link rel="service-doc" type="text/html" href="/docs">
    <style>
      body { margin: 0 auto; max-width: 46rem; padding: 1.5rem; font-family: system-ui, sans-serif; line-height: 1.5; color: #1b1b1b; }
      h1 { font-size: 1.6rem; margin-bottom: 0.25rem; }
      h2 { font-size: 1.15rem; margin-top: 1.75rem; }
      ul { padding-left: 1.2rem; }
      li { margin: 0.3rem 0; }
      li span { color: #555; }
      code { background: #f3f3f3; padding: 0 0.25rem; border-radius: 3px; }
      form.search { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; margin-top: 1rem; }
      form.search input { min-width: 16rem; padding: 0.35rem 0.5rem; border: 1px solid #767676; border-radius: 4px; font: inherit; }
      form.search button { padding: 0.35rem 0.75rem; font: inherit; border-radius: 4px; border: 1px solid #0b5cad; background: #0b5cad; color: #fff; }
    </style>
  </head>
  <body>
    <header>
      <h1>Design Museum Gent — the collection as linked data</h1>
      <p>A read-only service that publishes the collection of a design museum — objects, the designers and
        producers behind them, exhibitions and the museum's thesaurus — as linked open data: JSON-LD in the
        CIDOC-CRM vocabulary (SKOS for thesaurus terms, Hydra for pagination), a SPARQL 1.1 endpoint and
        N-Quads dumps. Data licence: CC BY 4.0.</p>
    </header>
    <main>
      <form class="search" role="search" action="/v2/id/objects" method="get">
        <label for="q">Search the objects</label>
        <input id="q" type="search" name="q" placeholder="stoel, vaas, porselein…">
        <button type="submit">Search</button>
      </form>
      <p>Or browse the <a href="/v2/id/agents">agents</a>, <a href="/v2/id/exhibitions">exhibitions</a> and
        <a href="/v2/id/concepts">concepts</a>: every address of the API is also a page for people.</p>
      <h2>Start here</h2>
      <ul>
${list(API)}
      </ul>
      <h2>Collections</h2>
      <ul>
${list(collections)}
      </ul>
      <h2>Indexes</h2>
      <ul>
${list(indexes)}
      </ul>
      <h2>For programs</h2>
      <p>Send <code>Accept: application/ld+json</code>: this address then redirects to the catalog at
        <code>${CATALOG_PATH}</code>. Records are also served as Turtle, N-Triples, N-Quads and RDF/XML. The
        REST API is rate-limited per client; to take everything, use the dumps.</p>
    </main>
  </body>
</html>
`;
}

/** GET / (mount at the root). */
export function landingRoutes(kinds: readonly ResourceKind<RecordTable>[]): Router {
  const page = landingPage(kinds);
  const validators = { etag: weakEtag('landing', page) };
  const router = Router();
  router.get('/', async (req, res) => {
    varyOnAccept(res);
    if (negotiate(req, OFFERS) !== 'text/html') {
      res.redirect(302, CATALOG_PATH);
      return;
    }
    await sendAnswer(req, res, { validators, cacheControl: 'public, max-age=3600', contentType: 'text/html; charset=utf-8', body: page });
  });
  return router;
}
