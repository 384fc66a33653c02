/**
 * Real parsers for every answer format of /sparql and of negotiated records, for the SPARQL tests: n3 (Turtle,
 * N-Triples, N-Quads, TSV terms), jsonld.js (JSON-LD), rdfxml-streaming-parser (RDF/XML), sparqljson-parse and
 * sparqlxml-parse (SPARQL results). CSV has no RDF terms, so it is read per RFC 4180 into strings.
 */
import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';
import type * as RDF from '@rdfjs/types';
import jsonld from 'jsonld';
import { DataFactory, Parser as N3Parser, Store } from 'n3';
import { RdfXmlParser } from 'rdfxml-streaming-parser';
import { SparqlJsonParser } from 'sparqljson-parse';
import { SparqlXmlParser } from 'sparqlxml-parse';

export type Row = Record<string, RDF.Term>;

/** Parses an RDF document of `mediaType` into quads. */
export async function parseRdf(text: string, mediaType: string, baseIRI = 'http://example.org/'): Promise<RDF.Quad[]> {
  const type = mediaType.split(';')[0]?.trim();
  switch (type) {
    case 'text/turtle':
    case 'application/n-triples':
    case 'application/n-quads':
      return new N3Parser({ format: type, baseIRI }).parse(text);
    case 'application/ld+json': {
      const nquads = (await jsonld.toRDF(JSON.parse(text) as jsonld.JsonLdDocument, { format: 'application/n-quads' })) as unknown as string;
      return new N3Parser({ format: 'application/n-quads' }).parse(nquads);
    }
    case 'application/rdf+xml': {
      const quads: RDF.Quad[] = [];
      const parser = new RdfXmlParser({ baseIRI });
      await new Promise<void>((resolve, reject) => {
        parser.on('data', (q: RDF.Quad) => quads.push(q));
        parser.on('error', reject);
        parser.on('end', resolve);
        parser.write(text);
        parser.end();
      });
      return quads;
    }
    default:
      throw new Error(`no RDF parser for ${mediaType}`);
  }
}

/** Quads without their graph (CONSTRUCT answers are triples). */
export const triplesOf = (quads: readonly RDF.Quad[]): RDF.Quad[] =>
  quads.map((q) => DataFactory.quad(q.subject as RDF.Quad_Subject, q.predicate as RDF.Quad_Predicate, q.object as RDF.Quad_Object));

/** Distinct quads (RDF graphs are sets; serialisers may repeat nothing, but parsers may see duplicates). */
const XSD_DOUBLE = 'http://www.w3.org/2001/XMLSchema#double';

/**
 * An xsd:double literal in one spelling per value, the datatype kept: jsonld.js writes a double in its canonical
 * form (`7.65E0`) where a store or the harvest writes another (`7.65`), two spellings of one value.
 */
export function oneSpelling(q: RDF.Quad): RDF.Quad {
  if (q.object.termType !== 'Literal' || q.object.datatype.value !== XSD_DOUBLE) return q;
  return DataFactory.quad(q.subject, q.predicate, DataFactory.literal(String(Number(q.object.value)), DataFactory.namedNode(XSD_DOUBLE)), q.graph);
}

export const uniqueQuads = (quads: readonly RDF.Quad[]): RDF.Quad[] => new Store([...quads]).getQuads(null, null, null, null);

/** RFC 4180 CSV into rows of strings (the SPARQL CSV format loses term kinds by design). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

/** A TSV term (N-Triples syntax) parsed by n3 as the object of a triple. */
function tsvTerm(text: string): RDF.Term | undefined {
  if (text === '') return undefined;
  const [quad] = new N3Parser({ format: 'N-Triples' }).parse(`<urn:s> <urn:p> ${text} .`);
  if (!quad) throw new Error(`not a TSV term: ${text}`);
  return quad.object;
}

/** SPARQL results (JSON, XML, TSV) as variable names and rows of RDF terms, or a boolean for ASK. */
export async function parseResults(text: string, mediaType: string): Promise<{ vars: string[]; rows: Row[] } | boolean> {
  const type = mediaType.split(';')[0]?.trim();
  if (type === 'application/sparql-results+json' || type === 'application/json') {
    const json = JSON.parse(text) as { head: { vars?: string[] }; boolean?: boolean };
    const parser = new SparqlJsonParser({ prefixVariableQuestionMark: false });
    if (typeof json.boolean === 'boolean') return parser.parseJsonBoolean(json) ?? false;
    return { vars: json.head.vars ?? [], rows: parser.parseJsonResults(json) as Row[] };
  }
  if (type === 'application/sparql-results+xml' || type === 'application/xml') {
    const parser = new SparqlXmlParser({ prefixVariableQuestionMark: false });
    if (text.includes('<boolean>')) return parser.parseXmlBooleanStream(Readable.from([text]));
    const vars: string[] = [];
    const rows: Row[] = [];
    await new Promise<void>((resolve, reject) => {
      parser
        .parseXmlResultsStream(Readable.from([text]))
        .on('variables', (v: RDF.Variable[]) => vars.push(...v.map((x) => x.value)))
        .on('data', (row: Row) => rows.push(row))
        .on('error', reject)
        .on('end', resolve);
    });
    return { vars, rows };
  }
  if (type === 'text/tab-separated-values') {
    const lines = text.replace(/\n$/, '').split('\n');
    const vars = (lines[0] ?? '').split('\t').map((v) => v.replace(/^\?/, ''));
    const rows = lines.slice(1).map((line) => {
      const row: Row = {};
      line.split('\t').forEach((cell, i) => {
        const term = tsvTerm(cell);
        const name = vars[i];
        if (term && name !== undefined) row[name] = term;
      });
      return row;
    });
    return { vars, rows };
  }
  throw new Error(`no results parser for ${mediaType}`);
}

/** SELECT results (throws on a boolean answer). */
export async function parseSelect(text: string, mediaType: string): Promise<{ vars: string[]; rows: Row[] }> {
  const results = await parseResults(text, mediaType);
  if (typeof results === 'boolean') throw new Error('expected SELECT results, got a boolean');
  return results;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTP request exactly as given (no default Content-Type, unlike supertest and fetch). */
export function rawRequest(port: number, method: string, path: string, headers: Record<string, string> = {}, body?: Buffer | string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body !== undefined) req.end(body);
    else req.end();
  });
}
