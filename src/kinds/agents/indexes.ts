/**
 * The agents' index endpoints (spec, "Other indexes"): `/v2/id/nationalities` and `/v2/id/roles`, label
 * indexes over the agents' collection index.
 */
import type { ServiceContext } from '../../engine/service-context.js';
import { labelIndex, type IndexEndpoint } from '../../endpoints/index-endpoints.js';
import type { LabelledSet } from '../../engine/label-index.js';
import { AGENT_ROLES, type AgentTable } from './table.js';

/** The nationalities and their agents (the nationalities index, the nationality facet). */
export const nationalitySets = (table: AgentTable): LabelledSet[] => [...table.nationalityLabels].map(([key, label]) => ({ label, ids: table.nationalities.get(key) ?? [] }));
/** The roles and their agents. */
export const roleSets = (table: AgentTable): LabelledSet[] => AGENT_ROLES.map((role) => ({ label: role, ids: table.roles[role] }));

/** The index endpoints the agents kind declares, in the order they are routed. */
export function agentIndexes(ctx: ServiceContext): IndexEndpoint<AgentTable, never>[] {
  const base = ctx.iris.base;
  const endpoints = [
    labelIndex<AgentTable>(
      base,
      {
        name: 'nationalities',
        label: 'Nationality index',
        comment: 'All nationalities in the Design Museum Gent agent records with agent counts',
        memberType: 'crm:E55_Type',
        countKey: 'agent_count',
        filter: { collection: 'agents', param: 'nationality' },
      },
      nationalitySets,
    ),
    labelIndex<AgentTable>(
      base,
      {
        name: 'roles',
        label: 'Role index',
        comment: 'All roles in the Design Museum Gent agent records with agent counts',
        memberType: 'crm:E55_Type',
        countKey: 'agent_count',
        filter: { collection: 'agents', param: 'role' },
      },
      roleSets,
    ),
  ];
  return endpoints as unknown as IndexEndpoint<AgentTable, never>[];
}
