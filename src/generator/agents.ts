/**
 * Builds the agents (agents.jsonl): the fixed agents of ./vocabulary/agents.ts, then invented designers and
 * manufacturers from several countries. Classification evidence comes in the three forms of the spec
 * (registrar kind, knowledge-base kind only, neither). Relations are written from one side only: the
 * harvest adds each inverse (schema.ts INVERSE_RELATION).
 */
import { RELATION_TYPES, type AgentRecord, type RelationType } from '../harvest/schema.js';
import { Rng } from './rng.js';
import { aOrAn, pad, tri, wikipediaUrl, type Lang } from './text.js';
import { recordTimes } from './time.js';
import { assertValid } from './validate.js';
import { FAMOUS_AGENTS, FAMOUS_RELATIONS, ORGANISATION_KINDS, PROFESSIONS, type Profession } from './vocabulary/agents.js';
import { COUNTRIES, citizenshipOf, type CountryCode } from './vocabulary/countries.js';
import type { Industry } from './vocabulary/families.js';
import { INDUSTRY_OBJECTS, INDUSTRY_WEIGHTS, LEGAL_SUFFIX, ORG_TEMPLATES, PROFESSION_WEIGHTS, type NameLang } from './vocabulary/agent-makeup.js';
import { DESIGNER_COUNTRIES, NAMES } from './vocabulary/names.js';
import { PLACES, placeRef, placesOf, type PlaceKey } from './vocabulary/places.js';
import { AGENT_IDS, idInBlock } from './stad-gent-ids.js';

/** What the object and exhibition builders need to know about an agent. */
export interface AgentInfo {
  pid: string;
  name: string;
  kind: 'person' | 'organisation';
  industry: Industry;
  country: CountryCode;
  birth?: number;
  death?: number;
  birthPlace?: PlaceKey;
  public: boolean;
}

export interface AgentPool {
  records: AgentRecord[];
  /** Fixed agents by their key in ./vocabulary/agents.ts. */
  byKey: ReadonlyMap<string, AgentInfo>;
  byPid: ReadonlyMap<string, AgentInfo>;
  /** Public persons per industry, sorted by birth year. */
  persons: ReadonlyMap<Industry, readonly AgentInfo[]>;
  /** Public organisations per industry, sorted by founding year. */
  organisations: ReadonlyMap<Industry, readonly AgentInfo[]>;
  allPersons: readonly AgentInfo[];
  allOrganisations: readonly AgentInfo[];
}

const FAMOUS_PID_START = 1000;
const LICENCE = 'https://creativecommons.org/licenses/by-sa/4.0/';

function nameLang(country: CountryCode, rng: Rng): NameLang {
  switch (country) {
    case 'BEL':
      return rng.chance(0.55) ? 'nl' : 'fr';
    case 'NLD':
      return 'nl';
    case 'FRA':
    case 'CHE':
      return 'fr';
    case 'ITA':
      return 'it';
    case 'DNK':
    case 'NOR':
      return 'da';
    case 'SWE':
      return 'sv';
    case 'FIN':
      return 'fi';
    default:
      return 'de';
  }
}

interface Draft {
  info: AgentInfo;
  famous: boolean;
  female: boolean;
  gender?: 'MALE' | 'FEMALE' | 'OP_DATPRO';
  profession?: Profession;
  classify: 'registrar' | 'knowledgeBase' | 'none';
  alternativeNames: string[];
  deathPlace?: PlaceKey;
  biographyLangs: Lang[];
  thumbnail: boolean;
  sameAs?: readonly string[];
  relations: { type: RelationType; agent: string }[];
}

/** Minimum number of agents: the fixed ones plus a few dozen invented ones. */
export const MIN_AGENTS = FAMOUS_AGENTS.length + 40;

