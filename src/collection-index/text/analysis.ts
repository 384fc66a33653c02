/**
 * Text analysis for the full-text index: tokens are runs of letters and digits, lower-cased; each language
 * has its Snowball stemmer (@orama/stemmers). Diacritics are folded after stemming (the French stemmer needs
 * its accents) and before it (so a query typed without accents finds the accented word); a term is indexed
 * under both forms. Snowball's Dutch stemmer leaves -jes diminutives and the z/s, v/f alternation of plurals
 * apart (beeldje/beeldjes, vaas/vazen, brief/brieven); a small normalisation after it joins them.
 */
import { stemmer as dutch } from '@orama/stemmers/dutch';
import { stemmer as english } from '@orama/stemmers/english';
import { stemmer as french } from '@orama/stemmers/french';

export const TEXT_LANGUAGES = ['nl', 'fr', 'en'] as const;
export type TextLanguage = (typeof TEXT_LANGUAGES)[number];

/** One searchable field of a kind: its name, weight, analysis and text per record id. */
export interface TextField {
  readonly name: string;
  readonly boost: number;
  /** A language's stemmer, `plain` (folded words, no stemming) or `identifier` (whole and by parts). */
  readonly analysis: TextLanguage | 'plain' | 'identifier';
  text(id: number): string | undefined;
}

const TOKEN = /[\p{L}\p{N}]+/gu;
const MARKS = /\p{M}+/gu;

/** Lower-cased runs of letters and digits. */
export function tokenize(text: string): string[] {
  return text.toLowerCase().match(TOKEN) ?? [];
}

/** `é` → `e`, `ß` stays: canonical decomposition, then combining marks dropped. */
export function foldDiacritics(text: string): string {
  return text.normalize('NFD').replace(MARKS, '').normalize('NFC');
}

function dutchStem(token: string): string {
  const stem = dutch(token);
  if (stem.endsWith('jes')) return stem.slice(0, -1).replace(/je$/, 'j');
  if (stem.length >= 3 && stem.endsWith('z')) return `${stem.slice(0, -1)}s`;
  if (stem.length >= 3 && stem.endsWith('v')) return `${stem.slice(0, -1)}f`;
  return stem;
}

const STEMMERS: Record<TextLanguage, (token: string) => string> = { nl: dutchStem, fr: french, en: english };

/** The stem of a lower-cased token in `lang`, diacritics folded. */
export function stem(lang: TextLanguage, token: string): string {
  return foldDiacritics(STEMMERS[lang](token));
}

/** A per-language cache of a token function: a collection's vocabulary repeats, stemming it is the cost. */
function memoized<T>(compute: (lang: TextLanguage, token: string) => T): (lang: TextLanguage, token: string) => T {
  const LIMIT = 200_000;
  const memo: Record<TextLanguage, Map<string, T>> = { nl: new Map(), fr: new Map(), en: new Map() };
  return (lang, token) => {
    const cache = memo[lang];
    let value = cache.get(token);
    if (value === undefined) {
      value = compute(lang, token);
      if (cache.size >= LIMIT) cache.clear();
      cache.set(token, value);
    }
    return value;
  };
}

/** The terms a token is indexed and searched under in `lang`: stemmed then folded, and folded then stemmed. */
export const termsOf: (lang: TextLanguage, token: string) => string[] = memoized((lang, token) => {
  const a = stem(lang, token);
  const b = stem(lang, foldDiacritics(token));
  return a === b ? [a] : [a, b];
});

/** The one term per token that phrase matching compares (folded, then stemmed); phrases are checked at query time. */
export const phraseTerm: (lang: TextLanguage, token: string) => string = memoized((lang, token) => stem(lang, foldDiacritics(token)));

/**
 * Words too common to narrow a search, per language (articles, prepositions, conjunctions). They are indexed
 * (phrases need them) but dropped from a query that has other words.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  // nl
  'de', 'het', 'een', 'en', 'van', 'in', 'op', 'met', 'voor', 'door', 'uit', 'aan', 'bij', 'te', 'tot', 'om', 'als', 'of', 'is',
  // fr
  'le', 'la', 'les', 'un', 'une', 'des', 'du', 'et', 'à', 'a', 'au', 'aux', 'en', 'par', 'pour', 'sur', 'dans', 'avec', 'd', 'l',
  // en
  'the', 'an', 'and', 'of', 'on', 'with', 'for', 'by', 'from', 'to', 'at', 'as', 'or',
]);
