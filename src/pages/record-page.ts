/**
 * The page for people of one record, rendered from the same shaped JSON-LD document programs get (no second
 * query path): its title in the page's language with the other languages beside it, its images, then every
 * property it has (jsonld-view.ts), and links to the same record as JSON-LD, Turtle, N-Triples, N-Quads,
 * RDF/XML and, for an object, its IIIF manifest.
 */
import type { RecordFact } from '../engine/page-declarations.js';
import { cardList, type CardOptions } from './cards.js';
import { html, type Html } from './html.js';
import { hrefOf, imageFigure, isImageUrl, isNode, labelOf, linkOf, list, properties, type JsonNode, type ViewContext } from './jsonld-view.js';
import { OSD_SCRIPT, page, VIEWER_SCRIPT, type Alternate } from './layout.js';
import { PAGE_LANGUAGES, say, type PageLanguage } from './messages.js';
import { titlesOf } from './record-titles.js';

/** The representations of a record besides the page, as links (`?format=`) and Link headers. */
export const RECORD_FORMATS = [
  { format: 'jsonld', type: 'application/ld+json', title: 'JSON-LD' },
  { format: 'ttl', type: 'text/turtle', title: 'Turtle' },
  { format: 'nt', type: 'application/n-triples', title: 'N-Triples' },
  { format: 'nq', type: 'application/n-quads', title: 'N-Quads' },
  { format: 'rdf', type: 'application/rdf+xml', title: 'RDF/XML' },
] as const;


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
function gallery(record: JsonNode, ctx: ViewContext & { lang: PageLanguage }): { html: Html; zoom: boolean; shown: ReadonlySet<string> } {
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
        : html`<p class="external-image"><a href="${href}">${say('portraitOn', ctx.lang)} ${new URL(href).host})</a></p>`,
    );
  }
  const shown = new Set(images.map((node) => node['@id'] as string));
  if (figures.length === 0) return { html: html``, zoom: false, shown };
  const viewer = zoomable.length > 0 ? html`<div id="viewer" class="viewer" role="region" aria-label="${say('deepZoom', ctx.lang)}" data-sources="${JSON.stringify(zoomable)}" hidden></div>` : '';
  return { html: html`<section class="gallery" aria-label="${say('images', ctx.lang)}">${figures}</section>${viewer}`, zoom: zoomable.length > 0, shown };
}

/** Records another collection has for this one, as cards: the first of them, and how many there are in all. */
export interface LinkedCards {
  title: string;
  records: readonly JsonNode[];
  /** What each record is to this one (a role), by position. */
  notes: readonly (string | undefined)[];
  total: number;
  /** Every one of them, where a collection lists them (`/v2/id/objects?agent=…`). */
  all?: string;
  /** The facts of a record of their kind, for the cards. */
  facts?: CardOptions['facts'];
}

export interface RecordPageOptions extends ViewContext {
  /** The record's path on this service (`/v2/id/object/…`). */
  path: string;
  /** What the record is, for people (Object, Agent, …), in the page's language. */
  noun: string;
  lang: PageLanguage;
  /** Related records, with what they share (objects: docs/similar.md). */
  related?: readonly { href: string; label: string; why: string }[];
  /** The record's key facts (its kind's `facts`). */
  facts?: readonly RecordFact[];
  /** Records of other collections that name this one, or that it names, as cards. */
  linked?: readonly LinkedCards[];
}

/** The key facts at the top of the page: what a person looks for first (maker, date, materials, …). */
function keyFacts(facts: readonly RecordFact[], options: RecordPageOptions): Html {
  const shown = facts.filter((fact) => fact.values.length > 0 && fact.card !== 'only');
  if (shown.length === 0) return html``;
  const value = (v: RecordFact['values'][number]): Html => {
    const link = v.iri !== undefined ? linkOf(v.iri, options) : undefined;
    return html`${link !== undefined ? html`<a href="${link}">${v.text}</a>` : v.text}${v.note !== undefined ? html` <span class="fact-note">(${v.note})</span>` : ''}`;
  };
  return html`<section class="key-facts" aria-label="${say('keyFacts', options.lang)}"><dl>${shown.map(
    (fact) => html`<dt>${fact.label[options.lang]}</dt><dd>${fact.values.map((v, i) => html`${i > 0 ? ', ' : ''}${value(v)}`)}</dd>`,
  )}</dl></section>`;
}

/** The linked records' sections: a heading with their number, their cards, a link to all of them. */
function linkedSections(options: RecordPageOptions): Html {
  const sections = (options.linked ?? []).filter((linked) => linked.records.length > 0);
  return html`${sections.map(
    (linked) => html`<section class="linked"><h2>${linked.title} <span class="count">${String(linked.total)}</span></h2>${cardList(linked.records, { bases: options.bases, serves: options.serves, lang: options.lang, ...(linked.facts !== undefined ? { facts: linked.facts } : {}) }, linked.notes)}${
      linked.all !== undefined && linked.total > linked.records.length ? html`<p><a href="${linked.all}">${say('showAll', options.lang)} ${String(linked.total)}</a></p>` : ''
    }</section>`,
  )}`;
}

/** The page of `record` (its shaped JSON-LD document). */
export function recordPage(record: JsonNode, options: RecordPageOptions): string {
  const titles = titlesOf(record);
  const title = titles.get(options.lang) ?? labelOf(record) ?? (record['@id'] as string);
  const others = PAGE_LANGUAGES.filter((l) => l.tag !== options.lang && titles.has(l.tag) && titles.get(l.tag) !== title);
  const type = list(record['@type']).filter((t): t is string => typeof t === 'string');
  const alternates = recordAlternates(options.path, record);
  const { lang } = options;
  const images = gallery(record, options);
  const main = html`<article class="record">
<p class="kind">${options.noun} · <code>${type.join(', ')}</code></p>
<h1>${title}</h1>
${others.length > 0 ? html`<ul class="other-titles">${others.map((l) => html`<li lang="${l.tag}"><small class="lang">${l.tag}</small> ${titles.get(l.tag)}</li>`)}</ul>` : ''}
<p class="iri">URI: <a href="${hrefOf(record['@id'] as string, options)}">${record['@id'] as string}</a></p>
${keyFacts(options.facts ?? [], options)}
${images.html}
${linkedSections(options)}
${options.related !== undefined && options.related.length > 0 ? html`<section class="related"><h2>${say('related', lang)}</h2><ul>${options.related.map((r) => html`<li><a href="${r.href}">${r.label}</a> <span class="why">${say('same', lang)} ${r.why}</span></li>`)}</ul><p><a href="${options.path}/similar">${say('allRelated', lang)}</a></p></section>` : ''}
<section aria-label="${say('everything', lang)}">
<h2>${say('everything', lang)}</h2>
${properties(record, { ...options, shown: images.shown })}
</section>
</article>`;
  return page({ title, lang: options.lang, main, alternates, ...(images.zoom ? { scripts: [OSD_SCRIPT, VIEWER_SCRIPT] } : {}) });
}
