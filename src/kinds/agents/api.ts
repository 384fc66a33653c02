/** What the API description says of the agents (src/openapi; spec, "Agents collection"). */
import { texts } from '../../engine/catalog-dataset.js';
import type { ApiDeclaration } from '../../engine/kind.js';
import { commaAnd, flag, languageCodes, modifiedSince } from '../../openapi/parameters.js';
import { AGENT_INDEX_PATHS, AGENT_INDEX_SCHEMAS } from './openapi.js';
import { AGENT_ROLES, AGENT_TYPES } from './table.js';

export const AGENTS_API: ApiDeclaration = {
  landing: { text: { nl: 'Personen en organisaties', en: 'Agents', fr: 'Personnes et organisations' }, note: { nl: 'ontwerpers, producenten en organisaties', en: 'designers, producers and organisations', fr: 'designers, fabricants et organisations' } },
  dataset: {
    title: texts('Agenten', 'Agents', 'Agents'),
    description: texts(
      'Alle agenten (personen en organisaties) gerelateerd aan de collectie van Design Museum Gent. Verrijkt met Wikipedia-biografieën en tentoonstellingsdeelnames.',
      'All agents (persons and organisations) related to the Design Museum Gent collection. Enriched with Wikipedia biographies and exhibition participation.',
      'Tous les agents (personnes et organisations) liés à la collection du Design Museum Gent. Enrichis avec des biographies Wikipedia et des participations aux expositions.',
    ),
    distribution: 'Paginated JSON-LD collection',
  },
  indexDatasets: [
    {
      name: 'nationalities',
      landing: { text: { nl: 'Nationaliteiten', en: 'Nationalities', fr: 'Nationalités' }, note: { nl: 'van personen en organisaties, met aantallen', en: 'of agents, with counts', fr: 'des personnes et organisations, avec les nombres' } },
      crmClass: 'E55_Type',
      title: texts('Nationaliteiten', 'Nationalities', 'Nationalités'),
      description: texts(
        'Alle nationaliteiten aanwezig in de agentrecords met agentaantallen.',
        'All nationalities present in the agent records with agent counts.',
        "Toutes les nationalités présentes dans les enregistrements d'agents avec le nombre d'agents.",
      ),
      distribution: 'Nationality index JSON-LD',
    },
    {
      name: 'roles',
      landing: { text: { nl: 'Rollen', en: 'Roles', fr: 'Rôles' }, note: { nl: 'ontwerper en producent, met aantallen', en: 'designer and producer, with counts', fr: 'designer et fabricant, avec les nombres' } },
      crmClass: 'E55_Type',
      title: texts('Rollen', 'Roles', 'Rôles'),
      description: texts(
        'Alle rollen die agenten spelen in de collectie van Design Museum Gent (ontwerper, producent) met agentaantallen.',
        'All roles agents play in the Design Museum Gent collection (designer, producer) with agent counts.',
        "Tous les rôles joués par les agents dans la collection du Design Museum Gent (designer, producteur) avec le nombre d'agents.",
      ),
      distribution: 'Role index JSON-LD',
    },
  ],
  schemaFile: 'agent',
  indexPaths: AGENT_INDEX_PATHS,
  indexSchemas: AGENT_INDEX_SCHEMAS,
  stubNote: 'Agent stub: always `crm:E39_Actor`, whatever the class of the full record.',
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
