/**
 * Shaping of the object record (spec "Object record"): always-array and singular properties, the `image`
 * convenience key, canvas and event order, numbers for dimensions, and the documented key order.
 */
import type { JsonObject, JsonValue } from './jsonld.js';
import {
  alwaysArray,
  asArray,
  dropStandardSameAs,
  isObject,
  numberValue,
  orderKeys,
  singular,
  sortByIdNumber,
  sortByLanguage,
  sortByPosition,
  walkNodes,
} from './rules.js';

export const OBJECT_ALWAYS_ARRAY = [
  'crm:P108i_was_produced_by',
  'crm:P94i_was_created_by',
  'crm:P12i_was_present_at',
  'crm:P2_has_type',
  'crm:P45_consists_of',
  'crm:P46_has_component',
  'crm:P106_is_composed_of',
  'crm:P106i_forms_part_of',
  'crm:P138i_has_representation',
  'crm:P67i_is_referred_to_by',
  'crm:P1_is_identified_by',
  'owl:sameAs',
  'crm:P43_has_dimension',
  'crm:P15i_was_motivation_of',
] as const;

export const OBJECT_SINGULAR = [
  'crm:P50_has_current_keeper',
  'crm:P24i_changed_ownership_through',
  'crm:P46i_forms_part_of',
  'crm:P55_has_current_location',
  'rdfs:label',
  'prov:generatedAtTime',
] as const;

/** Key order of the spec's record tables: common fields first, then the object table row by row. */
export const OBJECT_KEY_ORDER = [
  '@context',
  '@id',
  '@type',
  'rdfs:label',
  'owl:sameAs',
  'prov:generatedAtTime',
  'crm:P1_is_identified_by',
  'crm:P2_has_type',
  'crm:P45_consists_of',
  'crm:P67i_is_referred_to_by',
  'crm:P50_has_current_keeper',
  'crm:P108i_was_produced_by',
  'crm:P94i_was_created_by',
  'crm:P24i_changed_ownership_through',
  'crm:P43_has_dimension',
  'crm:P46_has_component',
  'crm:P106_is_composed_of',
  'crm:P46i_forms_part_of',
  'crm:P106i_forms_part_of',
  'crm:P12i_was_present_at',
  'crm:P129i_is_subject_of',
  'crm:P138i_has_representation',
  'image',
  'crm:P65_shows_visual_item',
  'crm:P15i_was_motivation_of',
  'crm:P55_has_current_location',
] as const;

const NESTED_KEY_ORDER = ['@id', '@type', 'rdfs:label'] as const;

/** Properties of nested nodes that hold lists in the spec (techniques, a part's materials and dimensions). */
const NESTED_ALWAYS_ARRAY = ['crm:P32_used_general_technique', 'crm:P45_consists_of', 'crm:P43_has_dimension', 'owl:sameAs'] as const;

/** Turns the framed object node into the documented object record. */
export function shapeObject(framed: JsonObject): JsonObject {
  const node: JsonObject = { ...framed };
  dropStandardSameAs(node);
  // Bookkeeping for incremental harvests; not part of the documented record.
  delete node['dcterms:modified'];

  walkNodes(node, (nested) => {
    if (nested === node) return;
    alwaysArray(nested, NESTED_ALWAYS_ARRAY);
    if ('crm:P90_has_value' in nested) nested['crm:P90_has_value'] = numberValue(nested['crm:P90_has_value']) ?? null;
    // Nested nodes read like the top level: identity first, then the label, then properties A-Z.
    const ordered = orderKeys(nested, NESTED_KEY_ORDER);
    for (const key of Object.keys(nested)) delete nested[key];
    Object.assign(nested, ordered);
  });

  alwaysArray(node, OBJECT_ALWAYS_ARRAY);
  singular(node, OBJECT_SINGULAR);

  // The identifier first, then titles and descriptions in the order nl, fr, en.
  for (const key of ['crm:P1_is_identified_by', 'crm:P67i_is_referred_to_by'] as const) {
    if (key in node) node[key] = sortByLanguage(asArray(node[key]));
  }
  for (const key of ['crm:P108i_was_produced_by', 'crm:P94i_was_created_by', 'crm:P46_has_component'] as const) {
    if (key in node) node[key] = sortByIdNumber(asArray(node[key]));
  }

  const images = sortByPosition(asArray(node['crm:P138i_has_representation']));
  if (images.length > 0) {
    node['crm:P138i_has_representation'] = images;
    node.image = images[0] as JsonValue;
  } else {
    delete node['crm:P138i_has_representation'];
    delete node.image;
  }

  // Media: an object when only the manifest is there, an array when video or audio is merged in.
  const media = asArray(node['crm:P129i_is_subject_of']);
  if (media.length === 0) delete node['crm:P129i_is_subject_of'];
  else node['crm:P129i_is_subject_of'] = media.length === 1 ? (media[0] as JsonValue) : sortMedia(media);

  return orderKeys(node, OBJECT_KEY_ORDER);
}

/** The manifest first, then the other media by title, so the array is stable between requests. */
function sortMedia(media: JsonValue[]): JsonValue[] {
  const isManifest = (item: JsonValue): boolean =>
    isObject(item) && JSON.stringify(item['crm:P2_has_type'] ?? '').includes('300417895');
  const title = (item: JsonValue): string => (isObject(item) ? JSON.stringify(item['crm:P102_has_title'] ?? '') : '');
  return [...media].sort((a, b) => Number(isManifest(b)) - Number(isManifest(a)) || title(a).localeCompare(title(b)));
}
