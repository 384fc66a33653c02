/**
 * The single record of any kind: state check, the parameterised CONSTRUCT, framing and shaping, and the
 * per-generation cache of finished documents. Returns what the handler needs to answer (a document with its
 * validators, a redirect, gone, or not found). One `Records` per kind and app (`sharedRecords`), so the
 * single endpoint and the collection's full records share one cache.
 */
import type { RecordDeclaration } from './declarations.js';
import { ChangeTimes } from '../changes/feed.js';
import type { QueryStore } from '../store/types.js';
import type { QueryLibrary } from '../queries/library.js';
import type { Iris, RecordKind } from '../vocab/iris.js';
import { frameRecordNodes } from '../shaping/compiled-frame.js';
import { parseGraph, type RecordGraph } from '../shaping/record-graph.js';
import { loadFrame, type JsonObject } from '../shaping/frames.js';
import { RecordCache } from './record-cache.js';
import { shapeRecordGraph, unpackShapedRecords, type RecordShaping, type ShapedRecord, type ShapingJob } from '../store/shaped-records.js';
import { StatusIndex } from './status-index.js';

export interface FinishedRecord {
  /** The record without the declaration's optional view keys. */
  body: string;
  /** The record with them (the `view` parameter set), when it has any; otherwise `body` serves both. */
  viewBody?: string;
  /** Entity tag of `body` (recordEtag). */
  etag: string;
  /** Entity tag of `viewBody`, when there is one. */
  viewEtag?: string;
  /** The record's harvest time (prov:generatedAtTime); Records.lastModified gives the Last-Modified to send. */
  lastModified: Date;
}

/** The body of a finished record for the default form or the view. */
export const recordBody = (record: FinishedRecord, view: boolean): string => (view ? (record.viewBody ?? record.body) : record.body);

/** The entity tag of a finished record's default form or view. */
export const recordBodyEtag = (record: FinishedRecord, view: boolean): string => (view ? (record.viewEtag ?? record.etag) : record.etag);

export type RecordLookup =
  | { kind: 'found'; record: FinishedRecord }
  | { kind: 'redirect'; state: 'merged' | 'renumbered' | 'withdrawn'; to: string; toPid: string }
  | { kind: 'removed' }
  | { kind: 'notFound' };

/**
 * ETag of one representation of a record: pid and harvest time, as the real service writes it
 * (`"<pid>-<epoch ms>"`), then a digest of the representation's bytes, so that the tag changes exactly when the
 * bytes do, also when a change comes from another record (a linked label, a removed object) and the record's
 * own harvest time stays.
 */
export const recordEtag = (pid: string, harvestedAt: Date, digest: string): string => `"${pid}-${harvestedAt.getTime()}-${digest}"`;

/** What a Records needs of its kind. */
export interface RecordsOf {
  readonly kind: RecordKind;
  readonly record: Pick<RecordDeclaration, 'query' | 'frame' | 'shape' | 'shapeExport' | 'view'>;
}

export class Records {
  private readonly shaping: RecordShaping;
  /** The kind's shaping as the store's workers take it (QueryStore.shapesRecords), when it names its module. */
  private readonly workerShaping: Omit<ShapingJob, 'records'> | undefined;
  private readonly cache: RecordCache<FinishedRecord>;

  constructor(
    private readonly of: RecordsOf,
    private readonly store: QueryStore,
    private readonly queries: QueryLibrary,
    private readonly iris: Iris,
    private readonly statuses: StatusIndex,
    cacheSize: number,
    private readonly changeTimes?: ChangeTimes,
  ) {
    const { frame, shape, shapeExport, view } = of.record;
    const viewKeys = view ? { viewKeys: view.keys } : {};
    this.shaping = { context: loadFrame(frame)['@context'] as Record<string, unknown>, shape, ...viewKeys };
    this.workerShaping = shapeExport && { ...shapeExport, frame, ...viewKeys };
    this.cache = new RecordCache(cacheSize);
  }

  /** The record of a validated pid. */
  async lookup(pid: string): Promise<RecordLookup> {
    const iri = this.iris.record(this.of.kind, pid);
    const status = await this.statuses.get(iri);
    if (status?.kind === 'redirect') {
      return { kind: 'redirect', state: status.state, to: status.to, toPid: this.iris.pidOf(this.of.kind, status.to) ?? status.to };
    }
    if (status?.kind === 'removed') return { kind: 'removed' };
    if (status?.kind === 'hidden') return { kind: 'notFound' };

    const generation = this.store.generation?.id ?? '';
    const cached = this.cache.get(generation, pid);
    if (cached) return { kind: 'found', record: cached };

    const shaped = await this.read(iri);
    return shaped ? { kind: 'found', record: this.adopt(generation, pid, shaped) } : { kind: 'notFound' };
  }

  /** The cached finished record of a pid in a generation, if any. */
  cached(generationId: string, pid: string): FinishedRecord | undefined {
    return this.cache.get(generationId, pid);
  }

  /**
   * Frames and shapes a record graph fetched elsewhere (already parsed) into the finished record and caches it,
   * so the single endpoint and the collection share one cache; undefined without a harvest time.
   */
  finish(generationId: string, pid: string, graph: RecordGraph): FinishedRecord | undefined {
    const shaped = this.shapeGraph(graph, this.iris.record(this.of.kind, pid));
    return shaped && this.adopt(generationId, pid, shaped);
  }

