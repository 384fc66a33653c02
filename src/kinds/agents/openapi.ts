/** The agents' index endpoints in the OpenAPI document (`/v2/id/nationalities`, `roles`) and their answers' schemas. */
import { indexOperation, valueIndex, type IndexPath, type JsonSchema } from '../../openapi/schema-parts.js';

/** The agents' index operations, in document order. */
export const AGENT_INDEX_PATHS: readonly IndexPath[] = [
  indexOperation(
    'nationalities',
    'Agent nationalities with counts',
    'Every nationality (Dutch country name) of the agents with its agent count and the URL of the agents collection filtered on it.',
    'NationalityIndex',
    [],
  ),
  indexOperation('roles', 'Agent roles with counts', 'The agent roles (designer, producer) with their agent counts and the filtered agents collection URL.', 'RoleIndex', []),
];

/** The components of the agents' index answers, by name. */
export const AGENT_INDEX_SCHEMAS: Record<string, JsonSchema> = {
  NationalityIndex: valueIndex(
    'Nationalities (Dutch country names) with their agent counts; labels feed the agents `nationality` filter.',
    { type: 'crm:E55_Type', countKey: 'agent_count', filterOf: 'nationality' },
  ),
  RoleIndex: valueIndex('Agent roles (designer, producer) with their agent counts; labels feed the agents `role` filter.', { type: 'crm:E55_Type', countKey: 'agent_count', filterOf: 'role' }),
};
