/**
 * Full-text search with MiniSearch (BM25), built once per generation over the text fields a kind declares
 * (titles, descriptions, names, identifiers), each with its weight. A language field is indexed with that
 * language's stemmer and a query word is looked up under its stem in every language, each in that
 * language's fields only; a plain field (names) is folded but not stemmed; an identifier field (object
 * number, pid) is indexed whole and by its parts. MiniSearch has no phrases: a phrase is the AND of its
 * words, then checked for adjacency on the candidates' own texts (read through the fields, never from the
 * store).
 */
import MiniSearch, { type Query, type SearchOptions } from 'minisearch';
import { Bitset } from '../bitset.js';
import { foldDiacritics, STOP_WORDS, TEXT_LANGUAGES, type TextLanguage, phraseTerm, termsOf, tokenize } from './analysis.js';
import type { TextItem, TextQuery } from './query-parser.js';

/** One searchable field of a kind: its name, weight, analysis and text per record id. */
export interface TextField {
  readonly name: string;
  readonly boost: number;
  /** A language's stemmer, `plain` (folded words, no stemming) or `identifier` (whole and by parts). */
  readonly analysis: TextLanguage | 'plain' | 'identifier';
  text(id: number): string | undefined;
}

type TextDocument = { id: number } & Record<string, string | number>;

export interface TextMatches {
  /** Matching ids, best first (ties by pid). */
  ranked: Uint32Array;
  matches: Bitset;
}

/** Tokens of an identifier: the whole identifier and its parts (`1987-1105`, `1987`, `1105`). */
function identifierTokens(identifier: string): string[] {
  const whole = identifier.toLowerCase();
  return [...new Set([whole, ...tokenize(identifier)])];
}

export class TextIndex {
  private readonly searchOptions: SearchOptions;
  private readonly identifiers: string[];
  private readonly plain: string[];
  private readonly perLanguage: { lang: TextLanguage; fields: string[] }[];

  private constructor(
    private readonly fields: readonly TextField[],
    private readonly search: MiniSearch<TextDocument>,
  ) {
    this.searchOptions = {
      tokenize: (text) => [text],
      processTerm: (term) => term,
      boost: Object.fromEntries(fields.map((field) => [field.name, field.boost])),
      combineWith: 'OR',
    };
    const named = (analysis: TextField['analysis']): string[] => fields.filter((field) => field.analysis === analysis).map((field) => field.name);
    this.identifiers = named('identifier');
    this.plain = named('plain');
    this.perLanguage = TEXT_LANGUAGES.map((lang) => ({ lang, fields: named(lang) })).filter((group) => group.fields.length > 0);
  }

  /** Indexes `size` records through `fields`, yielding to the event loop between chunks. */
  static async build(size: number, fields: readonly TextField[]): Promise<TextIndex> {
    const analysis = new Map(fields.map((field) => [field.name, field.analysis]));
    const search = new MiniSearch<TextDocument>({
      fields: fields.map((field) => field.name),
      idField: 'id',
      tokenize: (text, field) => (analysis.get(field ?? '') === 'identifier' ? identifierTokens(text) : tokenize(text)),
      processTerm: (term, field) => {
        const how = analysis.get(field ?? '');
        if (how === undefined || how === 'identifier') return term;
        return how === 'plain' ? foldDiacritics(term) : termsOf(how, term);
      },
    });
    const documents: TextDocument[] = [];
    for (let id = 0; id < size; id++) {
      const doc: TextDocument = { id };
      for (const field of fields) {
        const text = field.text(id);
        if (text !== undefined) doc[field.name] = text;
      }
      documents.push(doc);
    }
    await search.addAllAsync(documents, { chunkSize: 1000 });
    return new TextIndex(fields, search);
  }

  /** The records matching `query` among `size`, ranked by relevance. */
  find(query: TextQuery, size: number): TextMatches {
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
      // Only exclusions (or nothing searchable): every record that no excluded word matches, in pid order.
      const matches = query.excluded.length > 0 ? excluded.complement() : new Bitset(size);
      return { ranked: Uint32Array.from(matches.toArray()), matches };
    }
    const ranked = [...scores.entries()].filter(([id]) => !excluded.has(id)).sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    return { ranked: Uint32Array.from(ranked, ([id]) => id), matches: Bitset.of(size, ranked.map(([id]) => id)) };
  }

  /** Ids and scores of the records that match one word or phrase. */
  private matchItem(item: TextItem): Map<number, number> {
    const words: Query =
      item.tokens.length === 1 ? this.tokenQuery(item.tokens[0]!) : { combineWith: 'AND', queries: item.tokens.map((token) => this.tokenQuery(token)) };
    const queries: Query[] = this.identifiers.length > 0 ? [words, { fields: this.identifiers, queries: [item.raw] }] : [words];
    const results = this.search.search({ combineWith: 'OR', queries }, this.searchOptions);
    const out = new Map<number, number>();
    for (const result of results) {
      const id = result.id as number;
      if (item.tokens.length === 1 || this.hasPhrase(id, item)) out.set(id, result.score);
    }
    return out;
  }

  /** A word looked up under its stems in each language's fields, folded in plain fields, and as typed in identifiers. */
  private tokenQuery(token: string): Query {
    const queries: Query[] = this.perLanguage.map(({ lang, fields }): Query => ({ fields, queries: termsOf(lang, token) }));
    if (this.plain.length > 0) queries.push({ fields: this.plain, queries: [foldDiacritics(token)] });
    if (this.identifiers.length > 0) queries.push({ fields: this.identifiers, queries: [token] });
    return { combineWith: 'OR', queries };
  }

  /**
   * True when the phrase's words stand together, in this order, in one field: the same analysis as indexing
   * (stems per language, folded words, identifier parts) compared token by token, within one line (a field
   * that joins several names or descriptions keeps each on its own line, so a phrase never spans two).
   */
  private hasPhrase(id: number, item: TextItem): boolean {
    for (const field of this.fields) {
      const text = field.text(id);
      if (text === undefined) continue;
      const { analysis } = field;
      if (analysis === 'identifier') {
        if (text.toLowerCase() === item.raw || containsSequence(tokenize(text), item.tokens)) return true;
        continue;
      }
      const term = analysis === 'plain' ? foldDiacritics : (token: string) => phraseTerm(analysis, token);
      const phrase = item.tokens.map(term);
      for (const line of text.split('\n')) if (containsSequence(tokenize(line).map(term), phrase)) return true;
    }
    return false;
  }
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
