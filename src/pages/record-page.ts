/**
 * The page for people of one record, rendered from the same shaped JSON-LD document programs get (no second
 * query path): its title in the page's language with the other languages beside it, its images, then every
 * property it has (jsonld-view.ts), and links to the same record as JSON-LD, Turtle, N-Triples, N-Quads,
 * RDF/XML and, for an object, its IIIF manifest.
 */
import { html, type Html } from './html.js';
import { hrefOf, imageFigure, isImageUrl, isNode, labelOf, list, properties, type JsonNode, type ViewContext } from './jsonld-view.js';
import { OSD_SCRIPT, page, VIEWER_SCRIPT, type Alternate } from './layout.js';

/** The languages records are written in, by the codes their nodes use. */
export const PAGE_LANGUAGES = [
  { tag: 'nl', code: 'NLD', name: 'Nederlands' },
  { tag: 'en', code: 'ENG', name: 'English' },
  { tag: 'fr', code: 'FRA', name: 'Français' },
] as const;
export type PageLanguage = (typeof PAGE_LANGUAGES)[number]['tag'];

/** The representations of a record besides the page, as links (`?format=`) and Link headers. */
export const RECORD_FORMATS = [
  { format: 'jsonld', type: 'application/ld+json', title: 'JSON-LD' },
  { format: 'ttl', type: 'text/turtle', title: 'Turtle' },
  { format: 'nt', type: 'application/n-triples', title: 'N-Triples' },
  { format: 'nq', type: 'application/n-quads', title: 'N-Quads' },
  { format: 'rdf', type: 'application/rdf+xml', title: 'RDF/XML' },
] as const;


/** The record's titles by language: appellations with a language, else SKOS preferred labels. */
export function titlesOf(record: JsonNode): Map<PageLanguage, string> {
  const titles = new Map<PageLanguage, string>();
  for (const node of list(record['crm:P1_is_identified_by']).filter(isNode)) {
    if (!list(node['@type']).includes('crm:E41_Appellation')) continue;
    const language = list(node['crm:P72_has_language']).find(isNode)?.['@id'];
    const lang = PAGE_LANGUAGES.find((l) => typeof language === 'string' && language.endsWith(`/${l.code}`));
    const label = typeof node['rdfs:label'] === 'string' ? node['rdfs:label'] : undefined;
    if (lang !== undefined && label !== undefined && !titles.has(lang.tag)) titles.set(lang.tag, label);
  }
  for (const label of list(record['skos:prefLabel']).filter(isNode)) {
    const lang = PAGE_LANGUAGES.find((l) => l.tag === label['@language']);
    if (lang !== undefined && typeof label['@value'] === 'string' && !titles.has(lang.tag)) titles.set(lang.tag, label['@value']);
  }
  return titles;
}

/** The IIIF manifest of an object, when it has one. */
export function manifestOf(record: JsonNode): string | undefined {
  for (const node of list(record['crm:P129i_is_subject_of']).filter(isNode)) {
    const id = node['@id'];
    if (typeof id === 'string' && /manifest/i.test(id)) return id;
  }
  return undefined;
}

/** The alternates of the record at `path` (a path on this service). */
export function recordAlternates(path: string, record?: JsonNode): Alternate[] {
  const formats: Alternate[] = RECORD_FORMATS.map((f) => ({ href: `${path}?format=${f.format}`, type: f.type, title: f.title }));
  const manifest = record === undefined ? undefined : manifestOf(record);
  if (manifest !== undefined) formats.push({ href: manifest, type: 'application/ld+json;profile="http://iiif.io/api/presentation/3/context.json"', title: 'IIIF manifest' });
  return formats;
}

/** A full image of a IIIF Image API server at a path of this service: its base is the first group. */
const IIIF_IMAGE = /^(\/iiif\/3\/[^/]+)\/full\/[^/]+\/0\/default\.jpg$/;

/**
 * The images a person sees first: representations (objects, exhibition views), the poster, an agent's thumbnail;
 * and whether the deep-zoom viewer is on the page.
 */
