/**
 * What an agent's page for people shows first (docs/html.md, "Key facts"): nationality, birth (or founding) and
 * death (or dissolution) with their places; nationality and years on its card. Its objects, with the agent's role
 * in each, are listed by the objects' own `agent` filter.
 */
import type { TitleLanguage } from '../../collection-index/languages.js';
import type { LinkedRecords, LocalText, RecordFact } from '../../engine/page-declarations.js';
import { fact, labelledValues, nodesOf, spanOf, textValues } from '../../pages/record-facts.js';
import type { JsonObject } from '../../shaping/jsonld.js';
import { agentRoles } from '../objects/page.js';

const LABELS = {
  nationality: { nl: 'Nationaliteit', en: 'Nationality', fr: 'Nationalité' },
  born: { nl: 'Geboren / opgericht', en: 'Born / founded', fr: 'Naissance / fondation' },
  died: { nl: 'Overleden / opgeheven', en: 'Died / dissolved', fr: 'Décès / dissolution' },
  life: { nl: 'Levensjaren', en: 'Years', fr: 'Années' },
} as const satisfies Record<string, LocalText>;

/** An event's date and place, as one text (`1939, Gent`). */
const dated = (event: JsonObject | undefined, lang: TitleLanguage): string | undefined => {
  if (event === undefined) return undefined;
  const parts = [spanOf(event), ...labelledValues(nodesOf(event, 'crm:P7_took_place_at'), lang).map((v) => v.text)].filter((p) => p !== undefined);
  return parts.length === 0 ? undefined : parts.join(', ');
};

/** The key facts of an agent record. */
export function agentFacts(record: JsonObject, lang: TitleLanguage): RecordFact[] {
  const birth = nodesOf(record, 'crm:P98i_was_born')[0];
  const death = nodesOf(record, 'crm:P100i_died_in')[0];
  const years = [spanOf(birth), spanOf(death)];
  return [
    fact(LABELS.nationality, labelledValues(nodesOf(record, 'person:citizenship'), lang), true),
    fact(LABELS.born, textValues([dated(birth, lang)])),
    fact(LABELS.died, textValues([dated(death, lang)])),
    // On the card alone: the years, `1939–2018` or `1939–`.
    fact(LABELS.life, textValues([years[0] === undefined ? undefined : `${years[0]}–${years[1] ?? ''}`]), 'only'),
  ];
}

/** The agent's objects (designer or producer), with the agent's role in each. */
export const AGENT_LINKED: readonly LinkedRecords[] = [
  {
    title: { nl: 'Objecten', en: 'Objects', fr: 'Objets' },
    collection: 'objects',
    from: { param: 'agent' },
    note: (member, agent, lang) => agentRoles(member, agent, lang),
  },
];
