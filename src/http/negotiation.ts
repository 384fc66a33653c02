/**
 * Content negotiation (RFC 9110 §12.5.1) for records, collections and the SPARQL endpoint. JSON-LD stays the
 * default representation of records and collection pages; a client that prefers Turtle, N-Triples, N-Quads
 * or RDF/XML gets the same CONSTRUCT graph in that syntax. Each representation has its own entity tag (the
 * JSON-LD tag with a suffix), and every negotiated response says `Vary: Accept`.
 */
import type { Request, Response } from 'express';
import { DataFactory, Parser, Writer, type Quad } from 'n3';
import { documentToNQuads, type JsonObject } from '../shaping/jsonld.js';
import { writeRdfXml } from '../rdf/rdf-xml.js';
import { NS } from '../vocab/namespaces.js';
import { BadRequestError } from './errors.js';
import { writerText } from '../rdf/write.js';

/** RDF syntaxes a record or collection page can be sent in besides JSON-LD, with their ETag suffixes. */
export const RDF_SYNTAXES = {
  'text/turtle': { suffix: 'ttl' },
  'application/n-triples': { suffix: 'nt' },
  'application/n-quads': { suffix: 'nq' },
  'application/rdf+xml': { suffix: 'rdf' },
} as const;
export type RdfSyntax = keyof typeof RDF_SYNTAXES;

/**
 * What a record or collection request asked for: the JSON-LD document, its CONSTRUCT graph in an RDF syntax, or
 * (where the route has one) the page for people.
 */
export type Representation = { kind: 'json-ld' } | { kind: 'rdf'; syntax: RdfSyntax } | { kind: 'html' };

const JSON_LD_OFFERS = ['application/ld+json', 'application/json'] as const;
const RDF_OFFERS = Object.keys(RDF_SYNTAXES) as RdfSyntax[];
export const HTML_CONTENT_TYPE = 'text/html; charset=utf-8';

/**
 * Values of the `format` parameter, which names a representation in the URL (a link a person can click, a
 * `Link: rel="alternate"` target) and then wins over Accept.
 */
export const FORMATS: Readonly<Record<string, Representation>> = {
  jsonld: { kind: 'json-ld' },
  ttl: { kind: 'rdf', syntax: 'text/turtle' },
  nt: { kind: 'rdf', syntax: 'application/n-triples' },
  nq: { kind: 'rdf', syntax: 'application/n-quads' },
  rdf: { kind: 'rdf', syntax: 'application/rdf+xml' },
  html: { kind: 'html' },
};

/**
 * The offer the request's Accept header prefers, or undefined when it accepts none of them. Ties, a missing
 * header and `*∕*` go to the earliest offer, so `offers` is also the server's order of preference.
 */
export function negotiate<T extends string>(req: Request, offers: readonly T[]): T | undefined {
  const choice = req.accepts([...offers]);
  return choice === false ? undefined : (choice as T);
}

/**
 * The representation of a record or collection page; JSON-LD unless an RDF syntax is preferred (never 406). With
 * `pages`, a route that has a page for people gives it to a client that prefers `text/html` to every RDF offer
 * (a browser; `*∕*` and no Accept stay JSON-LD), and the `format` parameter, when given, decides (400 for a value
 * it does not know).
 */
export function negotiateRepresentation(req: Request, options: { pages?: boolean } = {}): Representation {
  if (options.pages === true) {
    const format = req.query.format;
    if (format !== undefined) {
      const named = typeof format === 'string' ? FORMATS[format] : undefined;
      if (named === undefined) throw new BadRequestError(`Invalid format. Use one of ${Object.keys(FORMATS).join(', ')}, or send an Accept header.`);
      return named;
    }
  }
  const choice = negotiate<string>(req, [...JSON_LD_OFFERS, ...RDF_OFFERS, ...(options.pages === true ? ['text/html'] : [])]);
  if (choice === 'text/html') return { kind: 'html' };
  return choice !== undefined && choice in RDF_SYNTAXES ? { kind: 'rdf', syntax: choice as RdfSyntax } : { kind: 'json-ld' };
}

/**
 * The entity tag of a representation: the JSON-LD tag as it is, other syntaxes with their suffix inside the
 * quotes (`"1987-1105-1700000000000"` → `"1987-1105-1700000000000.ttl"`), weakness kept.
 */
export function representationEtag(etag: string, representation: Representation): string {
  if (representation.kind === 'json-ld') return etag;
  if (representation.kind === 'html') return etag.replace(/"$/, '.html"');
  const suffix = RDF_SYNTAXES[representation.syntax].suffix;
  return etag.replace(/"$/, `.${suffix}"`);
}

/** Adds Accept to Vary (responses that depend on it must say so to caches). */
export function varyOnAccept(res: Response): void {
  res.vary('Accept');
}

/** Prefixes written in Turtle and RDF/XML output: the namespaces of the stored graph. */
const PREFIXES: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(NS).filter(([name]) => name !== 'admin'));

/**
 * N-Quads (a CONSTRUCT answer: triples in the default graph) in an RDF syntax. N-Quads and N-Triples are
 * written in a canonical line form; Turtle with the namespaces of the stored graph as prefixes.
 */
export async function serialiseNQuads(nquads: string, syntax: RdfSyntax): Promise<string> {
  // The answer's own blank node labels, not a per-parser prefix (N3's default numbers parsers process-wide, so
  // the same answer would be written with other labels, and other bytes, on every request).
  const quads = new Parser({ format: 'application/n-quads', blankNodePrefix: '' }).parse(nquads);
  return serialiseQuads(quads, syntax);
}

/** A JSON-LD document's body in `representation`: its JSON text as it is, or its graph in the RDF syntax asked for. */
export async function documentBody(json: string, representation: Representation): Promise<string> {
  if (representation.kind !== 'rdf') return json;
  return serialiseNQuads(await documentToNQuads(JSON.parse(json) as JsonObject), representation.syntax);
}

/**
 * Quads in an RDF syntax; graph names are dropped except in N-Quads, where `graph` (when given) names the graph of
 * the quads in the default graph: a record's statements are those of its named graph, and say so.
 */
export async function serialiseQuads(quads: readonly Quad[], syntax: RdfSyntax, graph?: string): Promise<string> {
  if (syntax === 'application/rdf+xml') return writeRdfXml(quads, PREFIXES);
  const format = syntax === 'text/turtle' ? 'Turtle' : syntax === 'application/n-triples' ? 'N-Triples' : 'N-Quads';
  const writer = new Writer(format === 'Turtle' ? { format, prefixes: PREFIXES } : { format });
  const named = graph === undefined ? undefined : DataFactory.namedNode(graph);
  for (const quad of quads) {
    if (format !== 'N-Quads') writer.addQuad(quad.subject, quad.predicate, quad.object);
    else if (named !== undefined && quad.graph.termType === 'DefaultGraph') writer.addQuad(quad.subject, quad.predicate, quad.object, named);
    else writer.addQuad(quad);
  }
  return writerText(writer);
}

/** The Content-Type header of an RDF syntax (every syntax here is UTF-8). */
export function rdfContentType(syntax: RdfSyntax | 'application/ld+json'): string {
  return `${syntax}; charset=utf-8`;
}