  /** The record `iri` of a graph read here, finished on this thread (not cached); undefined without a harvest time. */
  shapeGraph(graph: RecordGraph, iri: string): ShapedRecord | undefined {
    return shapeRecordGraph(graph, iri, this.shaping);
  }

  /** A record shaped elsewhere (a store worker, `finish`) as the finished record, cached. */
  adopt(generationId: string, pid: string, shaped: ShapedRecord): FinishedRecord {
    const lastModified = new Date(shaped.harvestedAt);
    const record: FinishedRecord = {
      body: shaped.body,
      etag: recordEtag(pid, lastModified, shaped.digest),
      ...(shaped.viewBody === undefined ? {} : { viewBody: shaped.viewBody, viewEtag: recordEtag(pid, lastModified, shaped.viewDigest ?? '') }),
      lastModified,
    };
    this.cache.set(generationId, pid, record);
    return record;
  }

  /**
   * The shaping job of `records` while the store's workers shape records where they read them
   * (QueryStore.shapesRecords, asked now); undefined when they are shaped here.
   */
  shapingJob(records: readonly string[]): ShapingJob | undefined {
    return this.workerShaping && this.store.shapesRecords === true ? { ...this.workerShaping, records } : undefined;
  }

  /**
   * The record of `iri` finished, in the store worker that reads it while the workers shape records, else here;
   * undefined when the store has no such record.
   */
  private async read(iri: string): Promise<ShapedRecord | undefined> {
    const job = this.shapingJob([iri]);
    if (!job) return this.shapeGraph(parseGraph(await this.constructRecord(iri)), iri);
    return unpackShapedRecords(await this.store.query(this.boundRecord(iri), { format: 'application/n-triples', shape: job })).get(iri);
  }

  /**
   * The Last-Modified of a found record: its harvest time, or the time of the record's last Update in the change
   * feed when that is later (its body changed through another record while its own harvest time stayed; the
   * feed's Updates are the generations in which its graph, and so its body, changed).
   */
  async lastModified(pid: string, record: FinishedRecord): Promise<Date> {
    const generation = this.store.generation?.id;
    const updated = generation === undefined ? undefined : await this.changeTimes?.lastUpdate(generation, this.iris.record(this.of.kind, pid));
    return updated !== undefined && updated > record.lastModified ? updated : record.lastModified;
  }

  /** The record's graph as N-Quads (the parameterised CONSTRUCT). */
  async constructRecord(iri: string): Promise<string> {
    return this.store.query(this.boundRecord(iri), { format: 'application/n-quads' });
  }

  private boundRecord(iri: string): ReturnType<QueryLibrary['bound']> {
    return this.queries.bound(this.of.record.query, { record: iri, admin: this.iris.adminGraph });
  }

  /**
   * Frame and shape one record graph. Framing is the compiled frame of the kind's context, which gives
   * exactly what `frameNQuads` (jsonld.js) gives with the kind's frame (held byte-equal on every demo record
   * by test/unit/compiled-frame.test.ts) at a tenth of the cost.
   */
  shape(graph: RecordGraph, iri: string): JsonObject {
    return this.of.record.shape(frameRecordNodes(graph, iri, this.shaping.context));
  }
}

const statusIndexes = new WeakMap<QueryStore, StatusIndex>();
const changeTimes = new WeakMap<QueryStore, ChangeTimes>();
const shared = new WeakMap<QueryStore, Map<RecordKind, Records>>();

interface SharedContext {
  store: QueryStore;
  queries: QueryLibrary;
  iris: Iris;
  config: { recordCacheSize: number; dataDir: string };
}

/** The one StatusIndex of an app (one read of the admin graph per generation serves every kind). */
export function sharedStatusIndex(ctx: Omit<SharedContext, 'config'>): StatusIndex {
  let statuses = statusIndexes.get(ctx.store);
  if (!statuses) {
    statuses = new StatusIndex(ctx.store, ctx.queries, ctx.iris);
    statusIndexes.set(ctx.store, statuses);
  }
  return statuses;
}

/** The one ChangeTimes of an app (one read of the change log's Updates per served generation). */
function sharedChangeTimes(ctx: Pick<SharedContext, 'store' | 'config'>): ChangeTimes {
  let times = changeTimes.get(ctx.store);
  if (!times) {
    times = new ChangeTimes(ctx.config.dataDir);
    changeTimes.set(ctx.store, times);
  }
  return times;
}

/** The one Records (and so the one record cache) of a kind in an app, keyed by its REST store. */
export function sharedRecords(ctx: SharedContext, of: RecordsOf): Records {
  let byKind = shared.get(ctx.store);
  if (!byKind) {
    byKind = new Map();
    shared.set(ctx.store, byKind);
  }
  let records = byKind.get(of.kind);
  if (!records) {
    records = new Records(of, ctx.store, ctx.queries, ctx.iris, sharedStatusIndex(ctx), ctx.config.recordCacheSize, sharedChangeTimes(ctx));
    byKind.set(of.kind, records);
  }
  return records;
}
