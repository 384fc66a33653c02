/**
 * Shaping of the concept record (spec "Concept record"): SKOS labels and scope notes as nl/fr/en arrays of
 * `{@value, @language}`, broader and narrower concepts and `owl:sameAs` always arrays. Which `@id` a broader
 * or narrower concept has (internal when it is in the thesaurus, else external) is decided by the harvest.
 */
import type { JsonObject, JsonValue } from '../../shaping/jsonld.js';
import { RECORD_HEAD_KEYS, shapeRecord, sortLanguageValues, type ShapeRules } from '../../shaping/record.js';
import { asArray } from '../../shaping/rules.js';

const LANGUAGE_LISTS = ['skos:prefLabel', 'skos:scopeNote'] as const;

export const CONCEPT_RULES: ShapeRules = {
  alwaysArray: ['owl:sameAs', 'skos:prefLabel', 'skos:scopeNote', 'skos:broader', 'skos:narrower'],
  singular: ['rdfs:label', 'prov:generatedAtTime'],
  keyOrder: [...RECORD_HEAD_KEYS, 'skos:prefLabel', 'skos:scopeNote', 'skos:broader', 'skos:narrower'],
  nestedAlwaysArray: ['owl:sameAs'],
  finish: (node) => {
    for (const key of LANGUAGE_LISTS) if (key in node) node[key] = sortLanguageValues(asArray(node[key])) as JsonValue[];
  },
};

/** Turns the framed concept node into the documented concept record. */
export function shapeConcept(framed: JsonObject): JsonObject {
  return shapeRecord(framed, CONCEPT_RULES);
}
