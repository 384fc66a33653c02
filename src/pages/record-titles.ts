/** A record's titles by language, read from its finished JSON-LD, for its page and its card. */
import { isNode, labelOf, list, type JsonNode } from './jsonld-view.js';
import { PAGE_LANGUAGES, type PageLanguage } from './messages.js';

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

/** The record's title in `lang`, else its label, else its IRI. */
export const titleIn = (record: JsonNode, lang: PageLanguage): string => titlesOf(record).get(lang) ?? labelOf(record) ?? String(record['@id']);
