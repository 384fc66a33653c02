/**
 * One page (a TREE node) of an event stream, read into quads and taken apart: the collection it belongs to, the
 * nodes it links (relations and views), and its members, each with its own statements. JSON-LD pages are read
 * with the field's streaming parser (jsonld-streaming-parser) and a document loader that only knows the local
 * copies of contexts (contexts/index.json): no context is ever fetched. Turtle, TriG, N-Triples and N-Quads pages
 * with N3.js.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type * as RDF from '@rdfjs/types';
import { JsonLdParser } from 'jsonld-streaming-parser';
import { DataFactory, Parser } from 'n3';

const TREE = 'https://w3id.org/tree#';
const LDES = 'https://w3id.org/ldes#';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
/** The paths a stream uses when it declares none (Ghent's streams declare none: docs/ldes-harvest.md). */
export const DEFAULT_TIMESTAMP_PATH = 'http://www.w3.org/ns/prov#generatedAtTime';
export const DEFAULT_VERSION_OF_PATH = 'http://purl.org/dc/terms/isVersionOf';

const CONTEXTS_DIR = fileURLToPath(new URL('../../../contexts', import.meta.url));

/** A page that cannot be read: not RDF in a syntax we read, or a remote context without a local copy. */
export class PageSyntaxError extends Error {}

/** The local copies of remote contexts, by URL (contexts/index.json), read once. */
let contexts: Map<string, unknown> | undefined;
function localContexts(): Map<string, unknown> {
  if (!contexts) {
    const index = JSON.parse(readFileSync(path.join(CONTEXTS_DIR, 'index.json'), 'utf8')) as Record<string, string>;
    contexts = new Map(Object.entries(index).map(([url, file]) => [url, JSON.parse(readFileSync(path.join(CONTEXTS_DIR, file), 'utf8')) as unknown]));
  }
  return contexts;
}

const documentLoader = {
  load: async (url: string): Promise<never> => {
    const local = localContexts().get(url);
    if (local === undefined) throw new PageSyntaxError(`the JSON-LD context ${url} has no local copy (contexts/index.json); the harvest never fetches one`);
    return local as never;
  },
};

/** The syntaxes of a page, by media type (without parameters). */
const N3_FORMATS: Readonly<Record<string, string>> = {
  'text/turtle': 'text/turtle',
  'application/trig': 'application/trig',
  'application/n-triples': 'application/n-triples',
  'application/n-quads': 'application/n-quads',
};
/**
 * The syntaxes asked for, fastest to read first: TriG and N-Quads keep the named graphs and read fifty to a
 * hundred times faster than JSON-LD (0.2 s against 4.5 s for a 100-object page); JSON-LD is what Ghent's server
 * answers whatever is asked.
 */
export const PAGE_ACCEPT = 'application/trig, application/n-quads;q=0.95, text/turtle;q=0.9, application/n-triples;q=0.85, application/ld+json;q=0.8, application/json;q=0.5';

/** The quads of a page's body, by its media type; relative IRIs against `url`. */
export async function parsePage(body: string, mediaType: string, url: string): Promise<RDF.Quad[]> {
  const type = mediaType.split(';')[0]?.trim().toLowerCase() ?? '';
  const n3 = N3_FORMATS[type];
  if (n3 !== undefined) {
    try {
      return new Parser({ format: n3, baseIRI: url }).parse(body);
    } catch (err) {
      throw new PageSyntaxError(`not ${type}: ${(err as Error).message}`);
    }
  }
  if (type !== 'application/ld+json' && type !== 'application/json') throw new PageSyntaxError(`a page in ${type || 'no media type'}, which is not an RDF syntax read here`);
  // A page in the streaming document form (JSON-LD 1.1 Streaming: contexts, ids and scoped types before the
  // other entries of a node) is read as it streams; any other is read again with the buffering that reads every
  // document. On a 100-object page of this service's streams the first takes 4.5 s, the second 18 to 52 s
  // (docs/ldes-harvest.md, "Syntaxes"): the buffering grows faster than the page.
  try {
    return await parseJsonLd(body, url, true);
  } catch (err) {
    if (err instanceof PageSyntaxError || !/streamingProfile/.test((err as Error).message)) throw wrapJsonLdError(err);
    return parseJsonLd(body, url, false).catch((again: unknown) => {
      throw wrapJsonLdError(again);
    });
  }
}

function wrapJsonLdError(err: unknown): PageSyntaxError {
  return err instanceof PageSyntaxError ? err : new PageSyntaxError(`not JSON-LD: ${(err as Error).message}`);
}

