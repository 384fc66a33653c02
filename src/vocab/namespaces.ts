/** RDF namespaces used in the stored graph and in the JSON-LD payloads (spec, "Common conventions"). */
export const NS = {
  crm: 'http://www.cidoc-crm.org/cidoc-crm/',
  // The spec's owl prefix is https (as the real service writes it); keep it, the payloads depend on it.
  owl: 'https://www.w3.org/2002/07/owl#',
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
  prov: 'http://www.w3.org/ns/prov#',
  skos: 'http://www.w3.org/2004/02/skos/core#',
  hydra: 'http://www.w3.org/ns/hydra/core#',
  person: 'http://www.w3.org/ns/person#',
  dcterms: 'http://purl.org/dc/terms/',
  dcat: 'http://www.w3.org/ns/dcat#',
  foaf: 'http://xmlns.com/foaf/0.1/',
  sh: 'http://www.w3.org/ns/shacl#',
  schema: 'http://schema.org/',
  /** Non-public bookkeeping (record state, redirects); never in the public quads. */
  admin: 'urn:x-museum-ld:admin#',
} as const;

/**
 * The standard OWL namespace (http). The graph states every owl:sameAs link with both predicates: the spec's
 * https one (NS.owl, what the JSON-LD payloads show) and this one, so that SPARQL queries written with the usual
 * `PREFIX owl: <http://www.w3.org/2002/07/owl#>` find the links too (docs/graph-model.md). Kept out of NS on
 * purpose: NS is the prefix map of payloads and of Turtle / RDF/XML output, where `owl` stays the spec's.
 */
export const OWL_STANDARD = 'http://www.w3.org/2002/07/owl#';

/** External authorities named by the spec. */
export const AUTHORITY = {
  language: 'http://publications.europa.eu/resource/authority/language/',
  country: 'http://publications.europa.eu/resource/authority/country/',
  humanSex: 'http://publications.europa.eu/resource/authority/human-sex/',
  aat: 'http://vocab.getty.edu/aat/',
  wikidata: 'http://www.wikidata.org/entity/',
  stadGent: 'https://stad.gent/id/',
  geonames: 'https://sws.geonames.org/',
} as const;

/** The museum itself: keeper of every object, default venue and organiser (reference/real-identifiers.json). */
export const MUSEUM = {
  iri: 'http://www.wikidata.org/entity/Q1809071',
  name: 'Design Museum Gent',
  homepage: 'https://www.designmuseumgent.be',
} as const;

/** AAT terms the spec names by number. */
export const AAT = {
  description: '300080091',
  centimetres: '300379098',
  iiifManifest: '300417895',
  video: '300263419',
  audio: '300312042',
  publication: '300048715',
  exhibition: '300054755',
  poster: '300027221',
  exhibitionView: '300210730',
  creativeProject: '300404591',
  permanentDisplay: '300054766',
  digitalImage: '300264863',
  color: '300056130',
  percentage: '300417476',
} as const;

/** Language codes: source format (ISO 639-1) to the EU language authority. */
export const LANGUAGES = ['nl', 'fr', 'en'] as const;
export type Lang = (typeof LANGUAGES)[number];
export const LANGUAGE_AUTHORITY_CODE: Record<Lang, 'NLD' | 'FRA' | 'ENG'> = { nl: 'NLD', fr: 'FRA', en: 'ENG' };
