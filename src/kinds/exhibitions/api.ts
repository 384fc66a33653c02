/** What the API description says of the exhibitions (src/openapi; spec, "Exhibitions collection"). */
import { texts } from '../../engine/catalog-dataset.js';
import type { ApiDeclaration } from '../../engine/kind.js';
import { languageCodes, modifiedSince } from '../../openapi/parameters.js';

export const EXHIBITIONS_API: ApiDeclaration = {
  landing: { text: { nl: 'Tentoonstellingen', en: 'Exhibitions', fr: 'Expositions' }, note: { nl: 'tentoonstellingen van het museum, met de getoonde objecten', en: 'exhibitions of the museum, with the objects shown', fr: 'expositions du musée, avec les objets présentés' } },
  dataset: {
    title: texts('Tentoonstellingen', 'Exhibitions', 'Expositions'),
    description: texts(
      'Alle tentoonstellingen uit het archief van Design Museum Gent, met meertalige titels, beschrijvingen en links naar getoonde collectieobjecten.',
      'All exhibitions from the Design Museum Gent archive, with multilingual titles, descriptions and links to collection objects shown.',
      'Toutes les expositions des archives du Design Museum Gent, avec des titres et descriptions multilingues et des liens vers les objets présentés.',
    ),
    distribution: 'Paginated JSON-LD collection',
  },
  schemaFile: 'exhibition',
  pidExample: 'TE_1956-001',
  searchText: 'Search by title (nl/fr/en) or internal pid.',
  parameters: {
    modifiedSince: modifiedSince('exhibitions'),
    language: { description: 'Only exhibitions with a title in this language.', schema: languageCodes },
  },
};
