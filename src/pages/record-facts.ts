/**
 * Readers a kind's `facts` declaration uses to pick the key facts of a record out of its finished JSON-LD (the
 * document programs get): nodes under a key, a node's label in a language, a time-span's label, and a fact made
 * of the labelled nodes it names.
 */
import type { TitleLanguage } from '../collection-index/languages.js';
import type { JsonObject, JsonValue } from '../shaping/jsonld.js';
import { asArray, isObject } from '../shaping/rules.js';
import type { FactValue, LocalText, RecordFact } from '../engine/page-declarations.js';

/** The node objects under `key` of `node` (none when absent). */
export const nodesOf = (node: JsonObject | undefined, key: string): JsonObject[] => (node === undefined ? [] : asArray(node[key]).filter(isObject));

/** A label in `lang` when the node has language-tagged labels, else its plain label. */
export function labelIn(node: JsonObject, lang: TitleLanguage): string | undefined {
  const labels = asArray(node['rdfs:label'] ?? node['skos:prefLabel']);
  const tagged = labels.filter(isObject);
  const inLang = tagged.find((label) => label['@language'] === lang)?.['@value'] ?? tagged.find((label) => label['@language'] === 'nl')?.['@value'];
  if (typeof inLang === 'string') return inLang;
  const plain = labels.find((label): label is string => typeof label === 'string');
  return plain ?? (typeof tagged[0]?.['@value'] === 'string' ? tagged[0]['@value'] : undefined);
}

/** The label of a node's time-span (`crm:P4_has_time-span`: an EDTF or ISO interval as the record writes it). */
export const spanOf = (node: JsonObject | undefined): string | undefined => {
  const label = nodesOf(node, 'crm:P4_has_time-span')[0]?.['rdfs:label'];
  return typeof label === 'string' ? label : undefined;
};

/** The labelled nodes as fact values, each linked to its IRI; duplicates (same text and IRI) once. */
export function labelledValues(nodes: readonly JsonObject[], lang: TitleLanguage, note?: string): FactValue[] {
  const values: FactValue[] = [];
  for (const node of nodes) {
    const text = labelIn(node, lang);
    if (text === undefined) continue;
    const iri = typeof node['@id'] === 'string' ? node['@id'] : undefined;
    if (values.some((v) => v.text === text && v.iri === iri)) continue;
    values.push({ text, ...(iri !== undefined ? { iri } : {}), ...(note !== undefined ? { note } : {}) });
  }
  return values;
}

/** Plain texts as fact values, duplicates once. */
export const textValues = (texts: readonly (string | undefined)[]): FactValue[] => [...new Set(texts.filter((t): t is string => t !== undefined && t !== ''))].map((text) => ({ text }));

/** A fact; `card` puts it on the record's card too (`only`: on the card alone). */
export const fact = (label: LocalText, values: readonly FactValue[], card: boolean | 'only' = false): RecordFact => ({ label, values, ...(card !== false ? { card } : {}) });

/** A JSON value as a string, for a number or a string value. */
export const scalar = (value: JsonValue | undefined): string | undefined => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined);
