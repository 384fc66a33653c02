/**
 * A generation's two gzip files written record by record (docs/incremental.md).
 *
 * Each file is a series of gzip members, each the text of whole records (about {@link MEMBER_CHARS} characters of it), and
 * the generation's `record-index.jsonl.gz` lists the members: their file, byte offset and length, and the graph
 * name and digest of each record in them. gunzip reads such a file as one stream (RFC 1952, section 2.2), so
 * every reader of a generation's files reads them as before, and the text is the same whatever the members.
 *
 * Given the record index of the generation before (the parent), the writer keeps what did not change: a parent
 * member whose records come again in the same order with the same digests is copied from the parent's file byte
 * for byte, never compressed again. Only the members around a changed record are written anew. A record's digest
 * is the SHA-256 of its file's name and its text; its text depends on the record alone (blank nodes are scoped
 * by their graph: src/harvest/nquads.ts), so a record unchanged in the export has the digest it had.
 *
 * The writer is also the generation's check for such files: every record written anew is parsed line by line
 * before it is compressed (N-Quads syntax, statement count, the graphs it states something in), a kept record
 * was checked so when its parent was written, and the finished file is read back and must hash as the bytes
 * written did. Work in proportion to what changed, but for the read-back (I/O only).
 */
import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readFile, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzip, gzip, gzipSync } from 'node:zlib';
import type { FileCheck } from './generation-check.js';
import { LineSyntaxError, parseQuadLine } from './nquads-line.js';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** The file of a generation folder that lists its gzip members. */
export const RECORD_INDEX_FILE = 'record-index.jsonl.gz';
const INDEX_VERSION = 2;
/**
 * Text per member. Members cost size (each starts without the text before it): files of 64, 128 and 256 KiB
 * members are 14, 7 and 4 % larger than one gzip stream (the 1,000-object demo); and a change costs the rewrite
 * of the members around it (at 1 % of records changed, about 4, 8 and 15 % of the members).
 */
export const MEMBER_CHARS = 1 << 17;
// As the generation's other files: on generated dumps level 3 compresses 4x faster than the default 6.
const GZIP_LEVEL = 3;
/** Members being compressed (in libuv's threads) or copied ahead of the one being written. */
const IN_FLIGHT = 4;

export type Part = 'public' | 'nonPublic';
export const PARTS: readonly Part[] = ['public', 'nonPublic'];

/**
 * One record of a member: its graph's IRI, its digest, its statements, and the shared graphs (graphs that are no
 * record's: the admin graph) it states something in, as a bit set over its part's `shared` list.
 */
export type IndexedRecord = readonly [graph: string, digest: string, quads: number, shared: number];

/** One gzip member of a part's file: where it is, and its records in order. */
export interface Member {
  offset: number;
  length: number;
  records: IndexedRecord[];
}

/** The members of a generation's two files, and for each the graphs several records state something in. */
export interface RecordIndex {
  generationId: string;
  public: Member[];
  nonPublic: Member[];
  shared: Record<Part, string[]>;
}

/** Shared graphs per part: at most this many (a bit each). */
const MAX_SHARED = 30;

/** What a writer is given: one record at a time. */
export interface RecordOutput {
  /**
   * One record: `text` is its graph's statements (and, in the non-public part, the admin graph's statements
   * about it), whole N-Quads lines; `graph` the record graph's IRI.
   */
  record(part: Part, graph: string, text: string, quads: number): Promise<void>;
}

/** How the new generation's records compare with the parent's. */
export interface RecordChanges {
  /** Records the parent did not have. */
  created: number;
  /** Records whose digest differs from the parent's. */
  updated: number;
  /** The parent's records that the new generation does not have. */
  removed: number;
  unchanged: number;
  /** Parent members copied, and their bytes; members written anew, and theirs. */
  copied: { members: number; bytes: number };
  written: { members: number; bytes: number };
}

/** Each record's digest in `index`, by graph. A digest covers the record's part too: equal digests, same part. */
export function recordDigests(index: RecordIndex): Map<string, string> {
  const digests = new Map<string, string>();
  for (const part of PARTS) for (const member of index[part]) for (const [graph, digest] of member.records) digests.set(graph, digest);
  return digests;
}

