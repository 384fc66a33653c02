/**
 * The journal of a followed stream (docs/ldes-harvest.md, "Following a stream"): `journal.ndjson`, one line per
 * member read, appended page by page. Read a line at a time: finding the latest version of each record keeps only
 * where its line is (an entry), never the statements, so a million members cost their entries, not their text;
 * the members are then read back by place, in file order, when they are used.
 */
import { appendFile, open, rename } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import path from 'node:path';

export const JOURNAL = 'journal.ndjson';

/** A member as the journal keeps it. */
export interface JournalMember {
  id: string;
  page: string;
  versionOf: string;
  time: string;
  nquads: string;
}

/** Where a member's line is, and what the choice of the latest version needs of it. */
export interface JournalEntry {
  /** The journal's folder (a harvest reads several streams). */
  dir: string;
  id: string;
  versionOf: string;
  time: string;
  /** Byte offset and length of the line, without its newline. */
  offset: number;
  length: number;
}

/**
 * Cuts off a last line a killed run left without its newline, so that what is appended next starts a line of its
 * own (the page it belonged to was not marked read: it is read again). Called before a run appends.
 */
export async function repairJournal(dir: string): Promise<void> {
  const file = path.join(dir, JOURNAL);
  const fh = await open(file, 'r+').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  if (fh === undefined) return;
  try {
    const { size } = await fh.stat();
    const chunk = Buffer.alloc(1 << 16);
    // Back from the end, a chunk at a time, to the last newline.
    let end = size;
    while (end > 0) {
      const start = Math.max(0, end - chunk.length);
      const { bytesRead } = await fh.read(chunk, 0, end - start, start);
      const nl = chunk.subarray(0, bytesRead).lastIndexOf(0x0a);
      if (nl !== -1) {
        end = start + nl + 1;
        break;
      }
      end = start;
    }
    if (end < size) {
      await fh.truncate(end);
      await fh.sync();
    }
  } finally {
    await fh.close();
  }
}

/** Appends a page's members and syncs them to disk. */
export async function appendMembers(dir: string, members: readonly JournalMember[]): Promise<void> {
  if (members.length === 0) return;
  const file = path.join(dir, JOURNAL);
  await appendFile(file, members.map((m) => `${JSON.stringify(m)}\n`).join(''));
  await syncFile(file);
}

/**
 * The latest version of each record in the journal (the latest time; the later line on a tie), added to
 * `latest` (the versions of other streams read before). A last line without its newline (a run killed while
 * appending) is not a member: its page was not marked read, and is read again.
 */
export async function latestEntries(dir: string, latest = new Map<string, JournalEntry>()): Promise<Map<string, JournalEntry>> {
  for await (const { offset, line } of journalLines(path.join(dir, JOURNAL))) {
    const member = JSON.parse(line) as JournalMember;
    const known = latest.get(member.versionOf);
    if (known === undefined || known.time <= member.time) latest.set(member.versionOf, { dir, id: member.id, versionOf: member.versionOf, time: member.time, offset, length: Buffer.byteLength(line) });
  }
  return latest;
}

/** The members at `entries`, read back journal by journal in file order. */
export async function* readMembers(entries: Iterable<JournalEntry>): AsyncGenerator<JournalMember> {
  for await (const line of readLines(entries)) yield JSON.parse(line) as JournalMember;
}

/** The lines at `entries`, as the journal holds them (without their newline), journal by journal in file order. */
async function* readLines(entries: Iterable<JournalEntry>): AsyncGenerator<string> {
  const byDir = new Map<string, JournalEntry[]>();
  for (const entry of entries) {
    const list = byDir.get(entry.dir);
    if (list) list.push(entry);
    else byDir.set(entry.dir, [entry]);
  }
  for (const [dir, list] of byDir) {
    list.sort((a, b) => a.offset - b.offset);
    const fh = await open(path.join(dir, JOURNAL), 'r');
    try {
      let buffer = Buffer.alloc(1 << 16);
      for (const entry of list) {
        if (buffer.length < entry.length) buffer = Buffer.alloc(entry.length);
        const { bytesRead } = await fh.read(buffer, 0, entry.length, entry.offset);
        if (bytesRead !== entry.length) throw new Error(`${path.join(dir, JOURNAL)}: the line at byte ${entry.offset} is shorter than when it was indexed`);
        yield buffer.toString('utf8', 0, entry.length);
      }
    } finally {
      await fh.close();
    }
  }
}

/**
 * The journal rewritten with the latest version of each record only (after a whole run: the nodes read again
 * journal their members again), in the order of the old one. Written aside, synced, renamed over the old one.
 */
export async function compactJournal(dir: string): Promise<void> {
  const latest = await latestEntries(dir);
  const tmp = path.join(dir, `${JOURNAL}.tmp`);
  const out = await open(tmp, 'w');
  try {
    let batch: string[] = [];
    let bytes = 0;
    // The lines are copied as they are: nothing to parse.
    for await (const line of readLines(latest.values())) {
      batch.push(line, '\n');
      bytes += line.length + 1;
      if (bytes >= 1 << 20) {
        await out.write(batch.join(''));
        batch = [];
        bytes = 0;
      }
    }
    await out.write(batch.join(''));
    await out.sync();
  } finally {
    await out.close();
  }
  await rename(tmp, path.join(dir, JOURNAL));
}

/** The complete lines of a file with the byte offset of each; none when the file does not exist. */
async function* journalLines(file: string): AsyncGenerator<{ offset: number; line: string }> {
  const stream = createReadStream(file);
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let position = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let start = 0;
      for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
        const part = chunk.subarray(start, nl);
        const line = pendingBytes === 0 ? part : Buffer.concat([...pending, part]);
        const offset = position - pendingBytes + start;
        pending = [];
        pendingBytes = 0;
        if (line.length > 0) yield { offset, line: line.toString('utf8') };
        start = nl + 1;
      }
      if (start < chunk.length) {
        pending.push(chunk.subarray(start));
        pendingBytes += chunk.length - start;
      }
      position += chunk.length;
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
}

async function syncFile(file: string): Promise<void> {
  const fh = await open(file, 'r+');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}
