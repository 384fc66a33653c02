/**
 * The change log on disk (docs/changes.md): DATA_DIR/changes/log/<seq>.ndjson, one file per switch of
 * `current`, written aside and linked into place, never modified afterwards. A file's first line is its
 * header (from, to, time, count), each further line one change.
 *
 * A block is written before `current` moves. A writer killed between the two leaves a block whose generation
 * never became current; such a block is recognised, never served and never removed: a block counts
 * ("is committed") when the next block starts from the generation it ended on, or, for the last block, when
 * its generation is the current one. Every writer starts its block from the current generation, so an
 * abandoned block is always followed by one that does not start where it ended.
 */
import { hostname } from 'node:os';
import { link, mkdir, open, readdir, readFile, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Change } from './diff.js';

/** The first line of a block file. */
export interface BlockHeader {
  seq: number;
  /** Generation the block starts from; null for the first block of a log (nothing public before it). */
  from: string | null;
  /** Generation that became current with this block. */
  to: string;
  /** When the switch happened (ISO 8601); the `endTime` of every change of the block. */
  endTime: string;
  count: number;
}

const BLOCK_NAME = /^(\d{10})\.ndjson$/;
/** How long a writer waits for another live writer's lock before giving up. */
const LOCK_TIMEOUT_MS = 10 * 60_000;
/** A lock file without its owner's pid is a dead writer's once it is this old. */
const EMPTY_LOCK_GRACE_MS = 10_000;

/** The folder of the block files under DATA_DIR. */
export const logDir = (dataDir: string): string => path.join(dataDir, 'changes', 'log');
const blockFile = (dataDir: string, seq: number): string => path.join(logDir(dataDir), `${String(seq).padStart(10, '0')}.ndjson`);

/** The headers of every block file, in sequence order. */
export async function readBlockHeaders(dataDir: string, known?: Map<number, BlockHeader>): Promise<BlockHeader[]> {
  const names = await readdir(logDir(dataDir)).catch(() => [] as string[]);
  const headers: BlockHeader[] = [];
  for (const name of names.sort()) {
    const m = BLOCK_NAME.exec(name);
    if (!m) continue;
    const seq = Number(m[1]);
    let header = known?.get(seq);
    if (!header) {
      header = await readHeader(path.join(logDir(dataDir), name));
      known?.set(seq, header);
    }
    headers.push(header);
  }
  return headers;
}

async function readHeader(file: string): Promise<BlockHeader> {
  const fh = await open(file, 'r');
  try {
    let text = '';
    const buf = Buffer.alloc(4096);
    for (let pos = 0; !text.includes('\n'); pos += buf.length) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, pos);
      if (bytesRead === 0) break;
      text += buf.subarray(0, bytesRead).toString('utf8');
    }
    return JSON.parse(text.slice(0, text.indexOf('\n'))) as BlockHeader;
  } finally {
    await fh.close();
  }
}

/** The text of one block file: its header line, then one change per line. */
export async function readBlockText(dataDir: string, header: BlockHeader): Promise<string> {
  return readFile(blockFile(dataDir, header.seq), 'utf8');
}

/** The changes of one block, in order. */
export async function readBlockChanges(dataDir: string, header: BlockHeader): Promise<Change[]> {
  const lines = (await readBlockText(dataDir, header)).split('\n');
  const changes = lines.slice(1, 1 + header.count).map((line) => JSON.parse(line) as Change);
  if (changes.length !== header.count) throw new Error(`change log block ${header.seq} has ${changes.length} changes, its header says ${header.count}`);
  return changes;
}

/** Blocks whose changes are kept in memory at a time (the first block of a big collection is the largest). */
const BLOCK_CACHE = 4;

/** The changes of the blocks last read, the most recently used kept (blocks never change once written). */
export class BlockChangesCache {
  private readonly changes = new Map<number, Change[]>();

  constructor(private readonly dataDir: string) {}

  async get(block: BlockHeader): Promise<Change[]> {
    let changes = this.changes.get(block.seq);
    if (changes) {
      // Most recently used last.
      this.changes.delete(block.seq);
    } else {
      changes = await readBlockChanges(this.dataDir, block);
    }
    this.changes.set(block.seq, changes);
    while (this.changes.size > BLOCK_CACHE) this.changes.delete(this.changes.keys().next().value as number);
    return changes;
  }
}

