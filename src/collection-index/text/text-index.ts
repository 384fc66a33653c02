/**
 * Full-text search over titles, descriptions and object numbers with MiniSearch (BM25), built once per
 * generation. Each language's fields are indexed with that language's stemmer; a query word is looked up
 * under its stem in every language, each in that language's fields only. Titles and numbers weigh more than
 * descriptions. MiniSearch has no phrases: a phrase is the AND of its words, then checked for adjacency on
 * the candidates' own texts (held by the object table, never read from the store).
 */
import MiniSearch, { type Query, type SearchOptions } from 'minisearch';
import { Bitset } from '../bitset.js';
import type { ObjectTable } from '../object-table.js';
import { foldDiacritics, STOP_WORDS, TEXT_LANGUAGES, type TextLanguage, phraseTerm, termsOf, tokenize } from './analysis.js';
import type { TextItem, TextQuery } from './query-parser.js';

/** Field weights: a word in a title or the number counts three or four times a word in a description. */
export const FIELD_BOOST = {
  number: 4,
  title_nl: 3,
  title_fr: 3,
  title_en: 3,
  description_nl: 1,
  description_fr: 1,
  description_en: 1,
} as const;
type Field = keyof typeof FIELD_BOOST;
const FIELDS = Object.keys(FIELD_BOOST) as Field[];
const LANGUAGE_OF_FIELD = new Map<string, TextLanguage>(
  TEXT_LANGUAGES.flatMap((lang) => [
    [`title_${lang}`, lang],
    [`description_${lang}`, lang],
  ]),
);

type TextDocument = { id: number } & Partial<Record<Field, string>>;

export interface TextMatches {
  /** Matching ids, best first (ties by object number). */
  ranked: Uint32Array;
  matches: Bitset;
}

/** Tokens of an object number: the whole number and its parts (`1987-1105`, `1987`, `1105`). */
function numberTokens(number: string): string[] {
  const whole = number.toLowerCase();
  return [...new Set([whole, ...tokenize(number)])];
}

const SEARCH_OPTIONS: SearchOptions = {
  tokenize: (text) => [text],
  processTerm: (term) => term,
  boost: FIELD_BOOST,
  combineWith: 'OR',
};

export class TextIndex {
  private constructor(
    private readonly table: ObjectTable,
    private readonly search: MiniSearch<TextDocument>,
  ) {}

  /** Indexes every object of `table`, yielding to the event loop between chunks. */
  static async build(table: ObjectTable): Promise<TextIndex> {
    const search = new MiniSearch<TextDocument>({
      fields: FIELDS,
      idField: 'id',
      tokenize: (text, field) => (field === 'number' ? numberTokens(text) : tokenize(text)),
      processTerm: (term, field) => {
        const lang = field === undefined ? undefined : LANGUAGE_OF_FIELD.get(field);
        return lang === undefined ? term : termsOf(lang, term);
      },
    });
    const documents: TextDocument[] = [];
    for (let id = 0; id < table.size; id++) {
      const doc: TextDocument = { id, number: table.numbers[id] };
      for (const lang of TEXT_LANGUAGES) {
        const title = table.titles[lang][id];
        const description = table.descriptions[lang][id];
        if (title !== undefined) doc[`title_${lang}`] = title;
        if (description !== undefined) doc[`description_${lang}`] = description;
      }
      documents.push(doc);
    }
    await search.addAllAsync(documents, { chunkSize: 1000 });
    return new TextIndex(table, search);
  }

