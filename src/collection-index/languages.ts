/** The three languages of the collection's texts, as the `language` parameters and the EU authority name them. */
import { AUTHORITY } from '../vocab/namespaces.js';
import { type Bitset, BitsetBuilder } from './bitset.js';

export const TITLE_LANGUAGES = ['nl', 'fr', 'en'] as const;
export type TitleLanguage = (typeof TITLE_LANGUAGES)[number];
/** The language codes of the `language` parameter, as the EU language authority writes them. */
export const LANGUAGE_CODES = { NLD: 'nl', FRA: 'fr', ENG: 'en' } as const satisfies Record<string, TitleLanguage>;
export type LanguageCode = keyof typeof LANGUAGE_CODES;

export type PerLanguage<T> = Record<TitleLanguage, T>;

/** The language of an EU language authority IRI (`…/language/NLD` → nl). */
export const LANGUAGE_BY_IRI: ReadonlyMap<string, TitleLanguage> = new Map(
  Object.entries(LANGUAGE_CODES).map(([code, lang]) => [`${AUTHORITY.language}${code}`, lang]),
);

export const perLanguage = <T>(make: () => T): PerLanguage<T> => ({ nl: make(), fr: make(), en: make() });

/** The sets of per-language builders, once they are filled. */
export const builtPerLanguage = (builders: PerLanguage<BitsetBuilder>): PerLanguage<Bitset> => ({ nl: builders.nl.build(), fr: builders.fr.build(), en: builders.en.build() });

/** Texts per language and id, with the ids that have one, from `{record, language, text}` rows; `join` merges repeats. */
export function textsPerLanguage(
  size: number,
  rows: readonly Readonly<Record<string, string>>[],
  idOf: ReadonlyMap<string, number>,
  join?: (before: string, next: string) => string,
): { texts: PerLanguage<(string | undefined)[]>; has: PerLanguage<Bitset> } {
  const texts = perLanguage<(string | undefined)[]>(() => new Array<string | undefined>(size));
  const has = perLanguage(() => new BitsetBuilder(size));
  for (const row of rows) {
    const id = idOf.get(row.record ?? row.object ?? '');
    const lang = LANGUAGE_BY_IRI.get(row.language ?? '');
    if (id === undefined || lang === undefined || row.text === undefined) continue;
    const before = texts[lang][id];
    if (before !== undefined && join === undefined) continue;
    texts[lang][id] = before === undefined ? row.text : join!(before, row.text);
    has[lang].add(id);
  }
  return { texts, has: builtPerLanguage(has) };
}