/** Builds `count` agents (never fewer than MIN_AGENTS) for the seed. */
export function buildAgents(seed: number, count: number): AgentPool {
  const total = Math.max(count, MIN_AGENTS);
  const drafts: Draft[] = [];
  const reserved = new Set<string>();
  const byKey = new Map<string, AgentInfo>();
  const usedNames = new Set<string>();

  FAMOUS_AGENTS.forEach((a, i) => {
    const pid = a.pid ?? `DMG-A-${pad(FAMOUS_PID_START + i, 5)}`;
    reserved.add(pid);
    usedNames.add(a.name);
    const rng = new Rng(seed, `agent:${pid}`);
    const info: AgentInfo = { pid, name: a.name, kind: a.kind, industry: a.industry, country: a.country, public: true };
    if (a.birth) {
      info.birth = a.birth[0];
      if (a.birth[1]) info.birthPlace = a.birth[1];
    }
    if (a.death) info.death = a.death[0];
    const draft: Draft = {
      info,
      famous: true,
      female: a.gender === 'FEMALE',
      classify: a.classify ?? 'registrar',
      alternativeNames: [...(a.alternativeNames ?? [])],
      biographyLangs: a.key === 'deCoster' ? [] : (['nl', 'en', 'fr'] as Lang[]).filter((l) => l === 'nl' || rng.chance(l === 'en' ? 0.85 : 0.6)),
      thumbnail: a.kind === 'person' && rng.chance(0.7),
      relations: [],
    };
    if (a.gender) draft.gender = a.gender;
    if (a.profession) draft.profession = a.profession;
    if (a.death?.[1]) draft.deathPlace = a.death[1];
    if (a.sameAs) draft.sameAs = a.sameAs;
    drafts.push(draft);
    byKey.set(a.key, info);
  });
  for (const [from, type, to] of FAMOUS_RELATIONS) {
    const subject = drafts.find((d) => d.info.pid === byKey.get(from)?.pid);
    const object = byKey.get(to);
    if (!subject || !object) throw new Error(`agents: relation names unknown agent ${from} or ${to}`);
    subject.relations.push({ type, agent: object.pid });
  }

  const rng = new Rng(seed, 'agents');
  let serial = 1;
  const generatedStart = drafts.length;
  while (drafts.length < total) {
    while (reserved.has(`DMG-A-${pad(serial, 5)}`)) serial++;
    const pid = `DMG-A-${pad(serial++, 5)}`;
    drafts.push(rng.chance(0.65) ? inventPerson(seed, pid, usedNames) : inventOrganisation(seed, pid, usedNames));
  }

  // A few private agents, never among those objects point at (objects pick only public agents).
  const generated = drafts.slice(generatedStart);
  const privateCount = Math.max(2, Math.round(generated.length * 0.015));
  for (const d of rng.sample(generated, privateCount)) d.info.public = false;

  addGeneratedRelations(rng, generated.filter((d) => d.info.public));

  const records = drafts.map((d, i) => agentRecord(seed, d, i));
  records.sort((a, b) => (a.pid < b.pid ? -1 : a.pid > b.pid ? 1 : 0));

  const byPid = new Map(drafts.map((d) => [d.info.pid, d.info]));
  const persons = new Map<Industry, AgentInfo[]>();
  const organisations = new Map<Industry, AgentInfo[]>();
  for (const d of drafts) {
    if (!d.info.public) continue;
    const map = d.info.kind === 'person' ? persons : organisations;
    const list = map.get(d.info.industry) ?? [];
    list.push(d.info);
    map.set(d.info.industry, list);
  }
  const byBirth = (a: AgentInfo, b: AgentInfo): number => (a.birth ?? 0) - (b.birth ?? 0) || (a.pid < b.pid ? -1 : 1);
  for (const list of persons.values()) list.sort(byBirth);
  for (const list of organisations.values()) list.sort(byBirth);
  const publicInfos = drafts.map((d) => d.info).filter((i) => i.public);
  return {
    records,
    byKey,
    byPid,
    persons,
    organisations,
    allPersons: publicInfos.filter((i) => i.kind === 'person').sort(byBirth),
    allOrganisations: publicInfos.filter((i) => i.kind === 'organisation').sort(byBirth),
  };
}

function classification(rng: Rng): Draft['classify'] {
  const r = rng.next();
  return r < 0.6 ? 'registrar' : r < 0.85 ? 'knowledgeBase' : 'none';
}

function uniqueName(base: string, used: Set<string>, variants: () => string): string {
  let name = base;
  for (let i = 0; used.has(name) && i < 20; i++) name = variants();
  for (let n = 2; used.has(name); n++) name = `${base} (${n})`;
  used.add(name);
  return name;
}

