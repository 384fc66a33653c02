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

/** The dataset of an index endpoint (`{base}/v2/id/<name>`). */
export interface IndexDatasetText extends RecordDatasetText {
  /** The path segment under /v2/id/. */
  name: string;
  /** The CIDOC-CRM class of its members, by local name (`E55_Type`). */
  crmClass: string;
  /** Not in the reference catalog (reference/dcat-catalog.jsonld): listed after every dataset that is. */
  beyondReference?: true;
}