/** The digest of one record in one part: 128 bits of SHA-256, base64url. */
export function recordDigest(part: Part, text: string): string {
  return createHash('sha256').update(part === 'public' ? 'p\n' : 'n\n').update(text).digest('base64url').slice(0, 22);
}

/** Where a parent's members are read from. */
export interface Parent {
  dir: string;
  files: Record<Part, string>;
  index: RecordIndex;
}

/** The writer of one part's file. */
class PartWriter {
  private offset = 0;
  private readonly members: Member[] = [];

  /** Bytes written so far. */
  get bytes(): number {
    return this.offset;
  }
  /** Text and records of the member being filled. */
  private fresh: string[] = [];
  private freshChars = 0;
  private freshRecords: IndexedRecord[] = [];
  /** A parent member whose first records came again unchanged: their texts, until it is whole or broken. */
  private candidate: { member: Member; texts: string[] } | undefined;
  /** Members on their way to the file, in order: each resolves to its bytes. */
  private readonly queue: Promise<Buffer>[] = [];
  private flushing: Promise<void> = Promise.resolve();
  /** The bytes written, in order. */
  private readonly hash: Hash = createHash('sha256');
  /** Shared graphs named so far, and the bit of each. */
  readonly shared: string[];
  private readonly sharedBits = new Map<string, number>();
  readonly stats = { copied: { members: 0, bytes: 0 }, written: { members: 0, bytes: 0 } };

  constructor(
    private readonly out: FileHandle,
    private readonly name: string,
    /** The parent's members by their first record's graph, and the parent's file. */
    private readonly parent: { byFirst: Map<string, Member>; file: FileHandle; shared: string[] } | undefined,
  ) {
    // The parent's shared graphs keep their bits, so that its records' bit sets mean the same here.
    this.shared = [...(parent?.shared ?? [])];
    this.shared.forEach((graph, bit) => this.sharedBits.set(graph, bit));
  }

  async record(graph: string, text: string, digest: string): Promise<void> {
    const candidate = this.candidate;
    if (candidate !== undefined) {
      const [g, d] = candidate.member.records[candidate.texts.length] as IndexedRecord;
      if (g === graph && d === digest) {
        candidate.texts.push(text);
        if (candidate.texts.length === candidate.member.records.length) await this.copy(candidate.member);
        return;
      }
      // Broken: what matched so far is written anew, then this record is looked at on its own.
      this.release(candidate);
      await this.sealIfFull();
    }
    const start = this.parent?.byFirst.get(graph);
    if (start !== undefined && start.records[0]?.[1] === digest) {
      this.candidate = { member: start, texts: [text] };
      if (start.records.length === 1) await this.copy(start);
      return;
    }
    this.addFresh(graph, text, digest);
    await this.sealIfFull();
  }

  /** The records of a broken candidate go into the member being filled. */
  private release(candidate: { member: Member; texts: string[] }): void {
    this.candidate = undefined;
    candidate.texts.forEach((text, i) => {
      const [graph, digest] = candidate.member.records[i] as IndexedRecord;
      this.addFresh(graph, text, digest);
    });
  }

  /** A record written anew: checked line by line first (the generation's check of what it did not keep). */
  private addFresh(graph: string, text: string, digest: string): void {
    const { quads, shared } = this.check(graph, text);
    this.fresh.push(text);
    this.freshChars += text.length;
    this.freshRecords.push([graph, digest, quads, shared]);
  }

  /** Parses a record's text: its statements, and the bit set of the shared graphs it names. */
  private check(graph: string, text: string): { quads: number; shared: number } {
    const own = `<${graph}>`;
    let quads = 0;
    let shared = 0;
    let at = 0;
    while (at < text.length) {
      let end = text.indexOf('\n', at);
      if (end === -1) end = text.length;
      const line = text.slice(at, end);
      at = end + 1;
      let terms;
      try {
        terms = parseQuadLine(line);
      } catch (err) {
        if (err instanceof LineSyntaxError) throw new Error(`${this.name}: the record <${graph}> has a line that is not N-Quads (${err.message}): ${line}`);
        throw err;
      }
      if (terms === undefined) continue;
      quads += 1;
      const g = terms.graph;
      if (g === own) continue;
      if (g === undefined || g.startsWith('_:')) throw new Error(`${this.name}: the record <${graph}> states something outside a named graph: ${line}`);
      let bit = this.sharedBits.get(g);
      if (bit === undefined) {
        if (this.shared.length === MAX_SHARED) throw new Error(`${this.name}: more than ${MAX_SHARED} graphs are shared by records (the last: ${g})`);
        bit = this.shared.length;
        this.shared.push(g);
        this.sharedBits.set(g, bit);
      }
      shared |= 1 << bit;
    }
    return { quads, shared };
  }

