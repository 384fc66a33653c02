/**
 * Builds the thesaurus (concepts.jsonl): the hand-written core of ./vocabulary/thesaurus.ts plus generated
 * narrower terms (compounds such as "tuinstoel", then style and place qualifiers such as "tuinstoel (art deco)")
 * until the requested size is reached. Broader links are internal pids, except on the top terms and on
 * some others, which carry an external AAT broader term.
 */
import type { ConceptRecord } from '../harvest/schema.js';
import { Rng, hash32 } from './rng.js';
import { recordTimes } from './time.js';
import { assertValid } from './validate.js';
import { PLACES, PLACE_KEYS } from './vocabulary/places.js';
import type { Tri } from './vocabulary/phrases.js';
import {
  BASE_CONCEPTS,
  COMPOUND_PREFIXES,
  STYLE_QUALIFIERS,
  TOP_BROADER,
  wordOf,
  type BaseConcept,
  type Facet,
  type MaterialGroup,
} from './vocabulary/thesaurus.js';

/** What the object builder needs to know about a concept. */
export interface ConceptInfo {
  pid: string;
  facet: Facet;
  label: string;
  /** Word for titles and texts in the three languages (also when the record lacks a translation). */
  word: Tri;
  art?: 'de' | 'het';
  gender?: 'm' | 'f';
  group?: MaterialGroup;
  /** Key of the hand-written concept this one descends from (itself for those). */
  root: string;
}

export interface Thesaurus {
  records: ConceptRecord[];
  /** Hand-written concepts by key (Dutch label). */
  byKey: ReadonlyMap<string, ConceptInfo>;
  byPid: ReadonlyMap<string, ConceptInfo>;
  /** Generated narrower terms (all levels) under each hand-written concept. */
  descendants: ReadonlyMap<string, readonly string[]>;
}

const BASE_PID_START = 530_001_000;
const FILLER_PID_START = 530_010_000;
/** Highest pid the concept range may use (agents start at 530300000). */
const PID_LIMIT = 530_299_999;

interface Draft {
  pid: string;
  facet: Facet;
  labels: Tri;
  word: Tri;
  parentPid?: string;
  art?: 'de' | 'het';
  gender?: 'm' | 'f';
  group?: MaterialGroup;
  root: string;
  scope?: { nl: string; fr?: string; en?: string };
  aat?: string;
  generated: boolean;
}

/** Minimum number of concepts, whatever the collection size. */
export const MIN_CONCEPTS = 150;

