/**
 * The change log as Linked Data Event Streams (LDES on TREE; docs/changes.md, "The event streams"): one
 * `ldes:EventStream` per kind, whose members are versions of its records. Every Create and Update of the log is
 * a version member (`dcterms:isVersionOf` the record, `prov:generatedAtTime` the switch), whose statements are
 * the record's graph as served, in a named graph that the member's IRI names; every Delete is a tombstone
 * (`a as:Delete`). A stream is the kind's changes in log order, cut into pages of `pageSize` positions that
 * never move. Its view is a search tree of two levels: the root links every group of `groupSize` pages, a group
 * links its pages, each with a `tree:GreaterThanOrEqualToRelation` on the time of its first position. A client
 * that comes back reads the root again, skips the groups and pages it knows to be complete, and reads the rest:
 * only what is new (a list of pages linked one to the next would make it read them all again).
 *
 * Retention: the latest version of each record (`ldes:versionAmount 1`). A version that a later block
 * superseded is left out of its page, so a page only ever loses members, never gains or moves one: a copy a
 * client cached is a superset of the page as served now.
 *
 * This module reads the log and says which changes a page holds; the routes (src/endpoints/event-streams.ts) read the
 * records' graphs from the store and write the page.
 */
import { stat } from 'node:fs/promises';
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import type { KindNames, RecordKinds } from '../vocab/record-kinds.js';
import type { Change } from './diff.js';
import { blockAt, servedBlocks } from './feed.js';
import { BlockChangesCache, logDir, readBlockText, type BlockHeader } from './log.js';

/** Members (positions) per page of a stream: a page of full record graphs. */
export const STREAM_PAGE_SIZE = 100;

/** One position of a stream: a change of the log, at the time of its block. */
export interface StreamEntry {
  change: Change;
  /** The block (switch) the change belongs to: the version's number. */
  seq: number;
  /** When its generation became current (ISO 8601): the version's `prov:generatedAtTime`. */
  time: string;
}

/** What page `n` of a kind's stream holds. */
export interface StreamPageEntries {
  /** The retained members of the page, in stream order (superseded versions are left out). */
  entries: StreamEntry[];
  /** Pages of the stream (at least 1). */
  pages: number;
}

interface KindBlock {
  header: BlockHeader;
  /** Indices within the block of the kind's changes, in order. */
  positions: Uint32Array;
}

interface KindStream {
  blocks: KindBlock[];
  /** starts[i]: position in the stream of the first change of blocks[i]. */
  starts: number[];
  total: number;
}

interface Index {
  key: string;
  byKind: Map<string, KindStream>;
  /** The last block (seq) that names each record, over every block but the first: which versions are superseded. */
  lastSeq: Map<string, number>;
}

/** Lines read between two turns of the event loop while a block's kinds are scanned. */
const LINES_PER_TURN = 50_000;

/** Reads the change log of one DATA_DIR as one event stream per kind. */
export class EventStreams {
  private index: Index | undefined;
  private readonly headers = new Map<number, BlockHeader>();
  /** Per block (never rewritten once written): the positions of each kind's changes. */
  private readonly positions = new Map<number, Map<string, Uint32Array>>();
  private readonly changes: BlockChangesCache;

  constructor(
    private readonly dataDir: string,
    private readonly kinds: RecordKinds<KindNames>,
    readonly pageSize: number = STREAM_PAGE_SIZE,
  ) {
    if (!Number.isInteger(pageSize) || pageSize < 1) throw new Error(`page size must be a whole number >= 1, not ${pageSize}`);
    this.changes = new BlockChangesCache(dataDir);
  }

  /** The number of pages of `kind`'s stream (at least 1: an empty stream has one empty page). */
  async pageCount(servedId: string | undefined, kind: string): Promise<number> {
    const stream = (await this.refresh(servedId)).byKind.get(kind);
    return Math.max(1, Math.ceil((stream?.total ?? 0) / this.pageSize));
  }

