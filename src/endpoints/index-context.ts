/**
 * The `@context` of the index documents (issue 28): besides the prefixes, a term definition for every plain key
 * the spec gives the indexes (`object_count`, `buckets`, `base_colors`, `filter`, …), so that a client that
 * expands an index with jsonld.js keeps every key instead of three triples. The keys live in the service's own
 * small vocabulary, `{BASE_URL}/vocab#` (docs/vocabulary.md), except where an existing term means exactly the
 * same: a colour's name is `rdf:value` (as in the stored colour notes) and a swatch's `label` is `rdfs:label`.
 * The JSON shapes do not change: only the context grows.
 */
import { loadFrame, type JsonObject } from '../shaping/jsonld.js';
import { NS } from '../vocab/namespaces.js';

/** The namespace of the service's own terms: one per deployment, as every other IRI the service mints. */
export const serviceVocab = (base: string): string => `${base}/vocab#`;

/** Keys whose values are numbers, strings or nested nodes: plain terms of the vocabulary. */
export const VOCAB_TERMS = [
  // Label indexes (types, materials, nationalities, roles).
  'object_count',
  'agent_count',
  // Production density.
  'bucket_size',
  'year_from',
  'year_to',
  'total_weight',
  'buckets',
  'year',
  'weight',
  'share_pct',
  'exact_count',
  'spread_factor',
  // Colour index and dominant objects.
  'base_colors',
  'css_colors',
  'hex',
  'swatches',
  'collection_share_pct',
  'avg_dominance_pct',
  'dominance_pct',
  'palette',
  'css',
  'base',
  'percentage',
] as const;

/** Keys whose values are links: `@id`-typed, so they expand to IRIs rather than strings. */
export const VOCAB_LINKS = ['filter', 'dominant'] as const;

/** The context of every index document. */
export function indexContext(base: string): JsonObject {
  const vocab = serviceVocab(base);
  return {
    crm: NS.crm,
    rdfs: NS.rdfs,
    hydra: NS.hydra,
    xsd: NS.xsd,
    ...Object.fromEntries(VOCAB_TERMS.map((term) => [term, `${vocab}${term}`])),
    ...Object.fromEntries(VOCAB_LINKS.map((term) => [term, { '@id': `${vocab}${term}`, '@type': '@id' }])),
    value: `${NS.rdf}value`,
    label: `${NS.rdfs}label`,
  };
}

/**
 * The context of `/v2/id/colors/dominant`: its members carry fields of the full object record (representations,
 * `image`, `thumbnail`, typed dates), so the record context joins the index context.
 */
export function dominantContext(base: string): JsonObject {
  return { ...indexContext(base), ...(loadFrame('object')['@context'] as JsonObject) };
}
