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
  // Related objects.
  'similarity',
  'shares',
  'feature',
] as const;

/** Keys whose values are links: `@id`-typed, so they expand to IRIs rather than strings. */
export const VOCAB_LINKS = ['filter', 'dominant'] as const;

/** What each term means: the `rdfs:comment` of its definition at `{BASE_URL}/vocab` (src/endpoints/vocabulary.ts). */
export const VOCAB_COMMENTS: Readonly<Record<(typeof VOCAB_TERMS)[number] | (typeof VOCAB_LINKS)[number], string>> = {
  object_count: 'The number of public objects counted for this entry of an index (an integer).',
  agent_count: 'The number of public agents counted for this entry of an index (an integer).',
  filter: 'The collection URL that lists the records counted for this entry.',
  bucket_size: 'The width in years of each bucket of the production density index.',
  year_from: 'The first year of the production density axis.',
  year_to: 'The last year of the production density axis.',
  total_weight: 'The summed weight of all buckets: the number of dated objects inside the range.',
  buckets: 'One bucket of the production density index.',
  year: 'The first year of a production density bucket.',
  weight: 'A distributed measure: each dated object contributes a total weight of 1, spread evenly over every year of its recorded span; for a swatch, its weight within the base colour.',
  share_pct: "A bucket's share of the total weight, in percent.",
  exact_count: 'The number of objects dated to a single year inside a bucket.',
  spread_factor: 'object_count divided by weight: how far the objects counted in a bucket spread beyond it (1: all dated within it).',
  base_colors: 'One base colour of the colour index, with its tones.',
  css_colors: 'One named tone (a CSS colour name) of the colour index.',
  hex: 'A colour as #rrggbb.',
  swatches: 'A tone that belongs to a base colour.',
  collection_share_pct: 'The percentage of the whole collection palette that this colour takes.',
  avg_dominance_pct: 'The average share, in percent, of an object covered by this colour when present.',
  dominant: 'The URL listing the objects in whose images this colour dominates.',
  dominance_pct: "The share, in percent, of the colour in the object's image.",
  palette: "One colour cluster of an object's image.",
  css: 'The named tone (CSS colour name) of a colour cluster.',
  base: 'The base colour of a colour cluster.',
  percentage: 'The share of the image covered by a colour cluster.',
  similarity: 'How much a related object shares with the object: the summed weights of the shared features (docs/similar.md).',
  shares: 'One feature a related object shares with the object: the feature and the concept, agent or colour shared.',
  feature: 'The kind of a shared feature: maker, type, concept, material, color or period.',
};

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
