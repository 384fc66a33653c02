/**
 * The stub of agents, exhibitions and concepts in collections (spec, "Collection envelope"): `@id`, the
 * kind's stub class and `rdfs:label`, from the `records/page-labels` CONSTRUCT. `labelledStubs` builds them
 * straight from its N-Quads; `frameLabelledStubs` (jsonld.js with frames/labelled-stub.frame.jsonld) is the
 * reference a test holds it equal to.
 */
import { Parser } from 'n3';
import { NS } from '../vocab/namespaces.js';
import { frameNQuads, loadFrame, type JsonObject } from './jsonld.js';
import { asArray, isObject } from './rules.js';

const LABEL = `${NS.rdfs}label`;

const stub = (iri: string, type: string, label: string | undefined): JsonObject =>
  label === undefined ? { '@id': iri, '@type': type } : { '@id': iri, '@type': type, 'rdfs:label': label };

/** The fast path: stubs of class `type` (a compact IRI such as `crm:E39_Actor`) by record IRI. */
export function labelledStubs(type: string): (nquads: string) => Map<string, JsonObject> {
  return (nquads) => {
    const out = new Map<string, JsonObject>();
    for (const quad of new Parser({ format: 'N-Quads' }).parse(nquads)) {
      if (quad.predicate.value !== LABEL || out.get(quad.subject.value)?.['rdfs:label'] !== undefined) continue;
      out.set(quad.subject.value, stub(quad.subject.value, type, quad.object.value));
    }
    return out;
  };
}

let frame: JsonObject | undefined;

/** The reference path: frame the label CONSTRUCT with jsonld.js, then give each node the stub class. */
export async function frameLabelledStubs(nquads: string, type: string): Promise<Map<string, JsonObject>> {
  frame ??= loadFrame('labelled-stub');
  const framed = await frameNQuads(nquads, frame);
  const nodes = '@graph' in framed ? asArray(framed['@graph']) : [framed];
  const out = new Map<string, JsonObject>();
  for (const node of nodes) {
    if (!isObject(node) || typeof node['@id'] !== 'string') continue;
    const label = asArray(node['rdfs:label'])[0];
    out.set(node['@id'], stub(node['@id'], type, typeof label === 'string' ? label : undefined));
  }
  return out;
}
