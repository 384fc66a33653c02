/**
 * Where v1 records live and what they are called: the city datahub URI as `@id` (spec, Versioning; the
 * service's own v1 address when a record has none), the v1 address as `foaf:page`, the v2 record among
 * `owl:sameAs`. One instance per app, from its IRI minting.
 */
import type { JsonObject, JsonValue } from '../../shaping/jsonld.js';
import type { Iris, RecordKind } from '../../vocab/iris.js';
import { datahubUri, idOf, sameAsExcept } from './read.js';

/** The remote OSLO contexts the v1 documents were written against, then the prefixes they use. */
export const V1_CONTEXT: JsonValue[] = [
  'https://data.vlaanderen.be/doc/applicatieprofiel/cultureel-erfgoed-object/erkendestandaard/2021-04-22/context/cultureel-erfgoed-object-ap.jsonld',
  'https://data.vlaanderen.be/doc/applicatieprofiel/cultureel-erfgoed-event/erkendestandaard/2021-04-22/context/cultureel-erfgoed-event-ap.jsonld',
  'https://data.vlaanderen.be/doc/applicatieprofiel/generiek-basis/zonderstatus/2019-07-01/context/generiek-basis.jsonld',
  {
    cidoc: 'http://www.cidoc-crm.org/cidoc-crm/',
    crm: 'http://www.cidoc-crm.org/cidoc-crm/',
    la: 'https://linked.art/ns/terms/',
    dcterms: 'http://purl.org/dc/terms/',
    prov: 'http://www.w3.org/ns/prov#',
    foaf: 'http://xmlns.com/foaf/0.1/',
    skos: 'http://www.w3.org/2004/02/skos/core#',
    owl: 'https://www.w3.org/2002/07/owl#',
    xsd: 'http://www.w3.org/2001/XMLSchema#',
    hydra: 'http://www.w3.org/ns/hydra/core#',
    ex: 'http://example.org/',
    'ex:onDisplay': { '@type': 'xsd:boolean' },
    'ex:colors': { '@container': '@list', '@type': 'xsd:string' },
    'ex:colorNames': { '@container': '@list', '@type': 'xsd:string' },
  },
];

export class V1Links {
  constructor(private readonly iris: Iris) {}

  /** `{base}/v1/id/<kind>/<pid>`: where v1 serves a record. */
  page(kind: RecordKind, pid: string): string {
    return `${this.iris.base}/v1/id/${kind}/${pid}`;
  }

  /** `{base}/v1<path>`. */
  url(path: string): string {
    return `${this.iris.base}/v1${path}`;
  }

  /** `{base}/v2<path>`. */
  v2(path: string): string {
    return `${this.iris.base}/v2${path}`;
  }

  /** The v1 `@id` of a v2 node of `kind` (a record or a reference to one): its datahub URI, else its v1 address, else its own `@id`. */
  id(kind: RecordKind, v2Node: JsonObject | undefined): string {
    const datahub = datahubUri(v2Node);
    if (datahub !== undefined) return datahub;
    const iri = idOf(v2Node) ?? '';
    const pid = this.iris.pidOf(kind, iri);
    return pid === undefined ? iri : this.page(kind, pid);
  }

  /** The pid of a v2 record. */
  pid(kind: RecordKind, v2Record: JsonObject): string {
    return this.iris.pidOf(kind, idOf(v2Record) ?? '') ?? '';
  }

  /** The head every v1 record and stub starts with: `@id`, `@type`, `foaf:page`. */
  head(kind: RecordKind, v2Record: JsonObject, type: string): JsonObject {
    return { '@id': this.id(kind, v2Record), '@type': type, 'foaf:page': this.page(kind, this.pid(kind, v2Record)) };
  }

  /** `owl:sameAs` of a v1 record: the v2 record first, then the other links but the one used as `@id`. */
  sameAs(kind: RecordKind, v2Record: JsonObject): string[] {
    const v2 = idOf(v2Record);
    return [...(v2 === undefined ? [] : [v2]), ...sameAsExcept(v2Record, this.id(kind, v2Record))];
  }
}

/** Writes `value` under `key` unless it is undefined or an empty list. */
export function put(target: JsonObject, key: string, value: JsonObject[keyof JsonObject] | undefined): void {
  if (value === undefined || (Array.isArray(value) && value.length === 0)) return;
  target[key] = value;
}
