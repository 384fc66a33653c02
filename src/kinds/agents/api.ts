/** What the API description says of the agents (src/openapi; spec, "Agents collection"). */
import type { ApiDeclaration } from '../../engine/kind.js';
import { commaAnd, flag, languageCodes, modifiedSince } from '../../openapi/parameters.js';
import { AGENT_ROLES, AGENT_TYPES } from './table.js';

export const AGENTS_API: ApiDeclaration = {
  schemaFile: 'agent',
  pidExample: 'DMG-A-00001',
  searchText: 'Full text on names and ids: one word; several words (all must match); a quoted exact phrase; `OR`; `-word` negation.',
  parameters: {
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
};
