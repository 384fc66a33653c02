/**
 * The object stub of collections (spec, "Collection envelope"): `@id`, `@type`, `rdfs:label` (the Dutch
 * title, else the object number, as the real service writes it) and the IIIF manifest as `{@id, @type}` when
 * there is one. The stub CONSTRUCT gives the record with its identifier, its Dutch title and its manifest;
 * framing that with `frames/object-stub.frame.jsonld` (jsonld.js) and `shapeStub` is the reference path
 * (`frameStubs`). `stubsFromNQuads` builds the same JSON straight from the N-Quads (a test holds the two
 * equal on every demo record), because framing is the expensive layer and a page of stubs must be cheap.
 */
import { Parser } from 'n3';
import { NS } from '../../vocab/namespaces.js';
import { frameNQuads, loadFrame, type JsonObject } from '../../shaping/jsonld.js';
import { asArray, isObject } from '../../shaping/rules.js';

const RDF_TYPE = `${NS.rdf}type`;
const LABEL = `${NS.rdfs}label`;
const IDENTIFIED_BY = `${NS.crm}P1_is_identified_by`;
const SUBJECT_OF = `${NS.crm}P129i_is_subject_of`;
const CLASS = {
  object: `${NS.crm}E22_Human-Made_Object`,
  identifier: `${NS.crm}E42_Identifier`,
  title: `${NS.crm}E41_Appellation`,
  manifest: `${NS.crm}E73_Information_Object`,
};

/** The stub of one object from its number, Dutch title and manifest. */
export function stub(iri: string, number: string | undefined, dutchTitle: string | undefined, manifest: string | undefined): JsonObject {
  const out: JsonObject = { '@id': iri, '@type': 'crm:E22_Human-Made_Object' };
  const label = dutchTitle ?? number;
  if (label !== undefined) out['rdfs:label'] = label;
  if (manifest !== undefined) out['crm:P129i_is_subject_of'] = { '@id': manifest, '@type': 'crm:E73_Information_Object' };
  return out;
}

const hasType = (node: JsonObject, type: string): boolean => asArray(node['@type']).includes(type);
const labelOf = (node: JsonObject | undefined): string | undefined => {
  const label = node?.['rdfs:label'];
  return typeof label === 'string' ? label : undefined;
};

/** Turns one framed record node of the stub CONSTRUCT into the documented stub. */
export function shapeStub(framed: JsonObject): JsonObject {
  const names = asArray(framed['crm:P1_is_identified_by']).filter(isObject);
  const manifest = asArray(framed['crm:P129i_is_subject_of']).filter(isObject).find((node) => hasType(node, 'crm:E73_Information_Object'));
  return stub(
    String(framed['@id']),
    labelOf(names.find((node) => hasType(node, 'crm:E42_Identifier'))),
    labelOf(names.find((node) => hasType(node, 'crm:E41_Appellation'))),
    typeof manifest?.['@id'] === 'string' ? manifest['@id'] : undefined,
  );
}

let frame: JsonObject | undefined;

/** The reference path: frame the stub CONSTRUCT's N-Quads with jsonld.js, then shape. Stubs by record IRI. */
export async function frameStubs(nquads: string): Promise<Map<string, JsonObject>> {
  frame ??= loadFrame('object-stub');
  const framed = await frameNQuads(nquads, frame);
  const nodes = '@graph' in framed ? asArray(framed['@graph']) : [framed];
  const out = new Map<string, JsonObject>();
  for (const node of nodes) if (isObject(node) && typeof node['@id'] === 'string') out.set(node['@id'], shapeStub(node));
  return out;
}

/** The fast path: the same stubs built directly from the stub CONSTRUCT's N-Quads. */
export function stubsFromNQuads(nquads: string): Map<string, JsonObject> {
  const types = new Map<string, Set<string>>();
  const labels = new Map<string, string>();
  const links = new Map<string, string[]>();
  for (const quad of new Parser({ format: 'N-Quads' }).parse(nquads)) {
    const subject = quad.subject.termType === 'BlankNode' ? `_:${quad.subject.value}` : quad.subject.value;
    const object = quad.object.termType === 'BlankNode' ? `_:${quad.object.value}` : quad.object.value;
    const predicate = quad.predicate.value;
    if (predicate === RDF_TYPE) types.set(subject, (types.get(subject) ?? new Set()).add(object));
    else if (predicate === LABEL) labels.set(subject, object);
    else if (predicate === IDENTIFIED_BY || predicate === SUBJECT_OF) links.set(subject, [...(links.get(subject) ?? []), object]);
  }
  const is = (node: string, type: string): boolean => types.get(node)?.has(type) ?? false;
  const out = new Map<string, JsonObject>();
  for (const [iri, nodeTypes] of types) {
    if (!nodeTypes.has(CLASS.object)) continue;
    const linked = links.get(iri) ?? [];
    const identifier = linked.find((node) => is(node, CLASS.identifier));
    const title = linked.find((node) => is(node, CLASS.title));
    out.set(iri, stub(iri, identifier && labels.get(identifier), title && labels.get(title), linked.find((node) => is(node, CLASS.manifest))));
  }
  return out;
}