/** Builds `count` concepts (never fewer than the hand-written core) for the seed. */
export function buildThesaurus(seed: number, count: number): Thesaurus {
  const rng = new Rng(seed, 'concepts');
  const aatUsed = new Set<string>();
  const aatFor = (key: string): string => {
    let id = 300_010_000 + (hash32(key) % 90_000);
    while (aatUsed.has(String(id))) id = id >= 300_099_999 ? 300_010_000 : id + 1;
    aatUsed.add(String(id));
    return String(id);
  };
  for (const c of BASE_CONCEPTS) if (c.aat) aatUsed.add(c.aat);

  const drafts: Draft[] = [];
  const byKey = new Map<string, Draft>();
  const labelSet = new Set<string>();
  BASE_CONCEPTS.forEach((c, i) => {
    const parent = c.parent === undefined ? undefined : byKey.get(c.parent);
    if (c.parent !== undefined && !parent) throw new Error(`thesaurus: ${c.nl} names unknown broader ${c.parent}`);
    if (labelSet.has(c.nl)) throw new Error(`thesaurus: duplicate label ${c.nl}`);
    const draft: Draft = {
      pid: c.pid ?? String(BASE_PID_START + i),
      facet: c.facet,
      labels: { nl: c.nl, fr: c.fr, en: c.en },
      word: wordOf(c),
      root: c.nl,
      aat: c.aat ?? aatFor(c.nl),
      generated: false,
      ...optional(c),
    };
    if (parent) draft.parentPid = parent.pid;
    drafts.push(draft);
    byKey.set(c.nl, draft);
    labelSet.add(c.nl);
  });

  const target = Math.max(count, MIN_CONCEPTS, drafts.length);
  let nextPid = FILLER_PID_START;
  const addFiller = (labels: Tri, word: Tri, parent: Draft): Draft | undefined => {
    if (drafts.length >= target || labelSet.has(labels.nl)) return undefined;
    if (nextPid > PID_LIMIT) throw new Error('thesaurus: concept pid range exhausted');
    const draft: Draft = {
      pid: String(nextPid++),
      facet: parent.facet,
      labels,
      word,
      parentPid: parent.pid,
      root: parent.root,
      generated: true,
      ...(parent.art ? { art: parent.art } : {}),
      ...(parent.gender ? { gender: parent.gender } : {}),
      ...(parent.group ? { group: parent.group } : {}),
    };
    drafts.push(draft);
    labelSet.add(labels.nl);
    return draft;
  };

  // Compounds: every prefix of the base term's group, in seeded order.
  const compounds: [BaseConcept, readonly [string, string, string]][] = [];
  for (const c of BASE_CONCEPTS) if (c.compound) for (const prefix of COMPOUND_PREFIXES[c.compound]) compounds.push([c, prefix]);
  for (const [c, [pnl, pfr, pen]] of rng.sample(compounds, compounds.length)) {
    const w = wordOf(c);
    const labels = { nl: `${pnl}${w.nl}`, fr: `${w.fr} ${pfr}`, en: `${pen} ${w.en}` };
    const parent = byKey.get(c.nl);
    if (parent) addFiller(labels, labels, parent);
  }

  // Style qualifiers on object types, place qualifiers on materials, then both on types.
  const typeParents = drafts.filter((d) => d.facet === 'type' && d.parentPid !== undefined);
  const materialParents = drafts.filter((d) => d.facet === 'material' && d.parentPid !== undefined);
  const byLabel = new Map(drafts.map((d) => [d.labels.nl, d]));
  let misses = 0;
  while (drafts.length < target) {
    const roll = rng.next();
    let made: Draft | undefined;
    if (roll < 0.55) {
      const parent = rng.pick(typeParents);
      const [snl, sfr, sen] = rng.pick(STYLE_QUALIFIERS);
      made = addFiller({ nl: `${parent.labels.nl} (${snl})`, fr: `${parent.labels.fr} (${sfr})`, en: `${parent.labels.en} (${sen})` }, parent.word, parent);
    } else if (roll < 0.7) {
      const parent = rng.pick(materialParents);
      const place = PLACES[rng.pick(PLACE_KEYS)];
      made = addFiller({ nl: `${parent.labels.nl} (${place.nl})`, fr: `${parent.labels.fr} (${place.fr})`, en: `${parent.labels.en} (${place.en})` }, parent.word, parent);
    } else {
      const base = rng.pick(typeParents);
      const [snl, sfr, sen] = rng.pick(STYLE_QUALIFIERS);
      const place = PLACES[rng.pick(PLACE_KEYS)];
      const parent = byLabel.get(`${base.labels.nl} (${snl})`) ?? base;
      made = addFiller(
        { nl: `${base.labels.nl} (${snl}, ${place.nl})`, fr: `${base.labels.fr} (${sfr}, ${place.fr})`, en: `${base.labels.en} (${sen}, ${place.en})` },
        base.word,
        parent,
      );
    }
    if (made) {
      byLabel.set(made.labels.nl, made);
      misses = 0;
    } else if (++misses > 10_000) {
      throw new Error(`thesaurus: cannot form ${target} distinct concepts`);
    }
  }

  const pidByDraft = new Map(drafts.map((d) => [d.pid, d]));
  const records: ConceptRecord[] = [];
  for (const d of drafts) records.push(conceptRecord(seed, d, pidByDraft, aatFor));
  records.sort((a, b) => (a.pid < b.pid ? -1 : a.pid > b.pid ? 1 : 0));

  const infoByPid = new Map<string, ConceptInfo>();
  const descendants = new Map<string, string[]>();
  for (const d of drafts) {
    infoByPid.set(d.pid, infoOf(d));
    if (d.generated) {
      const list = descendants.get(d.root) ?? [];
      list.push(d.pid);
      descendants.set(d.root, list);
    }
  }
  const infoByKey = new Map<string, ConceptInfo>();
  for (const [key, d] of byKey) infoByKey.set(key, infoOf(d));
  return { records, byKey: infoByKey, byPid: infoByPid, descendants };
}

