/** What the API description says of the exhibitions (src/openapi; spec, "Exhibitions collection"). */
import type { ApiDeclaration } from '../../engine/kind.js';
import { languageCodes, modifiedSince } from '../../openapi/parameters.js';

export const EXHIBITIONS_API: ApiDeclaration = {
  schemaFile: 'exhibition',
  pidExample: 'TE_1956-001',
  searchText: 'Search by title (nl/fr/en) or internal pid.',
  parameters: {
    modifiedSince: modifiedSince('exhibitions'),
    language: { description: 'Only exhibitions with a title in this language.', schema: languageCodes },
  },
};
