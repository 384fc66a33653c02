/**
 * The facts of one generation's listed objects, in memory (DESIGN.md, "Collections are served from a
 * per-generation collection index"). Objects get dense ids 0 … size-1 in object-number order, so id order
 * is the default sort; flags are bitsets, labels, agents and concepts are postings, periods are typed arrays.
 * Built from the rows of the `objects/index-*` SELECT queries by a pure function, so it is testable alone.
 */
import { AUTHORITY } from '../vocab/namespaces.js';
import { Bitset } from './bitset.js';
import { type Postings, PostingsBuilder } from './postings.js';
import { Thesaurus } from './thesaurus.js';

export type Row = Readonly<Record<string, string>>;
export const TITLE_LANGUAGES = ['nl', 'fr', 'en'] as const;
export type TitleLanguage = (typeof TITLE_LANGUAGES)[number];
/** The language codes of the `language` parameter, as the EU language authority writes them. */
export const LANGUAGE_CODES = { NLD: 'nl', FRA: 'fr', ENG: 'en' } as const satisfies Record<string, TitleLanguage>;
export type LanguageCode = keyof typeof LANGUAGE_CODES;

/** The rows of every index query, by query. */
export interface IndexRows {
  objects: readonly Row[];
  titles: readonly Row[];
  descriptions: readonly Row[];
  concepts: readonly Row[];
  dates: readonly Row[];
  agents: readonly Row[];
  broader: readonly Row[];
  conceptLabels: readonly Row[];
}

type PerLanguage<T> = Record<TitleLanguage, T>;

export interface ObjectTable {
  readonly generationId: string;
  readonly size: number;
  /** Record IRI and object number per id; ids follow object-number order (code points). */
  readonly iris: readonly string[];
  readonly numbers: readonly string[];
  readonly idOf: ReadonlyMap<string, number>;
  /** dcterms:modified as YYYY-MM-DD (ISO dates sort as strings). */
  readonly modified: readonly (string | undefined)[];
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
  /** Earliest begin and latest end year over production and creation events; NaN when undated. */
  readonly periodBegin: Float64Array;
  readonly periodEnd: Float64Array;
  /** Lower-cased type and material labels → objects. */
  readonly typeLabels: Postings;
  readonly materialLabels: Postings;
  /** Agent IRI → objects it designed (creation) or produced (production). */
  readonly agents: Postings;
  /** Concept IRI → objects that have it as type, material, technique or sub-collection. */
  readonly concepts: Postings;
  readonly thesaurus: Thesaurus;
}

const KOEPEL_NUMBER = /_0-\d+$/;
const LANGUAGE_BY_IRI = new Map<string, TitleLanguage>(
  Object.entries(LANGUAGE_CODES).map(([code, lang]) => [`${AUTHORITY.language}${code}`, lang]),
);

const perLanguage = <T>(make: () => T): PerLanguage<T> => ({ nl: make(), fr: make(), en: make() });

/** Code-point order, the order SPARQL's ORDER BY gives plain strings. */
export const compareCodePoints = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Builds the table from the index rows of one generation. */
export function buildObjectTable(generationId: string, rows: IndexRows): ObjectTable {
  const byIri = new Map<string, Row>();
  for (const row of rows.objects) if (row.object && row.number && !byIri.has(row.object)) byIri.set(row.object, row);
  const listed = [...byIri.values()].sort((a, b) => compareCodePoints(a.number!, b.number!));
  const size = listed.length;
  const idOf = new Map<string, number>();
  listed.forEach((row, id) => idOf.set(row.object!, id));

  const flag = (name: string): Bitset => Bitset.of(size, listed.flatMap((row, id) => (row[name] === 'true' ? [id] : [])));
  const koepels = flag('hasParts');
  listed.forEach((row, id) => {
    if (KOEPEL_NUMBER.test(row.number!)) koepels.add(id);
  });

  const titles = perLanguage<(string | undefined)[]>(() => new Array<string | undefined>(size));
  const hasTitleIn = perLanguage(() => new Bitset(size));
  forEachListed(rows.titles, idOf, (id, row) => {
    const lang = LANGUAGE_BY_IRI.get(row.language ?? '');
    if (!lang || row.text === undefined || titles[lang][id] !== undefined) return;
    titles[lang][id] = row.text;
    hasTitleIn[lang].add(id);
  });
  const descriptions = perLanguage<(string | undefined)[]>(() => new Array<string | undefined>(size));
  forEachListed(rows.descriptions, idOf, (id, row) => {
    const lang = LANGUAGE_BY_IRI.get(row.language ?? '');
    if (!lang || row.text === undefined) return;
    descriptions[lang][id] = descriptions[lang][id] === undefined ? row.text : `${descriptions[lang][id]}\n${row.text}`;
  });

  const periodBegin = new Float64Array(size).fill(NaN);
  const periodEnd = new Float64Array(size).fill(NaN);
  forEachListed(rows.dates, idOf, (id, row) => {
    const begin = parseYear(row.begin);
    const end = parseYear(row.end);
    if (begin === undefined || end === undefined) return;
    if (!(periodBegin[id]! <= begin)) periodBegin[id] = begin;
    if (!(periodEnd[id]! >= end)) periodEnd[id] = end;
  });

  const typeLabels = new PostingsBuilder();
  const materialLabels = new PostingsBuilder();
  const concepts = new PostingsBuilder();
  forEachListed(rows.concepts, idOf, (id, row) => {
    if (!row.concept) return;
    concepts.add(row.concept, id);
    if (row.label === undefined) return;
    if (row.role === 'type') typeLabels.add(row.label.toLowerCase(), id);
    if (row.role === 'material') materialLabels.add(row.label.toLowerCase(), id);
  });
  const agents = new PostingsBuilder();
  forEachListed(rows.agents, idOf, (id, row) => {
    if (row.agent) agents.add(row.agent, id);
  });

  return {
    generationId,
    size,
    iris: listed.map((row) => row.object!),
    numbers: listed.map((row) => row.number!),
    idOf,
    modified: listed.map((row) => row.modified),
    hasImages: Bitset.of(size, listed.flatMap((row, id) => (row.manifest ? [id] : []))),
    onDisplay: flag('onDisplay'),
    koepels,
    setMembers: flag('isPartOf'),
    titles,
    descriptions,
    hasTitleIn,
    periodBegin,
    periodEnd,
    typeLabels: typeLabels.build(),
    materialLabels: materialLabels.build(),
    agents: agents.build(),
    concepts: concepts.build(),
    thesaurus: new Thesaurus({ broader: rows.broader, labels: rows.conceptLabels }),
  };
}

function forEachListed(rows: readonly Row[], idOf: ReadonlyMap<string, number>, visit: (id: number, row: Row) => void): void {
  for (const row of rows) {
    const id = idOf.get(row.object ?? '');
    if (id !== undefined) visit(id, row);
  }
}

/** An xsd:gYear lexical form (`1920`, `-0500`) as a number. */
function parseYear(value: string | undefined): number | undefined {
  if (value === undefined || !/^-?\d{4,}/.test(value)) return undefined;
  const year = Number.parseInt(value, 10);
  return Number.isFinite(year) ? year : undefined;
}
