/** `language`: only objects with a title in NLD, FRA or ENG (codes accepted in any case). */
import { LANGUAGE_CODES, type LanguageCode } from '../object-table.js';
import { defineFilter, ParamError } from './filter.js';
import { single } from './params.js';

const CODES = Object.keys(LANGUAGE_CODES) as LanguageCode[];

export const languageFilter = defineFilter<LanguageCode>({
  name: 'language',
  params: ['language'],
  parse: (query) => {
    const value = single(query, 'language')?.toUpperCase();
    if (value === undefined) return undefined;
    if (!(CODES as string[]).includes(value)) throw new ParamError('language', `Invalid language. Use one of: ${CODES.join(', ')}.`);
    return value as LanguageCode;
  },
  link: (value) => [['language', value]],
  select: (value, host) => host.table.hasTitleIn[LANGUAGE_CODES[value]].clone(),
});
