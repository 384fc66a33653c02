/** What the API description says of the concepts (src/openapi; spec, "Concepts collection"). */
import type { ApiDeclaration } from '../../engine/kind.js';
import { languageCodes, modifiedSince } from '../../openapi/parameters.js';

export const CONCEPTS_API: ApiDeclaration = {
  schemaFile: 'concept',
  pidExample: '530000049',
  searchText: 'Full text on preferred labels and scope notes (nl/fr/en) and the pid.',
  parameters: {
    modifiedSince: modifiedSince('concepts'),
    language: { description: 'Only concepts with a preferred label in this language.', schema: languageCodes },
  },
};
