/**
 * Shaping of the exhibition record (spec "Exhibition record"): `owl:sameAs` a single string, the poster a single
 * object (omitted when absent), installation views always an array (`[]` when there are none), titles and
 * descriptions in the order nl, fr, en. The museum is stored once as venue and organiser; each role shows
 * the class the spec gives it.
 */
import type { JsonObject } from '../../shaping/jsonld.js';
import { RECORD_HEAD_KEYS, shapeRecord, type ShapeRules } from '../../shaping/record.js';
import { asArray, isObject } from '../../shaping/rules.js';

/** Media in a stable order: by type, then title. */
const mediaKey = (node: unknown): string => (isObject(node as JsonObject) ? JSON.stringify([(node as JsonObject)['crm:P2_has_type'], (node as JsonObject)['crm:P102_has_title']]) : '');

export const EXHIBITION_RULES: ShapeRules = {
  alwaysArray: ['crm:P1_is_identified_by', 'crm:P16_used_specific_object', 'crm:P67i_is_referred_to_by', 'crm:P129i_is_subject_of', 'crm:P138i_has_representation'],
  singular: ['rdfs:label', 'owl:sameAs', 'prov:generatedAtTime', 'crm:P2_has_type', 'crm:P4_has_time-span', 'crm:P7_took_place_at', 'crm:P14_carried_out_by', 'crm:P65_shows_visual_item'],
  keyOrder: [
    ...RECORD_HEAD_KEYS,
    'crm:P2_has_type',
    'crm:P1_is_identified_by',
    'crm:P4_has_time-span',
    'crm:P7_took_place_at',
    'crm:P14_carried_out_by',
    'crm:P16_used_specific_object',
    'crm:P67i_is_referred_to_by',
    'crm:P129i_is_subject_of',
    'crm:P65_shows_visual_item',
    'crm:P138i_has_representation',
  ],
  nestedAlwaysArray: ['owl:sameAs', 'crm:P43_has_dimension'],
  byLanguage: ['crm:P1_is_identified_by', 'crm:P67i_is_referred_to_by'],
  finish: (node) => {
    node['crm:P138i_has_representation'] = asArray(node['crm:P138i_has_representation']);
    if ('crm:P129i_is_subject_of' in node) node['crm:P129i_is_subject_of'] = asArray(node['crm:P129i_is_subject_of']).sort((a, b) => mediaKey(a).localeCompare(mediaKey(b)));
    for (const [key, type] of [
      ['crm:P7_took_place_at', 'crm:E53_Place'],
      ['crm:P14_carried_out_by', 'crm:E39_Actor'],
    ] as const) {
      const role = node[key];
      if (isObject(role) && Array.isArray(role['@type']) && role['@type'].includes(type)) node[key] = { ...role, '@type': type };
    }
  },
};

/** Turns the framed exhibition node into the documented exhibition record. */
export function shapeExhibition(framed: JsonObject): JsonObject {
  return shapeRecord(framed, EXHIBITION_RULES);
}
