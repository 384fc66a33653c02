/**
 * GET /v2/streams/{collection} (the kind's `ldes:EventStream`), its view `…/view` (the root of the search tree),
 * its groups `…/groups/{g}` and its pages `…/pages/{n}`, mounted inside /v2 after the readiness gate, like the
 * change feed they are made of (stream.ts).
 *
 * A page is written from its members: a version member's statements are the record's graph as the store serves
 * it (the kind's page query, one query for the page), in a named graph that the member's IRI names. JSON-LD is
 * the default; TriG and N-Quads keep the named graphs too; Turtle and N-Triples carry the same statements in one
 * graph (a client that extracts members by their named graph should ask for one of the first three).
 *
 * Caching as the change feed's: every page but the last is complete (`immutable`, a year), and so is every
 * group whose last page is; the stream, the view, the last group and the last page are revalidated on every use. Retention may drop a superseded version from a complete page; its
 * tag then changes, and a copy cached before holds a superset of it.
 */
import { createHash } from 'node:crypto';
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import { Router, type Request, type Response } from 'express';
import { JsonLdSerializer } from 'jsonld-streaming-serializer';
import { DataFactory, Writer, type Quad, type Quad_Object, type Quad_Subject } from 'n3';
import type { AppContext } from '../engine/app-context.js';
import { sendAnswer } from '../http/answer.js';
import { NotFoundError, ServiceUnavailableError } from '../http/errors.js';
import { negotiate, varyOnAccept } from '../http/negotiation.js';
import { parseRecordRows, RDF_TYPE, type RecordGraph, type Value } from '../shaping/record-graph.js';
import { NS } from '../vocab/namespaces.js';
import { EventStreams, STREAM_PAGE_SIZE, type StreamEntry } from '../changes/stream.js';
import { IMMUTABLE_CACHE_CONTROL, pageNumber, REVALIDATE_CACHE_CONTROL } from './change-feed.js';
import { writerText } from '../rdf/write.js';

export const TREE = 'https://w3id.org/tree#';
export const LDES = 'https://w3id.org/ldes#';
export const PROV = 'http://www.w3.org/ns/prov#';
export const DCTERMS = 'http://purl.org/dc/terms/';
export const AS = 'https://www.w3.org/ns/activitystreams#';
const XSD = 'http://www.w3.org/2001/XMLSchema#';

/** The stream's paths: when a member was made, and of which record it is a version. */
export const TIMESTAMP_PATH = `${PROV}generatedAtTime`;
export const VERSION_OF_PATH = `${DCTERMS}isVersionOf`;
/** The type of a tombstone (a Delete of the log). */
export const DELETE_TYPE = `${AS}Delete`;

/** Syntaxes of a stream document, JSON-LD first (the default). */
const STREAM_OFFERS = ['application/ld+json', 'application/trig', 'application/n-quads', 'text/turtle', 'application/n-triples', 'application/json'] as const;
type StreamSyntax = (typeof STREAM_OFFERS)[number];

/** Prefixes of the written documents: the stream vocabularies, then the stored graph's namespaces. */
const PREFIXES: Readonly<Record<string, string>> = {
  tree: TREE,
  ldes: LDES,
  prov: PROV,
  dcterms: DCTERMS,
  as: AS,
  xsd: XSD,
  ...Object.fromEntries(Object.entries(NS).filter(([name]) => name !== 'admin' && name !== 'owl')),
};

const { namedNode, literal, blankNode, quad, defaultGraph } = DataFactory;
const type = namedNode(RDF_TYPE);

export interface StreamRouteOptions {
  /** Positions per page; STREAM_PAGE_SIZE unless given (tests use small pages). */
  pageSize?: number;
  /** Pages per group of the view; STREAM_GROUP_SIZE unless given. */
  groupSize?: number;
}

/** Pages per group: the view's root has one relation per group (a hundred at a million records), a group one per page. */
export const STREAM_GROUP_SIZE = 100;

/** The URL of `collection`'s event stream. */
export const streamUrl = (base: string, collection: string): string => `${base}/v2/streams/${collection}`;

