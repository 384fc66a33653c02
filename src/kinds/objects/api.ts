/** What the API description says of the objects (src/openapi; spec, "Objects collection"). */
import type { ApiDeclaration } from '../../engine/kind.js';
import { commaAnd, flag, languageCodes, modifiedSince } from '../../openapi/parameters.js';

export const OBJECTS_API: ApiDeclaration = {
  schemaFile: 'object',
  pidExample: '1482',
  searchText:
    'Full text on titles, descriptions and object number in nl/fr/en (stemmed per language); titles and numbers weigh more than descriptions. Quoted phrases, `OR` and `-word` are understood.',
  parameters: {
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
};
