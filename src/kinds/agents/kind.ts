/** The agents kind (spec "Agent record", "Agents collection"): declarations the engine serves. */
import { LANGUAGE_CODES, type LanguageCode } from '../../collection-index/languages.js';
import type { OracleFragment } from '../../collection-index/oracle.js';
import type { ResourceKind } from '../../engine/kind.js';
import { indexTable, labelledPage, modifiedAndLabelSorts, pidField, recordDeclaration, shapingExport } from '../../engine/declarations.js';
import type { BoundTerm } from '../../queries/terms.js';
import { shapeAgent } from './shaping.js';
import type { Iris } from '../../vocab/iris.js';
import { AUTHORITY, NS } from '../../vocab/namespaces.js';
import { AGENT_FILTERS } from './filters.js';
import { AGENT_TYPES, buildAgentTable, type AgentTable, type AgentType } from './table.js';
import { agentIndexes, nationalitySets, roleSets } from './indexes.js';
import { AGENTS_API } from './api.js';
import { AGENT_LINKED, agentFacts } from './page.js';

/** The fragments of the agents oracle for a request's filter parameters (single values, as tests write them). */
function oracleFilters(params: Readonly<Record<string, string>>): OracleFragment[] {
  const out: OracleFragment[] = [];
  const add = (query: string, bindings?: Record<string, BoundTerm>): void => {
    out.push({ query: `agents/oracle-filter-${query}`, bindings });
  };
  if (params.modifiedSince) add('modified-since', { since: params.modifiedSince });
  for (const label of (params.nationality ?? '').split(',').map((part) => part.trim()).filter(Boolean)) add('nationality', { label: label.toLowerCase() });
  if (params.role) add('role', { property: `${NS.crm}${params.role === 'designer' ? 'P94i_was_created_by' : 'P108i_was_produced_by'}` });
  if (params.hasBio === 'true' || params.hasBio === '1') add('has-bio');
  const code = params.language?.toUpperCase();
  if (code) add('language', { language: `${AUTHORITY.language}${code in LANGUAGE_CODES ? (code as LanguageCode) : 'XXX'}` });
  if (params.type) add('type', { class: AGENT_TYPES[params.type as AgentType] });
  return out;
}

export const AGENTS: ResourceKind<AgentTable> = {
  facts: agentFacts,
  linked: AGENT_LINKED,
  kind: 'agent',
  collection: 'agents',
  class: { iri: `${NS.crm}E39_Actor`, name: 'Actor' },
  record: recordDeclaration('agent', {
    alsoAt: ['/id/ark\\:/29417/agent/:pid'],
    shape: shapeAgent,
    shapeExport: shapingExport(import.meta.url, 'shapeAgent'),
    messages: { notFound: 'Agent not found', invalidPid: 'Invalid agent id.' },
  }),
  page: labelledPage('crm:E39_Actor'),
  index: {
    ...indexTable({
      agents: 'agents/index-agents',
      names: 'agents/index-names',
      nationalities: 'agents/index-nationalities',
      roles: 'agents/index-roles',
      biographies: 'agents/index-biographies',
    }, buildAgentTable),
    sortKeys: ['pid', 'name', 'modified'],
    sorts: modifiedAndLabelSorts('name', (table, id) => table.names[id]),
    textFields: (table) => [
      pidField(table),
      { name: 'name', boost: 3, analysis: 'plain', text: (id) => table.names[id] },
      { name: 'otherNames', boost: 1, analysis: 'plain', text: (id) => table.otherNames[id] },
    ],
    filters: AGENT_FILTERS,
    linkOrder: ['fullRecord', 'modifiedSince', 'q', 'nationality', 'role', 'hasBio', 'language', 'type', 'sortBy', 'sortOrder'],
  },
  indexes: agentIndexes,
  facets: [
    { param: 'nationality', title: { nl: 'Nationaliteit', en: 'Nationality', fr: 'Nationalité' }, sets: nationalitySets },
    { param: 'role', title: { nl: 'Rol', en: 'Role', fr: 'Rôle' }, sets: roleSets },
  ],
  api: AGENTS_API,
  oracle: {
    base: 'agents/oracle-base',
    sorts: { name: { query: 'agents/oracle-sort-name' }, modified: { query: 'agents/oracle-sort-modified' } },
    filters: (params: Readonly<Record<string, string>>, _iris: Iris) => oracleFilters(params),
  },
};
