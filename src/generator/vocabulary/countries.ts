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
}

const c = (nl: string, en: string, fr: string, adjNl: string, adjEn: string, adjFrM: string, adjFrF: string): CountryEntry => ({
  nl,
  en,
  fr,
  adjNl,
  adjEn,
  adjFrM,
  adjFrF,
});

export const COUNTRIES = {
  BEL: c('België', 'Belgium', 'Belgique', 'Belgische', 'Belgian', 'belge', 'belge'),
  NLD: c('Nederland', 'Netherlands', 'Pays-Bas', 'Nederlandse', 'Dutch', 'néerlandais', 'néerlandaise'),
  FRA: c('Frankrijk', 'France', 'France', 'Franse', 'French', 'français', 'française'),
  ITA: c('Italië', 'Italy', 'Italie', 'Italiaanse', 'Italian', 'italien', 'italienne'),
  DEU: c('Duitsland', 'Germany', 'Allemagne', 'Duitse', 'German', 'allemand', 'allemande'),
  DNK: c('Denemarken', 'Denmark', 'Danemark', 'Deense', 'Danish', 'danois', 'danoise'),
  SWE: c('Zweden', 'Sweden', 'Suède', 'Zweedse', 'Swedish', 'suédois', 'suédoise'),
  FIN: c('Finland', 'Finland', 'Finlande', 'Finse', 'Finnish', 'finlandais', 'finlandaise'),
  NOR: c('Noorwegen', 'Norway', 'Norvège', 'Noorse', 'Norwegian', 'norvégien', 'norvégienne'),
  AUT: c('Oostenrijk', 'Austria', 'Autriche', 'Oostenrijkse', 'Austrian', 'autrichien', 'autrichienne'),
  CHE: c('Zwitserland', 'Switzerland', 'Suisse', 'Zwitserse', 'Swiss', 'suisse', 'suisse'),
  GBR: c('Verenigd Koninkrijk', 'United Kingdom', 'Royaume-Uni', 'Britse', 'British', 'britannique', 'britannique'),
  USA: c('Verenigde Staten', 'United States', 'États-Unis', 'Amerikaanse', 'American', 'américain', 'américaine'),
  JPN: c('Japan', 'Japan', 'Japon', 'Japanse', 'Japanese', 'japonais', 'japonaise'),
  HUN: c('Hongarije', 'Hungary', 'Hongrie', 'Hongaarse', 'Hungarian', 'hongrois', 'hongroise'),
} as const satisfies Record<string, CountryEntry>;

export type CountryCode = keyof typeof COUNTRIES;

/** The source-format citizenship value of a country. */
export function citizenshipOf(code: CountryCode): { code: string; labels: { nl: string; en: string; fr: string } } {
  const country = COUNTRIES[code];
  return { code, labels: { nl: country.nl, en: country.en, fr: country.fr } };
}