function parseJsonLd(body: string, url: string, streamingProfile: boolean): Promise<RDF.Quad[]> {
  return new Promise<RDF.Quad[]>((resolve, reject) => {
    const quads: RDF.Quad[] = [];
    // Plain types (no type-scoped context) may come anywhere in a node: this service's pages write a node's
    // type where its statements meet it.
    const parser = new JsonLdParser({ baseIRI: url, documentLoader, streamingProfile, streamingProfileAllowOutOfOrderPlainType: true });
    parser.on('data', (quad: RDF.Quad) => quads.push(wellFormed(quad)));
    parser.on('error', (err: Error) => reject(err));
    parser.on('end', () => resolve(quads));
    parser.end(body);
  });
}

const LANG_STRING = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#langString';

/**
 * A JSON-LD term typed `rdf:langString` that is given a plain string (Ghent's exhibition titles on objects) yields
 * a literal of that datatype without a language, which RDF does not allow and no N-Quads reader takes back: it
 * becomes the plain string it was.
 */
function wellFormed(quad: RDF.Quad): RDF.Quad {
  const o = quad.object;
  if (o.termType !== 'Literal' || o.language !== '' || o.datatype.value !== LANG_STRING) return quad;
  return DataFactory.quad(quad.subject, quad.predicate, DataFactory.literal(o.value), quad.graph);
}

/** A member of a page: its IRI and its statements. */
export interface PageMember {
  id: string;
  quads: RDF.Quad[];
}

/** What a page says about its stream. */
export interface StreamPage {
  /** The collection (the `ldes:EventStream`) the page's members belong to, when it names one. */
  collection?: string;
  /** The stream's paths: declared, or the defaults. */
  timestampPath: string;
  versionOfPath: string;
  /** Nodes the page links: the targets of its relations and the collection's views. */
  links: string[];
  members: PageMember[];
}

/**
 * Takes a page apart. Members are the objects of `<collection> tree:member`. A member's statements are those of
 * its named graph, if any, and every statement reachable from it in the default graph through blank nodes and
 * through IRIs that the page describes, stopping at other members, the collection and the page's nodes (a
 * description bounded by the member, as Ghent's members nest identifiers and events under minted IRIs).
 */
export function readStreamPage(quads: readonly RDF.Quad[], url: string): StreamPage {
  const bySubject = new Map<string, RDF.Quad[]>();
  const byGraph = new Map<string, RDF.Quad[]>();
  for (const q of quads) {
    if (q.graph.termType === 'DefaultGraph') {
      const key = termKey(q.subject);
      const list = bySubject.get(key);
      if (list) list.push(q);
      else bySubject.set(key, [q]);
    } else {
      const list = byGraph.get(q.graph.value);
      if (list) list.push(q);
      else byGraph.set(q.graph.value, [q]);
    }
  }
  const objects = (predicate: string, subject?: string): string[] =>
    quads.filter((q) => q.predicate.value === predicate && (subject === undefined || q.subject.value === subject)).map((q) => q.object.value);

  const memberOf = quads.filter((q) => q.predicate.value === `${TREE}member`);
  const collections = [...new Set(memberOf.map((q) => q.subject.value))];
  const streams = quads.filter((q) => q.predicate.value === RDF_TYPE && (q.object.value === `${LDES}EventStream` || q.object.value === `${TREE}Collection`)).map((q) => q.subject.value);
  const collection = collections[0] ?? streams[0];
  const nodes = new Set<string>([url]);
  for (const q of quads) if (q.predicate.value === `${TREE}view` || q.predicate.value === `${TREE}node`) nodes.add(q.object.value);
  const links = [
    ...objects(`${TREE}view`, collection),
    ...quads.filter((q) => q.predicate.value === `${TREE}node`).map((q) => q.object.value),
  ].filter((link, i, all) => all.indexOf(link) === i && link !== url);

  const memberIds = new Set(memberOf.map((q) => q.object.value));
  const stops = new Set<string>([...memberIds, ...(collection === undefined ? [] : [collection]), ...nodes]);
  const members = [...memberIds].map((id): PageMember => {
    const own: RDF.Quad[] = [...(byGraph.get(id) ?? [])];
    const seen = new Set<string>();
    const visit = (key: string): void => {
      if (seen.has(key)) return;
      seen.add(key);
      for (const q of bySubject.get(key) ?? []) {
        own.push(q);
        const next = termKey(q.object);
        if ((q.object.termType === 'BlankNode' || q.object.termType === 'NamedNode') && !stops.has(q.object.value) && bySubject.has(next)) visit(next);
      }
    };
    visit(`<${id}>`);
    return { id, quads: own };
  });
  const declared = (path: string): string | undefined => (collection === undefined ? undefined : objects(`${LDES}${path}`, collection)[0]);
  return {
    ...(collection === undefined ? {} : { collection }),
    timestampPath: declared('timestampPath') ?? DEFAULT_TIMESTAMP_PATH,
    versionOfPath: declared('versionOfPath') ?? DEFAULT_VERSION_OF_PATH,
    links,
    members,
  };
}

const termKey = (term: RDF.Term): string => (term.termType === 'BlankNode' ? `_:${term.value}` : term.termType === 'NamedNode' ? `<${term.value}>` : '');
