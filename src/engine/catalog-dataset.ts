/**
 * What a kind says of itself in the DCAT catalog (src/endpoints/catalog.ts): the texts of its record
 * collection's dataset and of the datasets of the index endpoints it owns, in the catalog's three languages.
 */
import type { PerLanguage } from '../collection-index/languages.js';

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

/** A link of the landing page for people (`/`): the endpoint's name and what it holds, in each page language. */
export interface LandingLink {
  text: Readonly<PerLanguage<string>>;
  note: Readonly<PerLanguage<string>>;
}

/** The dataset of an index endpoint (`{base}/v2/id/<name>`). */
export interface IndexDatasetText extends RecordDatasetText, ReferenceOrdered {
  /** Its link on the landing page, if it has one there. */
  landing?: LandingLink;
  /** The path segment under /v2/id/. */
  name: string;
  /** The CIDOC-CRM class of its members, by local name (`E55_Type`). */
  crmClass: string;
}

/** Something a kind lists for the whole service whose place follows the reference service's documents. */
export interface ReferenceOrdered {
  /** Not in the reference service's documents (reference/dcat-catalog.jsonld): listed after everything that is. */
  readonly beyondReference?: true;
}

/**
 * What `kinds` list under `part`, in the order of the reference service's documents: what those documents have,
 * kind by kind, then what they do not. The catalog's index datasets, the landing page's index links and the
 * OpenAPI index operations are listed so.
 */
export function inReferenceOrder<K, T extends ReferenceOrdered>(kinds: readonly K[], part: (kind: K) => readonly T[] | undefined): T[] {
  const all = kinds.flatMap((kind) => part(kind) ?? []);
  return [...all.filter((item) => !item.beyondReference), ...all.filter((item) => item.beyondReference)];
}

/** The index datasets of `kinds` in catalog order (reference/dcat-catalog.jsonld). */
export const indexDatasets = (kinds: readonly { readonly api: { readonly indexDatasets?: readonly IndexDatasetText[] } }[]): IndexDatasetText[] =>
  inReferenceOrder(kinds, (kind) => kind.api.indexDatasets);
