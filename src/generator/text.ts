/** Small text helpers shared by the record builders (capitalisation, lists, slugs, encyclopedia URLs). */
import type { Tri } from './vocabulary/phrases.js';

export type Lang = 'nl' | 'fr' | 'en';
export const LANGS: readonly Lang[] = ['nl', 'fr', 'en'];

/** First letter upper-case. */
export function cap(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "a, b en c" / "a, b et c" / "a, b and c". */
export function joinList(items: readonly string[], lang: Lang): string {
  const and = lang === 'nl' ? 'en' : lang === 'fr' ? 'et' : 'and';
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${and} ${items[items.length - 1]}`;
}

/** The same template in the three languages. */
export function tri(make: (lang: Lang) => string): Tri {
  return { nl: make('nl'), fr: make('fr'), en: make('en') };
}

/** Only the languages asked for, in nl/fr/en order (the shape of `Texts`). */
export function pickLangs(text: Tri, langs: readonly Lang[]): { nl?: string; fr?: string; en?: string } {
  const out: { nl?: string; fr?: string; en?: string } = {};
  for (const lang of LANGS) if (langs.includes(lang)) out[lang] = text[lang];
  return out;
}

/** English indefinite article. */
export function aOrAn(word: string): string {
  return /^[aeiou]/i.test(word) ? `an ${word}` : `a ${word}`;
}

/** URL path slug: ASCII lower case and hyphens. */
export function slug(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Encyclopedia page URL of a title in a language edition. */
export function wikipediaUrl(lang: Lang, title: string): string {
  return `https://${lang}.wikipedia.org/wiki/${encodeURIComponent(title.replace(/ /g, '_'))}`;
}

/** Zero-padded decimal. */
export function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}