/** The ids of the Updates of one block (the other lines are skipped unparsed: a first block is all Creates). */
export async function readBlockUpdates(dataDir: string, header: BlockHeader): Promise<string[]> {
  const text = await readBlockText(dataDir, header);
  const ids: string[] = [];
  for (let start = text.indexOf('\n') + 1; start > 0 && start < text.length; ) {
    const end = text.indexOf('\n', start);
    const line = text.slice(start, end < 0 ? undefined : end);
    if (line.startsWith('{"type":"Update"')) ids.push((JSON.parse(line) as Change).id);
    start = end < 0 ? text.length : end + 1;
  }
  return ids;
}

/**
 * The committed blocks (see the top of this file), given the generation that is current (for a writer) or
 * served (for the feed).
 */
export function committedBlocks(headers: readonly BlockHeader[], currentId: string | undefined): BlockHeader[] {
  return headers.filter((header, i) => {
    const next = headers[i + 1];
    return next ? next.from === header.to : header.to === currentId;
  });
}

/** Appends a block: written to a temporary file, synced, then linked under its final name (never replacing one). */
export async function appendBlock(dataDir: string, header: Omit<BlockHeader, 'seq' | 'count'>, changes: readonly Change[]): Promise<BlockHeader> {
  const dir = logDir(dataDir);
  await mkdir(dir, { recursive: true });
  const last = (await readBlockHeaders(dataDir)).at(-1);
  const full: BlockHeader = { seq: (last?.seq ?? 0) + 1, from: header.from, to: header.to, endTime: header.endTime, count: changes.length };
  const tmp = path.join(dir, `.tmp-${process.pid}-${full.seq}`);
  const fh = await open(tmp, 'w');
  try {
    let chunk = `${JSON.stringify(full)}\n`;
    for (const change of changes) {
      chunk += `${JSON.stringify(change)}\n`;
      if (chunk.length > 1 << 20) {
        await fh.write(chunk);
        chunk = '';
      }
    }
    await fh.write(chunk);
    await fh.sync();
  } finally {
    await fh.close();
  }
  await link(tmp, blockFile(dataDir, full.seq));
  await unlink(tmp);
  await syncDir(dir);
  return full;
}

/** Runs `fn` holding the log's lock (one writer at a time across processes); a dead holder's lock is taken over. */
export async function withLogLock<T>(dataDir: string, fn: () => Promise<T>): Promise<T> {
  const dir = path.join(dataDir, 'changes');
  await mkdir(dir, { recursive: true });
  const lock = path.join(dir, 'lock');
  const deadline = Date.now() + LOCK_TIMEOUT_MS;
  for (;;) {
    try {
      const fh = await open(lock, 'wx');
      await fh.writeFile(JSON.stringify({ pid: process.pid, host: hostname() }));
      await fh.close();
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (await holderIsDead(lock)) {
      await rm(lock, { force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`the change log is locked by another writer (${lock})`);
    await sleep(50);
  }
  try {
    await removeTemporaryFiles(dataDir);
    return await fn();
  } finally {
    await rm(lock, { force: true });
  }
}

async function holderIsDead(lock: string): Promise<boolean> {
  let owner: { pid?: unknown; host?: unknown };
  try {
    owner = JSON.parse(await readFile(lock, 'utf8')) as typeof owner;
  } catch {
    // Being written by its holder this very moment (or already gone: look again shortly); still empty after
    // a while, its holder died between creating and writing it.
    const age = await stat(lock).then((s) => Date.now() - s.mtimeMs, () => 0);
    return age > EMPTY_LOCK_GRACE_MS;
  }
  if (owner.host !== hostname() || typeof owner.pid !== 'number') return false;
  if (owner.pid === process.pid) return false;
  try {
    process.kill(owner.pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
  // A killed process nobody has reaped yet still answers signal 0; its state in /proc tells.
  const procStat = await readFile(`/proc/${owner.pid}/stat`, 'utf8').catch(() => '');
  return /\) [ZX] /.test(procStat);
}

/** Temporary block files of a writer that died before linking them (only ever removed under the lock). */
async function removeTemporaryFiles(dataDir: string): Promise<void> {
  for (const name of await readdir(logDir(dataDir)).catch(() => [] as string[])) {
    if (name.startsWith('.tmp-')) await rm(path.join(logDir(dataDir), name), { force: true });
  }
}

async function syncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'EPERM') throw err;
  } finally {
    await fh.close();
  }
}
