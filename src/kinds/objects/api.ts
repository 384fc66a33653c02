/** What the API description says of the objects (src/openapi; spec, "Objects collection"). */
import { texts } from '../../engine/catalog-dataset.js';
import type { ApiDeclaration } from '../../engine/kind.js';
import { commaAnd, flag, languageCodes, modifiedSince } from '../../openapi/parameters.js';
import { OBJECT_INDEX_PATHS, OBJECT_INDEX_SCHEMAS, OBJECT_STUB, PID_EXAMPLE } from './openapi.js';

export const OBJECTS_API: ApiDeclaration = {
  landing: { text: { nl: 'Objecten', en: 'Objects', fr: 'Objets' }, note: { nl: 'ontworpen en gemaakte dingen, met titels, makers, dateringen, materialen en afbeeldingen', en: 'designed and produced things, with titles, makers, dates, materials and images', fr: 'choses conçues et fabriquées, avec titres, auteurs, dates, matériaux et images' } },
  dataset: {
    title: texts('Objecten', 'Objects', 'Objets'),
    description: texts(
      'Alle gepubliceerde objecten uit de collectie van Design Museum Gent. Ondersteunt filtering op type, materiaal, kleur, tentoonstellingsstatus en meer.',
      'All published objects from the Design Museum Gent collection. Supports filtering by type, material, color, display status and more.',
      "Tous les objets publiés de la collection du Design Museum Gent. Prend en charge le filtrage par type, matériau, couleur, statut d'exposition et plus.",
    ),
    distribution: 'Paginated JSON-LD collection',
  },
  indexDatasets: [
    {
      name: 'colors',
      crmClass: 'E26_Physical_Feature',
      title: texts('Kleurenindex', 'Color index', 'Index des couleurs'),
      description: texts(
        'Kleurenstatistieken over de volledige collectie, gewogen op basis van dominantiepercentages. Inclusief basiskleurcategorieën en CSS-kleurnamen.',
        'Color statistics across the full collection, weighted by dominance percentages. Includes base color categories and CSS color names.',
        "Statistiques de couleurs sur l'ensemble de la collection, pondérées par les pourcentages de dominance. Inclut les catégories de couleurs de base et les noms de couleurs CSS.",
      ),
      distribution: 'Color index JSON-LD',
    },
    {
      name: 'types',
      landing: { text: { nl: 'Objectnamen', en: 'Object types', fr: 'Types d’objets' }, note: { nl: 'met aantallen objecten', en: 'with object counts', fr: 'avec le nombre d’objets' } },
      crmClass: 'E55_Type',
      title: texts('Objecttypes', 'Object types', "Types d'objets"),
      description: texts(
        'Alle objecttypes aanwezig in de collectie met objectaantallen.',
        'All object types present in the collection with object counts.',
        "Tous les types d'objets présents dans la collection avec le nombre d'objets.",
      ),
      distribution: 'Type index JSON-LD',
    },
    {
      name: 'materials',
      landing: { text: { nl: 'Materialen', en: 'Materials', fr: 'Matériaux' }, note: { nl: 'met aantallen objecten', en: 'with object counts', fr: 'avec le nombre d’objets' } },
      crmClass: 'E57_Material',
      title: texts('Materialen', 'Materials', 'Matériaux'),
      description: texts(
        'Alle materialen aanwezig in de collectie met objectaantallen.',
        'All materials present in the collection with object counts.',
        "Tous les matériaux présents dans la collection avec le nombre d'objets.",
      ),
      distribution: 'Material index JSON-LD',
    },
    {
      name: 'production',
      landing: { text: { nl: 'Productiedichtheid', en: 'Production density', fr: 'Densité de production' }, note: { nl: 'hoeveel van de collectie in elk decennium gemaakt werd', en: 'how much of the collection was made in each decade', fr: 'quelle part de la collection fut fabriquée à chaque décennie' } },
      crmClass: 'E52_Time-Span',
      title: texts('Productiedichtheid', 'Production density', 'Densité de production'),
      description: texts(
        'Hoeveel van de gepubliceerde collectie in elke periode gemaakt werd: elk gedateerd object weegt 1, gespreid over de jaren van zijn datering.',
        'How much of the published collection was being made in each period: each dated object weighs 1, spread over the years of its dating.',
        'Quelle part de la collection publiée a été produite à chaque période : chaque objet daté pèse 1, réparti sur les années de sa datation.',
      ),
      distribution: 'Production density JSON-LD',
      beyondReference: true,
    },
  ],
  schemaFile: 'object',
  indexPaths: OBJECT_INDEX_PATHS,
  indexSchemas: OBJECT_INDEX_SCHEMAS,
  stub: OBJECT_STUB,
  pidExample: PID_EXAMPLE,
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