function inventPerson(seed: number, pid: string, used: Set<string>): Draft {
  const rng = new Rng(seed, `agent:${pid}`);
  const country = rng.weighted(DESIGNER_COUNTRIES);
  const pool = NAMES[country] ?? NAMES.BEL;
  if (!pool) throw new Error('agents: no name pool');
  const female = rng.chance(0.35);
  const first = rng.pick(female ? pool.female : pool.male);
  const surname = rng.pick(pool.surnames);
  const initial = (): string => `${first} ${String.fromCharCode(65 + rng.int(0, 25))}. ${surname}`;
  const name = uniqueName(`${first} ${surname}`, used, initial);
  const profession = rng.weighted(PROFESSION_WEIGHTS);
  const birth = rng.weighted<readonly [number, number]>([
    [[1580, 1800], 10],
    [[1800, 1880], 25],
    [[1880, 1940], 35],
    [[1940, 1995], 30],
  ]);
  const birthYear = rng.int(birth[0], birth[1]);
  const places = placesOf(country);
  const info: AgentInfo = { pid, name, kind: 'person', industry: PROFESSIONS[profession].industry, country, public: true };
  if (rng.chance(0.92)) info.birth = birthYear;
  if (info.birth !== undefined && places.length > 0 && rng.chance(0.7)) info.birthPlace = rng.pick(places);
  const lifespan = rng.int(45, 95);
  if (birthYear + lifespan < 2025 && info.birth !== undefined) info.death = birthYear + lifespan;
  const classify = classification(rng);
  const hasBio = rng.chance(0.2);
  const draft: Draft = {
    info,
    famous: false,
    female,
    profession,
    classify,
    alternativeNames: rng.chance(0.2) ? [`${surname}, ${first}`] : [],
    biographyLangs: hasBio ? (['nl', 'en', 'fr'] as Lang[]).filter((l) => (l === 'nl' ? rng.chance(0.9) : rng.chance(l === 'en' ? 0.6 : 0.4))) : [],
    thumbnail: false,
    relations: [],
  };
  if (hasBio && draft.biographyLangs.length === 0) draft.biographyLangs.push('nl');
  draft.thumbnail = draft.biographyLangs.length > 0 && rng.chance(0.5);
  if (classify !== 'none') {
    const g = rng.next();
    draft.gender = g < 0.005 ? 'OP_DATPRO' : female ? 'FEMALE' : 'MALE';
    if (rng.chance(0.1)) delete draft.gender;
  }
  if (info.death !== undefined && places.length > 0 && rng.chance(0.5)) draft.deathPlace = rng.pick(places);
  return draft;
}

function inventOrganisation(seed: number, pid: string, used: Set<string>): Draft {
  const rng = new Rng(seed, `agent:${pid}`);
  const country = rng.weighted(DESIGNER_COUNTRIES);
  const industry = rng.weighted(INDUSTRY_WEIGHTS);
  const lang = nameLang(country, rng);
  const pool = NAMES[country] ?? NAMES.BEL;
  if (!pool) throw new Error('agents: no name pool');
  const places = placesOf(country);
  const templates = ORG_TEMPLATES[industry][lang] ?? ORG_TEMPLATES.general.nl ?? ['Studio {S}'];
  const make = (): string => {
    let template = rng.pick(templates);
    if (template.includes('{P}') && places.length === 0) template = '{S} & Co';
    const place = places.length > 0 ? PLACES[rng.pick(places)] : undefined;
    const placeName = place ? (lang === 'fr' ? place.fr : place.nl) : '';
    const name = template.replace('{S}', rng.pick(pool.surnames)).replace('{P}', placeName);
    return rng.chance(0.15) && !name.endsWith(LEGAL_SUFFIX[lang]) ? `${name}${LEGAL_SUFFIX[lang]}` : name;
  };
  const name = uniqueName(make(), used, make);
  const founded = rng.weighted<readonly [number, number]>([
    [[1650, 1800], 10],
    [[1800, 1900], 35],
    [[1900, 1960], 35],
    [[1960, 2015], 20],
  ]);
  const year = rng.int(founded[0], founded[1]);
  const info: AgentInfo = { pid, name, kind: 'organisation', industry, country, birth: year, public: true };
  if (places.length > 0 && rng.chance(0.8)) info.birthPlace = rng.pick(places);
  if (year < 1990 && rng.chance(0.4)) info.death = Math.min(2024, year + rng.int(5, 150));
  const hasBio = rng.chance(0.15);
  const draft: Draft = {
    info,
    famous: false,
    female: false,
    classify: classification(rng),
    alternativeNames: rng.chance(0.15) ? [name.endsWith(LEGAL_SUFFIX[lang]) ? name.slice(0, -LEGAL_SUFFIX[lang].length) : `${name}${LEGAL_SUFFIX[lang]}`] : [],
    biographyLangs: hasBio ? (['nl', 'en', 'fr'] as Lang[]).filter((l) => l === 'nl' || rng.chance(0.5)) : [],
    thumbnail: false,
    relations: [],
  };
  if (info.death !== undefined && info.birthPlace && rng.chance(0.5)) draft.deathPlace = info.birthPlace;
  return draft;
}

