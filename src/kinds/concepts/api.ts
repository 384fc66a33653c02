/** What the API description says of the concepts (src/openapi; spec, "Concepts collection"). */
import { texts } from '../../engine/catalog-dataset.js';
import type { ApiDeclaration } from '../../engine/kind.js';
import { languageCodes, modifiedSince } from '../../openapi/parameters.js';

export const CONCEPTS_API: ApiDeclaration = {
  landing: { text: { nl: 'Concepten', en: 'Concepts', fr: 'Concepts' }, note: { nl: 'de thesaurus: objectnamen, materialen, technieken', en: 'the thesaurus: object types, materials, techniques', fr: 'le thésaurus : types d’objets, matériaux, techniques' } },
  dataset: {
    title: texts('Thesaurus', 'Thesaurus', 'Thésaurus'),
    description: texts(
      'Thesaurus met termen gebruikt voor de beschrijving van objecten in de collectie van Design Museum Gent, inclusief materialen, technieken en objecttypes.',
      'Thesaurus of terms used to describe objects in the Design Museum Gent collection, including materials, techniques and object types.',
      "Thésaurus des termes utilisés pour décrire les objets de la collection du Design Museum Gent, incluant matériaux, techniques et types d'objets.",
    ),
    distribution: 'Paginated JSON-LD collection',
  },
  schemaFile: 'concept',
  stubNote: 'Concept stub (the spec leaves its shape open; this is the shape served).',
  pidExample: '530000049',
  searchText: 'Full text on preferred labels and scope notes (nl/fr/en) and the pid.',
  parameters: {
    modifiedSince: modifiedSince('concepts'),
    language: { description: 'Only concepts with a preferred label in this language.', schema: languageCodes },
  },
};
