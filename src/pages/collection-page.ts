/**
 * The page for people of a collection page (`/v2/id/objects?…`, the other kinds alike): a search box over the
 * kind (`q`), the facets of the query with their counts (each link narrows the query by one more filter value),
 * the members of the page as links, and the page links. Rendered from the same Hydra document programs get.
 */
import { html, type Html } from './html.js';
import { withQuery } from '../collection-index/filters/query-string.js';
import { cardList, type CardOptions } from './cards.js';
import { hrefOf, isNode, list, type JsonNode } from './jsonld-view.js';
import { page, type Alternate } from './layout.js';
import { say, sortName } from './messages.js';
import { RECORD_FORMATS } from './record-page.js';

/** A facet's counted values under the current query. */
export interface FacetView {
  param: string;
  title: string;
  /** Whether a second value joins the first (comma: both) or replaces it. */
  combines: boolean;
  values: readonly { label: string; count: number }[];
}

export interface CollectionPageOptions extends CardOptions {
  /** The collection's path (`/v2/id/objects`). */
  path: string;
  /** What the collection holds, for people (Objects, Agents, …). */
  title: string;
  /** The request's parameters in link order, page and itemsPerPage left out. */
  params: readonly [string, string][];
  facets: readonly FacetView[];
  /** The sort keys of the kind (the first is the default). */
  sortKeys: readonly string[];
}


/** The query with `param` narrowed by `value` (a second value of a combining facet: both, comma-joined). */
function narrowed(params: readonly [string, string][], param: string, value: string, combines: boolean): [string, string][] {
  const current = params.find(([k]) => k === param)?.[1];
  const next = current === undefined || !combines ? value : current.split(',').includes(value) ? current : `${current},${value}`;
  return [...params.filter(([k]) => k !== param), [param, next]];
}

function facetList(facet: FacetView, options: CollectionPageOptions): Html {
  if (facet.values.length === 0) return html``;
  const active = (options.params.find(([k]) => k === facet.param)?.[1] ?? '').toLowerCase().split(',');
  return html`<section class="facet"><h2>${facet.title}</h2><ul>${facet.values.map((v) =>
    // A value the query already has is shown, not linked: following it would change nothing.
    active.includes(v.label.toLowerCase())
      ? html`<li class="active"><strong>${v.label}</strong> <span class="count">${v.count}</span></li>`
      : html`<li><a href="${withQuery(options.path, narrowed(options.params, facet.param, v.label, facet.combines))}">${v.label}</a> <span class="count">${v.count}</span></li>`,
  )}</ul></section>`;
}

function pager(document: JsonNode, options: CollectionPageOptions): Html {
  const view = list(document['hydra:view']).find(isNode);
  if (view === undefined) return html``;
  const { lang } = options;
  const link = (key: string, text: string, rel?: string): Html => {
    const href = view[key];
    return typeof href === 'string' ? html`<a href="${hrefOf(href, options)}"${rel !== undefined ? html` rel="${rel}"` : ''}>${text}</a>` : html`<span>${text}</span>`;
  };
  return html`<nav class="pager" aria-label="${say('pages', lang)}">${link('hydra:first', say('first', lang))} ${link('hydra:previous', say('previous', lang), 'prev')} ${link('hydra:next', say('next', lang), 'next')} ${link('hydra:last', say('last', lang))}</nav>`;
}

/** The page's query as JSON-LD and in the RDF syntaxes (`format`), for the page's links. */
export function collectionAlternates(path: string, params: readonly [string, string][], pageNumber: number, itemsPerPage: number): Alternate[] {
  const query: [string, string][] = [['page', String(pageNumber)], ['itemsPerPage', String(itemsPerPage)], ...params];
  return RECORD_FORMATS.map((f) => ({ href: withQuery(path, [...query, ['format', f.format]]), type: f.type, title: f.title }));
}

/** The page of a collection `document` (its Hydra JSON-LD, with full records as members: they make the cards). */
export function collectionPage(document: JsonNode, options: CollectionPageOptions, alternates: readonly Alternate[]): string {
  const { lang } = options;
  const q = options.params.find(([k]) => k === 'q')?.[1] ?? '';
  const sortBy = options.params.find(([k]) => k === 'sortBy')?.[1];
  const sortOrder = options.params.find(([k]) => k === 'sortOrder')?.[1];
  const total = typeof document['hydra:totalItems'] === 'number' ? document['hydra:totalItems'] : 0;
  const members = list(document['hydra:member']).filter(isNode);
  const active = options.params.filter(([k]) => !['q', 'sortBy', 'sortOrder', 'fullRecord'].includes(k));
  const hidden = options.params.filter(([k]) => k !== 'q' && k !== 'sortBy' && k !== 'sortOrder');
  // Without a sort, a text query is in relevance order and the rest in the kind's first order.
  const orders = [...(q !== '' ? [''] : []), ...options.sortKeys];
  const main = html`<h1>${options.title}</h1>
<form class="collection-search" role="search" action="${options.path}" method="get">
<label for="q">${say('searchIn', lang)} ${options.title.toLowerCase()}</label>
<input id="q" type="search" name="q" value="${q}">
<label for="sortBy">${say('sortBy', lang)}</label>
<select id="sortBy" name="sortBy">${orders.map((key) => html`<option value="${key}"${key === (sortBy ?? '') ? html` selected` : ''}>${key === '' ? say('relevance', lang) : sortName(key, lang)}</option>`)}</select>
<label for="sortOrder">${say('order', lang)}</label>
<select id="sortOrder" name="sortOrder">${(['asc', 'desc'] as const).map((order) => html`<option value="${order}"${order === (sortOrder ?? 'asc') ? html` selected` : ''}>${say(order === 'asc' ? 'ascending' : 'descending', lang)}</option>`)}</select>
${hidden.map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`)}
<button type="submit">${say('search', lang)}</button>
</form>
${active.length > 0 ? html`<p class="active-filters">${say('filteredBy', lang)} ${active.map(([k, v], i) => html`${i > 0 ? ', ' : ''}<strong>${k}</strong> = ${v}`)} · <a href="${withQuery(options.path, options.params.filter(([k]) => k === 'q'))}">${say('clearFilters', lang)}</a></p>` : ''}
<p class="total">${total} ${say(total === 1 ? 'result' : 'results', lang)}</p>
<div class="results">
<aside class="facets" aria-label="${say('narrow', lang)}">${options.facets.map((facet) => facetList(facet, options))}</aside>
<section class="members" aria-label="${say('resultsList', lang)}">
${cardList(members, options)}
${pager(document, options)}
</section>
</div>`;
  return page({ title: q !== '' ? `${options.title}: ${q}` : options.title, lang, main, alternates, ...(options.path === '/v2/id/objects' ? { query: q } : {}) });
}
