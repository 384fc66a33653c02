/**
 * The single record of any kind: state check, the parameterised CONSTRUCT, framing and shaping, and the
 * per-generation cache of finished documents. Returns what the handler needs to answer (a document with its
 * validators, a redirect, gone, or not found). One `Records` per kind and app (`sharedRecords`), so the
 * single endpoint and the collection's full records share one cache.
 */
import { createHash } from 'node:crypto';
import type { RecordDeclaration } from '../engine/kind.js';
import { ChangeTimes } from '../changes/feed.js';
import type { QueryStore } from '../store/types.js';
import type { QueryLibrary } from '../queries/library.js';
import type { Iris, RecordKind } from '../vocab/iris.js';
import { NS } from '../vocab/namespaces.js';
import { frameRecordNodes } from '../shaping/compiled-frame.js';
import { literalOf, parseGraph, type RecordGraph } from '../shaping/record-graph.js';
import { loadFrame, type JsonObject } from '../shaping/jsonld.js';
import { RecordCache } from './record-cache.js';
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

/** Removes the view's keys from a shaped record; the JSON with them when there were any. */
function splitView(shaped: JsonObject, keys: readonly string[] | undefined): { body: string; viewBody?: string } {
  if (keys === undefined || !keys.some((key) => key in shaped)) return { body: JSON.stringify(shaped) };
  const viewBody = JSON.stringify(shaped);
  const without: JsonObject = {};
  for (const [key, value] of Object.entries(shaped)) if (!keys.includes(key)) without[key] = value;
  return { body: JSON.stringify(without), viewBody };
}

export type RecordLookup =
  | { kind: 'found'; record: FinishedRecord }
  | { kind: 'redirect'; state: 'merged' | 'renumbered' | 'withdrawn'; to: string; toPid: string }
  | { kind: 'removed' }
  | { kind: 'notFound' };

const GENERATED_AT = `${NS.prov}generatedAtTime`;

/** The harvest time of `iri` (its prov:generatedAtTime) in its parsed graph. */
export function harvestTime(graph: RecordGraph, iri: string): Date | undefined {
  const value = literalOf(graph, iri, GENERATED_AT);
  const date = value === undefined ? undefined : new Date(value);
  return date && !Number.isNaN(date.getTime()) ? date : undefined;
}

/** Digest of a body (base64url, 16 characters: 96 bits). */
export const bodyDigest = (body: string): string => createHash('sha256').update(body, 'utf8').digest('base64url').slice(0, 16);

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
  readonly record: Pick<RecordDeclaration, 'query' | 'frame' | 'shape' | 'view'>;
}

export class Records {
  private readonly context: Record<string, unknown>;
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
    this.context = loadFrame(of.record.frame)['@context'] as Record<string, unknown>;
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

    const record = this.finish(generation, pid, parseGraph(await this.constructRecord(iri)));
    return record ? { kind: 'found', record } : { kind: 'notFound' };
  }

  /** The cached finished record of a pid in a generation, if any. */
  cached(generationId: string, pid: string): FinishedRecord | undefined {
    return this.cache.get(generationId, pid);
  }

  /**
   * Frames and shapes a record graph fetched elsewhere (a collection page, already parsed) into the finished
   * record and caches it, so the single endpoint and the collection share one cache; undefined without a
   * harvest time.
   */
  finish(generationId: string, pid: string, graph: RecordGraph): FinishedRecord | undefined {
    const iri = this.iris.record(this.of.kind, pid);
    const harvestedAt = harvestTime(graph, iri);
    if (!harvestedAt) return undefined;
    const { body, viewBody } = splitView(this.shape(graph, iri), this.of.record.view?.keys);
    const record: FinishedRecord = {
      body,
      etag: recordEtag(pid, harvestedAt, bodyDigest(body)),
      ...(viewBody === undefined ? {} : { viewBody, viewEtag: recordEtag(pid, harvestedAt, bodyDigest(viewBody)) }),
      lastModified: harvestedAt,
    };
    this.cache.set(generationId, pid, record);
    return record;
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
    const query = this.queries.bound(this.of.record.query, { record: iri, admin: this.iris.adminGraph });
    return this.store.query(query, { format: 'application/n-quads' });
  }

  /**
   * Frame and shape one record graph. Framing is the compiled frame of the kind's context, which gives
   * exactly what `frameNQuads` (jsonld.js) gives with the kind's frame (held byte-equal on every demo record
   * by test/unit/compiled-frame.test.ts) at a tenth of the cost.
   */
  shape(graph: RecordGraph, iri: string): JsonObject {
    return this.of.record.shape(frameRecordNodes(graph, iri, this.context));
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
