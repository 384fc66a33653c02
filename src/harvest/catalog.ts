/**
 * What the harvest knows about every record before it writes any graph: the concepts, agents and
 * exhibitions in full (they are small), the facts of each object it needs for cross-references
 * (servable, set membership, sameAs and agents when an exhibition shows it), and the derived inverse links
 * (narrower concepts, koepel members, relations seen from the other agent, exhibitions an agent took part in).
 */
import type { Iris } from '../vocab/iris.js';
import { C } from './terms.js';
import {
  INVERSE_RELATION,
  type AgentRecord,
  type ConceptRecord,
  type ExhibitionRecord,
  type RelationType,
} from './schema.js';

export interface ConceptEntry {
  record: ConceptRecord;
  line: number;
  /** `<concept IRI>` */
  term: string;
}

export interface AgentEntry {
  record: AgentRecord;
  line: number;
  term: string;
  /** `crm:E21_Person`, `crm:E74_Group` or `crm:E39_Actor` as a term. */
  classTerm: string;
}

export interface ExhibitionEntry {
  record: ExhibitionRecord;
  line: number;
  term: string;
  label: string;
}

export interface ObjectFacts {
  line: number;
  /** Public, healthy and current: the only objects other graphs may list. */
  servable: boolean;
  partOfSet?: string;
  /** Kept only for objects some exhibition shows (P16 nodes carry the object's sameAs). */
  sameAs?: readonly string[];
  /** Agents its productions and creations name; kept only for servable objects some exhibition shows. */
  agents?: readonly string[];
}

export interface Relation {
  type: RelationType;
  agent: string;
}

/** Spec "Agent classification": the registrar decides first, then the knowledge base, else unknown. */
export function agentClass(agent: AgentRecord): string {
  if (agent.registrarKind === 'person') return C.E21_Person;
  if (agent.registrarKind === 'institution') return C.E74_Group;
  if (agent.knowledgeBaseKind === 'human') return C.E21_Person;
  if (agent.knowledgeBaseKind === 'organisation') return C.E74_Group;
  return C.E39_Actor;
}

/** Dutch title, else the first title (fr, en), else `fallback`. */
export function preferredTitle(titles: { nl?: string; fr?: string; en?: string }, fallback: string): string {
  return titles.nl ?? titles.fr ?? titles.en ?? fallback;
}

/** Exhibition label (spec): Dutch title or source title, else another title, else the pid. */
export function exhibitionLabel(e: ExhibitionRecord): string {
  return e.titles.nl ?? e.sourceTitle ?? e.titles.en ?? e.titles.fr ?? e.pid;
}

export class Catalog {
  readonly concepts = new Map<string, ConceptEntry>();
  readonly agents = new Map<string, AgentEntry>();
  readonly exhibitions = new Map<string, ExhibitionEntry>();
  readonly objects = new Map<string, ObjectFacts>();
  /** External URI of a thesaurus concept (its sameAs) → pid, so external broader terms resolve inward. */
  readonly conceptBySameAs = new Map<string, string>();
  /** Object numbers some exhibition shows. */
  readonly shownObjects = new Set<string>();
  private readonly narrower = new Map<string, string[]>();
  private readonly members = new Map<string, string[]>();
  private readonly relations = new Map<string, Relation[]>();
  private readonly participation = new Map<string, string[]>();

  constructor(readonly iris: Iris) {}

  /** Registers a concept (the caller has checked that its pid is new). */
  addConcept(record: ConceptRecord, line: number): void {
    this.concepts.set(record.pid, { record, line, term: `<${this.iris.concept(record.pid)}>` });
    for (const uri of record.sameAs) if (!this.conceptBySameAs.has(uri)) this.conceptBySameAs.set(uri, record.pid);
  }

  /** Registers an agent (the caller has checked that its pid is new). */
  addAgent(record: AgentRecord, line: number): void {
    this.agents.set(record.pid, { record, line, term: `<${this.iris.agent(record.pid)}>`, classTerm: agentClass(record) });
  }

  /** Registers an exhibition (the caller has checked that its pid is new). */
  addExhibition(record: ExhibitionRecord, line: number): void {
    const term = `<${this.iris.exhibition(record.pid)}>`;
    this.exhibitions.set(record.pid, { record, line, term, label: exhibitionLabel(record) });
    for (const n of record.objects) this.shownObjects.add(n);
  }

  /** The pid of the thesaurus concept a broader reference names, or undefined for an external term. */
  internalBroader(ref: ConceptRecord['broader'][number]): string | undefined {
    return typeof ref === 'string' ? ref : this.conceptBySameAs.get(ref.uri);
  }

  /** Derives narrower lists and the two-way relation lists; call once all concepts and agents are in. */
  deriveInverses(): void {
    for (const { record } of this.concepts.values()) {
      // A derived list names only records that are served: a private concept never appears as narrower.
      if (!record.public) continue;
      for (const ref of record.broader) {
        const parent = this.internalBroader(ref);
        if (parent !== undefined && parent !== record.pid) push(this.narrower, parent, record.pid);
      }
    }
    const seen = new Set<string>();
    const add = (from: string, relation: Relation): void => {
      const key = `${from}\u0000${relation.type}\u0000${relation.agent}`;
      if (seen.has(key)) return;
      seen.add(key);
      push(this.relations, from, relation);
    };
    for (const { record } of this.agents.values()) {
      for (const r of record.relations) {
        add(record.pid, r);
        add(r.agent, { type: INVERSE_RELATION[r.type], agent: record.pid });
      }
    }
  }

  /** Derives koepel member lists (servable members, in file order); call after the object first pass. */
  deriveMembers(): void {
    for (const [number, facts] of this.objects) {
      if (facts.partOfSet !== undefined && facts.servable) push(this.members, facts.partOfSet, number);
    }
  }

  /**
   * Derives the exhibitions each agent took part in (`crm:P11i_participated_in`): every public exhibition that
   * names the agent as curator or shows a servable object whose production or creation names it. Call after
   * the object first pass. One pass over the exhibitions' object lists, each agent listed once per exhibition,
   * exhibitions in file order.
   */
  deriveParticipation(): void {
    for (const { record } of this.exhibitions.values()) {
      if (!record.public) continue;
      const agents = new Set<string>();
      if (record.curator?.agent !== undefined) agents.add(record.curator.agent);
      for (const number of record.objects) {
        const facts = this.objects.get(number);
        if (facts === undefined || !facts.servable) continue;
        for (const agent of facts.agents ?? []) agents.add(agent);
      }
      for (const agent of agents) push(this.participation, agent, record.pid);
    }
  }

  /** Concepts whose broader list names `pid`. */
  narrowerOf(pid: string): readonly string[] {
    return this.narrower.get(pid) ?? [];
  }

  /** Servable set members of a koepelrecord. */
  membersOf(objectNumber: string): readonly string[] {
    return this.members.get(objectNumber) ?? [];
  }

  /** Curated relations of an agent, its own and those recorded on the other agent. */
  relationsOf(pid: string): readonly Relation[] {
    return this.relations.get(pid) ?? [];
  }

  /** Pids of the public exhibitions an agent took part in (see deriveParticipation). */
  participationOf(pid: string): readonly string[] {
    return this.participation.get(pid) ?? [];
  }
}

function push<V>(map: Map<string, V[]>, key: string, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}
