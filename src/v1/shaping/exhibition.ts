/** The v1 exhibition: a Linked Art activity with one (Dutch) title and description, dates, venue and the objects shown. */
import type { JsonObject } from '../../shaping/jsonld.js';
import { idOf, literal, node, nodes, singleLanguage, text } from './read.js';
import { put, V1_CONTEXT, type V1Links } from './links.js';

const EXHIBITION_TYPE = 'cidoc:E7_Activity';

const titleOf = (v2Record: JsonObject): JsonObject =>
  singleLanguage(nodes(v2Record, 'crm:P1_is_identified_by').filter((name) => name['@type'] === 'crm:E41_Appellation')) ?? { '@value': text(v2Record, 'rdfs:label') ?? '' };

/** The v1 stub of an exhibition in a collection page. */
export function v1ExhibitionStub(links: V1Links, v2Record: JsonObject): JsonObject {
  return { ...links.head('exhibition', v2Record, EXHIBITION_TYPE), 'dcterms:identifier': links.pid('exhibition', v2Record), 'dcterms:title': titleOf(v2Record) };
}

/** The full v1 exhibition record. */
export function v1Exhibition(links: V1Links, v2Record: JsonObject): JsonObject {
  const record: JsonObject = { '@context': V1_CONTEXT, ...v1ExhibitionStub(links, v2Record) };
  put(record, 'owl:sameAs', links.sameAs('exhibition', v2Record));
  put(record, 'prov:generatedAtTime', literal(v2Record['prov:generatedAtTime']));
  put(record, 'dcterms:description', singleLanguage(nodes(v2Record, 'crm:P67i_is_referred_to_by')));
  const span = node(v2Record, 'crm:P4_has_time-span');
  if (span !== undefined) {
    const timeSpan: JsonObject = {};
    put(timeSpan, 'la:begin_of_the_begin', literal(span['crm:P82a_begin_of_the_begin']));
    put(timeSpan, 'la:end_of_the_end', literal(span['crm:P82b_end_of_the_end']));
    record['cidoc:P4_has_time-span'] = timeSpan;
  }
  put(record, 'cidoc:P7_took_place_at', text(node(v2Record, 'crm:P7_took_place_at'), 'rdfs:label'));
  put(record, 'cidoc:P14_carried_out_by', text(node(v2Record, 'crm:P14_carried_out_by'), 'rdfs:label'));
  put(record, 'cidoc:P16_used_specific_object', nodes(v2Record, 'crm:P16_used_specific_object').map((object) => links.id('object', object)));
  put(record, 'foaf:depiction', idOf(node(v2Record, 'crm:P65_shows_visual_item')));
  return record;
}
