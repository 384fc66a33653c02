/**
 * The frame of every page for people (docs/html.md): the museum's name linking home, a search box over the
 * objects, the page's own content, and the links to the same resource for programs, as `<link rel="alternate">`
 * in the head and as plain links in the footer. One stylesheet, `public/pages/pages.css`, served from this
 * service (no CDN, no script): a museum restyles every page by replacing that file.
 */
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Router } from 'express';
import { html, type Html } from './html.js';
import { say, type PageLanguage } from './messages.js';

/** The stylesheet's path (served by pageAssetRoutes). */
export const PAGES_CSS = '/assets/pages/pages.css';
/** The deep-zoom viewer: OpenSeadragon and the page's own script that starts it. */
export const OSD_SCRIPT = '/assets/pages/openseadragon/openseadragon.min.js';
export const VIEWER_SCRIPT = '/assets/pages/viewer.js';

/** The folder of `file`, a file of an installed package (its assets are served from there: no copy, no CDN). */
export const packageFolder = (file: string): string => dirname(createRequire(import.meta.url).resolve(file));

/** GET routes for named files of local folders (a page's scripts and styles; no CDN), cached for a day. */
export function staticFileRoutes(sources: readonly { dir: string; files: readonly string[] }[]): Router {
  const router = Router();
  const options = { maxAge: '1d', dotfiles: 'allow' } as const;
  for (const { dir, files } of sources) {
    for (const file of files) router.get(`/${file}`, (_req, res, next) => res.sendFile(join(dir, file), options, (err) => err && next(err)));
  }
  return router;
}

const PUBLIC_DIR = fileURLToPath(new URL('../../public/pages', import.meta.url));
/** OpenSeadragon's build in node_modules (served as is: no copy, no CDN). */
const OSD_DIR = packageFolder('openseadragon/build/openseadragon/openseadragon.min.js');

/** GET /assets/pages/*: the pages' stylesheet and viewer script, OpenSeadragon and its button images (mount at /assets/pages). */
export const pageAssetRoutes = (): Router => {
  const router = staticFileRoutes([{ dir: PUBLIC_DIR, files: ['pages.css', 'viewer.js'] }]);
  router.use('/openseadragon', staticFileRoutes([{ dir: OSD_DIR, files: ['openseadragon.min.js'] }]));
  router.use('/openseadragon/images', staticFileRoutes([{ dir: join(OSD_DIR, 'images'), files: readdirSync(join(OSD_DIR, 'images')).filter((f) => f.endsWith('.png')) }]));
  return router;
};

/** Another representation of the page's resource. */
export interface Alternate {
  href: string;
  /** Media type. */
  type: string;
  /** What a person reads on the link (JSON-LD, Turtle, …). */
  title: string;
}

export interface PageOptions {
  title: string;
  /** Scripts of this service the page needs (paths), loaded at the end of the body. */
  scripts?: readonly string[];
  /** The page's language: its own words (messages.ts) and `<html lang>`. */
  lang: PageLanguage;
  main: Html;
  alternates?: readonly Alternate[];
  /** The search box's value, when the page is a search. */
  query?: string;
}

/** A complete HTML document. */
export function page(options: PageOptions): string {
  const alternates = options.alternates ?? [];
  const { lang } = options;
  return html`<!doctype html>
<html lang="${options.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} — Design Museum Gent</title>
<link rel="stylesheet" href="${PAGES_CSS}">
${alternates.map((a) => html`<link rel="alternate" type="${a.type}" href="${a.href}" title="${a.title}">\n`)}</head>
<body>
<header class="site">
<a class="home" href="/">Design Museum Gent <span>${say('tagline', lang)}</span></a>
<form class="search" role="search" action="/v2/id/objects" method="get">
<label for="site-q">${say('searchObjects', lang)}</label>
<input id="site-q" type="search" name="q" value="${options.query ?? ''}" placeholder="${say('searchPlaceholder', lang)}">
<button type="submit">${say('search', lang)}</button>
</form>
</header>
<main>
${options.main}
</main>
<footer>
${alternates.length > 0 ? html`<p>${say('forPrograms', lang)}: ${alternates.map((a, i) => html`${i > 0 ? ', ' : ''}<a href="${a.href}" type="${a.type}">${a.title}</a>`)}.</p>` : ''}
<p><a href="/docs">${say('apiDocs', lang)}</a> · <a href="/sparql">SPARQL</a> · <a href="/v2/">${say('catalog', lang)}</a> · ${say('licence', lang)}</p>
</footer>
${(options.scripts ?? []).map((src) => html`<script src="${src}"></script>
`)}</body>
</html>
`.text;
}