const PERSON_PERSON: ReadonlySet<RelationType> = new Set(['parent_of', 'child_of', 'spouse_of', 'sibling_of', 'mentor_of', 'student_of']);
const PERSON_ORG: ReadonlySet<RelationType> = new Set(['employee_of', 'member_of', 'founded']);
const ORG_PERSON: ReadonlySet<RelationType> = new Set(['employer_of', 'has_member', 'founded_by']);

/** Relations among invented agents; the first thirteen use each relation type once, so every type appears. */
function addGeneratedRelations(rng: Rng, drafts: Draft[]): void {
  const persons = drafts.filter((d) => d.info.kind === 'person');
  const orgs = drafts.filter((d) => d.info.kind === 'organisation');
  if (persons.length < 2 || orgs.length < 1) return;
  const pairs = new Set<string>();
  const count = Math.max(RELATION_TYPES.length, Math.round(drafts.length * 0.1));
  for (let i = 0, attempts = 0; i < count && attempts < count * 20; attempts++) {
    const type = i < RELATION_TYPES.length ? (RELATION_TYPES[i] as RelationType) : rng.pick(RELATION_TYPES);
    const subject = PERSON_PERSON.has(type) || PERSON_ORG.has(type) ? rng.pick(persons) : ORG_PERSON.has(type) ? rng.pick(orgs) : rng.pick(drafts);
    const object = PERSON_PERSON.has(type) || ORG_PERSON.has(type) ? rng.pick(persons) : PERSON_ORG.has(type) ? rng.pick(orgs) : rng.pick(drafts);
    const key = subject.info.pid < object.info.pid ? `${subject.info.pid}|${object.info.pid}` : `${object.info.pid}|${subject.info.pid}`;
    if (subject === object || pairs.has(key)) continue;
    pairs.add(key);
    subject.relations.push({ type, agent: object.info.pid });
    i++;
  }
}

function agentRecord(seed: number, d: Draft, index: number): AgentRecord {
  const rng = new Rng(seed, `agent-record:${d.info.pid}`);
  const { info } = d;
  const person = info.kind === 'person';
  const record: AgentRecord = {
    pid: info.pid,
    name: info.name,
    alternativeNames: d.alternativeNames,
    wikipediaTitles: d.biographyLangs.map((lang) => ({ lang, title: info.name, url: wikipediaUrl(lang, info.name) })),
    biographies: [],
    relations: d.relations,
    ...recordTimes(rng),
    public: info.public,
    sameAs: [],
  };
  if (d.classify === 'registrar') record.registrarKind = person ? 'person' : 'institution';
  if (d.classify === 'knowledgeBase') record.knowledgeBaseKind = person ? 'human' : 'organisation';
  if (person && d.gender) record.gender = d.gender;
  if (person && d.classify !== 'none' && (d.famous || rng.chance(0.8))) record.citizenship = citizenshipOf(info.country);
  if (info.birth !== undefined) record.birth = info.birthPlace ? { year: info.birth, place: placeRef(info.birthPlace) } : { year: info.birth };
  if (info.death !== undefined) record.death = d.deathPlace ? { year: info.death, place: placeRef(d.deathPlace) } : { year: info.death };
  const bio = biography(d);
  record.biographies = d.biographyLangs.map((lang) => ({ lang, text: bio[lang], source: wikipediaUrl(lang, info.name), licence: LICENCE }));
  if (d.thumbnail) record.thumbnail = `https://commons.wikimedia.org/wiki/Special:FilePath/${encodeURIComponent(info.name.replace(/ /g, '_'))}.jpg`;
  record.sameAs = d.sameAs ? [...d.sameAs] : authorityLinks(rng, d, index);
  return assertValid('agents', info.pid, orderAgent(record));
}

/** Keeps the key order of the schema, whatever order the optional fields were set in. */
function orderAgent(r: AgentRecord): AgentRecord {
  const out: AgentRecord = { pid: r.pid, name: r.name, alternativeNames: r.alternativeNames } as AgentRecord;
  if (r.registrarKind) out.registrarKind = r.registrarKind;
  if (r.knowledgeBaseKind) out.knowledgeBaseKind = r.knowledgeBaseKind;
  out.wikipediaTitles = r.wikipediaTitles;
  if (r.gender) out.gender = r.gender;
  if (r.citizenship) out.citizenship = r.citizenship;
  if (r.birth) out.birth = r.birth;
  if (r.death) out.death = r.death;
  out.biographies = r.biographies;
  if (r.thumbnail) out.thumbnail = r.thumbnail;
  out.relations = r.relations;
  out.harvestedAt = r.harvestedAt;
  out.modified = r.modified;
  out.public = r.public;
  out.sameAs = r.sameAs;
  return out;
}