  /** The objects matching `query`, ranked by relevance. */
  find(query: TextQuery): TextMatches {
    const size = this.table.size;
    const groups = withoutStopWords(query.groups);
    let scores: Map<number, number> | undefined;
    for (const group of groups) {
      const groupScores = new Map<number, number>();
      for (const item of group) for (const [id, score] of this.matchItem(item)) groupScores.set(id, (groupScores.get(id) ?? 0) + score);
      if (scores === undefined) scores = groupScores;
      else {
        const next = new Map<number, number>();
        for (const [id, score] of groupScores) {
          const before = scores.get(id);
          if (before !== undefined) next.set(id, before + score);
        }
        scores = next;
      }
    }
    const excluded = new Bitset(size);
    for (const item of query.excluded) for (const id of this.matchItem(item).keys()) excluded.add(id);

    if (scores === undefined) {
      // Only exclusions (or nothing searchable): every object that no excluded word matches, in number order.
      const matches = query.excluded.length > 0 ? excluded.complement() : new Bitset(size);
      return { ranked: Uint32Array.from(matches.toArray()), matches };
    }
    const ranked = [...scores.entries()].filter(([id]) => !excluded.has(id)).sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    return { ranked: Uint32Array.from(ranked, ([id]) => id), matches: Bitset.of(size, ranked.map(([id]) => id)) };
  }

  /** Ids and scores of the objects that match one word or phrase. */
  private matchItem(item: TextItem): Map<number, number> {
    const wholeNumber: Query = { fields: ['number'], queries: [item.raw] };
    const words: Query =
      item.tokens.length === 1
        ? tokenQuery(item.tokens[0]!)
        : { combineWith: 'AND', queries: item.tokens.map(tokenQuery) };
    const results = this.search.search({ combineWith: 'OR', queries: [words, wholeNumber] }, SEARCH_OPTIONS);
    const out = new Map<number, number>();
    // Per word of a phrase, the terms it is indexed under (any language), worked out once for all candidates.
    const termsPerToken = item.tokens.map((token) => TEXT_LANGUAGES.flatMap((lang) => termsOf(lang, token)));
    for (const result of results) {
      const id = result.id as number;
      if (item.tokens.length === 1 || this.hasPhrase(id, item, termsPerToken, result.match)) out.set(id, result.score);
    }
    return out;
  }

  /**
   * True when the phrase's words stand together in one field. Only the fields where MiniSearch found every
   * word are read; an exact occurrence of the folded phrase settles it before any stemming.
   */
  private hasPhrase(id: number, item: TextItem, termsPerToken: string[][], match: Record<string, string[]>): boolean {
    const number = this.table.numbers[id]!;
    if (number.toLowerCase() === item.raw || containsSequence(tokenize(number), item.tokens)) return true;
    const fieldsOf = (terms: string[]): Set<string> => new Set(terms.flatMap((term) => match[term] ?? []));
    let fields = fieldsOf(termsPerToken[0]!);
    for (const terms of termsPerToken.slice(1)) {
      const next = fieldsOf(terms);
      fields = new Set([...fields].filter((field) => next.has(field)));
    }
    const exact = foldDiacritics(item.tokens.join(' '));
    for (const field of fields) {
      const lang = LANGUAGE_OF_FIELD.get(field);
      if (lang === undefined) continue;
      const text = field.startsWith('title_') ? this.table.titles[lang][id] : this.table.descriptions[lang][id];
      if (text === undefined) continue;
      const lower = text.toLowerCase();
      if (lower.includes(exact) || foldDiacritics(lower).includes(exact)) return true;
      const phrase = item.tokens.map((token) => phraseTerm(lang, token));
      if (containsSequence(tokenize(text).map((token) => phraseTerm(lang, token)), phrase)) return true;
    }
    return false;
  }
}

/** A word looked up under its stems in each language's fields, and as typed in the number. */
function tokenQuery(token: string): Query {
  return {
    combineWith: 'OR',
    queries: [
      ...TEXT_LANGUAGES.map((lang): Query => ({ fields: [`title_${lang}`, `description_${lang}`], queries: termsOf(lang, token) })),
      { fields: ['number'], queries: [token] },
    ],
  };
}

/** Drops single stop words that stand alone, unless nothing else would be left. */
function withoutStopWords(groups: TextItem[][]): TextItem[][] {
  const isStop = (group: TextItem[]): boolean => group.length === 1 && group[0]!.tokens.length === 1 && STOP_WORDS.has(group[0]!.tokens[0]!);
  const kept = groups.filter((group) => !isStop(group));
  return kept.length > 0 ? kept : groups;
}

function containsSequence(haystack: readonly string[], needle: readonly string[]): boolean {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}
