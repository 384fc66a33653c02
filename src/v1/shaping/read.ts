/**
 * Reading the finished v2 records that the v1 shapes are made from: v1 is a view of the one engine's records
 * (same queries, same record cache), so its shapers take the v2 JSON, never the store.
 */
import type { JsonObject, JsonValue } from '../../shaping/jsonld.js';
import { AUTHORITY } from '../../vocab/namespaces.js';

/** A property's values as a list (absent: none; one value: one). */
export function all(node: JsonObject | undefined, key: string): JsonValue[] {
  const value = node?.[key];
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

/** A property's node values (objects only). */
export const nodes = (node: JsonObject | undefined, key: string): JsonObject[] =>
  all(node, key).filter((value): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value));

/** The first node value of a property. */
export const node = (parent: JsonObject | undefined, key: string): JsonObject | undefined => nodes(parent, key)[0];

/** A string value, or undefined. */
export function text(parent: JsonObject | undefined, key: string): string | undefined {
  const value = parent?.[key];
  return typeof value === 'string' ? value : undefined;
}

/** The `@id` of a node. */
export const idOf = (value: JsonObject | undefined): string | undefined => text(value, '@id');

/** The `@value` of a typed literal node (`{@type, @value}`) or a plain value. */
export function literal(value: JsonValue | undefined): string | number | undefined {
  if (typeof value === 'string' || typeof value === 'number') return value;
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const inner = value['@value'];
    if (typeof inner === 'string' || typeof inner === 'number') return inner;
  }
  return undefined;
}

/** Language authority codes of the v2 records and the language tags v1 writes. */
export const LANGUAGE_TAGS: Readonly<Record<string, string>> = { NLD: 'nl', FRA: 'fr', ENG: 'en' };

/** The language tag of a node's `crm:P72_has_language`, if any. */
export function languageOf(value: JsonObject): string | undefined {
  const code = idOf(node(value, 'crm:P72_has_language'))?.split('/').pop();
  return code === undefined ? undefined : LANGUAGE_TAGS[code];
}

/**
 * v1 is single-language: the Dutch text of a list of language-tagged nodes, else the first one, as
 * `{@value, @language}`; undefined when there is none.
 */
export function singleLanguage(values: readonly JsonObject[]): JsonObject | undefined {
  const tagged = values.flatMap((value) => {
    const label = text(value, 'rdfs:label');
    return label === undefined ? [] : [{ label, language: languageOf(value) }];
  });
  const chosen = tagged.find((entry) => entry.language === 'nl') ?? tagged[0];
  if (chosen === undefined) return undefined;
  return chosen.language === undefined ? { '@value': chosen.label } : { '@value': chosen.label, '@language': chosen.language };
}

/** The city datahub URI among a node's `owl:sameAs` links, which v1 uses as the `@id` of its records. */
export function datahubUri(value: JsonObject | undefined): string | undefined {
  return all(value, 'owl:sameAs').find((uri): uri is string => typeof uri === 'string' && uri.startsWith(AUTHORITY.stadGent));
}

/** A node's `owl:sameAs` links other than `except`. */
export const sameAsExcept = (value: JsonObject | undefined, except: string | undefined): string[] =>
  all(value, 'owl:sameAs').filter((uri): uri is string => typeof uri === 'string' && uri !== except);