  private async sealIfFull(): Promise<void> {
    if (this.freshChars >= MEMBER_CHARS) await this.seal();
  }

  /** The member being filled goes to the queue, compressed in libuv's threads. */
  private async seal(): Promise<void> {
    if (this.freshRecords.length === 0) return;
    const text = this.fresh.join('');
    const records = this.freshRecords;
    this.fresh = [];
    this.freshChars = 0;
    this.freshRecords = [];
    await this.enqueue(gzipAsync(Buffer.from(text, 'utf8'), { level: GZIP_LEVEL }), records, 'written');
  }

  private async copy(member: Member): Promise<void> {
    this.candidate = undefined;
    await this.seal();
    const file = (this.parent as NonNullable<PartWriter['parent']>).file;
    const bytes = Buffer.allocUnsafe(member.length);
    const read = file.read(bytes, 0, member.length, member.offset).then(({ bytesRead }) => {
      if (bytesRead !== member.length) throw new Error(`the parent generation's file ends inside a member (at byte ${member.offset})`);
      return bytes;
    });
    await this.enqueue(read, member.records, 'copied');
  }

  private async enqueue(bytes: Promise<Buffer>, records: IndexedRecord[], how: 'copied' | 'written'): Promise<void> {
    bytes.catch(() => undefined);
    this.queue.push(bytes);
    // Offsets are known once the bytes are: members are written strictly in order.
    this.flushing = this.flushing.then(async () => {
      const buffer = await (this.queue.shift() as Promise<Buffer>);
      await writeAll(this.out, buffer);
      this.hash.update(buffer);
      this.members.push({ offset: this.offset, length: buffer.length, records });
      this.offset += buffer.length;
      this.stats[how].members += 1;
      this.stats[how].bytes += buffer.length;
    });
    // Seen by finish() (or the next wait here); observed now so that a failure meanwhile is not unhandled.
    this.flushing.catch(() => undefined);
    if (this.queue.length >= IN_FLIGHT) await this.flushing;
  }

  /** Everything written: the part's members in order, and the SHA-256 (hex) of the bytes written. */
  async finish(): Promise<{ members: Member[]; sha256: string; bytes: number }> {
    if (this.candidate !== undefined) this.release(this.candidate);
    await this.seal();
    await this.flushing;
    return { members: this.members, sha256: this.hash.digest('hex'), bytes: this.offset };
  }
}

async function writeAll(out: FileHandle, buffer: Buffer): Promise<void> {
  let at = 0;
  while (at < buffer.length) at += (await out.write(buffer, at, buffer.length - at)).bytesWritten;
}

/** The SHA-256 (hex) of a file's bytes. */
async function sha256Of(file: string, onBytes?: (bytesRead: number) => void): Promise<string> {
  const hash = createHash('sha256');
  let read = 0;
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
    hash.update(chunk as Buffer);
    read += (chunk as Buffer).length;
    onBytes?.(read);
  }
  return hash.digest('hex');
}

/** What a part's file holds, from its record index: as the generation check would have read it. */
function fileCheck(index: RecordIndex, part: Part, written: { sha256: string; bytes: number }): FileCheck {
  const graphs = new Set<string>();
  let quads = 0;
  let sharedBits = 0;
  for (const member of index[part]) {
    for (const [graph, , n, shared] of member.records) {
      graphs.add(`<${graph}>`);
      quads += n;
      sharedBits |= shared;
    }
  }
  index.shared[part].forEach((graph, bit) => {
    if (sharedBits & (1 << bit)) graphs.add(graph);
  });
  return { quads, graphs, sha256: written.sha256, bytes: written.bytes };
}

/**
 * Writes a generation's two files record by record; with a parent, keeps its unchanged members. `finish()`
 * writes the record index beside the files and tells what changed; `close()` releases the files either way.
 */
