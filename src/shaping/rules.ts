/**
 * Shaping rules that a frame cannot say (docs/architecture.md, "Shaping"): which properties are always arrays and which
 * singular, the order of keys, number values, and house-keeping triples that must not reach the JSON.
 * Each resource's shaping module is a list of these rules applied to the framed node.
 */
import type { JsonObject, JsonValue } from './jsonld.js';
import { OWL_STANDARD } from '../vocab/namespaces.js';

export const asArray = (value: JsonValue | undefined): JsonValue[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

export function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Makes `keys` arrays on `node` (when present). */
export function alwaysArray(node: JsonObject, keys: readonly string[]): void {
  for (const key of keys) if (key in node) node[key] = asArray(node[key]);
}

/** Makes `keys` single values on `node`, keeping the first (when present). */
export function singular(node: JsonObject, keys: readonly string[]): void {
  for (const key of keys) {
    const value = node[key];
    if (Array.isArray(value)) {
      if (value.length === 0) delete node[key];
      else node[key] = value[0] as JsonValue;
    }
  }
}

/** Returns a copy of `node` whose keys follow `order`; keys not named keep their order after the named ones. */
export function orderKeys(node: JsonObject, order: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const key of order) if (key in node) out[key] = node[key] as JsonValue;
  for (const key of Object.keys(node)) if (!(key in out)) out[key] = node[key] as JsonValue;
  return out;
}

/**
 * `"13.5"` (an xsd:double the context coerces) or `{@type: xsd:decimal, @value: "13.5"}` (a generation harvested
 * before measurements were doubles) → 13.5, for the measurement values the spec shows as numbers.
 */
export function numberValue(value: JsonValue | undefined): JsonValue | undefined {
  const lexical = typeof value === 'string' ? value : isObject(value) && typeof value['@value'] === 'string' ? value['@value'] : undefined;
  if (lexical === undefined) return value;
  const number = Number(lexical);
  return Number.isFinite(number) ? number : value;
}

/** Applies `visit` to every node object below `value` (depth first, the node itself included; `@context` is skipped). */
export function walkNodes(value: JsonValue | undefined, visit: (node: JsonObject) => void): void {
  if (Array.isArray(value)) {
    for (const item of value) walkNodes(item, visit);
  } else if (isObject(value)) {
    // The context holds term definitions, not nodes: shaping rules must never touch it.
    for (const key of Object.keys(value)) if (key !== '@context') walkNodes(value[key], visit);
    visit(value);
  }
}

const POSITION = 'http://schema.org/position';

/** Sorts nodes by their schema:position and removes it from the JSON. */
export function sortByPosition(nodes: JsonValue[]): JsonValue[] {
  const position = (node: JsonValue): number => {
    if (!isObject(node)) return Number.MAX_SAFE_INTEGER;
    const value = numberValue(node[POSITION]);
    return typeof value === 'number' ? value : Number.MAX_SAFE_INTEGER;
  };
  const sorted = [...nodes].sort((a, b) => position(a) - position(b));
  for (const node of sorted) if (isObject(node)) delete node[POSITION];
  return sorted;
}

/** Sorts event nodes by the number at the end of their `@id` (`…/production/2` before `…/production/10`). */
export function sortByIdNumber(nodes: JsonValue[]): JsonValue[] {
  const number = (node: JsonValue): number => {
    const id = isObject(node) && typeof node['@id'] === 'string' ? node['@id'] : '';
    const match = /(\d+)$/.exec(id);
    return match ? Number(match[1]) : Number.MAX_SAFE_INTEGER;
  };
  return [...nodes].sort((a, b) => number(a) - number(b));
}

const LANGUAGE_RANK: Record<string, number> = { NLD: 1, FRA: 2, ENG: 3 };

/** Nodes without a language (identifiers) first, then by `crm:P72_has_language` in the order nl, fr, en. */
export function sortByLanguage(nodes: JsonValue[]): JsonValue[] {
  const rank = (node: JsonValue): number => {
    if (!isObject(node)) return 9;
    const language = node['crm:P72_has_language'];
    if (!isObject(language) || typeof language['@id'] !== 'string') return 0;
    return LANGUAGE_RANK[language['@id'].slice(-3)] ?? 8;
  };
  return [...nodes].sort((a, b) => rank(a) - rank(b));
}

/**
 * The standard owl:sameAs (http namespace). The stored graph states every sameAs link with it as well as with
 * the spec's https `owl:sameAs` (docs/graph-model.md); no prefix of the payload context matches it, so framing
 * leaves it as this absolute key.
 */
export const STANDARD_SAME_AS = `${OWL_STANDARD}sameAs`;

/** Removes the standard owl:sameAs from `node` and every node below it: the JSON shows only the spec's `owl:sameAs`. */
export function dropStandardSameAs(node: JsonObject): void {
  walkNodes(node, (nested) => {
    delete nested[STANDARD_SAME_AS];
  });
}
