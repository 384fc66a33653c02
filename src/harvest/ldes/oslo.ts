/**
 * The members of Ghent's event streams (the OSLO "cultureel erfgoed" application profiles, as Design Museum Gent
 * and the other CoGhent museums publish them: docs/ldes-harvest.md, "From Ghent's streams") as a source export:
 * the records of docs/source-format.md, which the ordinary harvest then makes a generation of.
 *
 * The mapping reads each member's statements (RDF, as the stream's JSON-LD contexts expand them), not its JSON
 * keys, so that it does not depend on how a page is compacted. Field by field, with what is lost and why, it is
 * the table in docs/ldes-harvest.md. In short:
 *
 * - a member's kind is its class: `crm:E22_Human-Made_Object` an object, `prov:Activity` an exhibition,
 *   `dcterms:Agent` (or a person or organisation class) an agent, `skos:Concept` a concept;
 * - identifiers are `adms:identifier` / `skos:notation` literals whose datatype names the system: the object
 *   number (`…/identificatiesysteem/objectnummer`) for objects, the reference number (`TE_…`) for exhibitions, the
 *   reference number or else the priref for agents, the priref for concepts; the entity IRI (`dcterms:isVersionOf`)
 *   becomes a `sameAs` of the record;
 * - concepts and agents that an object names but no stream describes become records of their own, from the label
 *   the naming member carries, so that no reference dangles;
 * - what a member cannot give (an object number, an exhibition's dates) leaves the member out, and says so.
 */
import type * as RDF from '@rdfjs/types';
import { DataFactory, Parser, Store } from 'n3';
import { AUTHORITY, NS } from '../../vocab/namespaces.js';
import { AGENT_PID, CONCEPT_PID, EXHIBITION_PID, OBJECT_NUMBER } from '../../vocab/iris.js';
import type { AgentRecord, ConceptRecord, DateSpan, Dimension, ExhibitionRecord, ObjectRecord, Place, Texts } from '../schema.js';
import type { JournalMember } from './journal.js';

const CRM = NS.crm;
const SKOS = NS.skos;
const RDF_TYPE = `${NS.rdf}type`;
const ADMS_IDENTIFIER = 'http://www.w3.org/ns/adms#identifier';
const IDENTIFICATION_SYSTEM = 'https://stad.gent/id/identificatiesysteem/';
const PERSON = 'https://data.vlaanderen.be/ns/persoon#';
const EQUIVALENT = 'https://linked.art/ns/terms/equivalent';
const OWL_SAME_AS = 'http://www.w3.org/2002/07/owl#sameAs';
const SCHEMA_VALUE = 'https://schema.org/value';
const SCHEMA_UNIT = 'https://schema.org/unitText';
const M8G = 'http://data.europa.eu/m8g/';
/** Field names of the Flemish registration handbook (CEST): typing nodes, never types of a record. */
const CEST = 'https://www.projectcest.be/wiki/Publicatie:Invulboek_objecten/Veld/';
const DIGITAL_OBJECT = 'http://www.ics.forth.gr/isl/CRMdig/D1_Digital_Object';
/** The exhibition IRIs Design Museum Gent mints since 2023 (an object's exhibitions name them). */
const MUSEUM_EXHIBITION = /\/id\/exhibition\/(TE_[^/]+)$/;
/** Ghent's thesaurus and agent IRIs: `https://stad.gent/id/{concept|agent}/{priref}`. */
const GHENT_ENTITY = /^https:\/\/stad\.gent\/id\/(concept|agent)\/([0-9]+)$/;
/** The licence Ghent's catalogue gives every stream (docs/ldes-harvest.md): agents' notes are published under it. */
const GHENT_LICENCE = 'https://creativecommons.org/publicdomain/zero/1.0/';

const AGENT_CLASSES = new Set(['http://purl.org/dc/terms/Agent', `${NS.prov}Agent`, `${NS.foaf}Agent`, 'http://www.w3.org/ns/person#Person', 'http://www.w3.org/ns/org#Organization']);

export type OsloKind = 'objects' | 'agents' | 'exhibitions' | 'concepts';

/** The records of the source export, kind by kind. */
export interface OsloRecords {
  objects: ObjectRecord;
  agents: AgentRecord;
  exhibitions: ExhibitionRecord;
  concepts: ConceptRecord;
}

