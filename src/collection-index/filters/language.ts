/** `language=NLD|FRA|ENG` (any case): only records with a text in that language; which text is the kind's choice. */
import type { Bitset } from '../bitset.js';
import { LANGUAGE_CODES, type LanguageCode, type PerLanguage } from '../languages.js';
import type { RecordTable } from '../record-table.js';
import { defineFilter, ParamError, type CollectionFilter } from './filter.js';
import { single } from './params.js';

const CODES = Object.keys(LANGUAGE_CODES) as LanguageCode[];

/** The `language` filter over the per-language sets `has` of a kind's table (titles, biographies). */
export function languageFilter<T extends RecordTable>(has: (table: T) => PerLanguage<Bitset>): CollectionFilter<T> {
  return defineFilter<LanguageCode, undefined, T>({
    name: 'language',
    params: ['language'],
    parse: (query) => {
      const value = single(query, 'language')?.toUpperCase();
      if (value === undefined) return undefined;
      if (!(CODES as string[]).includes(value)) throw new ParamError('language', `Invalid language. Use one of: ${CODES.join(', ')}.`);
      return value as LanguageCode;
    },
    link: (value) => [['language', value]],
    select: (value, host) => has(host.table)[LANGUAGE_CODES[value]],
  });
}
