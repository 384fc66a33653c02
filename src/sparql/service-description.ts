/**
 * The SPARQL 1.1 Service Description of the endpoint (answered to GET /sparql without a query): what it
 * supports, the result formats it writes, that its default graph is the union of the public named graphs,
 * and the size of the dataset it serves.
 */
import { DataFactory, type Quad } from 'n3';
import type { GenerationManifest } from '../store/types.js';
import { NS } from '../vocab/namespaces.js';

const { namedNode, literal, blankNode, quad } = DataFactory;

const SD = 'http://www.w3.org/ns/sparql-service-description#';
const FORMATS = 'http://www.w3.org/ns/formats/';
const VOID = 'http://rdfs.org/ns/void#';
const ENTAILMENT = 'http://www.w3.org/ns/entailment/';

/** W3C format IRIs of the answers the endpoint can write (result-formats.ts). */
const RESULT_FORMATS = [
  'SPARQL_Results_JSON',
  'SPARQL_Results_XML',
  'SPARQL_Results_CSV',
  'SPARQL_Results_TSV',
  'Turtle',
  'N-Triples',
  'N-Quads',
  'JSON-LD',
  'RDF_XML',
];

export interface DescriptionLimits {
  deadlineMs: number;
  maxRows: number;
}

/** The description of the endpoint at `endpoint` serving `generation` (undefined while none is loaded). */
export function serviceDescription(endpoint: string, generation: GenerationManifest | undefined, limits: DescriptionLimits): Quad[] {
  const service = namedNode(endpoint);
  const rdfType = namedNode(`${NS.rdf}type`);
  const sd = (local: string) => namedNode(`${SD}${local}`);
  const quads: Quad[] = [
    quad(service, rdfType, sd('Service')),
    quad(service, sd('endpoint'), service),
    quad(service, sd('supportedLanguage'), sd('SPARQL11Query')),
    quad(service, sd('feature'), sd('UnionDefaultGraph')),
    quad(service, sd('defaultEntailmentRegime'), namedNode(`${ENTAILMENT}Simple`)),
    ...RESULT_FORMATS.map((f) => quad(service, sd('resultFormat'), namedNode(`${FORMATS}${f}`))),
    quad(
      service,
      namedNode(`${NS.rdfs}comment`),
      literal(
        'Read-only SPARQL 1.1 query endpoint over the public records of the collection. Without FROM, FROM NAMED or ' +
          'default-graph-uri/named-graph-uri the default graph is the union of all named graphs (one per record). ' +
          `Updates and SERVICE are refused; a query runs for at most ${limits.deadlineMs} ms and returns at most ` +
          `${limits.maxRows} solutions.`,
        'en',
      ),
    ),
  ];
  const dataset = blankNode('dataset');
  const defaultGraph = blankNode('defaultGraph');
  quads.push(
    quad(service, sd('defaultDataset'), dataset),
    quad(dataset, rdfType, sd('Dataset')),
    quad(dataset, sd('defaultGraph'), defaultGraph),
    quad(defaultGraph, rdfType, sd('Graph')),
  );
  if (generation) {
    const records = Object.values(generation.counts.publicRecords).reduce((a, b) => a + b, 0);
    quads.push(
      quad(defaultGraph, namedNode(`${VOID}triples`), literal(String(generation.counts.publicQuads), namedNode(`${NS.xsd}integer`))),
      quad(dataset, namedNode(`${VOID}triples`), literal(String(generation.counts.publicQuads), namedNode(`${NS.xsd}integer`))),
      quad(dataset, namedNode(`${NS.rdfs}comment`), literal(`${records} named graphs, one per public record; generation ${generation.id}.`, 'en')),
      quad(dataset, namedNode(`${NS.dcterms}modified`), literal(generation.created, namedNode(`${NS.xsd}dateTime`))),
    );
  }
  return quads;
}
