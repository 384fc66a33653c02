/**
 * The object record: state check, the parameterised CONSTRUCT, framing and shaping. Returns what the
 * handler needs to answer (a document with its validators, a redirect, gone, or not found).
 */
import type { QueryStore } from '../store/types.js';
import type { QueryCatalogue } from '../queries/catalogue.js';
import type { Iris } from '../vocab/iris.js';
import { NS } from '../vocab/namespaces.js';
import { frameRecordGraph } from '../shaping/compiled-frame.js';
import { loadFrame, type JsonObject } from '../shaping/jsonld.js';
import { shapeObject } from '../shaping/object.js';
import { RecordCache } from './record-cache.js';
import { StatusIndex } from './status-index.js';

export interface FinishedRecord {
  body: string;
  etag: string;
  lastModified: Date;
}

export type RecordLookup =
  | { kind: 'found'; record: FinishedRecord }
  | { kind: 'redirect'; state: 'merged' | 'renumbered' | 'withdrawn'; to: string; toPid: string }
  | { kind: 'removed' }
  | { kind: 'notFound' };

const GENERATED_AT = `<${NS.prov}generatedAtTime>`;

/** The harvest time of `iri` as written in its N-Quads (prov:generatedAtTime). */
export function harvestTime(nquads: string, iri: string): Date | undefined {
  const prefix = `<${iri}> ${GENERATED_AT} "`;
  const start = nquads.indexOf(prefix);
  if (start < 0) return undefined;
  const valueStart = start + prefix.length;
  const date = new Date(nquads.slice(valueStart, nquads.indexOf('"', valueStart)));
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** ETag from pid and harvest time, as the real service writes it: `"<pid>-<epoch ms>"`. */
export const recordEtag = (pid: string, harvestedAt: Date): string => `"${pid}-${harvestedAt.getTime()}"`;

export class ObjectRecords {
  private readonly context = loadFrame('object')['@context'] as Record<string, unknown>;
  private readonly cache: RecordCache<FinishedRecord>;

  constructor(
    private readonly store: QueryStore,
    private readonly queries: QueryCatalogue,
    private readonly iris: Iris,
    private readonly statuses: StatusIndex,
    cacheSize: number,
  ) {
    this.cache = new RecordCache(cacheSize);
  }

  /** The record of a validated object number. */
  async lookup(pid: string): Promise<RecordLookup> {
    const iri = this.iris.object(pid);
    const status = await this.statuses.get(iri);
    if (status?.kind === 'redirect') {
      return { kind: 'redirect', state: status.state, to: status.to, toPid: this.iris.pidOf('object', status.to) ?? status.to };
    }
    if (status?.kind === 'removed') return { kind: 'removed' };
    if (status?.kind === 'hidden') return { kind: 'notFound' };

    const generation = this.store.generation?.id ?? '';
    const cached = this.cache.get(generation, pid);
    if (cached) return { kind: 'found', record: cached };

    const record = await this.finish(generation, pid, await this.constructRecord(iri));
    return record ? { kind: 'found', record } : { kind: 'notFound' };
  }

  /** The cached finished record of a pid in a generation, if any. */
  cached(generationId: string, pid: string): FinishedRecord | undefined {
    return this.cache.get(generationId, pid);
  }

  /**
   * Frames and shapes a record graph fetched elsewhere (a collection page) into the finished record and
   * caches it, so the single endpoint and the collection share one cache; undefined without a harvest time.
   */
  async finish(generationId: string, pid: string, nquads: string): Promise<FinishedRecord | undefined> {
    const iri = this.iris.object(pid);
    const harvestedAt = harvestTime(nquads, iri);
    if (!harvestedAt) return undefined;
    const record: FinishedRecord = {
      body: JSON.stringify(await this.shape(nquads, iri)),
      etag: recordEtag(pid, harvestedAt),
      lastModified: harvestedAt,
    };
    this.cache.set(generationId, pid, record);
    return record;
  }

  /** The record's graph as N-Quads (the parameterised CONSTRUCT). */
  async constructRecord(iri: string): Promise<string> {
    const query = this.queries.bind('objects/record', { record: iri, admin: this.iris.adminGraph });
    return this.store.query(query, { format: 'application/n-quads' });
  }

  /**
   * Frame and shape one record graph. Framing is the compiled object frame, which gives exactly what
   * `frameNQuads` (jsonld.js) gives with the object frame (held byte-equal on every demo record by
   * test/unit/compiled-frame.test.ts) at a tenth of the cost.
   */
  async shape(nquads: string, iri: string): Promise<JsonObject> {
    return shapeObject(frameRecordGraph(nquads, iri, this.context));
  }
}

const shared = new WeakMap<QueryStore, ObjectRecords>();

/** The one ObjectRecords (and so the one record cache) of an app, keyed by its REST store. */
export function sharedObjectRecords(ctx: {
  store: QueryStore;
  queries: QueryCatalogue;
  iris: Iris;
  config: { recordCacheSize: number };
}): ObjectRecords {
  let records = shared.get(ctx.store);
  if (!records) {
    records = new ObjectRecords(ctx.store, ctx.queries, ctx.iris, new StatusIndex(ctx.store, ctx.queries, ctx.iris), ctx.config.recordCacheSize);
    shared.set(ctx.store, records);
  }
  return records;
}
