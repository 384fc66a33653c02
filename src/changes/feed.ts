/**
 * The change log as an IIIF Change Discovery 1.0 stream (Activity Streams 2.0): an OrderedCollection whose
 * pages list the committed changes oldest first, `pageSize` to a page. The log is read from disk and indexed
 * once per served generation; pages read only the blocks they cover.
 */
import { stat } from 'node:fs/promises';
import type { RecordKinds } from '../vocab/record-kinds.js';
import type { Change } from './diff.js';
import { BlockChangesCache, committedBlocks, logDir, readBlockHeaders, readBlockUpdates, type BlockHeader } from './log.js';

export const DISCOVERY_CONTEXT = 'http://iiif.io/api/discovery/1/context.json';
/** The profile of the event streams the collection's `seeAlso` names. */
export const LDES_SPECIFICATION = 'https://w3id.org/ldes/specification';
/** Changes per page (the last page holds the rest). */
export const DEFAULT_PAGE_SIZE = 1000;

/**
 * The feed's `@context`: IIIF Change Discovery's, which neither defines the record classes nor can (they are
 * this service's), then each kind's class under its Linked Art name, so that an expanding client keeps
 * `object.type`, and the terms of the collection's `seeAlso` (its event streams), in the vocabularies DCAT uses.
 * `Activity` here is an exhibition (crm:E7_Activity), as in Linked Art; the feed names no Activity Streams
 * `Activity`.
 */
export type FeedContext = readonly [string, Readonly<Record<string, string | Readonly<Record<string, string>>>>];

/** The terms of `seeAlso`: a link (rdfs:seeAlso) to a dcat:Dataset, its media type and the standard it follows. */
const SEE_ALSO_TERMS = {
  seeAlso: { '@id': 'http://www.w3.org/2000/01/rdf-schema#seeAlso', '@type': '@id' },
  Dataset: 'http://www.w3.org/ns/dcat#Dataset',
  format: 'http://purl.org/dc/terms/format',
  profile: { '@id': 'http://purl.org/dc/terms/conformsTo', '@type': '@id' },
} as const;

export function feedContext(kinds: RecordKinds): FeedContext {
  return [DISCOVERY_CONTEXT, { ...Object.fromEntries(kinds.list.map((k) => [k.class.name, k.class.iri])), ...SEE_ALSO_TERMS }];
}

interface Ref {
  id: string;
  type: string;
}

export interface Activity {
  type: 'Create' | 'Update' | 'Delete';
  object: Ref;
  /** Where a merged, renumbered or withdrawn record now resolves. */
  target?: Ref;
  endTime: string;
}

export interface FeedCollection {
  '@context': FeedContext;
  id: string;
  type: 'OrderedCollection';
  totalItems: number;
  first: Ref;
  last: Ref;
  /** The same changes as an event stream per kind (src/endpoints/event-streams.ts). */
  seeAlso: { id: string; type: 'Dataset'; format: 'application/ld+json'; profile: string }[];
}

export interface FeedPage {
  '@context': FeedContext;
  id: string;
  type: 'OrderedCollectionPage';
  partOf: Ref;
  startIndex: number;
  prev?: Ref;
  next?: Ref;
  orderedItems: Activity[];
}

interface Index {
  key: string;
  blocks: BlockHeader[];
  /** starts[i]: position in the stream of the first change of blocks[i]. */
  starts: number[];
  total: number;
}

/** Reads and pages the change log of one DATA_DIR. */
export class ChangeFeed {
  private index: Index | undefined;
  private readonly headers = new Map<number, BlockHeader>();
  private readonly changes: BlockChangesCache;

  private readonly context: FeedContext;
  /** The deployment's base URL, which the record IRIs of the log begin with. */
  private readonly base: string;

  constructor(
    private readonly dataDir: string,
    /** The URL of the collection, `{base}/v2/changes`. */
    private readonly collectionUrl: string,
    private readonly kinds: RecordKinds,
    readonly pageSize: number = DEFAULT_PAGE_SIZE,
  ) {
    if (!Number.isInteger(pageSize) || pageSize < 1) throw new Error(`page size must be a whole number >= 1, not ${pageSize}`);
    this.changes = new BlockChangesCache(dataDir);
    this.context = feedContext(kinds);
    this.base = collectionUrl.replace(/\/v2\/changes$/, '');
  }

  /**
   * The `type` of a record of `kind`: its class's Linked Art name; Activity Streams' own `Object` for a kind
   * the service no longer serves (the log keeps what it logged).
   */
  private typeOf(kind: string | undefined): string {
    return kind !== undefined && this.kinds.has(kind) ? this.kinds.get(kind).class.name : 'Object';
  }

  /** A logged change as an Activity Streams activity. */
  private activity(change: Change, endTime: string): Activity {
    const object = { id: change.id, type: this.typeOf(change.kind) };
    if (change.type === 'Delete' && change.target !== undefined) {
      return { type: 'Delete', object, target: { id: change.target, type: this.typeOf(this.kinds.kindOfIri(change.target, this.base)) }, endTime };
    }
    return { type: change.type, object, endTime };
  }

  /** The URL of page `n` (1-based). */
  pageUrl(n: number): string {
    return `${this.collectionUrl}/page/${n}`;
  }

