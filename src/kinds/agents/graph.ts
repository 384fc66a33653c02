/** Maps one agent record to its named graph (spec "Agent record"; docs/graph-model.md "Agent graph"). */
import type { Iris } from '../../vocab/iris.js';
import { AUTHORITY } from '../../vocab/namespaces.js';
import { GraphBuilder } from '../../harvest/graph-builder.js';
import type { AgentEntry, Catalog } from '../../harvest/catalog.js';
import { iri, langLiteral, literal } from '../../harvest/nquads.js';
import { C, INTERNAL_ID, P } from '../../harvest/terms.js';
import { exhibitionRef } from '../../harvest/references.js';
import type { AgentRecord, RelationType } from '../../harvest/schema.js';

export interface AgentGraphContext {
  iris: Iris;
  catalog: Catalog;
}

/**
 * Property per relation and the qualifier the related node carries (spec table "Relation / Property /
 * crm:P2_has_type qualifier"): the type IRI is `{base}/v2/id/type/relation/<relation>`, its label the
 * qualifier, which names the role of the related agent (mentor_of → "student"). No qualifier for parent_of
 * and child_of.
 */
export const RELATION_PROPERTY: Record<RelationType, { property: string; qualifier: string | undefined }> = {
  parent_of: { property: P.P152i, qualifier: undefined },
  child_of: { property: P.P152, qualifier: undefined },
  spouse_of: { property: P.P107i, qualifier: 'spouse' },
  sibling_of: { property: P.P107i, qualifier: 'sibling' },
  employer_of: { property: P.P107, qualifier: 'employee' },
  employee_of: { property: P.P107i, qualifier: 'employee' },
  mentor_of: { property: P.P107, qualifier: 'student' },
  student_of: { property: P.P107i, qualifier: 'mentor' },
  collaborator: { property: P.P107i, qualifier: 'collaborator' },
  member_of: { property: P.P107i, qualifier: 'member' },
  has_member: { property: P.P107, qualifier: 'member' },
  founded: { property: P.P107, qualifier: 'founded' },
  founded_by: { property: P.P107i, qualifier: 'founder' },
};

/** Dutch labels of the EU human-sex authority codes the source uses. */
const GENDER_LABEL: Record<NonNullable<AgentRecord['gender']>, string> = {
  MALE: 'mannelijk',
  FEMALE: 'vrouwelijk',
  OP_DATPRO: 'ander',
};

/** The agent's graph; relation partners were checked by the harvest's first pass. */
export function agentGraph(entry: AgentEntry, ctx: AgentGraphContext): GraphBuilder {
  const { iris, catalog } = ctx;
  const a = entry.record;
  const base = iris.agent(a.pid);
  const A = entry.term;
  const g = GraphBuilder.ofRecord(A, entry.classTerm, a.name, a);

  const preferred = `<${base}/appellation/preferred>`;
  g.add(A, P.P1, preferred);
  g.add(preferred, P.type, C.E41_Appellation);
  g.add(preferred, P.label, literal(a.name));
  for (const name of a.alternativeNames) g.appellation(A, name, undefined);
  for (const w of a.wikipediaTitles) {
    const node = g.appellation(A, w.title, w.lang);
    g.add(node, P.P129i, page(g, w.url));
  }
  g.identifier(A, `<${base}/identifier/intern>`, a.pid, `<${iris.type(INTERNAL_ID.type)}>`, INTERNAL_ID.label);

  if (a.gender !== undefined && entry.classTerm === C.E21_Person) {
    g.add(A, P.P2, g.typeNode(`<${AUTHORITY.humanSex}${a.gender}>`, GENDER_LABEL[a.gender]));
  }
  if (a.citizenship !== undefined) {
    const country = `<${AUTHORITY.country}${a.citizenship.code}>`;
    g.add(A, P.citizenship, country);
    g.add(country, P.type, C.E53_Place);
    g.add(country, P.label, langLiteral(a.citizenship.labels.nl, 'nl'));
    g.add(country, P.label, langLiteral(a.citizenship.labels.en, 'en'));
    g.add(country, P.label, langLiteral(a.citizenship.labels.fr, 'fr'));
  }
  lifeEvent(g, A, P.P98i, `<${base}/birth>`, C.E67_Birth, a.birth);
  lifeEvent(g, A, P.P100i, `<${base}/death>`, C.E69_Death, a.death);

  for (const bio of a.biographies) {
    const node = g.description(A, bio.text, bio.lang);
    g.add(node, P.P129i, page(g, bio.source));
    g.add(node, P.license, iri(bio.licence));
  }
  if (a.thumbnail !== undefined) g.add(A, P.thumbnail, iri(a.thumbnail));

  for (const relation of catalog.relationsOf(a.pid)) {
    const other = catalog.agents.get(relation.agent);
    // A relation to a private agent would publish that agent's existence: leave it out.
    if (other === undefined || !other.record.public) continue;
    const { property, qualifier } = RELATION_PROPERTY[relation.type];
    g.add(A, property, other.term);
    if (g.first(other.term)) g.add(other.term, P.type, other.classTerm);
    if (qualifier !== undefined) g.add(other.term, P.P2, g.typeNode(`<${iris.type(`relation/${relation.type}`)}>`, qualifier));
  }

  // Exhibition participation (derived in the catalog): curated, or showed a servable object the agent made.
  for (const pid of catalog.participationOf(a.pid)) {
    const exhibition = exhibitionRef(g, catalog, pid);
    if (exhibition !== undefined) g.add(A, P.P11i, exhibition);
  }
  return g;
}

function page(g: GraphBuilder, url: string): string {
  const node = iri(url);
  if (g.first(node)) g.add(node, P.type, C.E73_Information_Object);
  return node;
}

function lifeEvent(
  g: GraphBuilder,
  A: string,
  property: string,
  node: string,
  classTerm: string,
  event: AgentRecord['birth'],
): void {
  if (event === undefined) return;
  g.add(A, property, node);
  g.add(node, P.type, classTerm);
  g.add(node, P.P4, g.yearSpan(String(event.year), event.year, event.year));
  if (event.place !== undefined) g.add(node, P.P7, g.place(event.place));
}
