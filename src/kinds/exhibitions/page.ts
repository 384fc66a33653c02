/**
 * What an exhibition's page for people shows first (docs/html.md, "Key facts"): its dates (also on its card), the
 * venue and the organiser or curator; and the objects it showed, as cards.
 */
import type { TitleLanguage } from '../../collection-index/languages.js';
import type { LinkedRecords, LocalText, RecordFact } from '../../engine/page-declarations.js';
import { fact, labelledValues, nodesOf, spanOf, textValues } from '../../pages/record-facts.js';
import type { JsonObject } from '../../shaping/jsonld.js';

const LABELS = {
  dates: { nl: 'Data', en: 'Dates', fr: 'Dates' },
  venue: { nl: 'Plaats', en: 'Venue', fr: 'Lieu' },
  by: { nl: 'Organisatie of curator', en: 'Organiser or curator', fr: 'Organisation ou commissaire' },
} as const satisfies Record<string, LocalText>;

/** The key facts of an exhibition record. */
export function exhibitionFacts(record: JsonObject, lang: TitleLanguage): RecordFact[] {
  return [
    fact(LABELS.dates, textValues([spanOf(record)]), true),
    fact(LABELS.venue, labelledValues(nodesOf(record, 'crm:P7_took_place_at'), lang)),
    fact(LABELS.by, labelledValues(nodesOf(record, 'crm:P14_carried_out_by'), lang)),
  ];
}

/** The objects the exhibition showed (`crm:P16_used_specific_object`), as titled thumbnails. */
export const EXHIBITION_LINKED: readonly LinkedRecords[] = [
  { title: { nl: 'Getoonde objecten', en: 'Objects shown', fr: 'Objets présentés' }, collection: 'objects', from: { property: 'crm:P16_used_specific_object' } },
];
