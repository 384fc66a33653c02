/**
 * The members of a collection page of any kind, fetched with one parameterised query over the page's ids
 * (VALUES) and shaped: stubs straight from the kind's stub CONSTRUCT, full records by the kind's record
 * shaping (Records.finish), so a member is byte for byte the single record. Finished stubs and full records
 * are kept per generation, like the single-record endpoint's cache. The ids come from the collection index,
 * which lists only servable records; the caller checks that the store still serves the index's generation
 * once the page is fetched, and asks again otherwise. A record missing from the answer yields undefined.
 */
import type { ServiceContext } from '../engine/service-context.js';
import type { ResourceKind } from '../engine/kind.js';
import { recordBody, sharedRecords, type Records } from '../records/records.js';
import { RecordCache } from '../records/record-cache.js';
import { parseRecordRows } from '../shaping/record-graph.js';
import { unpackShapedRecords, type ShapedRecord } from '../store/shaped-records.js';

export class CollectionMembers {
  /** Shared with the single-record endpoint: one cache of finished records per kind and app. */
  private readonly records: Records;
  private readonly stubCache: RecordCache<string>;

  constructor(
    private readonly ctx: Pick<ServiceContext, 'store' | 'queries' | 'iris' | 'config'>,
    private readonly kind: Pick<ResourceKind, 'kind' | 'record' | 'page'>,
  ) {
    this.records = sharedRecords(ctx, kind);
    this.stubCache = new RecordCache(ctx.config.recordCacheSize);
  }

  /** Stub JSON texts in the order of `iris`, for generation `generationId`. */
  async stubs(iris: readonly string[], generationId: string): Promise<string[] | undefined> {
    const name = this.kind.page.stubs;
    return this.inOrder(
      iris,
      (iri) => this.stubCache.get(generationId, iri),
      async (missing) => {
        const nquads = await this.ctx.store.query(this.ctx.queries.bound(name, rows(missing)), { format: 'application/n-quads', label: name });
        const made = new Map([...this.kind.page.stubsFromNQuads(nquads)].map(([iri, stub]) => [iri, JSON.stringify(stub)]));
        for (const [iri, body] of made) this.stubCache.set(generationId, iri, body);
        return made;
      },
    );
  }

  /** Full record JSON texts in the order of `iris`, for generation `generationId` (the shared record cache). */
  async fullRecords(iris: readonly string[], generationId: string, view = false): Promise<string[] | undefined> {
    const pidOf = (iri: string): string => this.ctx.iris.pidOf(this.kind.kind, iri) ?? '';
    return this.inOrder(
      iris,
      (iri) => {
        const cached = this.records.cached(generationId, pidOf(iri));
        return cached && recordBody(cached, view);
      },
      async (missing) => {
        // Several smaller queries sent at once: the store answers them in turn (the embedded store on both
        // workers, which shape the records they read) while this thread finishes the records of the answers
        // already in, so the threads' work overlaps.
        const answers = chunks(missing, this.ctx.store.recordsPerQuery ?? PIPELINE_CHUNK).map((part) => this.shapedRecords(part));
        for (const answer of answers) answer.catch(() => undefined);
        const made = new Map<string, string>();
        for (const answer of answers) {
          for (const [iri, shaped] of await answer) made.set(iri, recordBody(this.records.adopt(generationId, pidOf(iri), shaped), view));
        }
        return made;
      },
    );
  }

  /** Documents in the order of `iris`: cached ones from `lookup`, the others made by `make` in one go; undefined if one stays missing. */
  private async inOrder(
    iris: readonly string[],
    lookup: (iri: string) => string | undefined,
    make: (missing: string[]) => Promise<Map<string, string>>,
  ): Promise<string[] | undefined> {
    const bodies = new Map<string, string>();
    const missing: string[] = [];
    for (const iri of iris) {
      const cached = lookup(iri);
      if (cached === undefined) missing.push(iri);
      else bodies.set(iri, cached);
    }
    if (missing.length > 0) for (const [iri, body] of await make(missing)) bodies.set(iri, body);
    const out: string[] = [];
    for (const iri of iris) {
      const body = bodies.get(iri);
      if (body === undefined) return undefined;
      out.push(body);
    }
    return out;
  }

  /**
   * The records of `iris` finished, from one query of their graphs. The rows come as TSV results, the cheapest
   * answer the store writes, whose terms are N-Triples terms: they are read straight into the record graphs
   * that framing walks, with no JSON and no N-Triples text in between, in the store's worker when it shapes
   * records (QueryStore.shapesRecords), else here.
   */
  private async shapedRecords(iris: readonly string[]): Promise<Map<string, ShapedRecord>> {
    const name = this.kind.page.records;
    const query = this.ctx.queries.bound(name, rows(iris));
    const job = this.records.shapingJob(iris);
    if (job) return unpackShapedRecords(await this.ctx.store.query(query, { format: 'text/tab-separated-values', label: name, shape: job }));
    const shaped = new Map<string, ShapedRecord>();
    for (const [iri, graph] of parseRecordRows(await this.ctx.store.query(query, { format: 'text/tab-separated-values', label: name }))) {
      const record = this.records.shapeGraph(graph, iri);
      if (record) shaped.set(iri, record);
    }
    return shaped;
  }
}

const rows = (iris: readonly string[]): { record: string }[] => iris.map((record) => ({ record }));

/**
 * Records per query of a page of full records on a store that names no number of its own (a page of 100 takes
 * four queries, shaped as they come in).
 */
const PIPELINE_CHUNK = 25;

const chunks = <T>(list: readonly T[], size: number): T[][] => Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));
