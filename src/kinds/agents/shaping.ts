/**
 * Shaping of the agent record (spec "Agent record"): always-array relation groups, singular life events,
 * gender and citizenship, names in reading order (preferred, alternatives, encyclopedia titles nl/fr/en, the
 * internal identifier) and the citizenship's labels as an nl/fr/en array.
 */
import type { JsonObject, JsonValue } from '../../shaping/jsonld.js';
import { RECORD_HEAD_KEYS, shapeRecord, sortLanguageValues, type ShapeRules } from '../../shaping/record.js';
import { asArray, isObject, sortByLanguage } from '../../shaping/rules.js';

/** Relation properties of the spec's relation table: grouped per property, always arrays. */
export const RELATION_PROPERTIES = [
  'crm:P152i_is_parent_of',
  'crm:P152_has_parent',
  'crm:P107i_is_current_or_former_member_of',
  'crm:P107_has_current_or_former_member',
] as const;

const hasType = (node: JsonValue, type: string): boolean => isObject(node) && asArray(node['@type']).includes(type);

/** Preferred name, alternative names, encyclopedia titles by language, then the internal identifier. */
function orderNames(names: JsonValue[]): JsonValue[] {
  const rank = (node: JsonValue): number => {
    if (hasType(node, 'crm:E42_Identifier')) return 3;
    if (isObject(node) && typeof node['@id'] === 'string' && node['@id'].endsWith('/appellation/preferred')) return 0;
    return isObject(node) && 'crm:P72_has_language' in node ? 2 : 1;
  };
  const byRank = [...names].sort((a, b) => rank(a) - rank(b));
  const titles = sortByLanguage(byRank.filter((node) => rank(node) === 2));
  return [...byRank.filter((node) => rank(node) < 2), ...titles, ...byRank.filter((node) => rank(node) === 3)];
}

export const AGENT_RULES: ShapeRules = {
  alwaysArray: ['owl:sameAs', 'crm:P1_is_identified_by', 'crm:P67i_is_referred_to_by', 'crm:P11i_participated_in', ...RELATION_PROPERTIES],
  singular: ['rdfs:label', 'prov:generatedAtTime', 'crm:P2_has_type', 'person:citizenship', 'crm:P98i_was_born', 'crm:P100i_died_in', 'thumbnail'],
  keyOrder: [
    ...RECORD_HEAD_KEYS,
    'crm:P1_is_identified_by',
    'crm:P2_has_type',
    'person:citizenship',
    'crm:P98i_was_born',
    'crm:P100i_died_in',
    'crm:P67i_is_referred_to_by',
    'thumbnail',
    'crm:P11i_participated_in',
    ...RELATION_PROPERTIES,
  ],
  nestedAlwaysArray: ['owl:sameAs'],
  byLanguage: ['crm:P67i_is_referred_to_by'],
  finish: (node) => {
    if ('crm:P1_is_identified_by' in node) node['crm:P1_is_identified_by'] = orderNames(asArray(node['crm:P1_is_identified_by']));
    const citizenship = node['person:citizenship'];
    if (isObject(citizenship) && 'rdfs:label' in citizenship) {
      citizenship['rdfs:label'] = sortLanguageValues(asArray(citizenship['rdfs:label'])) as JsonValue[];
    }
  },
};

/** Turns the framed agent node into the documented agent record. */
export function shapeAgent(framed: JsonObject): JsonObject {
  return shapeRecord(framed, AGENT_RULES);
}
