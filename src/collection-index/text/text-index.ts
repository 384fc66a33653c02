/**
 * Full-text search ranked as MiniSearch (BM25) ranks it, built once per generation over the text fields a kind
 * declares (titles, descriptions, names, identifiers), each with its weight. A language field is indexed with
 * that language's stemmer and a query word is looked up under its stem in every language, each in that
 * language's fields only; a plain field (names) is folded but not stemmed; an identifier field (object number,
 * pid) is indexed whole and by its parts. A phrase is the AND of its words, then checked for adjacency on the
 * candidates' own texts (read through the fields, never from the store).
 *
 * The index is postings in typed arrays (postings.ts): what MiniSearch's `add` would index, built without
 * MiniSearch, which holds about 57 bytes a posting in Maps (the arrays 5) and takes several times longer to
 * build. Queries are evaluated as MiniSearch's search evaluates them, but into reused typed arrays (term-scorer.ts,
 * hits.ts) instead of an object per match and a sort of them all (100 ms and more for a word most objects have,
 * at 50k), with the same scores to the last bit; the total is a count of the match set and only the requested
 * page is put in order (topRanked); phrases are checked on the fields' analysed tokens, kept as arrays of numbers
 * once a phrase needs them (phrase-tables.ts). What this keeps between queries is made on first use and held
 * beside the index (a WeakMap), never in what `build` makes. `findReference` answers through MiniSearch's own
 * search, on a MiniSearch built from the same fields on first use: the reference the tests and the benchmark
 * hold the fast path to, never used by the service.
 */
import MiniSearch, { type Query, type SearchOptions } from 'minisearch';
import { Bitset, BitsetBuilder } from '../bitset.js';
import { Accumulator, AccumulatorPool, topRanked } from './hits.js';
import { PhraseTables } from './phrase-tables.js';
import { PostingLists } from './postings.js';
import { TermScorer } from './term-scorer.js';
import { foldDiacritics, STOP_WORDS, TEXT_LANGUAGES, type TextField, type TextLanguage, phraseTerm, termsOf, tokenize } from './analysis.js';
import type { TextItem, TextQuery } from './query-parser.js';
import { NodeEvaluator, termNumbers, type QueryNode, type QueryState } from './query-nodes.js';
import { PidOrderMatches, referenceMatches, ScoredMatches, UnrankedMatches, type TextMatches } from './text-matches.js';

export { scoresOf, type TextMatches } from './text-matches.js';
export type { TextField } from './analysis.js';

type TextDocument = { id: number } & Record<string, string | number>;

/** What the reference evaluation gives. */
type ReferenceMatches = ReturnType<TextIndex['findReference']>;

/**
 * An evaluated query: its matches and, unless it is of exclusions only (pid order), their scores, in an
 * accumulator of `pool` that is only valid until the evaluation's `finish` returns.
 */
interface Evaluation {
  matches: Bitset;
  scores?: Accumulator;
  pool: AccumulatorPool;
}

