/**
 * `/id/private-objects` (spec, Deprecated v1 interface and Authentication): every published object, public and
 * private, behind an API key; the only path that serves a private object. The list of a generation is the
 * objects collection index's records and the private, healthy, current objects that the record statuses name
 * (the same admin-graph query the single-record endpoints read), in object-number order. Public members come
 * from the shared record cache; private ones are framed by a Records of their own, so a private record never
 * enters the cache the public paths read.
 */
import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../engine/app-context.js';
import { compareCodePoints } from '../collection-index/record-table.js';
import { OBJECTS } from '../kinds/index.js';
import { Records, sharedStatusIndex } from '../records/records.js';
import { parseSelectJson } from '../records/sparql-json.js';
import { STATUS_QUERY } from '../records/status-index.js';
import { parseRecordRows } from '../shaping/record-graph.js';
import type { JsonObject } from '../shaping/jsonld.js';
import { v1Collection } from './envelope.js';
import { V1_OBJECTS } from './kinds.js';
import type { KindPages } from './pages.js';
import { parsePaging } from './params.js';
import { sendJsonLd } from './send.js';
import type { V1Links } from './shaping/links.js';

const ATTEMPTS = 3;
const PAGE_RECORDS = OBJECTS.page.records;

interface Listing {
  generationId: string;
  /** Every published object IRI, public and private, in object-number order. */
  iris: readonly string[];
  privateIris: ReadonlySet<string>;
}

/** The objects of the private stream, per generation, and their records. */
export class PrivateObjects {
  private listing: Listing | undefined;
  private readonly privateRecords: Records;

  constructor(
    private readonly ctx: AppContext,
    private readonly objects: KindPages,
  ) {
    this.privateRecords = new Records(OBJECTS, ctx.store, ctx.queries, ctx.iris, sharedStatusIndex(ctx), ctx.config.recordCacheSize);
  }

  /** The listing of the generation the objects index is built for. */
  async current(): Promise<Listing> {
    const index = await this.objects.indexes.forRequest();
    if (this.listing?.generationId === index.generationId) return this.listing;
    const query = this.ctx.queries.bound(STATUS_QUERY, { admin: this.ctx.iris.adminGraph });
    const rows = parseSelectJson(await this.ctx.store.query(query, { format: 'application/sparql-results+json', label: STATUS_QUERY }));
    const privateIris = new Set(
      rows
        .filter((row) => row.private === 'true' && row.healthy !== 'false' && (row.state ?? 'current') === 'current')
        .map((row) => row.record ?? '')
        .filter((iri) => this.ctx.iris.pidOf('object', iri) !== undefined),
    );
    const pidOf = (iri: string): string => this.ctx.iris.pidOf('object', iri) ?? iri;
    const iris = [...index.table.iris, ...privateIris].sort((a, b) => compareCodePoints(pidOf(a), pidOf(b)));
    const listing = { generationId: index.generationId, iris, privateIris };
    if (this.ctx.store.generation?.id === index.generationId) this.listing = listing;
    return listing;
  }

  /** The total and the page's v2 records (with their colour view). */
  async page(offset: number, limit: number): Promise<{ total: number; records: JsonObject[] }> {
    for (let attempt = 1; ; attempt++) {
      const listing = await this.current();
      const iris = listing.iris.slice(offset, offset + limit);
      const records = await this.records(iris, listing);
      if (records !== undefined) return { total: listing.iris.length, records };
      if (attempt >= ATTEMPTS) throw new Error('the page changed generation on every attempt');
    }
  }

  private async records(iris: readonly string[], listing: Listing): Promise<JsonObject[] | undefined> {
    const { generationId } = listing;
    const publicRecords = await this.objects.records(
      iris.filter((iri) => !listing.privateIris.has(iri)),
      generationId,
      true,
    );
    if (publicRecords === undefined) return undefined;
    const privateIris = iris.filter((iri) => listing.privateIris.has(iri));
    const made = new Map<string, JsonObject>();
    if (privateIris.length > 0) {
      // Private objects' graphs are in the generation's non-public part (QueryOptions.nonPublic).
      const graphs = parseRecordRows(
        await this.ctx.store.query(this.ctx.queries.bound(PAGE_RECORDS, privateIris.map((record) => ({ record }))), { format: 'text/tab-separated-values', label: PAGE_RECORDS, nonPublic: true }),
      );
      for (const [iri, graph] of graphs) {
        const record = this.privateRecords.finish(generationId, this.ctx.iris.pidOf('object', iri) ?? '', graph);
        if (record) made.set(iri, JSON.parse(record.viewBody ?? record.body) as JsonObject);
      }
    }
    if (this.ctx.store.generation?.id !== generationId) return undefined;
    let next = 0;
    const out: JsonObject[] = [];
    for (const iri of iris) {
      const record = listing.privateIris.has(iri) ? made.get(iri) : publicRecords[next++];
      if (record === undefined) return undefined;
      out.push(record);
    }
    return out;
  }
}

/** The route of the private stream (mounted under /v1, behind requireApiKey). */
export function privateObjectRoutes(stream: PrivateObjects, links: V1Links): Router {
  const router = Router();
  router.get('/id/private-objects', async (req: Request, res: Response) => {
    const paging = parsePaging(req.query);
    const page = await stream.page((paging.pageNumber - 1) * paging.itemsPerPage, paging.itemsPerPage);
    const envelope = { ...paging, collection: links.url('/id/private-objects'), total: page.total, params: [] };
    sendJsonLd(res, v1Collection(envelope, page.records.map((record) => V1_OBJECTS.full(links, record, true))));
  });
  return router;
}