  /**
   * The committed blocks up to the last one that ended on `servedId` (a change shows only once the service
   * serves its generation); all committed blocks when the served generation is not in the log.
   */
  private async refresh(servedId: string | undefined): Promise<Index> {
    const mtime = await stat(logDir(this.dataDir)).then((s) => s.mtimeMs, () => 0);
    const key = `${servedId ?? ''} ${mtime}`;
    if (this.index?.key === key) return this.index;
    const blocks = await servedBlocks(this.dataDir, servedId, this.headers);
    const starts: number[] = [];
    let total = 0;
    for (const block of blocks) {
      starts.push(total);
      total += block.count;
    }
    this.index = { key, blocks, starts, total };
    return this.index;
  }

  /** The number of pages (at least 1: an empty stream has one empty page). */
  async pageCount(servedId: string | undefined): Promise<number> {
    const { total } = await this.refresh(servedId);
    return Math.max(1, Math.ceil(total / this.pageSize));
  }

  /** The collection document. */
  async collection(servedId: string | undefined): Promise<FeedCollection> {
    const { total } = await this.refresh(servedId);
    const pages = Math.max(1, Math.ceil(total / this.pageSize));
    return {
      '@context': this.context,
      id: this.collectionUrl,
      type: 'OrderedCollection',
      totalItems: total,
      first: { id: this.pageUrl(1), type: 'OrderedCollectionPage' },
      last: { id: this.pageUrl(pages), type: 'OrderedCollectionPage' },
      seeAlso: this.kinds.list.map((k) => ({ id: `${this.base}/v2/streams/${k.collection}`, type: 'Dataset', format: 'application/ld+json', profile: LDES_SPECIFICATION })),
    };
  }

  /** Page `n` (1-based), or undefined when there is no such page. */
  async page(servedId: string | undefined, n: number): Promise<FeedPage | undefined> {
    const index = await this.refresh(servedId);
    const pages = Math.max(1, Math.ceil(index.total / this.pageSize));
    if (!Number.isInteger(n) || n < 1 || n > pages) return undefined;
    const startIndex = (n - 1) * this.pageSize;
    const end = Math.min(index.total, startIndex + this.pageSize);
    const items: Activity[] = [];
    for (let b = blockAt(index.starts, startIndex); b < index.blocks.length && (index.starts[b] as number) < end; b++) {
      const block = index.blocks[b] as BlockHeader;
      const changes = await this.changes.get(block);
      const offset = index.starts[b] as number;
      for (let i = Math.max(0, startIndex - offset); i < changes.length && offset + i < end; i++) items.push(this.activity(changes[i] as Change, block.endTime));
    }
    return {
      '@context': this.context,
      id: this.pageUrl(n),
      type: 'OrderedCollectionPage',
      partOf: { id: this.collectionUrl, type: 'OrderedCollection' },
      startIndex,
      ...(n > 1 ? { prev: { id: this.pageUrl(n - 1), type: 'OrderedCollectionPage' } } : {}),
      ...(n < pages ? { next: { id: this.pageUrl(n + 1), type: 'OrderedCollectionPage' } } : {}),
      orderedItems: items,
    };
  }
}

/**
 * The committed blocks up to the last one that ended on `servedId` (a change shows only once the service
 * serves its generation); all committed blocks when the served generation is not in the log.
 */
export async function servedBlocks(dataDir: string, servedId: string | undefined, headers: Map<number, BlockHeader>): Promise<BlockHeader[]> {
  const blocks = committedBlocks(await readBlockHeaders(dataDir, headers), servedId);
  const lastServed = blocks.map((b) => b.to).lastIndexOf(servedId ?? '');
  return lastServed >= 0 ? blocks.slice(0, lastServed + 1) : blocks;
}

/**
 * The time of each record's last Update in the change log as served (the blocks up to the served generation,
 * which never change once written), read once per served generation: what a record's Last-Modified follows
 * when its body changed through another record (src/records/records.ts). Only the Update lines are parsed.
 */
export class ChangeTimes {
  private known: { servedId: string; updates: Promise<Map<string, Date>> } | undefined;
  private readonly headers = new Map<number, BlockHeader>();

  constructor(private readonly dataDir: string) {}

  /** When the record `iri` was last updated, as of generation `servedId`; undefined if never. */
  async lastUpdate(servedId: string, iri: string): Promise<Date | undefined> {
    if (this.known?.servedId !== servedId) {
      const updates = this.read(servedId);
      this.known = { servedId, updates };
      // A failed read is tried again by the next request.
      updates.catch(() => {
        if (this.known?.updates === updates) this.known = undefined;
      });
    }
    return (await this.known.updates).get(iri);
  }

  private async read(servedId: string): Promise<Map<string, Date>> {
    const updates = new Map<string, Date>();
    for (const block of await servedBlocks(this.dataDir, servedId, this.headers)) {
      const ids = await readBlockUpdates(this.dataDir, block);
      if (ids.length === 0) continue;
      const at = new Date(block.endTime);
      for (const id of ids) updates.set(id, at);
    }
    return updates;
  }
}

/** The index of the block holding stream position `pos` (binary search over the block starts). */
export function blockAt(starts: readonly number[], pos: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] as number) <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

