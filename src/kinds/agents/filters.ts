/**
 * Filters of the agents collection, in link order (spec table): modifiedSince, nationality (Dutch country
 * names, comma = AND), role (designer, producer), hasBio, language (a biography in NLD, FRA or ENG), type
 * (individual, organisation, unknown).
 */
import { defineFilter, type CollectionFilter, type FilterDefinition } from '../../collection-index/filters/filter.js';
import { languageFilter } from '../../collection-index/filters/language.js';
import { INVALID_MODIFIED_SINCE_OTHER_KINDS, modifiedSinceFilter } from '../../collection-index/filters/modified-since.js';
import { labelValuesFilter } from '../../collection-index/filters/label-values.js';
import { booleanParam, oneOf } from '../../collection-index/filters/params.js';
import { AGENT_ROLES, AGENT_TYPES, type AgentRole, type AgentTable, type AgentType } from './table.js';

const defineAgentFilter = <V>(definition: FilterDefinition<V, undefined, AgentTable>): CollectionFilter<AgentTable> => defineFilter(definition);

const nationalityFilter = labelValuesFilter<AgentTable>('nationality', (table) => table.nationalities);

const roleFilter = defineAgentFilter<AgentRole>({
  name: 'role',
  params: ['role'],
  parse: (query) => oneOf(query, 'role', AGENT_ROLES),
  link: (role) => [['role', role]],
  select: (role, host) => host.table.roles[role],
});

const hasBioFilter = defineAgentFilter<true>({
  name: 'hasBio',
  params: ['hasBio'],
  parse: (query) => (booleanParam(query, 'hasBio') === true ? true : undefined),
  link: () => [['hasBio', 'true']],
  select: (_value, host) => host.table.hasBio,
});

const typeFilter = defineAgentFilter<AgentType>({
  name: 'type',
  params: ['type'],
  parse: (query) => oneOf(query, 'type', Object.keys(AGENT_TYPES) as AgentType[]),
  link: (type) => [['type', type]],
  select: (type, host) => host.table.types[type],
});

export const AGENT_FILTERS: readonly CollectionFilter<AgentTable>[] = [
  modifiedSinceFilter(INVALID_MODIFIED_SINCE_OTHER_KINDS),
  nationalityFilter,
  roleFilter,
  hasBioFilter,
  languageFilter((table) => table.bioIn),
  typeFilter,
];
