/**
 * Query parameters of the collections, described for people. Which parameters a collection has comes from
 * the kind's declarations (src/engine/kind.ts: paging, `q`, `sortBy` over `index.sortKeys`, `sortOrder`, the
 * params of every filter in `index.filters`, and `index.reserved`), and what each of the kind's own parameters
 * means from its `api` declaration (src/kinds/<kind>/api.ts); this module describes the parameters every
 * collection has, and the forms the kinds' texts share. A filter parameter a kind does not describe is still
 * listed, with a placeholder text that test/endpoints/openapi.test.ts refuses, so a new filter cannot reach the
 * document undescribed.
 */
import type { IndexDeclaration, ResourceKind } from '../engine/kind.js';
import type { RecordTable } from '../collection-index/record-table.js';
import { DEFAULT_ITEMS_PER_PAGE, MAX_ITEMS_PER_PAGE, MAX_QUERY_LENGTH } from '../endpoints/collection-params.js';
import type { JsonSchema, ParameterDoc } from '../engine/api-declaration.js';

export type { ParameterDoc } from '../engine/api-declaration.js';

/** Start of the text of a parameter no one described (the test looks for it). */
export const UNDESCRIBED = 'Undescribed filter parameter';

// The common forms of the kinds' parameter texts (src/kinds/<kind>/api.ts).
const BOOLEAN_FORMS = '`true`/`1` or `false`/`0`.';
/** A boolean filter. */
export const flag = (description: string): ParameterDoc => ({ description: `${description} Accepts ${BOOLEAN_FORMS}`, schema: { type: 'boolean' } });
/** The values of a `language` filter. */
export const languageCodes: JsonSchema = { type: 'string', enum: ['NLD', 'FRA', 'ENG'], description: 'Any case is accepted.' };
/** How a filter of labels combines its values. */
export const commaAnd = 'Comma-separated values (or the parameter repeated) must all hold (AND); labels match whole, ignoring case.';

/** `modifiedSince` of a collection of `noun`. */
export const modifiedSince = (noun: string): ParameterDoc => ({
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

/** The description of filter parameter `name` of `kind`'s collection, or a placeholder the tests refuse. */
export function filterParameter(kind: Pick<ResourceKind, 'api'>, name: string, filter: string): ParameterDoc {
  return kind.api.parameters[name] ?? { description: `${UNDESCRIBED} of the \`${filter}\` filter.`, schema: { type: 'string' } };
}
