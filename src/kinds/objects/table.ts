/**
 * The facts of one generation's listed objects, in memory (docs/collection-index.md: collections are served
 * from a per-generation collection index). Objects get dense ids 0 … size-1 in object-number order, so id order
 * is the default sort; flags are bitsets, labels, agents and concepts are postings, dated events are typed
 * arrays. Built from the rows of the `objects/index-*` SELECT queries by a pure function, so it is testable alone.
 */
import { setImmediate as turn } from 'node:timers/promises';
import { Bitset } from '../../collection-index/bitset.js';
import { type PerLanguage, textsPerLanguage } from '../../collection-index/languages.js';
import { type Postings, PostingsBuilder } from '../../collection-index/postings.js';
import { forEachListed, listRecords, type RecordTable, type Row } from '../../collection-index/record-table.js';
import { Thesaurus } from '../../collection-index/thesaurus.js';
import { buildColorFacts, type ColorFacts } from './colors.js';

/** The rows of every index query, by query. */
export interface IndexRows {
  objects: readonly Row[];
  titles: readonly Row[];
  descriptions: readonly Row[];
  /** The concepts of each object by role (one query per role; see queries/objects/index-concepts-*.rq). */
  conceptTypes: readonly Row[];
  conceptMaterials: readonly Row[];
  conceptTechniques: readonly Row[];
  conceptSubCollections: readonly Row[];
  dates: readonly Row[];
  agents: readonly Row[];
  broader: readonly Row[];
  conceptLabels: readonly Row[];
  colors: readonly Row[];
}

export interface ObjectTable extends RecordTable {
  /** Object number per id (the pid). */
  readonly numbers: readonly string[];
  /** Objects with a IIIF manifest. */
  readonly hasImages: Bitset;
  /** Objects in the collection presentation (crm:P55_has_current_location). */
  readonly onDisplay: Bitset;
  /** Koepelrecords: they carry crm:P106_is_composed_of, or their number has the form `<prefix>_0-<N>`. */
  readonly koepels: Bitset;
  /** Set members: they carry crm:P46i_forms_part_of. */
  readonly setMembers: Bitset;
  readonly titles: PerLanguage<readonly (string | undefined)[]>;
  readonly descriptions: PerLanguage<readonly (string | undefined)[]>;
  readonly hasTitleIn: PerLanguage<Bitset>;
  /** Earliest begin and latest end year over production and creation events; NaN when undated (the date sorts). */
  readonly periodBegin: Float64Array;
  readonly periodEnd: Float64Array;
  /** Every dated production or creation time-span: its object and years (the date filters match these one by one). */
  readonly spans: { readonly object: Uint32Array; readonly begin: Float64Array; readonly end: Float64Array };
  /** Lower-cased type and material labels → objects (what the `type` and `material` filters match). */
  readonly typeLabels: Postings;
  readonly materialLabels: Postings;
  /** Per lower-cased label: the label as the indexes show it, and the concepts that carry it. */
  readonly typeTerms: ReadonlyMap<string, LabelTerm>;
  readonly materialTerms: ReadonlyMap<string, LabelTerm>;
  /** Agent IRI → objects it designed (creation) or produced (production). */
  readonly agents: Postings;
  /** Concept IRI → objects that have it as type, material, technique or sub-collection. */
  readonly concepts: Postings;
  readonly thesaurus: Thesaurus;
  /** Colours of the analysed images (the colour filters and indexes). */
  readonly colors: ColorFacts;
}

/** A label as the type and material indexes list it: one spelling, and every concept IRI that carries it. */
export interface LabelTerm {
  readonly label: string;
  readonly concepts: readonly string[];
}

const KOEPEL_NUMBER = /_0-\d+$/;

