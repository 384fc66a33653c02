/**
 * A generation's two gzip files written record by record (docs/incremental.md).
 *
 * Each file is a series of gzip members, each the text of whole records (about {@link MEMBER_CHARS} of it), and
 * the generation's `record-index.jsonl.gz` lists the members: their file, byte offset and length, and the graph
 * name and digest of each record in them. gunzip reads such a file as one stream (RFC 1952, section 2.2), so
 * every reader of a generation's files reads them as before, and the text is the same whatever the members.
 *
 * Given the record index of the generation before (the parent), the writer keeps what did not change: a parent
 * member whose records come again in the same order with the same digests is copied from the parent's file byte
 * for byte, never compressed again. Only the members around a changed record are written anew. A record's digest
 * is the SHA-256 of its file's name and its text; its text depends on the record alone (blank nodes are scoped
 * by their graph: src/harvest/nquads.ts), so a record unchanged in the export has the digest it had.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { createGunzip, gzip, gzipSync } from 'node:zlib';

const gzipAsync = promisify(gzip);

/** The file of a generation folder that lists its gzip members. */
export const RECORD_INDEX_FILE = 'record-index.jsonl.gz';
const INDEX_VERSION = 1;
/** Text per member: 64 KiB members make the files about 7 % larger than one gzip stream (at 10k objects). */
export const MEMBER_CHARS = 1 << 16;
// As the generation's other files: on generated dumps level 3 compresses 4x faster than the default 6.
const GZIP_LEVEL = 3;
/** Members being compressed (in libuv's threads) or copied ahead of the one being written. */
const IN_FLIGHT = 4;

export type Part = 'public' | 'nonPublic';
export const PARTS: readonly Part[] = ['public', 'nonPublic'];

/** One gzip member of a part's file: where it is, and its records in order as [graph IRI, digest] pairs. */
export interface Member {
  offset: number;
  length: number;
  records: (readonly [graph: string, digest: string])[];
}

