/**
 * A shaped JSON-LD document as HTML, for people: every property of the node with a readable name, nodes that
 * name a resource as links (the service's own resources by their path, so the page works on any host), images
 * as thumbnails, colours as swatches, language-tagged texts with their language. Generic on purpose: every kind
 * shows all it serves, and a new property appears without a template change (its name humanised until it gets
 * one in PROPERTY_NAMES, messages.ts).
 */
import { html, type Html, type HtmlValue } from './html.js';
import { PROPERTY_NAMES, say, type PageLanguage } from './messages.js';

export type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };
export type JsonNode = { readonly [key: string]: Json };

/** Keys a page never lists as properties (the document's machinery, or shown elsewhere on the page). */
const HIDDEN = new Set(['@context', '@id', '@type', 'image']);

/** `crm:P45_consists_of` → Materialen / Materials / Matériaux; a property without a name → `consists of`. */
export const propertyName = (key: string, lang: PageLanguage = 'en'): string =>
  PROPERTY_NAMES[key]?.[lang] ??
  key
    .replace(/^[a-z]+:/, '')
    .replace(/^[A-Z]+\d+[a-z]?_/, '')
    .replace(/_/g, ' ');

export interface ViewContext {
  /** The language of the page's own words (messages.ts); English when not given. */
  lang?: PageLanguage;
  /** Base URLs whose paths this service serves (BASE_URL first): IRIs under them are linked by their path. */
  bases: readonly string[];
  /**
   * Whether this service answers a path of its own (a record, an image); the nodes inside a record
   * (`…/production/1`, `…/identifier/objectnummer`) have IRIs too, but nothing is served there.
   */
  serves(path: string): boolean;
  /** Images the page shows already (its gallery): named and described where the record lists them, not shown again. */
  shown?: ReadonlySet<string>;
}

/** The href of an IRI: its path when it is under one of the service's bases, else the IRI. */
export function hrefOf(iri: string, ctx: Pick<ViewContext, 'bases'>): string {
  const base = ctx.bases.find((b) => iri.startsWith(`${b}/`));
  return base === undefined ? iri : iri.slice(base.length);
}

/** The href of an IRI a page may link: another site's IRI, or a path the service answers; else undefined. */
export function linkOf(iri: string, ctx: ViewContext): string | undefined {
  const href = hrefOf(iri, ctx);
  return !href.startsWith('/') || ctx.serves(href) ? href : undefined;
}

/** True for a JSON-LD node object (not a value, a list or a literal). */
export const isNode = (value: Json): value is JsonNode => typeof value === 'object' && value !== null && !Array.isArray(value);
/** A value as a list: none for a missing or null value, the items of an array, else the value alone. */
export const list = (value: Json | undefined): readonly Json[] => (value === undefined || value === null ? [] : Array.isArray(value) ? value : [value as Json]);
/** True when `id` names an image file or a full IIIF image (not a node inside a record, such as a colour item). */
export const isImageUrl = (id: string): boolean => /\.(jpe?g|png|webp)$|\/full\//i.test(id);
const typesOf = (node: JsonNode): string[] => list(node['@type']).filter((t): t is string => typeof t === 'string');

/** The text a person reads for a node: its label, a preferred label, a title's label, a value, or its IRI. */
export function labelOf(node: JsonNode): string | undefined {
  for (const key of ['rdfs:label', 'skos:prefLabel']) {
    for (const value of list(node[key])) {
      if (typeof value === 'string') return value;
      if (isNode(value) && typeof value['@value'] === 'string') return value['@value'];
    }
  }
  const title = list(node['crm:P102_has_title'])[0];
  if (title !== undefined && isNode(title)) return labelOf(title);
  if (node['crm:P90_has_value'] !== undefined) return String(node['crm:P90_has_value'] as string | number);
  return undefined;
}

const IMAGE_TYPES = new Set(['crm:E38_Image', 'crm:E36_Visual_Item']);
const HEX = /^#[0-9A-Fa-f]{6}$/;
const ABSOLUTE = /^https?:\/\//;