function authorityLinks(rng: Rng, d: Draft, index: number): string[] {
  const links: string[] = [];
  if (rng.chance(0.95)) links.push(`https://stad.gent/id/agent/${idInBlock(AGENT_IDS, index)}`);
  const known = d.biographyLangs.length > 0;
  if (known || rng.chance(0.2)) links.push(`http://www.wikidata.org/entity/Q${rng.int(1_000_000, 120_000_000)}`);
  if (rng.chance(known ? 0.5 : 0.1)) links.push(`http://vocab.getty.edu/ulan/500${pad(rng.int(0, 999_999), 6)}`);
  if ((d.info.country === 'BEL' || d.info.country === 'NLD') && d.info.kind === 'person' && rng.chance(0.25)) {
    links.push(`https://rkd.nl/explore/artists/${rng.int(1000, 499_999)}`);
  }
  return links;
}

function biography(d: Draft): { nl: string; fr: string; en: string } {
  const { info } = d;
  const country = COUNTRIES[info.country];
  const objects = INDUSTRY_OBJECTS[info.industry];
  const place = (key: PlaceKey | undefined, lang: Lang): string => (key ? PLACES[key][lang] : '');
  if (info.kind === 'organisation') {
    const kind = ORGANISATION_KINDS[info.industry];
    const dissolved = info.death !== undefined;
    return tri((lang) => {
      const at = info.birthPlace ? place(info.birthPlace, lang) : '';
      if (lang === 'nl') {
        return `${info.name} ${dissolved ? 'was' : 'is'} een ${country.adjNl} ${kind.nl}${info.birth ? `, opgericht in ${info.birth}${at ? ` in ${at}` : ''}` : ''}. Het bedrijf maakte onder meer ${objects.nl}.${dissolved ? ` Het werd in ${info.death} opgeheven.` : ''}`;
      }
      if (lang === 'fr') {
        return `${info.name} ${dissolved ? 'était' : 'est'} une entreprise ${country.adjFrF}${info.birth ? ` fondée en ${info.birth}${at ? ` à ${at}` : ''}` : ''} (${kind.fr}). Elle a produit notamment ${objects.fr}.${dissolved ? ` Elle a été dissoute en ${info.death}.` : ''}`;
      }
      return `${info.name} ${dissolved ? 'was' : 'is'} ${aOrAn(`${country.adjEn} ${kind.en}`)}${info.birth ? ` founded in ${info.birth}${at ? ` in ${at}` : ''}` : ''}. It made ${objects.en}, among other things.${dissolved ? ` It was dissolved in ${info.death}.` : ''}`;
    });
  }
  const female = d.female;
  const profession = PROFESSIONS[d.profession ?? 'designer'];
  const life = (lang: Lang): string => {
    const born = info.birth !== undefined ? `${info.birthPlace ? `${place(info.birthPlace, lang)}, ` : ''}${info.birth}` : '';
    const died = info.death !== undefined ? `${d.deathPlace ? `${place(d.deathPlace, lang)}, ` : ''}${info.death}` : '';
    if (!born && !died) return '';
    return ` (${born}${died ? ` – ${died}` : ''})`;
  };
  const alive = info.death === undefined;
  return tri((lang) => {
    if (lang === 'nl') {
      return `${info.name}${life(lang)} ${alive ? 'is' : 'was'} een ${country.adjNl} ${profession.nl[female ? 1 : 0]}. ${female ? 'Zij' : 'Hij'} ontwierp onder meer ${objects.nl}. Werk van ${info.name} bevindt zich in museumcollecties ${country.inNl} en daarbuiten.`;
    }
    if (lang === 'fr') {
      return `${info.name}${life(lang)} ${alive ? 'est' : 'était'} ${female ? 'une' : 'un'} ${profession.fr[female ? 1 : 0]} ${female ? country.adjFrF : country.adjFrM}. ${female ? 'Elle' : 'Il'} a conçu notamment ${objects.fr}. Ses œuvres figurent dans des collections de musées ${country.inFr} et ailleurs.`;
    }
    return `${info.name}${life(lang)} ${alive ? 'is' : 'was'} ${aOrAn(`${country.adjEn} ${profession.en}`)}. ${female ? 'She' : 'He'} designed ${objects.en}, among other things. Work by ${info.name} is held in museum collections ${country.inEn} and beyond.`;
  });
}