/** Where the records go, as they are made (objects one by one; the other kinds once all members are read). */
export type OsloSink = <K extends OsloKind>(kind: K, record: OsloRecords[K]) => void | Promise<void>;

/** What was made of the members, and what was left out. */
export interface OsloReport {
  counts: Record<OsloKind, number>;
  /** Members left out (no object number, no dates, …), by member IRI. */
  skipped: { id: string; reason: string }[];
  /** References dropped from a record (a concept with no label anywhere, a set whose head is not harvested). */
  dropped: { record: string; reason: string }[];
}

/** The source export the members make, held whole (small collections and tests), sorted by pid. */
export type OsloExport = { [K in OsloKind]: OsloRecords[K][] } & Pick<OsloReport, 'skipped' | 'dropped'>;

/**
 * Maps the latest versions of Ghent's members to records, in two reads of `members` so that objects, the bulk of
 * a collection, are never held together: the first read keeps the concepts, agents and exhibitions and notes
 * each object's number; the second maps the objects one at a time, their references resolved against all
 * of the first.
 */
export async function mapOsloMembers(members: () => Iterable<JournalMember> | AsyncIterable<JournalMember>, sink: OsloSink): Promise<OsloReport> {
  const report: OsloReport = { counts: { objects: 0, agents: 0, exhibitions: 0, concepts: 0 }, skipped: [], dropped: [] };
  const names = new Names(report);
  const exhibitions: ExhibitionRecord[] = [];
  const objects = new Set<string>();
  for await (const member of members()) {
    const g = new MemberGraph(member);
    const kind = kindOf(g);
    if (kind === undefined) report.skipped.push({ id: member.id, reason: 'not an object, exhibition, agent or concept' });
    else if (kind === 'concepts') names.concept(g);
    else if (kind === 'agents') names.agent(g);
    else if (kind === 'objects') {
      names.object(g);
      objects.add(member.id);
    } else {
      const exhibition = mapExhibition(g, names);
      if (typeof exhibition === 'string') report.skipped.push({ id: member.id, reason: exhibition });
      else exhibitions.push(exhibition);
    }
  }
  for await (const member of members()) {
    if (!objects.has(member.id)) continue;
    const object = mapObject(new MemberGraph(member), names);
    if (typeof object === 'string') report.skipped.push({ id: member.id, reason: object });
    else {
      await sink('objects', object);
      report.counts.objects++;
    }
  }
  names.resolveBroader();
  const rest = { exhibitions, agents: [...names.agents.values()], concepts: [...names.concepts.values()] };
  for (const kind of ['exhibitions', 'agents', 'concepts'] as const) {
    for (const record of rest[kind].sort((a, b) => a.pid.localeCompare(b.pid))) await sink(kind, record);
    report.counts[kind] = rest[kind].length;
  }
  return report;
}

/** Maps members held in memory to a whole export. */
export async function osloExport(members: readonly JournalMember[]): Promise<OsloExport> {
  const out: Omit<OsloExport, 'skipped' | 'dropped'> = { objects: [], agents: [], exhibitions: [], concepts: [] };
  const report = await mapOsloMembers(() => members, (kind, record) => void (out[kind] as unknown[]).push(record));
  out.objects.sort((a, b) => a.objectNumber.localeCompare(b.objectNumber));
  return { ...out, skipped: report.skipped, dropped: report.dropped };
}

/** One member's statements, with the lookups the mapping needs. */
class MemberGraph {
  readonly store: Store;
  readonly subject: RDF.NamedNode;
  /** The folder of the page the member came from: the base Ghent's `@id`-typed strings were resolved against. */
  private readonly pageFolder: string;

  constructor(readonly member: JournalMember) {
    this.store = new Store(new Parser({ format: 'application/n-quads' }).parse(member.nquads));
    this.subject = DataFactory.namedNode(member.id);
    this.pageFolder = new URL('.', member.page).href;
  }

  objects(subject: RDF.Term, predicate: string): RDF.Term[] {
    return this.store.getObjects(subject as never, predicate, null) as RDF.Term[];
  }

  types(subject: RDF.Term): string[] {
    return this.objects(subject, RDF_TYPE).map((t) => t.value);
  }