/** An image node: the thumbnail (or the image) linking to the image, with its note and rights. */
export function imageFigure(node: JsonNode, ctx: ViewContext): Html {
  const id = node['@id'] as string;
  const thumbnail = typeof node.thumbnail === 'string' ? node.thumbnail : id;
  const rights = list(node['crm:P104_is_subject_to']).find(isNode);
  const note = list(node['crm:P3_has_note']).find((n): n is string => typeof n === 'string');
  const src = hrefOf(thumbnail, ctx);
  // An image of another site is linked, not loaded: a page asks nothing of third parties on its reader's behalf.
  const lang = ctx.lang ?? 'en';
  const shown = src.startsWith('/') ? html`<img src="${src}" alt="${labelOf(node) ?? note ?? say('image', lang)}" loading="lazy">` : html`${say('imageOn', lang)} ${new URL(src).host}`;
  return html`<figure><a href="${hrefOf(id, ctx)}">${shown}</a>${
    note !== undefined || rights !== undefined
      ? html`<figcaption>${note}${rights !== undefined ? html` <a href="${hrefOf(rights['@id'] as string, ctx)}">${say('rights', lang)}</a>` : ''}</figcaption>`
      : ''
  }</figure>`;
}

/** One value of a property. */
function value(v: Json, ctx: ViewContext, depth: number): Html {
  if (v === null) return html``;
  if (typeof v === 'string') {
    if (HEX.test(v)) return html`<span class="swatch" style="background:${v}"></span> <code>${v}</code>`;
    const link = ABSOLUTE.test(v) ? linkOf(v, ctx) : undefined;
    return link !== undefined ? html`<a href="${link}">${v}</a>` : html`${v}`;
  }
  if (typeof v === 'number' || typeof v === 'boolean') return html`${String(v)}`;
  if (Array.isArray(v)) return html`${v.map((item) => html`<div>${value(item, ctx, depth)}</div>`)}`;
  const node = v as JsonNode;
  if ('@value' in node) {
    const lang = typeof node['@language'] === 'string' ? node['@language'] : undefined;
    return html`<span${lang !== undefined ? html` lang="${lang}"` : ''}>${String(node['@value'] as string | number)}</span>${lang !== undefined ? html` <small class="lang">${lang}</small>` : ''}`;
  }
  const id = typeof node['@id'] === 'string' ? node['@id'] : undefined;
  if (id !== undefined && typesOf(node).some((t) => IMAGE_TYPES.has(t)) && isImageUrl(id)) {
    if (!ctx.shown?.has(id)) return imageFigure(node, ctx);
    return html`<a href="${hrefOf(id, ctx)}">${labelOf(node) ?? say('image', ctx.lang ?? 'en')}</a> <small>(${say('shownAbove', ctx.lang ?? 'en')})</small>${properties(node, ctx, depth + 1, new Set(['rdfs:label']))}`;
  }
  const label = labelOf(node);
  const link = id !== undefined ? linkOf(id, ctx) : undefined;
  const head: HtmlValue = link !== undefined ? html`<a href="${link}">${label ?? id}</a>` : (label ?? '');
  const rest = properties(node, ctx, depth + 1, new Set(['rdfs:label']));
  return html`${head}${rest}`;
}

/** The properties of a node as a definition list (nested nodes indented), `skip` and the hidden keys left out. */
export function properties(node: JsonNode, ctx: ViewContext, depth = 0, skip: ReadonlySet<string> = new Set()): Html {
  const keys = Object.keys(node).filter((key) => !HIDDEN.has(key) && !skip.has(key) && list(node[key]).length > 0);
  if (keys.length === 0 || depth > 6) return html``;
  return html`<dl class="properties depth-${Math.min(depth, 3)}">${keys.map(
    (key) => html`<dt title="${key}">${propertyName(key, ctx.lang)}</dt><dd>${list(node[key]).map((v) => html`<div>${value(v, ctx, depth)}</div>`)}</dd>`,
  )}</dl>`;
}
