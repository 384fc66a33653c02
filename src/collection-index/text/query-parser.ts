/**
 * The natural-language syntax of `q` (the web-search syntax the real service passes to PostgreSQL):
 * words must all match; `"quoted words"` match as a phrase; `OR` between two words or phrases lets either
 * match; `-word` or `-"a phrase"` excludes. A word that splits into several tokens (`1987-1105`, `l'objet`)
 * is a phrase. `OR` is an operator only in capitals (`or` is French for gold).
 */
import { tokenize } from './analysis.js';

export interface TextItem {
  /** The word or phrase as typed (object numbers are matched whole against it). */
  raw: string;
  /** Its tokens; more than one makes it a phrase. */
  tokens: string[];
}

export interface TextQuery {
  /** Every group must match; a group matches when one of its items does. */
  groups: TextItem[][];
  /** No item here may match. */
  excluded: TextItem[];
}

/** Most words or phrases a query may have; longer queries are refused rather than run. */
export const MAX_QUERY_ITEMS = 32;

export class TextQueryError extends Error {}

interface Lexeme {
  kind: 'item' | 'or';
  negated: boolean;
  text: string;
}

function lex(input: string): Lexeme[] {
  const out: Lexeme[] = [];
  let i = 0;
  while (i < input.length) {
    const char = input[i]!;
    if (/\s/.test(char)) {
      i++;
      continue;
    }
    let negated = false;
    if (char === '-' && i + 1 < input.length && !/\s/.test(input[i + 1]!)) {
      negated = true;
      i++;
    }
    if (input[i] === '"') {
      const end = input.indexOf('"', i + 1);
      const stop = end < 0 ? input.length : end;
      out.push({ kind: 'item', negated, text: input.slice(i + 1, stop) });
      i = stop + 1;
      continue;
    }
    let j = i;
    while (j < input.length && !/\s/.test(input[j]!) && input[j] !== '"') j++;
    const text = input.slice(i, j);
    out.push({ kind: !negated && text === 'OR' ? 'or' : 'item', negated, text });
    i = j;
  }
  return out;
}

/** Parses `q`; throws TextQueryError when it has more than MAX_QUERY_ITEMS words and phrases. */
export function parseTextQuery(input: string): TextQuery {
  const groups: TextItem[][] = [];
  const excluded: TextItem[] = [];
  let joinNext = false;
  let items = 0;
  for (const lexeme of lex(input)) {
    if (lexeme.kind === 'or') {
      joinNext = groups.length > 0;
      continue;
    }
    const tokens = tokenize(lexeme.text);
    if (tokens.length === 0) continue;
    if (++items > MAX_QUERY_ITEMS) throw new TextQueryError(`q may have at most ${MAX_QUERY_ITEMS} words or phrases`);
    const item: TextItem = { raw: lexeme.text.trim().toLowerCase(), tokens };
    if (lexeme.negated) {
      excluded.push(item);
      joinNext = false;
    } else if (joinNext) {
      groups[groups.length - 1]!.push(item);
      joinNext = false;
    } else {
      groups.push([item]);
    }
  }
  return { groups, excluded };
}