/** The members of a generation's two files. */
export interface RecordIndex {
  generationId: string;
  public: Member[];
  nonPublic: Member[];
}

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
  /** Text and records of the member being filled. */
  private fresh: string[] = [];
  private freshChars = 0;
  private freshRecords: Member['records'] = [];
  /** A parent member whose first records came again unchanged: their texts, until it is whole or broken. */
  private candidate: { member: Member; texts: string[] } | undefined;
  /** Members on their way to the file, in order: each resolves to its bytes. */
  private readonly queue: Promise<Buffer>[] = [];
  private flushing: Promise<void> = Promise.resolve();
  readonly stats = { copied: { members: 0, bytes: 0 }, written: { members: 0, bytes: 0 } };

  constructor(
    private readonly out: FileHandle,
    /** The parent's members by their first record's graph, and the parent's file. */
    private readonly parent: { byFirst: Map<string, Member>; file: FileHandle } | undefined,
  ) {}

  async record(graph: string, text: string, digest: string): Promise<void> {
    const candidate = this.candidate;
    if (candidate !== undefined) {
      const [g, d] = candidate.member.records[candidate.texts.length] as Member['records'][number];
      if (g === graph && d === digest) {
        candidate.texts.push(text);
        if (candidate.texts.length === candidate.member.records.length) await this.copy(candidate.member);
        return;
      }
      // Broken: what matched so far is written anew, then this record is looked at on its own.
      this.candidate = undefined;
      candidate.member.records.slice(0, candidate.texts.length).forEach(([g1, d1], i) => this.addFresh(g1, candidate.texts[i] as string, d1));
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

  private addFresh(graph: string, text: string, digest: string): void {
    this.fresh.push(text);
    this.freshChars += text.length;
    this.freshRecords.push([graph, digest]);
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

  private async enqueue(bytes: Promise<Buffer>, records: Member['records'], how: 'copied' | 'written'): Promise<void> {
    bytes.catch(() => undefined);
    this.queue.push(bytes);
    // Offsets are known once the bytes are: members are written strictly in order.
    this.flushing = this.flushing.then(async () => {
      const buffer = await (this.queue.shift() as Promise<Buffer>);
      await writeAll(this.out, buffer);
      this.members.push({ offset: this.offset, length: buffer.length, records });
      this.offset += buffer.length;
      this.stats[how].members += 1;
      this.stats[how].bytes += buffer.length;
    });
    // Seen by finish() (or the next wait here); observed now so that a failure meanwhile is not unhandled.
    this.flushing.catch(() => undefined);
    if (this.queue.length >= IN_FLIGHT) await this.flushing;
  }

  /** Everything written; the part's members in order. */
  async finish(): Promise<Member[]> {
    const candidate = this.candidate;
    if (candidate !== undefined) {
      this.candidate = undefined;
      candidate.member.records.slice(0, candidate.texts.length).forEach(([g, d], i) => this.addFresh(g, candidate.texts[i] as string, d));
    }
    await this.seal();
    await this.flushing;
    return this.members;
  }
}

async function writeAll(out: FileHandle, buffer: Buffer): Promise<void> {
  let at = 0;
  while (at < buffer.length) at += (await out.write(buffer, at, buffer.length - at)).bytesWritten;
}

/**
 * Writes a generation's two files record by record; with a parent, keeps its unchanged members. `finish()`
 * writes the record index beside the files and tells what changed; `close()` releases the files either way.
 */
export class RecordFilesWriter implements RecordOutput {
  private readonly writers: Record<Part, PartWriter>;
  /** Graph → digest of every record written, to compare with the parent's. */
  private readonly digests = new Map<string, string>();
  private readonly quads: Record<Part, number> = { public: 0, nonPublic: 0 };

  private constructor(
    private readonly handles: FileHandle[],
    outs: Record<Part, FileHandle>,
    parentFiles: Record<Part, FileHandle> | undefined,
    private readonly parent: RecordIndex | undefined,
    private readonly tap: ((part: Part, text: string) => Promise<void>) | undefined,
  ) {
    const byFirst = (members: Member[]): Map<string, Member> => new Map(members.map((m) => [(m.records[0] as Member['records'][number])[0], m]));
    this.writers = {
      public: new PartWriter(outs.public, parent && parentFiles && { byFirst: byFirst(parent.public), file: parentFiles.public }),
      nonPublic: new PartWriter(outs.nonPublic, parent && parentFiles && { byFirst: byFirst(parent.nonPublic), file: parentFiles.nonPublic }),
    };
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
      return new RecordFilesWriter(handles, outs, parentFiles, parent?.index, tap);
    } catch (err) {
      await Promise.all(handles.map((h) => h.close()));
      throw err;
    }
  }

  async record(part: Part, graph: string, text: string, quads: number): Promise<void> {
    if (this.digests.has(graph)) throw new Error(`the record graph <${graph}> was written twice`);
    const digest = recordDigest(part, text);
    this.digests.set(graph, digest);
    this.quads[part] += quads;
    await this.tap?.(part, text);
    await this.writers[part].record(graph, text, digest);
  }

  /** Statements written to each part. */
  get quadCounts(): Readonly<Record<Part, number>> {
    return this.quads;
  }

  /** Ends both files, writes the record index into `dir` (the files' folder) for generation `generationId`. */
  async finish(dir: string, generationId: string): Promise<RecordChanges> {
    const [pub, nonPub] = await Promise.all([this.writers.public.finish(), this.writers.nonPublic.finish()]);
    const index: RecordIndex = { generationId, public: pub, nonPublic: nonPub };
    await writeRecordIndex(dir, index);
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
    const before = new Map<string, string>();
    if (this.parent) for (const part of PARTS) for (const m of this.parent[part]) for (const [g, d] of m.records) before.set(g, d);
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
  const lines = [JSON.stringify({ version: INDEX_VERSION, generationId: index.generationId })];
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
  const handle = await open(file, 'r').catch(() => undefined);
  if (handle === undefined) return undefined;
  await handle.close();
  const index: RecordIndex = { generationId, public: [], nonPublic: [] };
  const lines = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
  let header = true;
  let n = 0;
  for await (const line of lines) {
    n += 1;
    if (line === '') continue;
    const json = JSON.parse(line) as unknown;
    if (header) {
      header = false;
      const h = json as { version?: unknown; generationId?: unknown };
      if (h.version !== INDEX_VERSION || h.generationId !== generationId) return undefined;
      continue;
    }
    if (!Array.isArray(json) || json.length !== 4 || (json[0] !== 'p' && json[0] !== 'n') || !Array.isArray(json[3])) {
      throw new Error(`${file}:${n}: not a member line`);
    }
    const [tag, offset, length, flat] = json as [string, number, number, string[]];
    const records: Member['records'] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) records.push([flat[i] as string, flat[i + 1] as string]);
    if (records.length === 0) throw new Error(`${file}:${n}: a member without records`);
    index[tag === 'p' ? 'public' : 'nonPublic'].push({ offset, length, records });
  }
  return header ? undefined : index;
}
