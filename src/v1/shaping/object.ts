/**
 * The v1 object (spec, Deprecated v1 interface and Versioning): the OSLO "MensgemaaktObject" with
 * single-language title and description, the city datahub URI as `@id`, and `ex:colors` (hex values),
 * `ex:colorNames` and `ex:onDisplay`. Made from the finished v2 record with its colour view, so colours come
 * from the same `crm:P65_shows_visual_item` notes that v2 serves.
 */
import type { JsonObject, JsonValue } from '../../shaping/jsonld.js';
import { idOf, literal, node, nodes, singleLanguage, text } from './read.js';
import { put, V1_CONTEXT, type V1Links } from './links.js';

const OBJECT_TYPE = 'MensgemaaktObject';
const DIGITAL_OBJECT = 'http://www.ics.forth.gr/isl/CRMdig/D1_Digital_Object';

/** The hex values and tone names of every colour cluster of every analysed image, heaviest first per image. */
export function colorsOf(v2Record: JsonObject): { hex: string[]; names: string[] } {
  const hex: string[] = [];
  const names: string[] = [];
  for (const item of nodes(v2Record, 'crm:P65_shows_visual_item')) {
    for (const feature of nodes(item, 'crm:P56_bears_feature')) {
      if (!(idOf(feature) ?? '').endsWith('/colors/hex')) continue;
      for (const note of nodes(feature, 'crm:P3_has_note')) {
        const value = text(note, 'rdf:value');
        if (value === undefined) continue;
        hex.push(value);
        names.push(text(note, 'rdfs:label') ?? value);
      }
    }
  }
  return { hex, names };
}

/** Whether the object is in the collection presentation (it has a current location). */
export const isOnDisplay = (v2Record: JsonObject): boolean => v2Record['crm:P55_has_current_location'] !== undefined;

/** The object number of a v2 object record. */
export const objectNumberOf = (v2Record: JsonObject): string | undefined =>
  nodes(v2Record, 'crm:P1_is_identified_by')
    .filter((identifier) => identifier['@type'] === 'crm:E42_Identifier')
    .map((identifier) => text(identifier, 'rdfs:label'))[0];

const identificator = (value: string): JsonObject[] => [{ '@type': 'Identificator', 'Identificator.identificator': { '@value': value } }];

const titleOf = (v2Record: JsonObject): JsonObject | undefined =>
  singleLanguage(nodes(v2Record, 'crm:P1_is_identified_by').filter((name) => name['@type'] === 'crm:E41_Appellation'));

/** The IIIF manifest node of v1 (`cidoc:P129i_is_subject_of`), when the object has one. */
function manifestOf(v2Record: JsonObject): JsonObject | undefined {
  const manifest = nodes(v2Record, 'crm:P129i_is_subject_of').find((media) => idOf(node(media, 'crm:P2_has_type'))?.endsWith('/300417895'));
  const id = idOf(manifest);
  return id === undefined ? undefined : { '@id': id, '@type': DIGITAL_OBJECT };
}

const termsOf = (links: V1Links, values: readonly JsonObject[]): JsonObject[] =>
  values.map((term) => ({ '@id': links.id('concept', term), 'skos:prefLabel': text(term, 'rdfs:label') ?? '' }));

/** The v1 `ex:` additions: colours (empty lists unless asked for, as v1 always wrote them) and display state. */
function extras(v2Record: JsonObject, withColors: boolean): JsonObject {
  const colors = withColors ? colorsOf(v2Record) : { hex: [], names: [] };
  return { 'ex:onDisplay': isOnDisplay(v2Record), 'ex:colors': colors.hex, 'ex:colorNames': colors.names };
}

/** The v1 stub of an object in a collection page. */
export function v1ObjectStub(links: V1Links, v2Record: JsonObject, withColors: boolean): JsonObject {
  const stub = links.head('object', v2Record, OBJECT_TYPE);
  stub['Object.identificator'] = identificator(objectNumberOf(v2Record) ?? links.pid('object', v2Record));
  put(stub, 'MensgemaaktObject.titel', titleOf(v2Record));
  put(stub, 'cidoc:P129i_is_subject_of', manifestOf(v2Record));
  return { ...stub, ...extras(v2Record, withColors) };
}

/** One production (`vervaardiger`) or creation (`ontwerper`) event as v1 writes it. */
function event(links: V1Links, v2Event: JsonObject, role: string): JsonObject {
  const out: JsonObject = { '@type': 'Productie', 'Productie.rol': role };
  const agent = node(v2Event, 'crm:P14_carried_out_by');
  if (agent !== undefined) out['Activiteit.uitgevoerdDoor'] = { '@id': links.id('agent', agent), 'Agent.naam': text(agent, 'rdfs:label') ?? '' };
  put(out, 'Gebeurtenis.plaats', text(node(v2Event, 'crm:P7_took_place_at'), 'rdfs:label'));
  put(out, 'Gebeurtenis.tijd', text(node(v2Event, 'crm:P4_has_time-span'), 'rdfs:label'));
  put(out, 'Activiteit.gebruikteTechniek', nodes(v2Event, 'crm:P32_used_general_technique').map((technique) => text(technique, 'rdfs:label') ?? ''));
  return out;
}

