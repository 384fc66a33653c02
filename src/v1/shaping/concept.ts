/** The v1 concept: a SKOS concept with one (Dutch) preferred label and scope note, its broader and narrower terms. */
import type { JsonObject, JsonValue } from '../../shaping/jsonld.js';
import { all, literal, nodes, text } from './read.js';
import { put, V1_CONTEXT, type V1Links } from './links.js';

/** The Dutch value of a list of `{@value, @language}`, else the first, as one `{@value, @language}`. */
function dutch(values: readonly JsonValue[]): JsonObject | undefined {
  const tagged = values.filter((value): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value));
  const chosen = tagged.find((value) => value['@language'] === 'nl') ?? tagged[0];
  return chosen === undefined ? undefined : { ...chosen };
}

const related = (links: V1Links, values: readonly JsonObject[]): JsonObject[] =>
  values.map((term) => ({ '@id': links.id('concept', term), 'skos:prefLabel': text(term, 'rdfs:label') ?? '' }));

/** The v1 stub of a concept in a collection page. */
export function v1ConceptStub(links: V1Links, v2Record: JsonObject): JsonObject {
  return { ...links.head('concept', v2Record, 'skos:Concept'), 'skos:prefLabel': dutch(all(v2Record, 'skos:prefLabel')) ?? { '@value': text(v2Record, 'rdfs:label') ?? '' } };
}

/** The full v1 concept record. */
export function v1Concept(links: V1Links, v2Record: JsonObject): JsonObject {
  const record: JsonObject = { '@context': V1_CONTEXT, ...v1ConceptStub(links, v2Record) };
  put(record, 'owl:sameAs', links.sameAs('concept', v2Record));
  put(record, 'prov:generatedAtTime', literal(v2Record['prov:generatedAtTime']));
  put(record, 'skos:scopeNote', dutch(all(v2Record, 'skos:scopeNote')));
  put(record, 'skos:broader', related(links, nodes(v2Record, 'skos:broader')));
  put(record, 'skos:narrower', related(links, nodes(v2Record, 'skos:narrower')));
  return record;
}