export class RecordFilesWriter implements RecordOutput {
  private readonly writers: Record<Part, PartWriter>;
  /** Graph → digest of every record written, to compare with the parent's. */
  private readonly digests = new Map<string, string>();
  /** Text not yet handed to the tap, per part. */
  private readonly tapped: Record<Part, string> = { public: '', nonPublic: '' };
  /** The files being written (read back by finish). */
  private readonly files: Record<Part, string>;

  private constructor(
    files: Record<Part, string>,
    private readonly handles: FileHandle[],
    outs: Record<Part, FileHandle>,
    parentFiles: Record<Part, FileHandle> | undefined,
    private readonly parent: RecordIndex | undefined,
    private readonly tap: ((part: Part, text: string) => Promise<void>) | undefined,
  ) {
    this.files = files;
    const byFirst = (members: Member[]): Map<string, Member> => new Map(members.map((m) => [(m.records[0] as IndexedRecord)[0], m]));
    const writer = (part: Part): PartWriter =>
      new PartWriter(outs[part], part === 'public' ? 'the public file' : 'the non-public file', parent && parentFiles && { byFirst: byFirst(parent[part]), file: parentFiles[part], shared: parent.shared[part] });
    this.writers = { public: writer('public'), nonPublic: writer('nonPublic') };
  }

  /**
   * Opens `files` for writing (created or emptied) and, when given, the parent's files for reading. `tap` sees
   * every record's text, kept or not, in the order of the files.
   */
  static async open(files: Record<Part, string>, parent?: Parent, tap?: (part: Part, text: string) => Promise<void>): Promise<RecordFilesWriter> {
    const handles: FileHandle[] = [];
    const opened = async (file: string, flags: string): Promise<FileHandle> => {
      const handle = await open(file, flags);
      handles.push(handle);
      return handle;
    };
    try {
      const outs = { public: await opened(files.public, 'w'), nonPublic: await opened(files.nonPublic, 'w') };
      const parentFiles = parent && { public: await opened(parent.files.public, 'r'), nonPublic: await opened(parent.files.nonPublic, 'r') };
      return new RecordFilesWriter(files, handles, outs, parentFiles, parent?.index, tap);
    } catch (err) {
      await Promise.all(handles.map((h) => h.close()));
      throw err;
    }
  }

  /** `_quads` is the caller's count; the writer counts the statements of what it writes itself. */
  async record(part: Part, graph: string, text: string, _quads: number): Promise<void> {
    if (this.digests.has(graph)) throw new Error(`the record graph <${graph}> was written twice`);
    const digest = recordDigest(part, text);
    this.digests.set(graph, digest);
    if (this.tap !== undefined) {
      // The tap gets text in chunks of about a member's size, as a stream's writer would hand it over.
      this.tapped[part] += text;
      if (this.tapped[part].length >= MEMBER_CHARS) await this.flushTap(part);
    }
    await this.writers[part].record(graph, text, digest);
  }

  /** Hands the text held for the tap over. */
  private async flushTap(part: Part): Promise<void> {
    const text = this.tapped[part];
    this.tapped[part] = '';
    if (text !== '') await this.tap?.(part, text);
  }

  /** Bytes of both files so far. */
  get bytesWritten(): number {
    return this.writers.public.bytes + this.writers.nonPublic.bytes;
  }

  /**
   * Ends both files, reads them back (each must hash as the bytes written did), writes the record index into
   * `dir` (the files' folder) for generation `generationId`, and tells what each file holds and what changed.
   */
  async finish(dir: string, generationId: string, onBytes?: (bytesRead: number) => void): Promise<{ checks: Record<Part, FileCheck>; changes: RecordChanges }> {
    for (const part of PARTS) await this.flushTap(part);
    const [pub, nonPub] = [await this.writers.public.finish(), await this.writers.nonPublic.finish()];
    const written = { public: pub, nonPublic: nonPub };
    let readBefore = 0;
    for (const part of PARTS) {
      const read = await sha256Of(this.files[part], (n) => onBytes?.(readBefore + n));
      if (read !== written[part].sha256) throw new Error(`${part === 'public' ? 'the public file' : 'the non-public file'} reads back other than it was written`);
      readBefore += written[part].bytes;
    }
    const index: RecordIndex = {
      generationId,
      public: pub.members,
      nonPublic: nonPub.members,
      shared: { public: this.writers.public.shared, nonPublic: this.writers.nonPublic.shared },
    };
    await writeRecordIndex(dir, index);
    const checks = { public: fileCheck(index, 'public', written.public), nonPublic: fileCheck(index, 'nonPublic', written.nonPublic) };
    return { checks, changes: this.changes() };
  }