function dimensions(v2Record: JsonObject): JsonObject[] {
  return nodes(v2Record, 'crm:P43_has_dimension').map((dimension) => ({
    '@type': 'Dimensie',
    'Dimensie.type': text(node(dimension, 'crm:P2_has_type'), 'rdfs:label') ?? '',
    'Dimensie.waarde': literal(dimension['crm:P90_has_value']) ?? null,
    'Dimensie.eenheid': text(node(dimension, 'crm:P91_has_unit'), 'rdfs:label') ?? 'cm',
  }));
}

/** The validated images: `@id` and the rights URI. */
export function imagesOf(v2Record: JsonObject): { url: string; rights?: string }[] {
  return nodes(v2Record, 'crm:P138i_has_representation').flatMap((image) => {
    const url = idOf(image);
    const rights = idOf(node(image, 'crm:P104_is_subject_to'));
    return url === undefined ? [] : [rights === undefined ? { url } : { url, rights }];
  });
}

/** The full v1 object record; `withColors` fills `ex:colors` and `ex:colorNames` (the v2 record must carry its colour view). */
export function v1Object(links: V1Links, v2Record: JsonObject, withColors: boolean): JsonObject {
  const record: JsonObject = { '@context': V1_CONTEXT, ...links.head('object', v2Record, OBJECT_TYPE) };
  put(record, 'owl:sameAs', links.sameAs('object', v2Record));
  put(record, 'prov:generatedAtTime', literal(v2Record['prov:generatedAtTime']));
  record['Object.identificator'] = identificator(objectNumberOf(v2Record) ?? links.pid('object', v2Record));
  put(record, 'MensgemaaktObject.titel', titleOf(v2Record));
  put(record, 'Entiteit.beschrijving', singleLanguage(nodes(v2Record, 'crm:P67i_is_referred_to_by')));
  put(record, 'Entiteit.classificatie', termsOf(links, nodes(v2Record, 'crm:P2_has_type')));
  put(record, 'MensgemaaktObject.materiaal', termsOf(links, nodes(v2Record, 'crm:P45_consists_of')));
  put(record, 'MensgemaaktObject.dimensie', dimensions(v2Record));
  put(record, 'MaterieelDing.productie', [
    ...nodes(v2Record, 'crm:P94i_was_created_by').map((creation) => event(links, creation, 'ontwerper')),
    ...nodes(v2Record, 'crm:P108i_was_produced_by').map((production) => event(links, production, 'vervaardiger')),
  ]);
  put(
    record,
    'cidoc:P12i_was_present_at',
    nodes(v2Record, 'crm:P12i_was_present_at').map((exhibition) => ({ '@id': links.id('exhibition', exhibition), 'rdfs:label': text(exhibition, 'rdfs:label') ?? '' })),
  );
  put(record, 'cidoc:P129i_is_subject_of', manifestOf(v2Record));
  put(
    record,
    'cidoc:P138i_has_representation',
    imagesOf(v2Record).map((image): JsonObject => ({ '@id': image.url, '@type': 'cidoc:E38_Image', ...(image.rights === undefined ? {} : { 'dcterms:rights': image.rights }) })),
  );
  return { ...record, ...extras(v2Record, withColors) };
}

/** The simplified view of `easy=true` (the flat keys of the real v1 "easy" objects). */
export function v1EasyObject(links: V1Links, v2Record: JsonObject): JsonObject {
  const labels = (key: string): string[] => nodes(v2Record, key).map((term) => text(term, 'rdfs:label') ?? '');
  const agents = [...nodes(v2Record, 'crm:P94i_was_created_by'), ...nodes(v2Record, 'crm:P108i_was_produced_by')]
    .map((activity) => text(node(activity, 'crm:P14_carried_out_by'), 'rdfs:label'))
    .filter((name): name is string => name !== undefined);
  const images = imagesOf(v2Record);
  const description = singleLanguage(nodes(v2Record, 'crm:P67i_is_referred_to_by'));
  const title: JsonValue | undefined = titleOf(v2Record)?.['@value'];
  return {
    '@id': links.id('object', v2Record),
    objectnumber: objectNumberOf(v2Record) ?? links.pid('object', v2Record),
    title: title ?? null,
    description: description?.['@value'] ?? null,
    agents: [...new Set(agents)],
    materials: labels('crm:P45_consists_of'),
    types: labels('crm:P2_has_type'),
    images: images.map((image) => image.url),
    licences: [...new Set(images.flatMap((image) => (image.rights === undefined ? [] : [image.rights])))],
    colors: [...new Set(colorsOf(v2Record).names)],
  };
}
