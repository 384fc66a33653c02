/**
 * The v1 agent (spec, Versioning): OSLO person properties instead of `crm:E21_Person` and
 * `crm:P98i_was_born`, one full name, nationality as a plain (Dutch) string, biographies as
 * `crm:P3_has_note` literals with their source and licence.
 */
import type { JsonObject } from '../../shaping/jsonld.js';
import { all, languageOf, literal, node, nodes, text } from './read.js';
import { put, V1_CONTEXT, type V1Links } from './links.js';

/** v2 class → v1 type. */
const AGENT_TYPES: Readonly<Record<string, string>> = { 'crm:E21_Person': 'Persoon', 'crm:E74_Group': 'Organisatie', 'crm:E39_Actor': 'Agent' };

const typeOf = (v2Record: JsonObject): string => AGENT_TYPES[text(v2Record, '@type') ?? ''] ?? 'Agent';

const identificator = (links: V1Links, v2Record: JsonObject): JsonObject[] => [
  { '@type': 'Identificator', 'Identificator.identificator': { '@value': links.pid('agent', v2Record) } },
];

/** The Dutch label of a node whose `rdfs:label` is a list of language-tagged values (citizenship). */
function dutchLabel(value: JsonObject | undefined): string | undefined {
  const labels = all(value, 'rdfs:label');
  const tagged = labels.find((label) => typeof label === 'object' && label !== null && !Array.isArray(label) && label['@language'] === 'nl');
  const chosen = literal(tagged ?? labels[0]);
  return chosen === undefined ? undefined : String(chosen);
}

/** A birth or death event: its date label and place label. */
function lifeEvent(event: JsonObject | undefined, type: string): JsonObject | undefined {
  if (event === undefined) return undefined;
  const out: JsonObject = { '@type': type };
  put(out, `${type}.datum`, text(node(event, 'crm:P4_has_time-span'), 'rdfs:label'));
  put(out, `${type}.plaats`, text(node(event, 'crm:P7_took_place_at'), 'rdfs:label'));
  return out;
}

/** Biographies as v1 notes: text, language, source page and licence. */
function notes(v2Record: JsonObject): JsonObject[] {
  return nodes(v2Record, 'crm:P67i_is_referred_to_by').flatMap((biography) => {
    const value = text(biography, 'rdfs:label');
    if (value === undefined) return [];
    const note: JsonObject = { '@value': value };
    put(note, '@language', languageOf(biography));
    put(note, 'dcterms:source', text(node(biography, 'crm:P129i_is_subject_of'), '@id'));
    put(note, 'dcterms:license', text(node(biography, 'dcterms:license'), '@id'));
    return [note];
  });
}

/** The v1 stub of an agent in a collection page. */
export function v1AgentStub(links: V1Links, v2Record: JsonObject): JsonObject {
  return { ...links.head('agent', v2Record, typeOf(v2Record)), 'Persoon.identificator': identificator(links, v2Record), 'Persoon.volledigeNaam': text(v2Record, 'rdfs:label') ?? '' };
}

/** The full v1 agent record. */
export function v1Agent(links: V1Links, v2Record: JsonObject): JsonObject {
  const record: JsonObject = { '@context': V1_CONTEXT, ...v1AgentStub(links, v2Record) };
  put(record, 'owl:sameAs', links.sameAs('agent', v2Record));
  put(record, 'prov:generatedAtTime', literal(v2Record['prov:generatedAtTime']));
  put(record, 'Persoon.geslacht', text(node(v2Record, 'crm:P2_has_type'), 'rdfs:label'));
  put(record, 'Persoon.nationaliteit', dutchLabel(node(v2Record, 'person:citizenship')));
  put(record, 'Persoon.geboorte', lifeEvent(node(v2Record, 'crm:P98i_was_born'), 'Geboorte'));
  put(record, 'Persoon.overlijden', lifeEvent(node(v2Record, 'crm:P100i_died_in'), 'Overlijden'));
  put(record, 'crm:P3_has_note', notes(v2Record));
  put(record, 'foaf:depiction', text(v2Record, 'thumbnail'));
  return record;
}
