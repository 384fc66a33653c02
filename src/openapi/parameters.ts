/**
 * Query parameters of the collections, described for people. Which parameters a collection has comes from
 * the kind's declarations (src/engine/kind.ts: paging, `q`, `sortBy` over `index.sortKeys`, `sortOrder`, the
 * params of every filter in `index.filters`, and `index.reserved`); this module only says what each one means,
 * by collection and name. A filter parameter with no entry here is still listed, with a placeholder text that
 * test/endpoints/openapi.test.ts refuses, so a new filter cannot reach the document undescribed.
 */
import { AGENT_ROLES, AGENT_TYPES } from '../kinds/agents/table.js';
import type { CollectionName, IndexDeclaration } from '../engine/kind.js';
import type { RecordTable } from '../collection-index/record-table.js';
import { DEFAULT_ITEMS_PER_PAGE, MAX_ITEMS_PER_PAGE, MAX_QUERY_LENGTH } from '../endpoints/collection-params.js';
import type { JsonSchema } from './record-schemas.js';

export interface ParameterDoc {
  description: string;
  schema: JsonSchema;
  example?: string | number | boolean;
}

/** Start of the text of a parameter no one described (the test looks for it). */
export const UNDESCRIBED = 'Undescribed filter parameter';

const BOOLEAN_FORMS = '`true`/`1` or `false`/`0`.';
const flag = (description: string): ParameterDoc => ({ description: `${description} Accepts ${BOOLEAN_FORMS}`, schema: { type: 'boolean' } });
const languageCodes: JsonSchema = { type: 'string', enum: ['NLD', 'FRA', 'ENG'], description: 'Any case is accepted.' };
const commaAnd = 'Comma-separated values (or the parameter repeated) must all hold (AND); labels match whole, ignoring case.';