  /** Literals of `predicate` by language; an untagged literal is Dutch (Ghent's streams answer in `nl`). */
  texts(subject: RDF.Term, predicate: string): Texts {
    const texts: Texts = {};
    for (const t of this.objects(subject, predicate)) {
      if (t.termType !== 'Literal' || t.value.trim() === '') continue;
      const lang = (t as RDF.Literal).language.toLowerCase().slice(0, 2) || 'nl';
      if ((lang === 'nl' || lang === 'fr' || lang === 'en') && texts[lang] === undefined) texts[lang] = t.value.trim();
    }
    return texts;
  }

  /** The Dutch text of `predicate`, else any. */
  label(subject: RDF.Term, ...predicates: string[]): string | undefined {
    for (const predicate of predicates) {
      const texts = this.texts(subject, predicate);
      const any = texts.nl ?? texts.en ?? texts.fr ?? this.objects(subject, predicate).find((t) => t.termType === 'Literal')?.value.trim();
      if (any) return any;
    }
    return undefined;
  }

  /** The notation of the member's identifier in `system` (the last segment of the datatype). */
  identifier(system: string, subject: RDF.Term = this.subject): string | undefined {
    for (const id of this.objects(subject, ADMS_IDENTIFIER)) {
      for (const notation of this.objects(id, `${SKOS}notation`)) {
        if (notation.termType === 'Literal' && (notation as RDF.Literal).datatype.value === `${IDENTIFICATION_SYSTEM}${system}`) return notation.value.trim();
      }
    }
    return undefined;
  }

  /**
   * A string the stream's context declares an IRI (`Dimensie.waarde`, `Dimensie.type`): it arrives resolved
   * against the page, and comes back as the text it was. Undefined for a real IRI.
   */
  resolvedText(term: RDF.Term | undefined): string | undefined {
    if (term === undefined) return undefined;
    if (term.termType === 'Literal') return term.value.trim();
    if (term.termType !== 'NamedNode' || !term.value.startsWith(this.pageFolder)) return undefined;
    return decodeURIComponent(term.value.slice(this.pageFolder.length));
  }

  /** An IRI a node stands for: itself, or its `la:equivalent` (Ghent's agents and places are blank nodes with one). */
  equivalent(node: RDF.Term): RDF.NamedNode | undefined {
    if (node.termType === 'NamedNode') return node as RDF.NamedNode;
    return this.objects(node, EQUIVALENT).find((t): t is RDF.NamedNode => t.termType === 'NamedNode');
  }

  /** The non-CEST `crm:P2_has_type` IRIs of a node (Ghent puts a concept there beside the handbook's field). */
  typeIris(node: RDF.Term): RDF.NamedNode[] {
    return this.objects(node, `${CRM}P2_has_type`).filter((t): t is RDF.NamedNode => t.termType === 'NamedNode' && !t.value.startsWith(CEST) && t.value.startsWith('http'));
  }
}

function kindOf(g: MemberGraph): OsloKind | undefined {
  const types = g.types(g.subject);
  if (types.includes(`${CRM}E22_Human-Made_Object`)) return 'objects';
  if (types.includes(`${SKOS}Concept`)) return 'concepts';
  if (types.includes(`${NS.prov}Activity`)) return 'exhibitions';
  if (types.some((t) => AGENT_CLASSES.has(t))) return 'agents';
  return undefined;
}