  /** The retained members of page `n` (1-based) of `kind`'s stream; undefined when there is no such page. */
  async page(servedId: string | undefined, kind: string, n: number): Promise<StreamPageEntries | undefined> {
    const index = await this.refresh(servedId);
    const stream = index.byKind.get(kind) ?? { blocks: [], starts: [], total: 0 };
    const pages = Math.max(1, Math.ceil(stream.total / this.pageSize));
    if (!Number.isInteger(n) || n < 1 || n > pages) return undefined;
    const start = (n - 1) * this.pageSize;
    const end = Math.min(stream.total, start + this.pageSize);
    const entries: StreamEntry[] = [];
    for (let b = blockAt(stream.starts, start); b < stream.blocks.length && (stream.starts[b] as number) < end; b++) {
      const { header, positions } = stream.blocks[b] as KindBlock;
      const changes = await this.changes.get(header);
      const offset = stream.starts[b] as number;
      for (let i = Math.max(0, start - offset); i < positions.length && offset + i < end; i++) {
        const change = changes[positions[i] as number] as Change;
        if ((index.lastSeq.get(change.id) ?? 0) > header.seq) continue;
        entries.push({ change, seq: header.seq, time: header.endTime });
      }
    }
    return { entries, pages };
  }

  /**
   * The time of the first position of every `step`th page from `first` to `last` (1-based, both included, cut
   * to the pages there are): the lower bound of the versions on that page and after it.
   */
  async pageTimes(servedId: string | undefined, kind: string, first: number, last: number, step = 1): Promise<string[]> {
    const stream = (await this.refresh(servedId)).byKind.get(kind);
    if (stream === undefined) return [];
    const pages = Math.ceil(stream.total / this.pageSize);
    const times: string[] = [];
    for (let n = Math.max(1, first); n <= Math.min(last, pages); n += step) times.push(this.timeAt(stream, (n - 1) * this.pageSize) as string);
    return times;
  }

  /** The time of stream position `pos`. */
  private timeAt(stream: KindStream, pos: number): string | undefined {
    return stream.blocks[blockAt(stream.starts, pos)]?.header.endTime;
  }

  /** The served blocks, indexed per kind (once per served generation and log). */
  private async refresh(servedId: string | undefined): Promise<Index> {
    const mtime = await stat(logDir(this.dataDir)).then((s) => s.mtimeMs, () => 0);
    const key = `${servedId ?? ''} ${mtime}`;
    if (this.index?.key === key) return this.index;
    const blocks = await servedBlocks(this.dataDir, servedId, this.headers);
    const byKind = new Map<string, KindStream>(this.kinds.names.map((kind) => [kind, { blocks: [], starts: [], total: 0 }]));
    const lastSeq = new Map<string, number>();
    for (const [i, header] of blocks.entries()) {
      for (const [kind, positions] of await this.blockPositions(header)) {
        const stream = byKind.get(kind);
        if (stream === undefined || positions.length === 0) continue;
        stream.blocks.push({ header, positions });
        stream.starts.push(stream.total);
        stream.total += positions.length;
      }
      // A record named by the first block is superseded only by a later one.
      if (i > 0 && header.count > 0) for (const change of await this.changes.get(header)) lastSeq.set(change.id, header.seq);
    }
    this.index = { key, byKind, lastSeq };
    return this.index;
  }

  /** Where each kind's changes are in a block, read once per block (its lines scanned, not parsed). */
  private async blockPositions(header: BlockHeader): Promise<Map<string, Uint32Array>> {
    const known = this.positions.get(header.seq);
    if (known) return known;
    const lists = new Map<string, number[]>();
    // A small block through the cache of parsed blocks, which the index and the pages read it from next.
    const changes = header.count > LINES_PER_TURN ? undefined : await this.changes.get(header);
    if (changes) {
      changes.forEach((change, i) => listOf(lists, change.kind).push(i));
    } else {
      // A big block (a first harvest): its kinds without a JSON parse of every line, turning the event loop.
      const text = await readBlockText(this.dataDir, header);
      let line = 0;
      for (let start = text.indexOf('\n') + 1; start > 0 && start < text.length && line < header.count; line++) {
        const end = text.indexOf('\n', start);
        const kind = KIND_FIELD.exec(text.slice(start, end < 0 ? undefined : end))?.[1];
        if (kind === undefined) throw new Error(`change log block ${header.seq}, change ${line + 1}: no kind`);
        listOf(lists, kind).push(line);
        start = end < 0 ? text.length : end + 1;
        if ((line + 1) % LINES_PER_TURN === 0) await yieldToEvents();
      }
    }
    const positions = new Map([...lists].map(([kind, list]) => [kind, Uint32Array.from(list)]));
    this.positions.set(header.seq, positions);
    return positions;
  }
}

/** The `kind` field of a change line as JSON.stringify writes it (record IRIs hold no quotation mark). */
const KIND_FIELD = /"kind":"([a-z]+)"/;

const listOf = (lists: Map<string, number[]>, kind: string): number[] => {
  let list = lists.get(kind);
  if (!list) lists.set(kind, (list = []));
  return list;
};
