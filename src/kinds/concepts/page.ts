/**
 * What a concept's page for people shows first (docs/html.md, "Key facts"): its broader terms; and its objects
 * (the narrower concepts' included, as the objects' `concept` filter selects them), as cards.
 */
import type { TitleLanguage } from '../../collection-index/languages.js';
import type { LinkedRecords, LocalText, RecordFact } from '../../engine/page-declarations.js';
import { fact, labelledValues, nodesOf } from '../../pages/record-facts.js';
import type { JsonObject } from '../../shaping/jsonld.js';

const BROADER: LocalText = { nl: 'Bredere termen', en: 'Broader terms', fr: 'Termes génériques' };

/** The key facts of a concept record. */
export function conceptFacts(record: JsonObject, lang: TitleLanguage): RecordFact[] {
  return [fact(BROADER, labelledValues(nodesOf(record, 'skos:broader'), lang), true)];
}

/** The objects of the concept and of its narrower concepts. */
export const CONCEPT_LINKED: readonly LinkedRecords[] = [{ title: { nl: 'Objecten', en: 'Objects', fr: 'Objets' }, collection: 'objects', from: { param: 'concept' } }];