  private changes(): RecordChanges {
    const changes: RecordChanges = {
      created: 0,
      updated: 0,
      removed: 0,
      unchanged: 0,
      copied: { members: 0, bytes: 0 },
      written: { members: 0, bytes: 0 },
    };
    for (const part of PARTS) {
      const { stats } = this.writers[part];
      for (const how of ['copied', 'written'] as const) {
        changes[how].members += stats[how].members;
        changes[how].bytes += stats[how].bytes;
      }
    }
    const before = this.parent === undefined ? new Map<string, string>() : recordDigests(this.parent);
    for (const [graph, digest] of this.digests) {
      const old = before.get(graph);
      if (old === undefined) changes.created += 1;
      else if (old === digest) changes.unchanged += 1;
      else changes.updated += 1;
    }
    for (const graph of before.keys()) if (!this.digests.has(graph)) changes.removed += 1;
    return changes;
  }

  /** Closes every file (after finish, or on failure). */
  async close(): Promise<void> {
    await Promise.all(this.handles.map((h) => h.close().catch(() => undefined)));
  }
}

/** Writes `index` as `record-index.jsonl.gz` in `dir`: a header line, then one line per member. */
export async function writeRecordIndex(dir: string, index: RecordIndex): Promise<void> {
  const lines = [JSON.stringify({ version: INDEX_VERSION, generationId: index.generationId, shared: index.shared })];
  for (const part of PARTS) {
    for (const m of index[part]) lines.push(JSON.stringify([part === 'public' ? 'p' : 'n', m.offset, m.length, m.records.flat()]));
  }
  await writeFile(path.join(dir, RECORD_INDEX_FILE), gzipSync(`${lines.join('\n')}\n`, { level: GZIP_LEVEL }));
}

/**
 * The record index of the generation in `dir`, or undefined when it has none (written before record indexes,
 * or by `load`) or it does not name `generationId`; a damaged index is an error.
 */
export async function readRecordIndex(dir: string, generationId: string): Promise<RecordIndex | undefined> {
  const file = path.join(dir, RECORD_INDEX_FILE);
  const bytes = await readFile(file).catch(() => undefined);
  if (bytes === undefined) return undefined;
  return parseRecordIndex((await gunzipAsync(bytes)).toString('utf8'), file, generationId);
}

/** A record index's text (of `file`); undefined when it is of another version or names another generation. */
export function parseRecordIndex(text: string, file: string, generationId: string): RecordIndex | undefined {
  const index: RecordIndex = { generationId, public: [], nonPublic: [], shared: { public: [], nonPublic: [] } };
  let header = true;
  let n = 0;
  for (const line of text.split('\n')) {
    n += 1;
    if (line === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      throw new Error(`${file}:${n}: not JSON`);
    }
    if (header) {
      header = false;
      const h = json as { version?: unknown; generationId?: unknown; shared?: Record<Part, string[]> };
      if (h.version !== INDEX_VERSION || h.generationId !== generationId) return undefined;
      if (!Array.isArray(h.shared?.public) || !Array.isArray(h.shared?.nonPublic)) throw new Error(`${file}:${n}: no shared graphs`);
      index.shared = h.shared;
      continue;
    }
    if (!Array.isArray(json) || json.length !== 4 || (json[0] !== 'p' && json[0] !== 'n') || !Array.isArray(json[3])) {
      throw new Error(`${file}:${n}: not a member line`);
    }
    const [tag, offset, length, flat] = json as [string, number, number, (string | number)[]];
    const records: IndexedRecord[] = [];
    for (let i = 0; i + 3 < flat.length; i += 4) records.push([flat[i] as string, flat[i + 1] as string, flat[i + 2] as number, flat[i + 3] as number]);
    if (records.length === 0) throw new Error(`${file}:${n}: a member without records`);
    index[tag === 'p' ? 'public' : 'nonPublic'].push({ offset, length, records });
  }
  return header ? undefined : index;
}
