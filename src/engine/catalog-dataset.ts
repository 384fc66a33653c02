/**
 * What a kind says of itself in the DCAT catalog (src/endpoints/catalog.ts): the texts of its record
 * collection's dataset and of the datasets of the index endpoints it owns, in the catalog's three languages.
 */

export type LangString = { '@value': string; '@language': 'nl' | 'en' | 'fr' };

/** Texts in the catalog's language order: nl, en, fr. */
export const texts = (nl: string, en: string, fr: string): LangString[] => [
  { '@value': nl, '@language': 'nl' },
  { '@value': en, '@language': 'en' },
  { '@value': fr, '@language': 'fr' },
];

/** The dataset of a kind's record collection (`{base}/v2/id/<collection>`, typed by the kind's class). */
export interface RecordDatasetText {
  title: LangString[];
  description: LangString[];
  /** `rdfs:label` of the JSON-LD distribution. */
  distribution: string;
}

/** A link of the landing page for people (`/`): the endpoint's name and what it holds, in English. */
export interface LandingLink {
  text: string;
  note: string;
}

/** The dataset of an index endpoint (`{base}/v2/id/<name>`). */
export interface IndexDatasetText extends RecordDatasetText {
  /** Its link on the landing page, if it has one there. */
  landing?: LandingLink;
  /** The path segment under /v2/id/. */
  name: string;
  /** The CIDOC-CRM class of its members, by local name (`E55_Type`). */
  crmClass: string;
  /** Not in the reference catalog (reference/dcat-catalog.jsonld): listed after every dataset that is. */
  beyondReference?: true;
}

/**
 * The index datasets of `kinds` in catalog order: those the reference catalog lists (reference/dcat-catalog.jsonld),
 * kind by kind, then those it does not.
 */
export function indexDatasets(kinds: readonly { readonly api: { readonly indexDatasets?: readonly IndexDatasetText[] } }[]): IndexDatasetText[] {
  const all = kinds.flatMap((kind) => kind.api.indexDatasets ?? []);
  return [...all.filter((d) => !d.beyondReference), ...all.filter((d) => d.beyondReference)];
}
