/** Countries as the EU country authority codes them, with names and adjectives for titles and biographies. */

export interface CountryEntry {
  nl: string;
  en: string;
  fr: string;
  /** Attributive Dutch adjective ("een Belgische ontwerper"). */
  adjNl: string;
  adjEn: string;
  /** French adjective, masculine and feminine. */
  adjFrM: string;
  adjFrF: string;
  /** "in <country>" with the article each language needs. */
  inNl: string;
  inFr: string;
  inEn: string;
}

const c = (nl: string, en: string, fr: string, adjNl: string, adjEn: string, adjFrM: string, adjFrF: string, inFr: string): CountryEntry => ({
  nl,
  en,
  fr,
  adjNl,
  adjEn,
  adjFrM,
  adjFrF,
  inNl: /^Verenigde/.test(nl) ? `in de ${nl}` : /^Verenigd /.test(nl) ? `in het ${nl}` : `in ${nl}`,
  inFr,
  inEn: /^(Netherlands|United)/.test(en) ? `in the ${en}` : `in ${en}`,
});

export const COUNTRIES = {
  BEL: c('België', 'Belgium', 'Belgique', 'Belgische', 'Belgian', 'belge', 'belge', 'en Belgique'),
  NLD: c('Nederland', 'Netherlands', 'Pays-Bas', 'Nederlandse', 'Dutch', 'néerlandais', 'néerlandaise', 'aux Pays-Bas'),
  FRA: c('Frankrijk', 'France', 'France', 'Franse', 'French', 'français', 'française', 'en France'),
  ITA: c('Italië', 'Italy', 'Italie', 'Italiaanse', 'Italian', 'italien', 'italienne', 'en Italie'),
  DEU: c('Duitsland', 'Germany', 'Allemagne', 'Duitse', 'German', 'allemand', 'allemande', 'en Allemagne'),
  DNK: c('Denemarken', 'Denmark', 'Danemark', 'Deense', 'Danish', 'danois', 'danoise', 'au Danemark'),
  SWE: c('Zweden', 'Sweden', 'Suède', 'Zweedse', 'Swedish', 'suédois', 'suédoise', 'en Suède'),
  FIN: c('Finland', 'Finland', 'Finlande', 'Finse', 'Finnish', 'finlandais', 'finlandaise', 'en Finlande'),
  NOR: c('Noorwegen', 'Norway', 'Norvège', 'Noorse', 'Norwegian', 'norvégien', 'norvégienne', 'en Norvège'),
  AUT: c('Oostenrijk', 'Austria', 'Autriche', 'Oostenrijkse', 'Austrian', 'autrichien', 'autrichienne', 'en Autriche'),
  CHE: c('Zwitserland', 'Switzerland', 'Suisse', 'Zwitserse', 'Swiss', 'suisse', 'suisse', 'en Suisse'),
  GBR: c('Verenigd Koninkrijk', 'United Kingdom', 'Royaume-Uni', 'Britse', 'British', 'britannique', 'britannique', 'au Royaume-Uni'),
  USA: c('Verenigde Staten', 'United States', 'États-Unis', 'Amerikaanse', 'American', 'américain', 'américaine', 'aux États-Unis'),
  JPN: c('Japan', 'Japan', 'Japon', 'Japanse', 'Japanese', 'japonais', 'japonaise', 'au Japon'),
  HUN: c('Hongarije', 'Hungary', 'Hongrie', 'Hongaarse', 'Hungarian', 'hongrois', 'hongroise', 'en Hongrie'),
} as const satisfies Record<string, CountryEntry>;

export type CountryCode = keyof typeof COUNTRIES;

/** The source-format citizenship value of a country. */
export function citizenshipOf(code: CountryCode): { code: string; labels: { nl: string; en: string; fr: string } } {
  const country = COUNTRIES[code];
  return { code, labels: { nl: country.nl, en: country.en, fr: country.fr } };
}
