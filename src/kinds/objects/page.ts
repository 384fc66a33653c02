/**
 * What an object's page for people shows first (docs/html.md, "Key facts"): maker with role, date, type,
 * materials, techniques, dimensions and the museum's number, read from the finished record; maker and date are
 * also on its card. And the role an agent had in an object, for the cards on the agent's page.
 */
import type { TitleLanguage } from '../../collection-index/languages.js';
import type { LocalText, RecordFact } from '../../engine/page-declarations.js';
import { fact, labelIn, labelledValues, nodesOf, scalar, spanOf, textValues } from '../../pages/record-facts.js';
import type { JsonObject } from '../../shaping/jsonld.js';

const LABELS = {
  maker: { nl: 'Maker', en: 'Maker', fr: 'Auteur' },
  date: { nl: 'Datering', en: 'Date', fr: 'Date' },
  type: { nl: 'Objectnaam', en: 'Object type', fr: 'Type d’objet' },
  materials: { nl: 'Materialen', en: 'Materials', fr: 'Matériaux' },
  techniques: { nl: 'Technieken', en: 'Techniques', fr: 'Techniques' },
  dimensions: { nl: 'Afmetingen', en: 'Dimensions', fr: 'Dimensions' },
  number: { nl: 'Objectnummer', en: 'Object number', fr: 'Numéro d’inventaire' },
} as const satisfies Record<string, LocalText>;

/** The roles of the spec's agent filter: the design (creation) and the production. */
export const ROLES = {
  designer: { events: 'crm:P94i_was_created_by', name: { nl: 'ontwerper', en: 'designer', fr: 'designer' } },
  producer: { events: 'crm:P108i_was_produced_by', name: { nl: 'producent', en: 'producer', fr: 'fabricant' } },
} as const satisfies Record<string, { events: string; name: LocalText }>;

/** The key facts of an object record. */
export function objectFacts(record: JsonObject, lang: TitleLanguage): RecordFact[] {
  const productions = nodesOf(record, ROLES.producer.events);
  const creations = nodesOf(record, ROLES.designer.events);
  const makers = Object.values(ROLES).flatMap((role) => nodesOf(record, role.events).flatMap((event) => labelledValues(nodesOf(event, 'crm:P14_carried_out_by'), lang, role.name[lang])));
  const dimensions = nodesOf(record, 'crm:P43_has_dimension').map((dimension) => {
    const type = nodesOf(dimension, 'crm:P2_has_type')[0];
    const unit = nodesOf(dimension, 'crm:P91_has_unit')[0];
    const value = scalar(dimension['crm:P90_has_value']);
    return value === undefined ? undefined : [type && labelIn(type, lang), value, unit && labelIn(unit, lang)].filter((part) => part !== undefined).join(' ');
  });
  const number = nodesOf(record, 'crm:P1_is_identified_by').find((node) => node['@type'] === 'crm:E42_Identifier');
  return [
    fact(LABELS.maker, makers, true),
    fact(LABELS.date, textValues([...productions, ...creations].map(spanOf)), true),
    fact(LABELS.type, labelledValues(nodesOf(record, 'crm:P2_has_type'), lang)),
    fact(LABELS.materials, labelledValues(nodesOf(record, 'crm:P45_consists_of'), lang)),
    fact(LABELS.techniques, labelledValues(productions.flatMap((event) => nodesOf(event, 'crm:P32_used_general_technique')), lang)),
    fact(LABELS.dimensions, textValues(dimensions)),
    fact(LABELS.number, textValues([number === undefined ? undefined : scalar(number['rdfs:label'])])),
  ];
}

/** The roles the agent `agent` had in the object `record` (designer, producer), in `lang`; undefined when none. */
export function agentRoles(record: JsonObject, agent: string, lang: TitleLanguage): string | undefined {
  const roles = Object.values(ROLES).filter((role) => nodesOf(record, role.events).some((event) => nodesOf(event, 'crm:P14_carried_out_by').some((by) => by['@id'] === agent)));
  return roles.length === 0 ? undefined : roles.map((role) => role.name[lang]).join(', ');
}