/** English plural good enough for AAT-style guide terms. */
function plural(word: string): string {
  if (/(furniture|ware|ing|ics|ery|lace|jewellery|cutlery|textiles|vessels|ceramics)$/.test(word)) return word;
  if (/(s|x|ch|sh)$/.test(word)) return `${word}es`;
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  return `${word}s`;
}

function optional(c: BaseConcept): Partial<Draft> {
  const out: Partial<Draft> = {};
  if (c.art) out.art = c.art;
  if (c.gender) out.gender = c.gender;
  if (c.group) out.group = c.group;
  if (c.scope) out.scope = c.scope;
  return out;
}

function infoOf(d: Draft): ConceptInfo {
  const info: ConceptInfo = { pid: d.pid, facet: d.facet, label: d.labels.nl, word: d.word, root: d.root };
  if (d.art) info.art = d.art;
  if (d.gender) info.gender = d.gender;
  if (d.group) info.group = d.group;
  return info;
}

const FACET_NOTES: Record<Facet, Tri> = {
  type: { nl: 'Objecttype', fr: "Type d'objet", en: 'Object type' },
  material: { nl: 'Materiaal', fr: 'Matériau', en: 'Material' },
  technique: { nl: 'Techniek', fr: 'Technique', en: 'Technique' },
  collection: { nl: 'Deelcollectie van Design Museum Gent', fr: 'Sous-collection du Design Museum Gent', en: 'Sub-collection of Design Museum Gent' },
};

function conceptRecord(seed: number, d: Draft, byPid: ReadonlyMap<string, Draft>, aatFor: (key: string) => string): ConceptRecord {
  const rng = new Rng(seed, `concept:${d.pid}`);
  const parent = d.parentPid === undefined ? undefined : byPid.get(d.parentPid);
  const top = parent === undefined;
  const hasFr = top || rng.chance(d.generated ? 0.45 : 0.75);
  const hasEn = top || rng.chance(d.generated ? 0.65 : 0.9);
  const labels: ConceptRecord['labels'] = { nl: d.labels.nl };
  if (hasFr) labels.fr = d.labels.fr;
  if (hasEn) labels.en = d.labels.en;

  const note = FACET_NOTES[d.facet];
  const scope: Tri = d.scope
    ? { nl: d.scope.nl, fr: d.scope.fr ?? '', en: d.scope.en ?? '' }
    : parent
      ? {
          nl: `${note.nl}: ${d.labels.nl}, een specifieke vorm van ${parent.labels.nl}.`,
          fr: `${note.fr} : ${d.labels.fr}, une forme particulière de ${parent.labels.fr}.`,
          en: `${note.en}: ${d.labels.en}, a specific kind of ${parent.labels.en}.`,
        }
      : {
          nl: `${note.nl}: ${d.labels.nl}, hoofdterm van de thesaurus.`,
          fr: `${note.fr} : ${d.labels.fr}, terme principal du thésaurus.`,
          en: `${note.en}: ${d.labels.en}, top term of the thesaurus.`,
        };
  const scopeNotes: ConceptRecord['scopeNotes'] = { nl: scope.nl };
  if (hasFr && scope.fr && (d.scope?.fr !== undefined || rng.chance(0.4))) scopeNotes.fr = scope.fr;
  if (hasEn && scope.en && (d.scope?.en !== undefined || rng.chance(0.6))) scopeNotes.en = scope.en;

  const broader: ConceptRecord['broader'] = [];
  if (parent) broader.push(parent.pid);
  else broader.push(TOP_BROADER[d.facet]);
  if (parent && !d.generated && rng.chance(0.15)) {
    const en = d.labels.en;
    const guide = d.facet === 'type' ? `<${plural(en)} by form or function>` : d.facet === 'material' ? `<${en} by composition or origin>` : `<${en} by process>`;
    broader.push({ uri: `http://vocab.getty.edu/aat/${aatFor(`broader:${d.pid}`)}`, label: guide });
  }

  const sameAs = [`https://stad.gent/id/concept/${d.pid}`];
  const aat = d.aat ?? (rng.chance(0.3) ? aatFor(`filler:${d.pid}`) : undefined);
  if (aat) sameAs.push(`http://vocab.getty.edu/aat/${aat}`);

  const record: ConceptRecord = {
    pid: d.pid,
    labels,
    scopeNotes,
    broader,
    ...recordTimes(rng),
    public: true,
    sameAs,
  };
  return assertValid('concepts', d.pid, record);
}