function gallery(record: JsonNode, ctx: ViewContext): { html: Html; zoom: boolean; shown: ReadonlySet<string> } {
  const images = [...list(record['crm:P138i_has_representation']), ...list(record['crm:P65_shows_visual_item'])].filter(
    (node): node is JsonNode => isNode(node) && typeof node['@id'] === 'string' && isImageUrl(node['@id']),
  );
  const figures = images.map((node) => imageFigure(node, ctx));
  // The deep-zoom viewer takes the images this service's IIIF server holds (their info.json).
  const zoomable = images.map((node) => hrefOf(node['@id'] as string, ctx)).filter((href) => IIIF_IMAGE.test(href)).map((href) => href.replace(IIIF_IMAGE, '$1/info.json'));
  // A thumbnail of another site (an agent's encyclopedia portrait) is linked, not loaded: a page asks nothing of
  // third parties on its reader's behalf.
  if (typeof record.thumbnail === 'string') {
    const href = hrefOf(record.thumbnail, ctx);
    figures.push(
      href.startsWith('/')
        ? html`<figure><img src="${href}" alt="${labelOf(record) ?? ''}" loading="lazy"></figure>`
        : html`<p class="external-image"><a href="${href}">Portrait (on ${new URL(href).host})</a></p>`,
    );
  }
  const shown = new Set(images.map((node) => node['@id'] as string));
  if (figures.length === 0) return { html: html``, zoom: false, shown };
  const viewer = zoomable.length > 0 ? html`<div id="viewer" class="viewer" role="region" aria-label="Deep zoom of the images" data-sources="${JSON.stringify(zoomable)}" hidden></div>` : '';
  return { html: html`<section class="gallery" aria-label="Images">${figures}</section>${viewer}`, zoom: zoomable.length > 0, shown };
}

export interface RecordPageOptions extends ViewContext {
  /** The record's path on this service (`/v2/id/object/…`). */
  path: string;
  /** What the record is, for people (Object, Agent, …). */
  noun: string;
  lang: PageLanguage;
  /** Related records, with what they share (objects: docs/similar.md). */
  related?: readonly { href: string; label: string; why: string }[];
}

/** The page of `record` (its shaped JSON-LD document). */
export function recordPage(record: JsonNode, options: RecordPageOptions): string {
  const titles = titlesOf(record);
  const title = titles.get(options.lang) ?? labelOf(record) ?? (record['@id'] as string);
  const others = PAGE_LANGUAGES.filter((l) => l.tag !== options.lang && titles.has(l.tag) && titles.get(l.tag) !== title);
  const type = list(record['@type']).filter((t): t is string => typeof t === 'string');
  const alternates = recordAlternates(options.path, record);
  const images = gallery(record, options);
  const main = html`<article class="record">
<p class="kind">${options.noun} · <code>${type.join(', ')}</code></p>
<h1>${title}</h1>
${others.length > 0 ? html`<ul class="other-titles">${others.map((l) => html`<li lang="${l.tag}"><small class="lang">${l.tag}</small> ${titles.get(l.tag)}</li>`)}</ul>` : ''}
<p class="iri">URI: <a href="${hrefOf(record['@id'] as string, options)}">${record['@id'] as string}</a></p>
${images.html}
${options.related !== undefined && options.related.length > 0 ? html`<section class="related"><h2>Related</h2><ul>${options.related.map((r) => html`<li><a href="${r.href}">${r.label}</a> <span class="why">same ${r.why}</span></li>`)}</ul>${
  options.noun === 'Object' ? html`<p><a href="${options.path}/similar">All related objects (JSON-LD)</a></p>` : ''
}</section>` : ''}
<section aria-label="Everything the record says">
${properties(record, { ...options, shown: images.shown })}
</section>
</article>`;
  return page({ title, lang: options.lang, main, alternates, ...(images.zoom ? { scripts: [OSD_SCRIPT, VIEWER_SCRIPT] } : {}) });
}
