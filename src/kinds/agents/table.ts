/**
 * The facts of one generation's listed agents (spec, "Agents collection"): ids in pid order, class, name and
 * other names, the Dutch name of the citizenship, roles from the listed objects, and biography languages.
 * Built from the rows of the `agents/index-*` SELECT queries by a pure function.
 */
import { Bitset, BitsetBuilder } from '../../collection-index/bitset.js';
import { type PerLanguage, textsPerLanguage } from '../../collection-index/languages.js';
import { type Postings, PostingsBuilder } from '../../collection-index/postings.js';
import { forEachListed, listRecords, type RecordTable, type Row } from '../../collection-index/record-table.js';
import { NS } from '../../vocab/namespaces.js';

export interface AgentRows {
  agents: readonly Row[];
  names: readonly Row[];
  nationalities: readonly Row[];
  roles: readonly Row[];
  biographies: readonly Row[];
}

/** The `type` parameter's values (spec, agent classification states) and the class each stands for. */
export const AGENT_TYPES = { individual: `${NS.crm}E21_Person`, organisation: `${NS.crm}E74_Group`, unknown: `${NS.crm}E39_Actor` } as const;
export type AgentType = keyof typeof AGENT_TYPES;
export const AGENT_ROLES = ['designer', 'producer'] as const;
export type AgentRole = (typeof AGENT_ROLES)[number];

export interface AgentTable extends RecordTable {
  readonly names: readonly string[];
  /** Alternative names and encyclopedia titles, one text per agent. */
  readonly otherNames: readonly (string | undefined)[];
  readonly types: Readonly<Record<AgentType, Bitset>>;
  /** Lower-cased Dutch country name → agents; and the Dutch name as written, per key. */
  readonly nationalities: Postings;
  readonly nationalityLabels: ReadonlyMap<string, string>;
  readonly roles: Readonly<Record<AgentRole, Bitset>>;
  readonly hasBio: Bitset;
  readonly bioIn: PerLanguage<Bitset>;
}

/** Builds the table from the index rows of one generation. */
export function buildAgentTable(generationId: string, rows: AgentRows): AgentTable {
  const { listed, base } = listRecords(generationId, rows.agents, { record: 'record', pid: 'pid' });
  const { size, idOf } = base;
  const byClass = (iri: string): Bitset => Bitset.of(size, listed.flatMap((row, id) => (row.class === iri ? [id] : [])));

  // An agent's other names in one order (sorted), whatever order the rows came in (a store's, the stored index's).
  const names = new Array<string[] | undefined>(size);
  forEachListed(rows.names, idOf, (id, row) => {
    if (row.text !== undefined) (names[id] ??= []).push(row.text);
  });
  const otherNames = Array.from(names, (list) => (list === undefined ? undefined : list.sort().join('\n')));
  const nationalities = new PostingsBuilder();
  const nationalityLabels = new Map<string, string>();
  forEachListed(rows.nationalities, idOf, (id, row) => {
    if (row.label === undefined) return;
    const key = row.label.toLowerCase();
    nationalities.add(key, id);
    // One spelling per name whatever the row order: the first in code-point order.
    const known = nationalityLabels.get(key);
    if (known === undefined || row.label < known) nationalityLabels.set(key, row.label);
  });
  const roleBuilders = { designer: new BitsetBuilder(size), producer: new BitsetBuilder(size) };
  forEachListed(rows.roles, idOf, (id, row) => {
    if (row.role === 'designer' || row.role === 'producer') roleBuilders[row.role].add(id);
  });
  const { has: bioIn } = textsPerLanguage(size, rows.biographies, idOf);

  return {
    ...base,
    names: listed.map((row) => row.name ?? row.pid!),
    otherNames,
    types: { individual: byClass(AGENT_TYPES.individual), organisation: byClass(AGENT_TYPES.organisation), unknown: byClass(AGENT_TYPES.unknown) },
    nationalities: nationalities.build(),
    nationalityLabels,
    roles: { designer: roleBuilders.designer.build(), producer: roleBuilders.producer.build() },
    hasBio: bioIn.nl.or(bioIn.fr).or(bioIn.en),
    bioIn,
  };
}
