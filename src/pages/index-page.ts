/**
 * The page for people of an index document (`/v2/id/types`, `/materials`, `/nationalities`, `/roles`,
 * `/production`, `/colors`, …): its title and comment, then one row per member with its label linking to the
 * collection filtered on it (or to the member itself), its count, and whatever else the member says.
 */
import { html } from './html.js';
import { hrefOf, isNode, labelOf, list, properties, type JsonNode, type ViewContext } from './jsonld-view.js';
import { page } from './layout.js';
import { say, type PageLanguage } from './messages.js';

const COUNT = /_count$/;

/** The page of an index `document` served at `path` (its JSON-LD is `path` with `?format=jsonld`). */
export function indexPage(document: JsonNode, options: ViewContext & { path: string; lang: PageLanguage }): string {
  const { lang } = options;
  const title = labelOf(document) ?? options.path;
  const members = list(document['hydra:member']).filter(isNode);
  const rows = members.map((member) => {
    const target = typeof member.filter === 'string' ? member.filter : typeof member['@id'] === 'string' ? member['@id'] : undefined;
    const label = labelOf(member) ?? (typeof member['@id'] === 'string' ? member['@id'] : '');
    const countKey = Object.keys(member).find((key) => COUNT.test(key));
    const skip = new Set(['rdfs:label', 'filter', ...(countKey !== undefined ? [countKey] : [])]);
    return html`<tr><th scope="row">${target !== undefined ? html`<a href="${hrefOf(target, options)}">${label}</a>` : label}</th><td class="count">${countKey !== undefined ? String(member[countKey] as number) : ''}</td><td>${properties(member, options, 1, skip)}</td></tr>`;
  });
  const comment = typeof document['rdfs:comment'] === 'string' ? document['rdfs:comment'] : undefined;
  const rest = properties(document, options, 0, new Set(['rdfs:label', 'rdfs:comment', 'hydra:member']));
  const main = html`<h1>${title}</h1>
${comment !== undefined ? html`<p>${comment}</p>` : ''}
${rest}
<table class="index"><thead><tr><th scope="col">${say('value', lang)}</th><th scope="col">${say('count', lang)}</th><th scope="col">${say('details', lang)}</th></tr></thead><tbody>${rows}</tbody></table>`;
  return page({ title, lang, main, alternates: [{ href: `${options.path}${options.path.includes("?") ? "&" : "?"}format=jsonld`, type: 'application/ld+json', title: 'JSON-LD' }] });
}