const QUERY_STATES = new WeakMap<TextIndex, QueryState>();
/** The MiniSearch `findReference` answers through, built on its first use (tests and benchmark only). */
const REFERENCES = new WeakMap<TextIndex, MiniSearch<TextDocument>>();

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
    /** Records indexed. */
    private readonly size: number,
    private readonly postings: PostingLists,
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
    const { tokenize: tokensOf, processTerm } = analysisOf(fields);
    const analysed = fields.map((field) => ({
      name: field.name,
      tokenize: (text: string) => tokensOf(text, field.name),
      processTerm: (token: string) => processTerm(token, field.name),
      text: (id: number) => field.text(id),
    }));
    return new TextIndex(fields, size, await PostingLists.build(size, analysed));
  }

  /** Bytes of the postings' arrays. */
  get postingBytes(): number {
    return this.postings.bytes;
  }

  /**
   * The records matching `query` among `size`; with `rank` (the default) they can then be paged in relevance
   * order, best first and ties by pid. Evaluated on typed arrays over MiniSearch's postings (term-scorer.ts,
   * hits.ts), with the answers of `findReference` to the last bit of every score, which remains the path for
   * what this one does not cover (an item with more than 32 distinct terms, an index whose internals are not
   * as expected). A collection page asks `findPage`, which does not keep the scores beyond the call.
   */
  find(query: TextQuery, size: number, rank = true): TextMatches {
    return this.answer(
      query,
      size,
      rank,
      (evaluation) => {
        if (evaluation.scores === undefined) return new PidOrderMatches(evaluation.matches);
        return rank ? new ScoredMatches(evaluation.matches, evaluation.scores.snapshot()) : new UnrankedMatches(evaluation.matches);
      },
      (reference) => referenceMatches(reference, rank),
    );
  }

  /**
   * The records matching `query` among `size`, and the page of those in `keep` (every match when undefined)
   * in relevance order (ties by pid; pid order for a query of only exclusions) from the `offset`-th: the
   * matches are scored into reused arrays and only the page's ranks are put in order (topRanked).
   */
  findPage(query: TextQuery, size: number, keep: Bitset | undefined, offset: number, limit: number): { matches: Bitset; ids: number[] } {
    return this.answer(
      query,
      size,
      true,
      ({ matches, scores, pool }) => {
        if (scores === undefined) return { matches, ids: (keep ? matches.and(keep) : matches).slice(offset, limit) };
        const scratch = pool.take();
        try {
          return { matches, ids: topRanked(scores.ids.subarray(0, scores.count), scores.scores, keep, offset, limit, scratch.ids) };
        } finally {
          pool.give(scratch);
        }
      },
      (reference) => ({ matches: reference.matches, ids: referenceMatches(reference, true).page(keep, offset, limit) }),
    );
  }

  /** Evaluates `query` and answers through `finish` (while its arrays are lent), or from the reference. */
  private answer<R>(query: TextQuery, size: number, rank: boolean, finish: (evaluation: Evaluation) => R, fallback: (reference: ReferenceMatches) => R): R {
    const state = this.queryState(size);
    if (state === undefined) return fallback(this.findReference(query, size));
    return this.evaluate(state, query, size, rank, finish);
  }

  private evaluate<R>(state: QueryState, query: TextQuery, size: number, rank: boolean, finish: (evaluation: Evaluation) => R): R {
    const { pool } = state;
    const groups = withoutStopWords(query.groups);
    const scores = pool.take();
    try {
      // Groups: only records in every one, their scores added up (group after group).
      for (const [i, group] of groups.entries()) {
        if (i === 0) this.groupInto(state, group, scores, rank);
        else
          pool.with((groupHits) => {
            this.groupInto(state, group, groupHits, rank);
            scores.and(groupHits, rank);
          });
        if (scores.count === 0) return finish({ matches: Bitset.empty(size), scores, pool });
      }
      let excludedIds: BitsetBuilder | undefined;
      for (const item of query.excluded) {
        const out = (excludedIds ??= new BitsetBuilder(size));
        pool.with((itemHits) => {
          this.itemInto(state, item, itemHits, false);
          for (let i = 0; i < itemHits.count; i++) out.add(itemHits.ids[i]!);
        });
      }
      const excluded = excludedIds?.build();
      if (groups.length === 0) {
        // Only exclusions (or nothing searchable): every record that no excluded word matches, in pid order.
        return finish({ matches: excluded ? excluded.complement() : Bitset.empty(size), pool });
      }
      if (excluded) scores.filter((id) => !excluded.has(id));
      return finish({ matches: Bitset.of(size, scores.ids.subarray(0, scores.count)), scores, pool });
    } finally {
      pool.give(scores);
    }
  }

  /** Puts the records of a group (its items' scores added up, item after item) into `target` (empty). */
  private groupInto(state: QueryState, group: readonly TextItem[], target: Accumulator, scored: boolean): void {
    for (const item of group) {
      if (target.count === 0) this.itemInto(state, item, target, scored);
      else
        state.pool.with((itemHits) => {
          this.itemInto(state, item, itemHits, scored);
          target.or(itemHits, scored);
        });
    }
  }

  /** The query-time state of this index (made on first use, kept beside the index, never part of what is built). */
  private queryState(size: number): QueryState | undefined {
    // Asked about another number of records than it holds (never, from a collection index): the reference answers.
    if (size !== this.size) return undefined;
    let state = QUERY_STATES.get(this);
    if (state === undefined) {
      const scorer = new TermScorer(this.postings, this.searchOptions.boost ?? {}, size);
      state = { size, scorer, phrases: new PhraseTables(size), pool: new AccumulatorPool(size) };
      QUERY_STATES.set(this, state);
    }
    return state;
  }

  /**
   * Puts the records matching one word or phrase into `target` (empty): the query matchItem gives MiniSearch
   * (the word under each language's terms in that language's fields, folded in plain fields, as typed in
   * identifiers; a phrase the AND of its words; OR the item whole in identifiers), evaluated in MiniSearch's
   * order; with `scored`, each record's score times the number of distinct terms that matched it. A phrase
   * keeps the records that have it.
   */
  private itemInto(state: QueryState, item: TextItem, target: Accumulator, scored: boolean): void {
    const anyOf = (fields: readonly string[], terms: readonly string[]): QueryNode => ({ op: 'or', children: terms.map((term) => ({ term, fields })) });
    const tokenNode = (token: string): QueryNode => {
      const children = this.perLanguage.map(({ lang, fields }) => anyOf(fields, termsOf(lang, token)));
      if (this.plain.length > 0) children.push(anyOf(this.plain, [foldDiacritics(token)]));
      if (this.identifiers.length > 0) children.push(anyOf(this.identifiers, [token]));
      return { op: 'or', children };
    };
    const words: QueryNode = item.tokens.length === 1 ? tokenNode(item.tokens[0]!) : { op: 'and', children: item.tokens.map(tokenNode) };
    const node: QueryNode = this.identifiers.length > 0 ? { op: 'or', children: [words, anyOf(this.identifiers, [item.raw])] } : words;
    const numbers = termNumbers(node);
    const termOf = scored ? (term: string): number => numbers.get(term)! : undefined;
    if (!scored || numbers.size <= 32) {
      new NodeEvaluator(state, state.pool, termOf).build(node, target);
      // Times the number of distinct terms matched: always 1 when the item has one term.
      if (scored && numbers.size > 1) target.timesTermCount();
    } else {
      // More terms than one mask word holds (a long phrase): accumulators with wider masks, for this item only.
      const wide = new AccumulatorPool(state.size, Math.ceil(numbers.size / 32));
      wide.with((result) => {
        new NodeEvaluator(state, wide, termOf).build(node, result);
        result.timesTermCount();
        for (let i = 0; i < result.count; i++) target.add(result.ids[i]!, result.scores[result.ids[i]!]!, 0);
      });
    }
    if (item.tokens.length > 1 && target.count > 0) target.filter(this.phraseCheck(state, item, target.count));
  }

  /**
   * hasPhrase as a test over ids, in the fields that have every one of the phrase's terms. (hasPhrase also
   * takes an identifier equal to the item as typed; its tokens are then the item's tokens, so the sequence
   * test takes it too.)
   */
  private phraseCheck(state: QueryState, item: TextItem, candidates: number): (id: number) => boolean {
    const { scorer, phrases } = state;
    const checks: ((id: number) => boolean)[] = [];
    for (const field of this.fields) {
      if (item.tokens.every((token) => scorer.has(PhraseTables.termOf(field, token), field.name))) checks.push(phrases.sequenceIn(field, item.tokens, candidates));
    }
    if (checks.length === 0) return () => false;
    if (checks.length === 1) return checks[0]!;
    return (id) => checks.some((check) => check(id));
  }

  /**
   * The reference evaluation, through MiniSearch's own search: every match scored, all sorted. The fast path
   * of `find` gives the same answers; this one stays for what it does not cover, and for the tests and the
   * benchmark that compare the two.
   */
  findReference(query: TextQuery, size: number): { ranked: Uint32Array; matches: Bitset; scores?: ReadonlyMap<number, number> } {
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
    const excludedIds = new BitsetBuilder(size);
    for (const item of query.excluded) excludedIds.addAll(this.matchItem(item).keys());
    const excluded = excludedIds.build();

    if (scores === undefined) {
      // Only exclusions (or nothing searchable): every record that no excluded word matches, in pid order.
      const matches = query.excluded.length > 0 ? excluded.complement() : Bitset.empty(size);
      return { ranked: Uint32Array.from(matches.toArray()), matches };
    }
    const ranked = [...scores.entries()].filter(([id]) => !excluded.has(id)).sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    return { ranked: Uint32Array.from(ranked, ([id]) => id), matches: Bitset.of(size, ranked.map(([id]) => id)), scores: new Map(ranked) };
  }

  /** MiniSearch built from the fields on first use: the tests' and the benchmark's reference. */
  private referenceSearch(): MiniSearch<TextDocument> {
    let search = REFERENCES.get(this);
    if (search === undefined) {
      search = miniSearchOf(this.fields);
      search.addAll(documentsOf(this.size, this.fields));
      REFERENCES.set(this, search);
    }
    return search;
  }

  /** Ids and scores of the records that match one word or phrase. */
  private matchItem(item: TextItem): Map<number, number> {
    const words: Query =
      item.tokens.length === 1 ? this.tokenQuery(item.tokens[0]!) : { combineWith: 'AND', queries: item.tokens.map((token) => this.tokenQuery(token)) };
    const queries: Query[] = this.identifiers.length > 0 ? [words, { fields: this.identifiers, queries: [item.raw] }] : [words];
    const results = this.referenceSearch().search({ combineWith: 'OR', queries }, this.searchOptions);
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

/** How each field is analysed, as MiniSearch's `tokenize` and `processTerm` options (field by name). */
function analysisOf(fields: readonly TextField[]): {
  tokenize: (text: string, field?: string) => string[];
  processTerm: (term: string, field?: string) => string | string[];
} {
  const analysis = new Map(fields.map((field) => [field.name, field.analysis]));
  return {
    tokenize: (text, field) => (analysis.get(field ?? '') === 'identifier' ? identifierTokens(text) : tokenize(text)),
    processTerm: (term, field) => {
      const how = analysis.get(field ?? '');
      if (how === undefined || how === 'identifier') return term;
      return how === 'plain' ? foldDiacritics(term) : termsOf(how, term);
    },
  };
}

/** An empty MiniSearch over `fields`, each analysed as it declares: the reference the postings are held to. */
function miniSearchOf(fields: readonly TextField[]): MiniSearch<TextDocument> {
  return new MiniSearch<TextDocument>({ fields: fields.map((field) => field.name), idField: 'id', ...analysisOf(fields) });
}

/** The documents of records 0 … size - 1: each field's text, where the record has one. */
function documentsOf(size: number, fields: readonly TextField[]): TextDocument[] {
  const documents: TextDocument[] = [];
  for (let id = 0; id < size; id++) {
    const doc: TextDocument = { id };
    for (const field of fields) {
      const text = field.text(id);
      if (text !== undefined) doc[field.name] = text;
    }
    documents.push(doc);
  }
  return documents;
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