const modifiedSince = (noun: string): ParameterDoc => ({
  description: `Only ${noun} modified on or after this day (\`YYYY-MM-DD\`, a real calendar day). Preserved in pagination links. An invalid date is a 400.`,
  schema: { type: 'string', format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
  example: '2024-01-01',
});

/** Parameters every collection has, whatever its filters. */
export function pagingParameters(index: IndexDeclaration<RecordTable>, searchText: string): Record<string, ParameterDoc> {
  return {
    page: { description: 'Page number, from 1. A page past the last is 200 with no members.', schema: { type: 'integer', minimum: 1, default: 1 } },
    itemsPerPage: {
      description: `Members per page, from 1. At most ${MAX_ITEMS_PER_PAGE}: a larger value is served, and linked, as ${MAX_ITEMS_PER_PAGE}. With fullRecord=true, 50 or fewer is recommended.`,
      schema: { type: 'integer', minimum: 1, default: DEFAULT_ITEMS_PER_PAGE },
    },
    fullRecord: { description: `Full records instead of stubs in \`hydra:member\`; each member is then byte for byte the single record. Accepts ${BOOLEAN_FORMS}`, schema: { type: 'boolean', default: false } },
    q: {
      description: `${searchText} Without sortBy, matches come in relevance order. At most ${MAX_QUERY_LENGTH} characters.`,
      schema: { type: 'string', maxLength: MAX_QUERY_LENGTH },
    },
    sortBy: {
      description: `Sort key; the default \`${index.sortKeys[0]}\` is identifier order. Records lacking the key come last.`,
      schema: { type: 'string', enum: [...index.sortKeys], default: index.sortKeys[0] },
    },
    sortOrder: { description: 'Sort direction.', schema: { type: 'string', enum: ['asc', 'desc'], default: 'asc' } },
  };
}

/** Texts of `q` per collection. */
export const SEARCH_TEXT: Readonly<Record<CollectionName, string>> = {
  objects:
    'Full text on titles, descriptions and object number in nl/fr/en (stemmed per language); titles and numbers weigh more than descriptions. Quoted phrases, `OR` and `-word` are understood.',
  agents: 'Full text on names and ids: one word; several words (all must match); a quoted exact phrase; `OR`; `-word` negation.',
  exhibitions: 'Search by title (nl/fr/en) or internal pid.',
  concepts: 'Full text on preferred labels and scope notes (nl/fr/en) and the pid.',
};

/** Filter and reserved parameters, by collection and name. */
export const FILTER_PARAMETERS: Readonly<Record<CollectionName, Readonly<Record<string, ParameterDoc>>>> = {
  objects: {
    modifiedSince: modifiedSince('objects'),
    hasImages: flag('Only objects with an IIIF manifest.'),
    hasParts: flag('Only koepelrecords (their records carry `crm:P106_is_composed_of`).'),
    isPartOf: flag('Only set members (their records carry `crm:P46i_forms_part_of`).'),
    onDisplay: flag('Three states. Omitted: all objects; true: only objects currently in the collection presentation; false: only objects not on display.'),
    language: { description: 'Only objects with a title in this language.', schema: languageCodes },
    type: { description: `Object type label, as listed by \`/v2/id/types\`. ${commaAnd}`, schema: { type: 'string' }, example: 'vaas' },
    material: { description: `Material label, as listed by \`/v2/id/materials\`. ${commaAnd}`, schema: { type: 'string' }, example: 'porselein' },
    agent: {
      description: 'Agent pid or full agent URI: objects the agent designed (creation) or produced (production). Such results keep object-number order whatever sortBy says.',
      schema: { type: 'string' },
    },
    date: {
      description:
        'Production range in EDTF interval notation `YYYY/YYYY` (`..` leaves an end open). An object matches when one of its production or creation spans overlaps the range; undated objects never match. A malformed range, or one that begins after it ends, is a 400.',
      schema: { type: 'string', pattern: '^(-?\\d{1,4}|\\.\\.)/(-?\\d{1,4}|\\.\\.)$' },
      example: '1950/1959',
    },
    dateFrom: { description: 'Produced from this year on (overlap, as `date`).', schema: { type: 'integer' }, example: 1900 },
    dateTo: { description: 'Produced up to and including this year (overlap, as `date`).', schema: { type: 'integer' }, example: 1999 },
    concept: {
      description: 'Concept pid or URI: exact match, expanded to every narrower concept, over object types, materials, techniques and sub-collections.',
      schema: { type: 'string' },
    },
    conceptSearch: { description: 'Text searched in the preferred labels of the thesaurus; the concepts found are expanded to narrower ones, as `concept`.', schema: { type: 'string' } },
    koepels: { description: '`exclude` hides koepelrecords; `include` (the default) filters nothing.', schema: { type: 'string', enum: ['include', 'exclude'], default: 'include' } },
    color: { description: 'Base colours (`red, orange, yellow, green, blue, purple, pink, brown, grey, black, white`), comma = AND: objects with an image showing each. Any other value is a 400. Counts: `/v2/id/colors`.', schema: { type: 'string' } },
    cssColor: { description: 'Named tones as `/v2/id/colors` lists them (`css_colors[].value`, any case), comma = AND (a value that is itself a tone name is taken whole).', schema: { type: 'string' } },
    colors: { description: 'Colour data in full records: `true` adds `crm:P65_shows_visual_item` (one `crm:E36_Visual_Item` per analysed image, with its `/colors/hex` and `/colors/base` features). Needs `fullRecord=true` (400 otherwise).', schema: { type: 'boolean' } },
    hasColors: { description: '`true`: only objects with at least one analysed image; `false`: only the others.', schema: { type: 'boolean' } },
  },
  agents: {
    modifiedSince: modifiedSince('agents'),
    nationality: { description: `Dutch country name, as listed by \`/v2/id/nationalities\`. ${commaAnd}`, schema: { type: 'string' }, example: 'België' },
    role: { description: 'Agents who designed (creation) or produced (production) a listed object.', schema: { type: 'string', enum: [...AGENT_ROLES] } },
    hasBio: flag('Only agents with at least one encyclopedia biography.'),
    language: { description: 'Only agents with a biography in this language (implies a biography).', schema: languageCodes },
    type: {
      description: 'Agent classification: `individual` (`crm:E21_Person`), `organisation` (`crm:E74_Group`) or `unknown` (`crm:E39_Actor`).',
      schema: { type: 'string', enum: Object.keys(AGENT_TYPES) },
    },
  },
  exhibitions: {
    modifiedSince: modifiedSince('exhibitions'),
    language: { description: 'Only exhibitions with a title in this language.', schema: languageCodes },
  },
  concepts: {
    modifiedSince: modifiedSince('concepts'),
    language: { description: 'Only concepts with a preferred label in this language.', schema: languageCodes },
  },
};

/** The description of filter parameter `name` of `collection`, or a placeholder the tests refuse. */
export function filterParameter(collection: CollectionName, name: string, filter: string): ParameterDoc {
  return FILTER_PARAMETERS[collection][name] ?? { description: `${UNDESCRIBED} of the \`${filter}\` filter.`, schema: { type: 'string' } };
}