/** What every record kind carries, from the member's own time and entity. */
function meta(g: MemberGraph, sameAs: readonly string[] = []): Pick<ObjectRecord, 'harvestedAt' | 'modified' | 'public' | 'sameAs'> {
  const links = [g.member.versionOf, ...sameAs].filter((iri, i, all) => /^https?:\/\//.test(iri) && all.indexOf(iri) === i);
  return { harvestedAt: g.member.time, modified: g.member.time.slice(0, 10), public: true, sameAs: links };
}

/**
 * The pids of the records: those the streams describe, and those made for what the members only name. Holds the
 * concepts and agents of the export as they are made.
 */
class Names {
  readonly concepts = new Map<string, ConceptRecord>();
  readonly agents = new Map<string, AgentRecord>();
  /** Concept and agent pids by every IRI that names them (entity IRI, owl:sameAs). */
  private readonly conceptByIri = new Map<string, string>();
  private readonly agentByIri = new Map<string, string>();
  /** Object numbers by entity IRI (a set's head is named by its priref IRI). */
  readonly objectByIri = new Map<string, string>();
  /** Exhibition pids of each object number, from the exhibitions' objects. */
  readonly exhibitionsOf = new Map<string, Set<string>>();

  constructor(private readonly out: OsloReport) {}

  /** Notes a reference left out of `record`. */
  dropped(record: string, reason: string): void {
    this.out.dropped.push({ record, reason });
  }

  concept(g: MemberGraph): void {
    const pid = g.identifier('priref') ?? GHENT_ENTITY.exec(g.member.versionOf)?.[2];
    const labels = g.texts(g.subject, `${SKOS}prefLabel`);
    const nl = labels.nl ?? labels.en ?? labels.fr;
    if (pid === undefined || !CONCEPT_PID.test(pid)) return void this.out.skipped.push({ id: g.member.id, reason: 'a concept without a priref' });
    if (nl === undefined) return void this.out.skipped.push({ id: g.member.id, reason: 'a concept without a label' });
    const sameAs = g.objects(g.subject, OWL_SAME_AS).filter((t) => t.termType === 'NamedNode').map((t) => t.value);
    for (const iri of [g.member.versionOf, ...sameAs]) this.conceptByIri.set(iri, pid);
    // Broader terms are resolved once every concept is known (below, in broaderOf).
    this.concepts.set(pid, { pid, labels: { ...labels, nl }, scopeNotes: g.texts(g.subject, `${SKOS}scopeNote`), broader: [], ...meta(g, sameAs) });
    const broader = g.objects(g.subject, `${SKOS}broader`).filter((t) => t.termType === 'NamedNode');
    if (broader.length > 0) this.pendingBroader.set(pid, broader.map((b) => ({ iri: b.value, label: g.label(b, `${SKOS}prefLabel`) })));
  }

  /** The broader terms of each concept of the streams, resolved once every concept is known. */
  private readonly pendingBroader = new Map<string, { iri: string; label: string | undefined }[]>();

  agent(g: MemberGraph): void {
    const reference = g.identifier('referentienummer');
    const pid = reference !== undefined && AGENT_PID.test(reference) ? reference : (g.identifier('priref') ?? GHENT_ENTITY.exec(g.member.versionOf)?.[2]);
    const name = g.label(g.subject, `${PERSON}volledigeNaam`, `${SKOS}prefLabel`, `${NS.rdfs}label`);
    if (pid === undefined || !AGENT_PID.test(pid)) return void this.out.skipped.push({ id: g.member.id, reason: 'an agent without a reference number or priref' });
    if (name === undefined) return void this.out.skipped.push({ id: g.member.id, reason: 'an agent without a name' });
    const sameAs = g.objects(g.subject, OWL_SAME_AS).filter((t) => t.termType === 'NamedNode').map((t) => t.value);
    for (const iri of [g.member.versionOf, ...sameAs]) this.agentByIri.set(iri, pid);
    const gender = g.objects(g.subject, `${PERSON}geslacht`).map((t) => t.value).find((iri) => iri.startsWith(AUTHORITY.humanSex))?.slice(AUTHORITY.humanSex.length);
    const note = g.texts(g.subject, `${SKOS}note`);
    const source = g.objects(g.subject, `${NS.foaf}page`).find((t) => t.termType === 'NamedNode')?.value ?? g.member.id;
    this.agents.set(pid, {
      pid,
      name,
      alternativeNames: g.objects(g.subject, `${PERSON}alternatieveNaam`).concat(g.objects(g.subject, `${SKOS}altLabel`)).filter((t) => t.termType === 'Literal' && t.value.trim() !== '').map((t) => t.value.trim()),
      wikipediaTitles: [],
      ...(gender === 'MALE' || gender === 'FEMALE' || gender === 'OP_DATPRO' ? { gender } : {}),
      ...lifeEvent(g, 'birth', `${PERSON}heeftGeboorte`),
      ...lifeEvent(g, 'death', `${PERSON}heeftOverlijden`),
      biographies: (['nl', 'fr', 'en'] as const).flatMap((lang) => (note[lang] === undefined ? [] : [{ lang, text: note[lang], source, licence: GHENT_LICENCE }])),
      relations: [],
      ...meta(g, sameAs),
    });
  }

  object(g: MemberGraph): void {
    const number = g.identifier('objectnummer');
    if (number !== undefined) this.objectByIri.set(g.member.versionOf, number);
  }

  /** The concept pid an IRI names; a record is made from `label` when no stream describes it. */
  conceptPid(iri: string, label: string | undefined, record: string, time: string): string | undefined {
    return this.pidFor('concept', this.conceptByIri, this.concepts, { iri, label, record, time }, (pid, nl, at) => ({ pid, labels: { nl }, scopeNotes: {}, broader: [], ...at, public: true, sameAs: [iri] }));
  }

  /** The agent pid an IRI names; a record is made from `label` when no stream describes it. */
  agentPid(iri: string, label: string | undefined, record: string, time: string): string | undefined {
    return this.pidFor('agent', this.agentByIri, this.agents, { iri, label, record, time }, (pid, name, at) => ({ pid, name, alternativeNames: [], wikipediaTitles: [], biographies: [], relations: [], ...at, public: true, sameAs: [iri] }));
  }

  /** Records made for what is only named; their time is the earliest of the members naming them (stable across runs). */
  private readonly minted = new Set<ConceptRecord | AgentRecord>();

  private pidFor<R extends ConceptRecord | AgentRecord>(
    noun: string,
    byIri: Map<string, string>,
    records: Map<string, R>,
    ref: { iri: string; label: string | undefined; record: string; time: string },
    make: (pid: string, label: string, at: Pick<R, 'harvestedAt' | 'modified'>) => R,
  ): string | undefined {
    const at = { harvestedAt: ref.time, modified: ref.time.slice(0, 10) };
    const known = byIri.get(ref.iri);
    const existing = known === undefined ? undefined : records.get(known);
    if (existing !== undefined && this.minted.has(existing) && ref.time < existing.harvestedAt) Object.assign(existing, at);
    if (known !== undefined) return known;
    const pid = mintedPid(ref.iri);
    if (pid === undefined || ref.label === undefined) {
      this.out.dropped.push({ record: ref.record, reason: `${noun} ${ref.iri}: ${pid === undefined ? 'no pid can be made of its IRI' : 'no stream describes it and it has no label'}` });
      return undefined;
    }
    byIri.set(ref.iri, pid);
    if (!records.has(pid)) {
      const made = make(pid, ref.label, at);
      records.set(pid, made);
      this.minted.add(made);
    }
    return pid;
  }

  /** Broader terms, once every concept of the streams is known: a concept of the export, or an external term. */
  resolveBroader(): void {
    for (const [pid, broader] of this.pendingBroader) {
      const concept = this.concepts.get(pid) as ConceptRecord;
      for (const { iri, label } of broader) {
        const known = this.conceptByIri.get(iri);
        if (known !== undefined && known !== concept.pid) concept.broader.push(known);
        else if (known === undefined && label !== undefined) concept.broader.push({ uri: iri, label });
        else if (known === undefined) this.dropped(concept.pid, `broader ${iri}: no stream describes it and it has no label`);
      }
    }
  }
}

/**
 * A pid for a concept or agent no stream describes: Ghent's priref (`…/concept/530002740` → `530002740`), else
 * the authority's short name and the IRI's last segment (`http://vocab.getty.edu/aat/300042991` → `aat-300042991`).
 */
function mintedPid(iri: string): string | undefined {
  const ghent = GHENT_ENTITY.exec(iri)?.[2];
  if (ghent !== undefined) return ghent;
  let url: URL;
  try {
    url = new URL(iri);
  } catch {
    return undefined;
  }
  const segments = url.pathname.split('/').filter((s) => s !== '');
  const last = segments.at(-1)?.replace(/[^A-Za-z0-9._-]/g, '-');
  const authority = segments.length > 1 ? segments.at(-2) : url.hostname.split('.').at(-2);
  const pid = last === undefined ? undefined : `${authority ?? 'ext'}-${last}`.replace(/^[^A-Za-z0-9]+/, '');
  return pid !== undefined && CONCEPT_PID.test(pid) ? pid : undefined;
}

/** A birth or death: the year of its `datum`, and its place when it names one with a label. */
function lifeEvent(g: MemberGraph, key: 'birth' | 'death', predicate: string): Partial<Pick<AgentRecord, 'birth' | 'death'>> {
  for (const event of g.objects(g.subject, predicate)) {
    const date = g.objects(event, `${PERSON}datum`)[0]?.value;
    const year = date === undefined ? undefined : yearOf(date);
    if (year === undefined) continue;
    const place = placeOf(g, g.objects(event, `${PERSON}plaats`)[0]);
    return { [key]: { year, ...(place ? { place } : {}) } };
  }
  return {};
}

function yearOf(text: string): number | undefined {
  const match = /^(-?\d{1,4})(?:$|[-~?%T])/.exec(text.trim());
  if (match === null) return undefined;
  const year = Number(match[1]);
  return year >= -9999 && year <= 9999 ? year : undefined;
}

/**
 * An EDTF interval or date (`1988/1988`, `1920~/1930`, `1979-12-14/1980-02-10`, `1988`) as the years it spans;
 * an open side takes the other's year; `..` alone is no date.
 */
export function edtfSpan(label: string): DateSpan | undefined {
  const [from, to = from] = label.trim().split('/');
  const begin = from === undefined || from === '..' || from === '' ? undefined : yearOf(from);
  const end = to === undefined || to === '..' || to === '' ? undefined : yearOf(to);
  const b = begin ?? end;
  const e = end ?? begin;
  if (b === undefined || e === undefined || b > e) return undefined;
  return { label: label.trim(), begin: b, end: e };
}

/** A place: the IRI a node stands for (itself or its equivalent, or its non-CEST type) and that IRI's label. */
function placeOf(g: MemberGraph, node: RDF.Term | undefined): Place | undefined {
  if (node === undefined) return undefined;
  const iri = g.equivalent(node) ?? g.typeIris(node)[0];
  if (iri === undefined || !/^https?:\/\//.test(iri.value)) return undefined;
  const label = g.label(iri, `${SKOS}prefLabel`, `${NS.rdfs}label`);
  return label === undefined ? undefined : { uri: iri.value, label };
}

/** A production or creation: who (the agent a blank carrier stands for), where, when; and, produced, how. */
function mapEvent(g: MemberGraph, node: RDF.Term, names: Names, record: string): { agent?: string; place?: Place; date?: DateSpan; techniques: string[] } {
  const carrier = g.objects(node, `${CRM}P14_carried_out_by`)[0];
  const agentIri = carrier === undefined ? undefined : g.equivalent(carrier);
  const agent = agentIri === undefined ? undefined : names.agentPid(agentIri.value, g.label(agentIri, `${NS.rdfs}label`, `${SKOS}prefLabel`), record, g.member.time);
  const place = placeOf(g, g.objects(node, `${CRM}P7_took_place_at`)[0]);
  const time = g.objects(node, `${CRM}P4_has_time-span`).find((t) => t.termType === 'Literal');
  const date = time === undefined ? undefined : edtfSpan(time.value);
  const techniques = g.objects(node, `${CRM}P32_used_general_technique`).flatMap((t) => conceptsOf(g, t, names, record));
  return { ...(agent ? { agent } : {}), ...(place ? { place } : {}), ...(date ? { date } : {}), techniques };
}

/** The concepts a typing node names (Ghent's `TypeMateriaal`, `TypeTechniek`): its non-CEST types. */
function conceptsOf(g: MemberGraph, node: RDF.Term, names: Names, record: string): string[] {
  const iris = node.termType === 'NamedNode' && !node.value.startsWith(CEST) && g.typeIris(node).length === 0 ? [node as RDF.NamedNode] : g.typeIris(node);
  return iris.flatMap((iri) => {
    const pid = names.conceptPid(iri.value, g.label(iri, `${SKOS}prefLabel`, `${NS.rdfs}label`), record, g.member.time);
    return pid === undefined ? [] : [pid];
  });
}

/** Dimensions of a node: type, value and unit, each as the registrar wrote it (see resolvedText). */
function dimensionsOf(g: MemberGraph, node: RDF.Term, names: Names, record: string): Dimension[] {
  const dimensions: Dimension[] = [];
  for (const d of g.objects(node, `${CRM}P43_has_dimension`)) {
    const type = g.resolvedText(g.objects(d, `${CRM}P2_has_type`)[0])?.toLowerCase();
    const value = Number(g.resolvedText(g.objects(d, SCHEMA_VALUE)[0])?.replace(',', '.'));
    const unit = g.objects(d, SCHEMA_UNIT)[0]?.value.trim().toLowerCase();
    if (type !== undefined && /^[a-z][a-z-]*$/.test(type) && value > 0 && (unit === 'mm' || unit === 'cm' || unit === 'm')) dimensions.push({ type, value, unit });
    else names.dropped(record, `a dimension without a type, a positive value and a unit of mm, cm or m (${[type, g.objects(d, SCHEMA_VALUE)[0]?.value, unit].join(', ')})`);
  }
  return dimensions;
}

function mapObject(g: MemberGraph, names: Names): ObjectRecord | string {
  const objectNumber = g.identifier('objectnummer');
  if (objectNumber === undefined) return 'an object without an object number';
  if (!OBJECT_NUMBER.test(objectNumber)) return `object number ${JSON.stringify(objectNumber)} is not one this service can serve`;
  const s = g.subject;
  const record = objectNumber;
  const concept = (iri: RDF.NamedNode): string[] => {
    const pid = names.conceptPid(iri.value, g.label(iri, `${SKOS}prefLabel`, `${NS.rdfs}label`), record, g.member.time);
    return pid === undefined ? [] : [pid];
  };
  const types = g.objects(s, `${CRM}P41i_was_classified_by`).flatMap((c) => g.objects(c, `${CRM}P42_assigned`).filter((t): t is RDF.NamedNode => t.termType === 'NamedNode').flatMap(concept));
  const materials = g.objects(s, `${CRM}P45_consists_of`).flatMap((m) => conceptsOf(g, m, names, record));
  let partOfSet: string | undefined;
  const subCollections: string[] = [];
  for (const whole of g.objects(s, `${CRM}P46i_forms_part_of`)) {
    if (whole.termType !== 'NamedNode') continue;
    if (g.types(whole).includes(`${CRM}E78_Collection`)) {
      // A koepelrecord: the set's head is another object of the stream, named by its entity IRI.
      const head = names.objectByIri.get(whole.value);
      if (head !== undefined && head !== objectNumber) partOfSet = head;
      else names.dropped(record, `set ${whole.value}: its koepelrecord is not among the objects harvested`);
    } else subCollections.push(...concept(whole as RDF.NamedNode));
  }
  const productions = g.objects(s, `${CRM}P108i_was_produced_by`).map((p) => mapEvent(g, p, names, record));
  const creations = g.objects(s, `${CRM}P67i_is_referred_to_by`).flatMap((c) => g.objects(c, `${CRM}P94i_was_created_by`)).map((c) => {
    const { techniques: _ignored, ...event } = mapEvent(g, c, names, record);
    return event;
  });
  const dimensions = dimensionsOf(g, s, names, record);
  const parts = g
    .objects(s, `${CRM}P46_is_composed_of`)
    .filter((p) => p.termType === 'BlankNode')
    .flatMap((p) => {
      const label = g.label(p, `${CRM}P3_has_note`);
      return label === undefined ? [] : [{ label, materials: g.objects(p, `${CRM}P45_consists_of`).flatMap((m) => conceptsOf(g, m, names, record)), dimensions: dimensionsOf(g, p, names, record) }];
    });
  const exhibitions = new Set(names.exhibitionsOf.get(objectNumber) ?? []);
  for (const part of g.objects(s, `${NS.dcterms}isPartOf`)) {
    for (const activity of g.objects(part, `${CRM}P16_used_specific_object`)) {
      const pid = MUSEUM_EXHIBITION.exec(activity.value)?.[1];
      if (pid !== undefined && EXHIBITION_PID.test(pid)) exhibitions.add(pid);
    }
  }
  const manifest = g.objects(s, `${CRM}P129i_is_subject_of`).find((t) => t.termType === 'NamedNode' && g.types(t).includes(DIGITAL_OBJECT))?.value;
  // On display: the current location is the museum itself (an IRI), not a note such as "depot" or a loan.
  const location = g.objects(s, `${CRM}P55_has_current_location`)[0];
  const onDisplay = location?.termType === 'NamedNode' && g.objects(location, `${SKOS}note`).length === 0;
  return {
    objectNumber,
    titles: g.texts(s, `${CRM}P102_has_title`),
    descriptions: g.texts(s, `${CRM}P3_has_note`),
    types: unique(types),
    materials: unique(materials),
    subCollections: unique(subCollections),
    productions: productions.map((p) => ({ ...p, techniques: unique(p.techniques) })),
    creations,
    ...acquisitionOf(g, names, record),
    dimensions,
    parts,
    ...(partOfSet === undefined ? {} : { partOfSet }),
    exhibitions: [...exhibitions].sort(),
    media: { ...(manifest ? { manifest } : {}), videos: [], audios: [] },
    images: [],
    creativeProjects: [],
    onDisplay,
    healthy: true,
    state: { kind: 'current' },
    ...meta(g),
  };
}

/** The acquisition: its method (the label of the concept its technique names), year, place and receiver. */
function acquisitionOf(g: MemberGraph, names: Names, record: string): Pick<ObjectRecord, 'acquisition'> {
  const node = g.objects(g.subject, `${CRM}P24i_changed_ownership_through`)[0];
  if (node === undefined) return {};
  const technique = g.objects(node, `${CRM}P32_used_general_technique`)[0];
  const methodIri = technique === undefined ? undefined : g.typeIris(technique)[0];
  const method = methodIri === undefined ? undefined : g.label(methodIri, `${SKOS}prefLabel`, `${NS.rdfs}label`);
  if (method === undefined) {
    names.dropped(record, 'an acquisition without a method');
    return {};
  }
  const time = g.objects(node, `${CRM}P4_has_time-span`)[0];
  const when = time === undefined ? undefined : time.termType === 'Literal' ? edtfSpan(time.value)?.begin : g.objects(time, `${M8G}startTime`).map((t) => yearOf(t.value)).find((y) => y !== undefined);
  const place = placeOf(g, g.objects(node, `${CRM}P7_took_place_at`)[0]);
  return { acquisition: { method, ...(when === undefined ? {} : { year: when }), ...(place ? { place } : {}) } };
}

function mapExhibition(g: MemberGraph, names: Names): ExhibitionRecord | string {
  const pid = g.identifier('referentienummer');
  if (pid === undefined || !EXHIBITION_PID.test(pid)) return `an exhibition without a reference number of the form TE_<year>-<serial>${pid === undefined ? '' : ` (${pid})`}`;
  const s = g.subject;
  const time = g.objects(s, `${CRM}P4_has_time-span`).find((t) => t.termType === 'Literal')?.value;
  const dates = time === undefined ? undefined : exhibitionDates(time);
  if (dates === undefined) return `exhibition ${pid}: no dates (${time ?? 'no time-span'})`;
  const titles: Texts = {};
  for (const appellation of g.objects(s, `${CRM}P1_is_identified_by`)) {
    for (const [lang, text] of Object.entries(g.texts(appellation, `${CRM}P190_has_symbolic_content`)) as [keyof Texts, string][]) titles[lang] ??= text;
  }
  const objects: string[] = [];
  for (const used of g.objects(s, `${CRM}P16_used_specific_object`)) {
    const number = g.identifier('objectnummer', used);
    if (number === undefined || !OBJECT_NUMBER.test(number)) continue;
    objects.push(number);
    const of = names.exhibitionsOf.get(number) ?? new Set<string>();
    names.exhibitionsOf.set(number, of.add(pid));
  }
  const venue = placeOf(g, g.objects(s, `${CRM}P7_took_place_at`)[0]);
  return {
    pid,
    titles,
    ...(titles.nl === undefined && (titles.en ?? titles.fr) !== undefined ? { sourceTitle: titles.en ?? titles.fr } : {}),
    begin: dates.begin,
    end: dates.end,
    ...(venue ? { venue } : {}),
    objects: unique(objects),
    descriptions: g.texts(s, `${CRM}P3_has_note`),
    publications: [],
    media: [],
    views: [],
    ...meta(g),
  };
}

/** An exhibition's EDTF interval as ISO dates: a year alone opens on 1 January and closes on 31 December. */
function exhibitionDates(label: string): { begin: string; end: string } | undefined {
  const [from, to = from] = label.trim().split('/');
  const day = (side: string | undefined, last: boolean): string | undefined => {
    const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec((side ?? '').replace(/[~?%]/g, ''));
    if (m === null) return undefined;
    const [, y, mo, d] = m;
    if (mo === undefined) return last ? `${y}-12-31` : `${y}-01-01`;
    if (d === undefined) return last ? new Date(Date.UTC(Number(y), Number(mo), 0)).toISOString().slice(0, 10) : `${y}-${mo}-01`;
    return `${y}-${mo}-${d}`;
  };
  const begin = day(from, false) ?? day(to, false);
  const end = day(to, true) ?? day(from, true);
  return begin === undefined || end === undefined || end < begin ? undefined : { begin, end };
}

const unique = (list: string[]): string[] => [...new Set(list)];
