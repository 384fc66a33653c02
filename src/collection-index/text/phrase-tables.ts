/**
 * Phrase checks at query time. MiniSearch keeps no positions, so a phrase is the AND of its words and each
 * candidate is then checked for the words standing together, in order, within one line of one field, under
 * the same analysis as indexing (text-index.ts, hasPhrase). Tokenizing and stemming every candidate's text on
 * every query costs ~20 µs a record (half a second for a phrase of common words at 50k objects), so the
 * analysed tokens of a field are kept, the first time a phrase needs that field, as one array of term
 * numbers per field (lines separated by 0) with an offset per record: a check is then a scan of small
 * integers. This is a lazily made query-time structure, never part of the built index; it costs about two
 * bytes a token (4.5 MB for every field of 50k objects) and is made once per field and generation, by the
 * first phrase with many candidates there (a phrase with few candidates reads their texts directly).
 */
import { foldDiacritics, phraseTerm, tokenize, type TextField } from './analysis.js';

/** Analysed tokens of one field: the tokens of record `id` are `terms[offsets[id]] … terms[offsets[id + 1] - 1]`. */
interface TokenTable {
  readonly offsets: Uint32Array;
  readonly terms: Uint16Array | Uint32Array;
}

/** Separates lines in a token table; term numbers start at 1. */
const LINE_BREAK = 0;

/** A field without a table is read directly for at most one record in this many. */
const DIRECT_SHARE = 32;

/** hasPhrase's own test for one field: the record's text analysed on the spot. */
function directSequence(field: TextField, tokens: readonly string[]): (id: number) => boolean {
  const phrase = tokens.map((token) => PhraseTables.termOf(field, token));
  return (id) => {
    const text = field.text(id);
    if (text === undefined) return false;
    const lines = field.analysis === 'identifier' ? [text] : text.split('\n');
    return lines.some((line) => containsSequence(tokenize(line).map((token) => PhraseTables.termOf(field, token)), phrase));
  };
}

function containsSequence(haystack: readonly string[], needle: readonly string[]): boolean {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/** tokenize()'s tokens (runs of letters and digits in lower-cased text), and line breaks. */
const TOKEN_OR_LINE = /[\p{L}\p{N}]+|\n/gu;

export class PhraseTables {
  /** Term → number, shared by every field (a term means the same wherever it is compared). */
  private readonly numbers = new Map<string, number>();
  private readonly tables = new Map<TextField, TokenTable>();
  /** Per analysis, a token as it stands (lower-cased) → the number of its term, so each distinct token is analysed once. */
  private readonly tokenNumbers = new Map<TextField['analysis'], Map<string, number>>();

  constructor(private readonly size: number) {}

  /** The term a phrase token is compared under in `field` (hasPhrase's analysis). */
  static termOf(field: TextField, token: string): string {
    const { analysis } = field;
    if (analysis === 'identifier') return token;
    return analysis === 'plain' ? foldDiacritics(token) : phraseTerm(analysis, token);
  }

  /**
   * A test of "record id has `tokens` as a sequence in `field`" (within one line; identifiers compare their
   * tokens over the whole text, as hasPhrase does), for `candidates` records. Builds the field's table on
   * first use, unless the candidates are few enough to be read directly (a rare phrase does not pay for a
   * table of the whole field).
   */
  sequenceIn(field: TextField, tokens: readonly string[], candidates: number): (id: number) => boolean {
    if (!this.tables.has(field) && candidates * DIRECT_SHARE <= this.size) return directSequence(field, tokens);
    const table = this.table(field);
    const phrase: number[] = [];
    for (const token of tokens) {
      const number = this.numbers.get(PhraseTables.termOf(field, token));
      // A term no record of the field has: no record has the phrase there.
      if (number === undefined) return () => false;
      phrase.push(number);
    }
    const { offsets, terms } = table;
    const first = phrase[0]!;
    const length = phrase.length;
    return (id) => {
      const end = offsets[id + 1]! - length;
      outer: for (let i = offsets[id]!; i <= end; i++) {
        if (terms[i] !== first) continue;
        for (let j = 1; j < length; j++) if (terms[i + j] !== phrase[j]) continue outer;
        return true;
      }
      return false;
    };
  }

  private table(field: TextField): TokenTable {
    let table = this.tables.get(field);
    if (table === undefined) {
      table = this.build(field);
      this.tables.set(field, table);
    }
    return table;
  }

  private build(field: TextField): TokenTable {
    const offsets = new Uint32Array(this.size + 1);
    let terms = new Uint32Array(Math.max(1024, this.size * 8));
    let length = 0;
    // The number of each token as it stands in the text (lower-cased), under this field's analysis.
    let byToken = this.tokenNumbers.get(field.analysis);
    if (byToken === undefined) {
      byToken = new Map();
      this.tokenNumbers.set(field.analysis, byToken);
    }
    const lines = field.analysis !== 'identifier';
    for (let id = 0; id < this.size; id++) {
      offsets[id] = length;
      const text = field.text(id);
      if (text === undefined) continue;
      // Tokens as tokenize() finds them, line by line (identifiers: over the whole text).
      const tokens = text.toLowerCase().match(TOKEN_OR_LINE);
      if (tokens === null) continue;
      if (length + tokens.length > terms.length) {
        const grown = new Uint32Array(Math.max(terms.length * 2, length + tokens.length));
        grown.set(terms);
        terms = grown;
      }
      for (const token of tokens) {
        if (token === '\n') {
          if (lines) terms[length++] = LINE_BREAK;
          continue;
        }
        let number = byToken.get(token);
        if (number === undefined) {
          number = this.numberOf(PhraseTables.termOf(field, token));
          byToken.set(token, number);
        }
        terms[length++] = number;
      }
    }
    offsets[this.size] = length;
    const used = terms.subarray(0, length);
    return { offsets, terms: this.numbers.size < 0xffff ? Uint16Array.from(used) : used.slice() };
  }

  private numberOf(term: string): number {
    let number = this.numbers.get(term);
    if (number === undefined) {
      number = this.numbers.size + 1;
      this.numbers.set(term, number);
    }
    return number;
  }
}
