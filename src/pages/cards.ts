/**
 * Records as cards, for search results and for the records a record's page lists (an agent's objects, a
 * concept's, an exhibition's): a thumbnail when this service serves one, the title in the page's language
 * linking to the record, what the member is to the page's record (a role), and the facts its kind marks for
 * cards (an object's maker and date). Rendered from the finished JSON-LD records programs get.
 */
import type { RecordFact } from '../engine/page-declarations.js';
import type { JsonObject } from '../shaping/jsonld.js';
import { html, type Html } from './html.js';
import { hrefOf, isNode, list, type JsonNode, type ViewContext } from './jsonld-view.js';
import type { PageLanguage } from './messages.js';
import { titleIn } from './record-titles.js';

export interface CardOptions extends ViewContext {
  lang: PageLanguage;
  /** The facts of a record of the cards' kind (its kind's `facts`). */
  facts?: (record: JsonObject, lang: PageLanguage) => readonly RecordFact[];
}

/** The image a card shows: an object's first image, an exhibition's poster, an agent's portrait; a path of this service. */
function thumbnailOf(record: JsonNode, ctx: ViewContext): string | undefined {
  const image = list(record.image).find(isNode);
  // An exhibition's poster: its visual item of type AAT 300027221 (posters).
  const poster = list(record['crm:P65_shows_visual_item']).find((n): n is JsonNode => isNode(n) && list(n['crm:P2_has_type']).some((t) => isNode(t) && String(t['@id']).endsWith('/300027221')));
  const candidates = [image?.thumbnail, poster?.['@id'], record.thumbnail];
  for (const candidate of candidates) {
    if (typeof candidate !== 'string') continue;
    // Only what this service serves: a page asks nothing of third parties on its reader's behalf.
    const href = hrefOf(candidate, ctx);
    if (href.startsWith('/')) return href;
  }
  return undefined;
}

/** The values of the card facts of `record`, as one line. */
function cardFacts(record: JsonNode, options: CardOptions): string {
  const facts = options.facts?.(record as JsonObject, options.lang).filter((fact) => fact.card !== undefined) ?? [];
  return facts.map((fact) => fact.values.map((v) => (v.note !== undefined ? `${v.text} (${v.note})` : v.text)).join(', ')).filter((line) => line !== '').join(' · ');
}

/** One record as a card; `note` says what it is to the page's record. */
export function card(record: JsonNode, options: CardOptions, note?: string): Html {
  const href = hrefOf(String(record['@id']), options);
  const thumbnail = thumbnailOf(record, options);
  const facts = cardFacts(record, options);
  return html`<li class="card"><a href="${href}">${thumbnail !== undefined ? html`<img src="${thumbnail}" alt="" loading="lazy">` : html`<span class="no-image"></span>`}<span class="card-title">${titleIn(record, options.lang)}</span></a>${
    note !== undefined ? html`<span class="card-note">${note}</span>` : ''
  }${facts !== '' ? html`<span class="card-facts">${facts}</span>` : ''}</li>`;
}

/** Records as a list of cards. */
export function cardList(records: readonly JsonNode[], options: CardOptions, notes: readonly (string | undefined)[] = []): Html {
  return html`<ul class="cards">${records.map((record, i) => card(record, options, notes[i]))}</ul>`;
}
