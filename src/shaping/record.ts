/**
 * The shaping rules every record kind applies, declared per kind (docs/architecture.md, "Shaping"): bookkeeping triples
 * out, always-array and singular properties, measurement values as numbers, nested nodes in reading order
 * (identity, label, then properties A-Z), language-tagged nodes in the order nl, fr, en, and the kind's key
 * order. A kind with rules a list cannot say passes them as `finish`.
 */
import type { JsonObject, JsonValue } from './jsonld.js';
import { alwaysArray, asArray, dropStandardSameAs, numberValue, orderKeys, singular, sortByLanguage, walkNodes } from './rules.js';

export interface ShapeRules {
  readonly alwaysArray: readonly string[];
  readonly singular: readonly string[];
  /** Top-level key order: the spec table's rows. */
  readonly keyOrder: readonly string[];
  /** Properties that hold lists wherever they occur below the record node. */
  readonly nestedAlwaysArray: readonly string[];
  /** Arrays of language-tagged nodes (crm:P72_has_language) ordered identifiers first, then nl, fr, en. */
  readonly byLanguage?: readonly string[];
  /** Rules of the kind alone, run on the record node before its keys are ordered. */
  readonly finish?: (node: JsonObject) => void;
}

/** The keys every record starts with (spec, "Fields on every single record"), before its own table's rows. */
export const RECORD_HEAD_KEYS = ['@context', '@id', '@type', 'rdfs:label', 'owl:sameAs', 'prov:generatedAtTime'] as const;

const P90_IRI = 'http://www.cidoc-crm.org/cidoc-crm/P90_has_value';

export const NESTED_KEY_ORDER = ['@id', '@type', 'rdfs:label'] as const;

/** Turns a framed record node into the documented record by `rules`. */
export function shapeRecord(framed: JsonObject, rules: ShapeRules): JsonObject {
  const node: JsonObject = { ...framed };
  // Bookkeeping for incremental harvests; not part of the documented record.
  delete node['dcterms:modified'];
  dropStandardSameAs(node);
  walkNodes(node, (nested) => {
    if (nested === node) return;
    alwaysArray(nested, rules.nestedAlwaysArray);
    // A generation harvested before measurements were doubles has decimals, which the context's term does not take.
    if (P90_IRI in nested) {
      nested['crm:P90_has_value'] = nested[P90_IRI] as JsonValue;
      delete nested[P90_IRI];
    }
    if ('crm:P90_has_value' in nested) nested['crm:P90_has_value'] = numberValue(nested['crm:P90_has_value']) ?? null;
    const ordered = orderKeys(nested, NESTED_KEY_ORDER);
    for (const key of Object.keys(nested)) delete nested[key];
    Object.assign(nested, ordered);
  });
  alwaysArray(node, rules.alwaysArray);
  singular(node, rules.singular);
  for (const key of rules.byLanguage ?? []) if (key in node) node[key] = sortByLanguage(asArray(node[key]));
  rules.finish?.(node);
  return orderKeys(node, rules.keyOrder);
}

/** `{@value, @language}` values ordered nl, fr, en (then any other tag), for SKOS labels and citizenship names. */
export function sortLanguageValues(values: readonly JsonObject[] | readonly unknown[]): unknown[] {
  const rank: Record<string, number> = { nl: 0, fr: 1, en: 2 };
  const of = (value: unknown): number => {
    const language = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)['@language'] : undefined;
    return typeof language === 'string' ? (rank[language] ?? 3) : 4;
  };
  return [...values].sort((a, b) => of(a) - of(b));
}
