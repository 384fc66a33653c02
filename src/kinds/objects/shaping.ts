/**
 * Shaping of the object record (spec "Object record"): always-array and singular properties, the `image`
 * convenience key, canvas and event order, numbers for dimensions, and the documented key order.
 */
import type { JsonObject, JsonValue } from '../../shaping/jsonld.js';
import { RECORD_HEAD_KEYS, shapeRecord, type ShapeRules } from '../../shaping/record.js';
import { asArray, isObject, sortByIdNumber, sortByPosition } from '../../shaping/rules.js';

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
  ...RECORD_HEAD_KEYS,
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

/** Properties of nested nodes that hold lists in the spec (techniques, a part's materials and dimensions). */
const NESTED_ALWAYS_ARRAY = ['crm:P32_used_general_technique', 'crm:P45_consists_of', 'crm:P43_has_dimension', 'owl:sameAs'] as const;

/** Events and parts by their number, images in canvas order with the `image` key, media as object or array. */
function finishObject(node: JsonObject): void {
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

  const items = asArray(node['crm:P65_shows_visual_item']);
  if (items.length > 0) node['crm:P65_shows_visual_item'] = sortByIdNumber(items).map(shapeVisualItem);

  // Media: an object when only the manifest is there, an array when video or audio is merged in.
  const media = asArray(node['crm:P129i_is_subject_of']);
  if (media.length === 0) delete node['crm:P129i_is_subject_of'];
  else node['crm:P129i_is_subject_of'] = media.length === 1 ? (media[0] as JsonValue) : sortMedia(media);
}

export const OBJECT_RULES: ShapeRules = {
  alwaysArray: OBJECT_ALWAYS_ARRAY,
  singular: OBJECT_SINGULAR,
  keyOrder: OBJECT_KEY_ORDER,
  nestedAlwaysArray: NESTED_ALWAYS_ARRAY,
  // The identifier first, then titles and descriptions in the order nl, fr, en.
  byLanguage: ['crm:P1_is_identified_by', 'crm:P67i_is_referred_to_by'],
  finish: finishObject,
};

/** Turns the framed object node into the documented object record. */
export function shapeObject(framed: JsonObject): JsonObject {
  return shapeRecord(framed, OBJECT_RULES);
}

const percentOf = (note: JsonValue): number => {
  const dimension = isObject(note) ? note['crm:P43_has_dimension'] : undefined;
  const value = isObject(dimension) ? dimension['crm:P90_has_value'] : undefined;
  return typeof value === 'number' ? value : 0;
};

/**
 * A colour visual item as the reference shows it: the image as a plain `{@id, @type}` reference (the record's
 * `crm:P138i_has_representation` has the rest), the `/colors/hex` feature before `/colors/base`, notes heaviest
 * first, one dimension per note.
 */
function shapeVisualItem(item: JsonValue): JsonValue {
  if (!isObject(item)) return item;
  const image = item['crm:P138i_has_representation'];
  if (isObject(image)) item['crm:P138i_has_representation'] = { '@id': image['@id'] as JsonValue, '@type': 'crm:E38_Image' };
  const features = asArray(item['crm:P56_bears_feature']).filter(isObject);
  features.sort((a, b) => Number(String(a['@id']).endsWith('/colors/base')) - Number(String(b['@id']).endsWith('/colors/base')));
  for (const feature of features) {
    const notes = asArray(feature['crm:P3_has_note']).filter(isObject);
    for (const note of notes) {
      const dimension = asArray(note['crm:P43_has_dimension'])[0];
      if (dimension !== undefined) note['crm:P43_has_dimension'] = dimension;
    }
    feature['crm:P3_has_note'] = notes.sort((a, b) => percentOf(b) - percentOf(a));
  }
  item['crm:P56_bears_feature'] = features;
  return item;
}

/** The manifest first, then the other media by title, so the array is stable between requests. */
function sortMedia(media: JsonValue[]): JsonValue[] {
  const isManifest = (item: JsonValue): boolean =>
    isObject(item) && JSON.stringify(item['crm:P2_has_type'] ?? '').includes('300417895');
  const title = (item: JsonValue): string => (isObject(item) ? JSON.stringify(item['crm:P102_has_title'] ?? '') : '');
  return [...media].sort((a, b) => Number(isManifest(b)) - Number(isManifest(a)) || title(a).localeCompare(title(b)));
}
