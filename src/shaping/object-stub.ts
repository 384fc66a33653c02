/**
 * The object stub of collections (spec, "Collection envelope"): `@id`, `@type`, `rdfs:label` (the Dutch
 * title, else the object number) and the IIIF manifest as `{@id, @type}` when there is one. The frame
 * `frames/object-stub.frame.jsonld` with jsonld.js is the reference (`frameStubs`); `stubsFromNQuads` builds
 * the same JSON straight from the CONSTRUCT's N-Quads (a test holds the two equal on every demo record),
 * because framing is the expensive layer and a page of stubs must cost a few milliseconds.
 */
import { Parser } from 'n3';
import { NS } from '../vocab/namespaces.js';
import { frameNQuads, loadFrame, type JsonObject, type JsonValue } from './jsonld.js';
import { asArray, isObject, orderKeys, singular } from './rules.js';

export const STUB_KEY_ORDER = ['@id', '@type', 'rdfs:label', 'crm:P129i_is_subject_of'] as const;

const RDF_TYPE = `${NS.rdf}type`;
const LABEL = `${NS.rdfs}label`;
const SUBJECT_OF = `${NS.crm}P129i_is_subject_of`;
const OBJECT_CLASS = `${NS.crm}E22_Human-Made_Object`;
const MANIFEST_CLASS = `${NS.crm}E73_Information_Object`;

let frame: JsonObject | undefined;

/** Turns one framed stub node into the documented stub. */
export function shapeStub(framed: JsonObject): JsonObject {
  const node: JsonObject = { ...framed };
  delete node['@context'];
  singular(node, ['rdfs:label', 'crm:P129i_is_subject_of']);
  return orderKeys(node, STUB_KEY_ORDER);
}

/** The reference path: frame the stubs' N-Quads with jsonld.js, then shape. Stubs by record IRI. */
export async function frameStubs(nquads: string): Promise<Map<string, JsonObject>> {
  frame ??= loadFrame('object-stub');
  const framed = await frameNQuads(nquads, frame);
  const nodes = '@graph' in framed ? asArray(framed['@graph']) : [framed];
  const out = new Map<string, JsonObject>();
  for (const node of nodes) {
    if (isObject(node) && typeof node['@id'] === 'string') out.set(node['@id'], shapeStub(node));
  }
  return out;
}

/** The fast path: the same stubs built directly from the stub CONSTRUCT's N-Quads. */
export function stubsFromNQuads(nquads: string): Map<string, JsonObject> {
  const records = new Map<string, { label?: string; manifest?: string }>();
  const manifests = new Set<string>();
  const quads = new Parser({ format: 'N-Quads' }).parse(nquads);
  for (const quad of quads) {
    const subject = quad.subject.value;
    const predicate = quad.predicate.value;
    const object = quad.object.value;
    if (predicate === RDF_TYPE && object === OBJECT_CLASS) records.set(subject, records.get(subject) ?? {});
    else if (predicate === RDF_TYPE && object === MANIFEST_CLASS) manifests.add(subject);
  }
  for (const quad of quads) {
    const record = records.get(quad.subject.value);
    if (!record) continue;
    if (quad.predicate.value === LABEL && record.label === undefined) record.label = quad.object.value;
    if (quad.predicate.value === SUBJECT_OF && record.manifest === undefined) record.manifest = quad.object.value;
  }
  const out = new Map<string, JsonObject>();
  for (const [iri, record] of records) {
    const stub: JsonObject = { '@id': iri, '@type': 'crm:E22_Human-Made_Object' };
    if (record.label !== undefined) stub['rdfs:label'] = record.label;
    if (record.manifest !== undefined) {
      const manifest: JsonValue = manifests.has(record.manifest)
        ? { '@id': record.manifest, '@type': 'crm:E73_Information_Object' }
        : { '@id': record.manifest };
      stub['crm:P129i_is_subject_of'] = manifest;
    }
    out.set(iri, stub);
  }
  return out;
}
