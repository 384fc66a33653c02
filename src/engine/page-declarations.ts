/**
 * What a kind declares for its pages for people (docs/html.md): key facts, cards and the records of other
 * collections its pages list. Types only, so that the engine, the pages and the kinds share them without the
 * pages importing the engine.
 */
import type { PerLanguage, TitleLanguage } from '../collection-index/languages.js';
import type { JsonObject } from '../shaping/jsonld.js';

/** A text in each of the collection's languages (the pages' too). */
export type LocalText = Readonly<PerLanguage<string>>;

/** One value of a record's fact: a text, the resource it names (linked on the page), a note beside it. */
export interface FactValue {
  readonly text: string;
  readonly iri?: string;
  readonly note?: string;
}

/** A fact of a record for people (a maker, a date, the materials): the block at the top of its page. */
export interface RecordFact {
  readonly label: LocalText;
  readonly values: readonly FactValue[];
  /** Shown on the record's card too (search results, the records another page lists); `only`: there only. */
  readonly card?: boolean | 'only';
}

/**
 * Records of a collection that a record's page for people lists as cards: those whose `param` filter names the
 * record (an agent's objects: `objects?agent=<pid>`), or those the record names under `property` (the objects an
 * exhibition showed).
 */
export interface LinkedRecords {
  readonly title: LocalText;
  /** The collection's name (`objects`). */
  readonly collection: string;
  readonly from: { readonly param: string } | { readonly property: string };
  /** What a member is to the record (an agent's role in an object), beside the member on its card. */
  note?(member: JsonObject, record: string, lang: TitleLanguage): string | undefined;
}

