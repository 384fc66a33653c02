/** The objects kind (spec "Object record", "Objects collection"): declarations the engine serves. */
import { z } from 'zod';
import type { ResourceKind } from '../../engine/kind.js';
import { indexTable, recordDeclaration, shapingExport } from '../../engine/declarations.js';
import { BadRequestError } from '../../http/errors.js';
import { shapeObject } from './shaping.js';
import { stubsFromNQuads } from './stub.js';
import { OBJECT_FILTERS, PLANNED_PARAMS } from './filters/index.js';
import { OBJECTS_ORACLE } from './oracle.js';
import { objectSorts, SORT_KEYS } from './sorts.js';
import { buildObjectTable, type ObjectTable } from './table.js';
import { objectTextFields } from './text.js';
import { baseColorSets, decadeSets, materialSets, objectIndexes, typeSets } from './indexes.js';
import { relatedObjects } from './similar.js';
import { OBJECTS_API } from './api.js';
import { NS } from '../../vocab/namespaces.js';
import { objectFacts } from './page.js';

/** Exact texts of reference/error-bodies.json. */
export const OBJECT_NOT_FOUND = 'Object not found';
export const OBJECT_REMOVED = 'This object has been permanently removed from our collection.';

const booleanFlag = z.enum(['true', 'false', '1', '0']).optional();
const ObjectQuery = z.object({ colors: booleanFlag }).loose();

export const OBJECTS: ResourceKind<ObjectTable> = {
  kind: 'object',
  collection: 'objects',
  class: { iri: `${NS.crm}E22_Human-Made_Object`, name: 'HumanMadeObject' },
  record: recordDeclaration('object', {
    shape: shapeObject,
    shapeExport: shapingExport(import.meta.url, 'shapeObject'),
    messages: { notFound: OBJECT_NOT_FOUND, invalidPid: 'Invalid object number.' },
    parseQuery: (query) => {
      if (!ObjectQuery.safeParse(query).success) throw new BadRequestError('Invalid colors value. Use true or false.');
    },
    view: { param: 'colors', keys: ['crm:P65_shows_visual_item'] },
  }),
  page: { records: 'records/page-records', stubs: 'objects/page-stubs', stubsFromNQuads, stubFrame: 'object-stub' },
  index: {
    ...indexTable({
      objects: 'objects/index-objects',
      titles: 'objects/index-titles',
      descriptions: 'objects/index-descriptions',
      conceptTypes: 'objects/index-concepts-types',
      conceptMaterials: 'objects/index-concepts-materials',
      conceptTechniques: 'objects/index-concepts-techniques',
      conceptSubCollections: 'objects/index-concepts-subcollections',
      dates: 'objects/index-dates',
      agents: 'objects/index-agents',
      broader: 'objects/index-concept-broader',
      conceptLabels: 'objects/index-concept-labels',
      colors: 'objects/index-colors',
    }, buildObjectTable),
    sortKeys: SORT_KEYS,
    sorts: objectSorts,
    textFields: objectTextFields,
    filters: OBJECT_FILTERS,
    // The spec table's order: q sits after modifiedSince.
    linkOrder: [
      'fullRecord',
      'modifiedSince',
      'q',
      'hasImages',
      'hasParts',
      'isPartOf',
      'onDisplay',
      'language',
      'type',
      'material',
      'agent',
      'date',
      'dateFrom',
      'dateTo',
      'concept',
      'conceptSearch',
      'koepels',
      'color',
      'cssColor',
      'hasColors',
      'colors',
      'sortBy',
      'sortOrder',
    ],
    reserved: PLANNED_PARAMS,
  },
  indexes: objectIndexes,
  related: relatedObjects,
  facts: objectFacts,
  facets: [
    { param: 'type', title: { nl: 'Type', en: 'Type', fr: 'Type' }, sets: typeSets },
    { param: 'material', title: { nl: 'Materiaal', en: 'Material', fr: 'Matériau' }, sets: materialSets },
    { param: 'color', title: { nl: 'Kleur', en: 'Colour', fr: 'Couleur' }, sets: baseColorSets },
    // A second period replaces the first: `date` takes one range. Periods read in time order.
    { param: 'date', title: { nl: 'Periode (productie of ontwerp)', en: 'Period (production or design)', fr: 'Période (production ou conception)' }, sets: decadeSets, combines: false, order: 'label' },
  ],
  api: OBJECTS_API,
  oracle: OBJECTS_ORACLE,
};