/** Builds the table from the index rows of one generation. */
export async function buildObjectTable(generationId: string, rows: IndexRows): Promise<ObjectTable> {
  const { listed, base } = listRecords(generationId, rows.objects, { record: 'object', pid: 'number' });
  const { size, idOf } = base;

  const flag = (name: string): Bitset => Bitset.of(size, listed.flatMap((row, id) => (row[name] === 'true' ? [id] : [])));
  const koepels = Bitset.of(size, listed.flatMap((row, id) => (row.hasParts === 'true' || KOEPEL_NUMBER.test(row.number!) ? [id] : [])));

  // The event loop turns between the parts (each decoded from the stored index as it is read): a replica builds
  // the next generation's table while it serves, 0.9 s in one go at 100,000 objects (build.ts says why that matters).
  await turn();
  const { texts: titles, has: hasTitleIn } = textsPerLanguage(size, rows.titles, idOf);
  await turn();
  const { texts: descriptions } = textsPerLanguage(size, rows.descriptions, idOf, (before, next) => `${before}\n${next}`);
  await turn();

  const periodBegin = new Float64Array(size).fill(NaN);
  const periodEnd = new Float64Array(size).fill(NaN);
  const spanObject: number[] = [];
  const spanBegin: number[] = [];
  const spanEnd: number[] = [];
  forEachListed(rows.dates, idOf, (id, row) => {
    const begin = parseYear(row.begin);
    const end = parseYear(row.end);
    if (begin === undefined || end === undefined) return;
    spanObject.push(id);
    spanBegin.push(begin);
    spanEnd.push(end);
    if (!(periodBegin[id]! <= begin)) periodBegin[id] = begin;
    if (!(periodEnd[id]! >= end)) periodEnd[id] = end;
  }, 'object');

  const typeLabels = new PostingsBuilder();
  const materialLabels = new PostingsBuilder();
  const typeTerms = new TermsBuilder();
  const materialTerms = new TermsBuilder();
  const concepts = new PostingsBuilder();
  // One query per role; read in turn rather than copied into one array (490k rows at 100k objects).
  for (const part of ['conceptTypes', 'conceptMaterials', 'conceptTechniques', 'conceptSubCollections'] as const) {
    await turn();
    forEachListed(rows[part], idOf, (id, row) => {
      if (!row.concept) return;
      concepts.add(row.concept, id);
      if (row.label === undefined) return;
      if (row.role === 'type') {
        typeLabels.add(row.label.toLowerCase(), id);
        typeTerms.add(row.label, row.concept);
      }
      if (row.role === 'material') {
        materialLabels.add(row.label.toLowerCase(), id);
        materialTerms.add(row.label, row.concept);
      }
    }, 'object');
  }
  await turn();
  const agents = new PostingsBuilder();
  forEachListed(rows.agents, idOf, (id, row) => {
    if (row.agent) agents.add(row.agent, id);
  }, 'object');
  await turn();
  const thesaurus = new Thesaurus({ broader: rows.broader, labels: rows.conceptLabels });
  await turn();
  const colors = buildColorFacts(size, rows.colors, idOf);

  return {
    ...base,
    numbers: base.pids,
    hasImages: Bitset.of(size, listed.flatMap((row, id) => (row.manifest ? [id] : []))),
    onDisplay: flag('onDisplay'),
    koepels,
    setMembers: flag('isPartOf'),
    titles,
    descriptions,
    hasTitleIn,
    periodBegin,
    periodEnd,
    spans: { object: Uint32Array.from(spanObject), begin: Float64Array.from(spanBegin), end: Float64Array.from(spanEnd) },
    typeLabels: typeLabels.build(),
    materialLabels: materialLabels.build(),
    typeTerms: typeTerms.build(),
    materialTerms: materialTerms.build(),
    agents: agents.build(),
    concepts: concepts.build(),
    thesaurus,
    colors,
  };
}

/**
 * Label spellings and concepts per lower-cased label. When concepts spell one label differently, the index
 * shows the spelling that sorts first in code-point order, so the choice does not depend on row order.
 */
class TermsBuilder {
  private readonly terms = new Map<string, { label: string; concepts: Set<string> }>();

  add(label: string, concept: string): void {
    const key = label.toLowerCase();
    const term = this.terms.get(key);
    if (!term) this.terms.set(key, { label, concepts: new Set([concept]) });
    else {
      if (label < term.label) term.label = label;
      term.concepts.add(concept);
    }
  }

  build(): ReadonlyMap<string, LabelTerm> {
    return new Map([...this.terms].map(([key, term]) => [key, { label: term.label, concepts: [...term.concepts].sort() }]));
  }
}

/** An xsd:gYear lexical form (`1920`, `-0500`) as a number. */
function parseYear(value: string | undefined): number | undefined {
  if (value === undefined || !/^-?\d{4,}/.test(value)) return undefined;
  const year = Number.parseInt(value, 10);
  return Number.isFinite(year) ? year : undefined;
}