/** The event stream routes; mount inside /v2. */
export function streamRoutes(ctx: Pick<AppContext, 'config' | 'store' | 'queries' | 'iris' | 'kinds'>, options: StreamRouteOptions = {}): Router {
  const streams = new EventStreams(ctx.config.dataDir, ctx.kinds, options.pageSize ?? STREAM_PAGE_SIZE);
  const base = ctx.config.baseUrl;
  const groupSize = options.groupSize ?? STREAM_GROUP_SIZE;
  if (!Number.isInteger(groupSize) || groupSize < 1) throw new Error(`group size must be a whole number >= 1, not ${groupSize}`);
  const served = (): string | undefined => ctx.store.generation?.id;

  const kindOf = (req: Request): { kind: string; collection: string; stream: string; records: string } => {
    const found = ctx.kinds.ofCollection(String(req.params.collection));
    if (found === undefined) throw new NotFoundError('No such event stream');
    return { kind: found.kind, collection: found.collection, stream: streamUrl(base, found.collection), records: found.page.records };
  };

  const send = async (req: Request, res: Response, quads: Quad[], immutable: boolean): Promise<void> => {
    varyOnAccept(res);
    const syntax: StreamSyntax = negotiate(req, STREAM_OFFERS) ?? 'application/ld+json';
    const body = await writeQuads(quads, syntax);
    await sendAnswer(req, res, {
      validators: { etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` },
      cacheControl: immutable ? IMMUTABLE_CACHE_CONTROL : REVALIDATE_CACHE_CONTROL,
      contentType: `${syntax === 'application/json' ? 'application/ld+json' : syntax}; charset=utf-8`,
      body,
    });
  };

  /**
   * The record graphs of a page's versions, from the kind's page query: one query on a store that names no
   * number of records per query, else queries of that many sent at once (the remote store answers 25 at a time).
   */
  const recordGraphs = async (records: string, entries: readonly StreamEntry[]): Promise<Map<string, RecordGraph>> => {
    const iris = entries.filter((e) => e.change.type !== 'Delete').map((e) => ({ record: e.change.id }));
    const size = ctx.store.recordsPerQuery ?? iris.length;
    const parts = Array.from({ length: Math.ceil(iris.length / size) }, (_, i) => iris.slice(i * size, (i + 1) * size));
    const answers = await Promise.all(parts.map((part) => ctx.store.query(ctx.queries.bound(records, part), { format: 'text/tab-separated-values', label: records })));
    return new Map(answers.flatMap((tsv) => [...parseRecordRows(tsv)]));
  };

  /** Relations from `node` to each target, by the time of the target's first version (a lower bound of all under it). */
  const relations = (node: string, targets: readonly { url: string; time: string }[]): Quad[] =>
    targets.flatMap(({ url, time }, i) => {
      const relation = blankNode(`r${i}`);
      return [
        quad(namedNode(node), namedNode(`${TREE}relation`), relation),
        quad(relation, type, namedNode(`${TREE}GreaterThanOrEqualToRelation`)),
        quad(relation, namedNode(`${TREE}path`), namedNode(TIMESTAMP_PATH)),
        quad(relation, namedNode(`${TREE}value`), literal(time, namedNode(`${XSD}dateTime`))),
        quad(relation, namedNode(`${TREE}node`), namedNode(url)),
      ];
    });
  const nodeQuads = (stream: string, node: string): Quad[] => [
    quad(namedNode(node), type, namedNode(`${TREE}Node`)),
    quad(namedNode(node), namedNode(`${DCTERMS}isPartOf`), namedNode(stream)),
  ];

  const router = Router();
  router.get('/streams/:collection', async (req, res) => {
    const { kind, stream } = kindOf(req);
    await send(req, res, describeStream(stream, kind), false);
  });
  // The view: the root of the search tree, one relation per group of pages; never complete.
  router.get('/streams/:collection/view', async (req, res) => {
    const { kind, stream } = kindOf(req);
    const generation = served();
    const pages = await streams.pageCount(generation, kind);
    // The time of each group's first page.
    const firsts = await streams.pageTimes(generation, kind, 1, pages, groupSize);
    const groups = firsts.map((time, i) => ({ url: `${stream}/groups/${i + 1}`, time }));
    const view = viewUrl(stream);
    await send(req, res, [...describeStream(stream, kind), ...nodeQuads(stream, view), ...retention(stream, view), ...relations(view, groups)], false);
  });
  // A group: one relation per page; complete once its last page is.
  router.get('/streams/:collection/groups/:g', async (req, res) => {
    const { kind, stream } = kindOf(req);
    const g = pageNumber(req.params.g);
    const generation = served();
    const pages = await streams.pageCount(generation, kind);
    const first = (g - 1) * groupSize + 1;
    if (Number.isNaN(g) || first > pages) throw new NotFoundError('No such group of pages of this event stream');
    const last = first + groupSize - 1;
    const times = await streams.pageTimes(generation, kind, first, last);
    const node = `${stream}/groups/${g}`;
    const targets = times.map((time, i) => ({ url: `${stream}/pages/${first + i}`, time }));
    await send(req, res, [...describeStream(stream, kind), ...nodeQuads(stream, node), ...relations(node, targets)], last < pages);
  });
  router.get('/streams/:collection/pages/:n', async (req, res) => {
    const { kind, stream, records } = kindOf(req);
    const n = pageNumber(req.params.n);
    const generation = served();
    const page = Number.isNaN(n) ? undefined : await streams.page(generation, kind, n);
    if (page === undefined) throw new NotFoundError('No such page of this event stream');
    const graphs = await recordGraphs(records, page.entries);
    // The graphs must be those of the generation the page was cut from (a switch in between: ask again).
    if (served() !== generation) throw new ServiceUnavailableError(1, 'A new generation was being served while this page was read. Please retry.');
    const pageUrl = `${stream}/pages/${n}`;
    const quads = [...describeStream(stream, kind), ...nodeQuads(stream, pageUrl)];
    page.entries.forEach((entry, i) => {
      const member = versionIri(stream, entry, ctx.iris.pidOf(kind, entry.change.id) ?? '');
      quads.push(...memberQuads(stream, member, entry, graphs.get(entry.change.id), `m${i}_`));
    });
    await send(req, res, quads, n < page.pages);
  });
  return router;
}

/** The IRI of a version member: the stream, the block's number, the record's pid. */
export const versionIri = (stream: string, entry: StreamEntry, pid: string): string => `${stream}/versions/${entry.seq}/${encodeURIComponent(pid)}`;

/** The URL of a stream's view (the root of its search tree). */
const viewUrl = (stream: string): string => `${stream}/view`;

/** The `ldes:EventStream` of a kind: its paths, its tombstones' type and its view. */
function describeStream(stream: string, kind: string): Quad[] {
  const s = namedNode(stream);
  return [
    quad(s, type, namedNode(`${LDES}EventStream`)),
    quad(s, namedNode(`${DCTERMS}title`), literal(`Changes to the ${kind} records: a version of a record for each creation and update, a tombstone for each deletion`, 'en')),
    quad(s, namedNode(`${LDES}timestampPath`), namedNode(TIMESTAMP_PATH)),
    quad(s, namedNode(`${LDES}versionOfPath`), namedNode(VERSION_OF_PATH)),
    quad(s, namedNode(`${LDES}versionDeletePath`), type),
    quad(s, namedNode(`${LDES}versionDeleteObject`), namedNode(DELETE_TYPE)),
    quad(s, namedNode(`${TREE}view`), namedNode(viewUrl(stream))),
  ];
}

/** The view's retention policy: the latest version of each record, in LDES 1.0's form and the earlier one (which the TREE community's client knows). */
function retention(stream: string, view: string): Quad[] {
  const policy = namedNode(`${stream}#retention`);
  return [
    quad(namedNode(view), namedNode(`${LDES}retentionPolicy`), policy),
    quad(policy, type, namedNode(`${LDES}RetentionPolicy`)),
    quad(policy, namedNode(`${LDES}versionAmount`), literal('1', namedNode(`${XSD}integer`))),
    quad(policy, type, namedNode(`${LDES}LatestVersionSubset`)),
    quad(policy, namedNode(`${LDES}amount`), literal('1', namedNode(`${XSD}integer`))),
  ];
}

/** A member's statements: `tree:member`, its version paths, and the record's graph in its own named graph (or the tombstone). */
function memberQuads(stream: string, member: string, entry: StreamEntry, graph: RecordGraph | undefined, blankPrefix: string): Quad[] {
  const m = namedNode(member);
  const { change } = entry;
  const quads = [
    quad(namedNode(stream), namedNode(`${TREE}member`), m),
    quad(m, namedNode(VERSION_OF_PATH), namedNode(change.id)),
    quad(m, namedNode(TIMESTAMP_PATH), literal(entry.time, namedNode(`${XSD}dateTime`))),
  ];
  if (change.type === 'Delete') {
    quads.push(quad(m, type, namedNode(DELETE_TYPE)));
    if (change.target !== undefined) quads.push(quad(m, namedNode(`${DCTERMS}isReplacedBy`), namedNode(change.target)));
    return quads;
  }
  if (graph === undefined) throw new Error(`the store has no graph for ${change.id}, which the change log says is served`);
  const g = namedNode(member);
  const node = (id: string): Quad_Subject => (id.startsWith('_:') ? blankNode(`${blankPrefix}${id.slice(2)}`) : namedNode(id));
  const value = (v: Value): Quad_Object =>
    typeof v === 'string' ? node(v) : literal(v.value, v.language ?? (v.datatype === undefined ? undefined : namedNode(v.datatype)));
  for (const [subject, { types, properties }] of graph) {
    const s = node(subject);
    for (const t of types) quads.push(quad(s, type, namedNode(t), g));
    for (const [predicate, values] of properties) for (const v of values) quads.push(quad(s, namedNode(predicate), value(v), g));
  }
  return quads;
}

/**
 * Quads written between two turns of the event loop: a page of 100 objects is about 22,000 quads, some 200 ms of
 * writing, which must not hold every other request up.
 */
const QUADS_PER_TURN = 2000;

/** Quads in a stream document's syntax. */
async function writeQuads(quads: readonly Quad[], syntax: StreamSyntax): Promise<string> {
  if (syntax === 'application/ld+json' || syntax === 'application/json') return writeJsonLd(quads);
  const format = { 'application/trig': 'TriG', 'application/n-quads': 'N-Quads', 'text/turtle': 'Turtle', 'application/n-triples': 'N-Triples' }[syntax];
  const keepsGraphs = format === 'TriG' || format === 'N-Quads';
  const writer = new Writer(format === 'TriG' || format === 'Turtle' ? { format, prefixes: PREFIXES } : { format });
  for (const [i, q] of quads.entries()) {
    writer.addQuad(q.subject, q.predicate, q.object, keepsGraphs ? q.graph : defaultGraph());
    if (i % QUADS_PER_TURN === QUADS_PER_TURN - 1) await yieldToEvents();
  }
  return writerText(writer);
}

/** Quads as JSON-LD with the prefixes as context (jsonld-streaming-serializer: no remote context, no network). */
async function writeJsonLd(quads: readonly Quad[]): Promise<string> {
  const serializer = new JsonLdSerializer({ context: PREFIXES, space: '' });
  const chunks: string[] = [];
  serializer.on('data', (chunk: string | Buffer) => chunks.push(String(chunk)));
  const done = new Promise<void>((resolve, reject) => {
    serializer.on('end', resolve);
    serializer.on('error', reject);
  });
  // Grouped by graph, then subject: the serializer writes each node (and each named graph) once.
  const byGraph = [...quads].sort((a, b) => (a.graph.value < b.graph.value ? -1 : a.graph.value > b.graph.value ? 1 : 0));
  for (const [i, q] of byGraph.entries()) {
    serializer.write(q);
    if (i % QUADS_PER_TURN === QUADS_PER_TURN - 1) await yieldToEvents();
  }
  serializer.end();
  await done;
  return chunks.join('');
}
