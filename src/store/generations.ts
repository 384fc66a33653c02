/**
 * Store generations under DATA_DIR (docs/operations.md, "DATA_DIR layout"):
 *
 *   generations/<id>/{public.nq.gz, nonpublic.nq.gz, manifest.json}   complete, checked, never modified
 *                    (+ record-index.jsonl.gz when written record by record: record-files.ts)
 *   staging/<id>/                                                       being written by a live process
 *   current                                                             the id being served, one line
 *
 * A generation is written in staging, checked, renamed into generations/ and only then made current by
 * renaming `current.tmp` over `current`. Both renames are atomic, so a process killed at any moment leaves
 * the previous generation current and intact; leftovers in staging/ are removed by the next writer.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, unwatchFile, watchFile } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { recordSwitch, type SwitchSummary } from '../changes/record-switch.js';
import { checkNQuadsFile, countRecordGraphs, type FileCheck } from './generation-check.js';
import type { RecordKinds } from '../vocab/record-kinds.js';
import { FORMAT_VERSION, parseManifest } from './manifest.js';
import { readRecordIndex, RECORD_INDEX_FILE, RecordFilesWriter, type Parent, type RecordOutput } from './record-files.js';
import type { GenerationManifest } from './types.js';

export const PUBLIC_FILE = 'public.nq.gz';
export const NONPUBLIC_FILE = 'nonpublic.nq.gz';
export const MANIFEST_FILE = 'manifest.json';
/** The file naming the process that writes a folder (pid, host): staging folders, bulk files (remote/bulk-files.ts). */
export const OWNER_FILE = '.owner.json';
const ID_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z-[0-9a-f]{6}$/;
/** A staging folder without an owner file is left alone this long: its writer may be about to create it. */
const OWNERLESS_GRACE_MS = 60_000;
// On generated dumps level 3 compresses 4x faster than the default 6 for files 2% larger.
const GZIP_LEVEL = 3;

/** A complete generation folder and its manifest. */
export interface Generation {
  id: string;
  dir: string;
  manifest: GenerationManifest;
}

/** One folder under generations/, readable or not. */
export interface GenerationEntry {
  id: string;
  dir: string;
  current: boolean;
  manifest?: GenerationManifest;
  /** Why the folder cannot be served (missing file, size mismatch, bad manifest). */
  problem?: string;
}

export interface GenerationMeta {
  source: GenerationManifest['source'];
  /** Base URL of the records; the writer may instead report one it inferred. */
  baseUrl?: string;
  /** The kinds whose records the generation holds (counted per kind in its manifest). */
  kinds: RecordKinds;
}

/** The two streams a generation writer fills with N-Quads text (gzip happens behind them). */
export interface GenerationOutput {
  public: Writable;
  nonPublic: Writable;
}

export interface WriteResult {
  baseUrl?: string;
  details?: Record<string, unknown>;
}

/** What sees a generation's N-Quads text as it is written: every chunk of each file, in order, then the end. */
export interface GenerationTap {
  public(chunk: string): Promise<void>;
  nonPublic(chunk: string): Promise<void>;
  /** Everything was written (before the generation's check). */
  end(): Promise<void>;
  /** The generation failed: whatever the tap made is removed. */
  abort(): Promise<void>;
}

export interface CreateOptions {
  /** Make the new generation current once it is in place (default true). */
  makeCurrent?: boolean;
  /** Progress of the read-back check: bytes of the gzip files read so far, of `total`. */
  onCheck?: (p: { done: number; total: number }) => void;
  /**
   * Writes files derived from the checked generation into its folder (the stored index), before the folder
   * moves into generations/; a failure fails the generation like any other step.
   */
  derive?: (staged: StagedGeneration) => Promise<void>;
  /**
   * Sees the generation's statements as they are written (the bulk loader's files, written in the same pass:
   * stores.ts, `publication`); ended before the check, aborted when the generation fails.
   */
  tap?: (id: string, parent?: Generation) => Promise<GenerationTap>;
  /** Called once `current` names the new generation (the change log's snapshot of it may still be completing). */
  onCurrent?: () => void;
}

/** A generation written and checked, still in staging; with the generation it was written on, when it was. */
export type StagedGeneration = Generation & { parent?: Generation };

/** Paths of the files of a generation folder. */
export function generationFiles(dir: string): { public: string; nonPublic: string; manifest: string } {
  return { public: path.join(dir, PUBLIC_FILE), nonPublic: path.join(dir, NONPUBLIC_FILE), manifest: path.join(dir, MANIFEST_FILE) };
}

const generationsDir = (dataDir: string): string => path.join(dataDir, 'generations');

/** The folder of generation `id` under `dataDir`, whether or not it exists. */
export const generationDir = (dataDir: string, id: string): string => path.join(generationsDir(dataDir), id);
const stagingRoot = (dataDir: string): string => path.join(dataDir, 'staging');
const currentFile = (dataDir: string): string => path.join(dataDir, 'current');

/** A new generation id: creation time (sortable, safe in file names) and 6 random hex digits. */
export function newGenerationId(now: Date = new Date()): string {
  return `${now.toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}`;
}

/** True when `id` has the form of a generation id (and so cannot name a path outside generations/). */
export function isGenerationId(id: string): boolean {
  return ID_PATTERN.test(id);
}

/**
 * Writes a new generation through `write`, checks it, moves it into generations/ and makes it current.
 * On any failure the staging folder is removed and `current` is untouched.
 */
export async function createGeneration(
  dataDir: string,
  meta: GenerationMeta,
  write: (out: GenerationOutput) => Promise<WriteResult | void>,
  options: CreateOptions = {},
): Promise<Generation> {
  return stageGeneration(dataDir, meta, options, (files, tap) => writeGzipPair(files, write, tap));
}

/**
 * Writes a new generation record by record (src/store/record-files.ts), with a record index beside its files;
 * with `parent` (a generation that has a record index), the parent's members whose records come again unchanged
 * are copied, not written again, and the manifest's `details.changes` tells how the records compare. Otherwise
 * as {@link createGeneration}.
 */
export async function createRecordGeneration(
  dataDir: string,
  meta: GenerationMeta,
  write: (out: RecordOutput) => Promise<WriteResult | void>,
  options: CreateOptions & { parent?: Generation } = {},
): Promise<Generation> {
  return stageGeneration(dataDir, meta, options, async (files, tap, staging, id) => {
    const parent = options.parent && (await parentFiles(options.parent));
    const writer = await RecordFilesWriter.open(files, parent, tap && ((part, text) => tap[part](text)));
    try {
      const result = (await write(writer)) ?? {};
      // The writer checks what it writes anew, and reads the files back (src/store/record-files.ts).
      const { checks, changes } = await writer.finish(staging, id, (done) => options.onCheck?.({ done, total: writer.bytesWritten }));
      await tap?.end();
      const details = parent === undefined ? result.details : { ...result.details, changes: { parent: parent.index.generationId, ...changes } };
      return { ...result, ...(details ? { details } : {}), checks: [checks.public, checks.nonPublic] };
    } finally {
      await writer.close();
    }
  });
}

/** The files and record index of `generation`, as a parent of a record generation; an error when it has no index. */
async function parentFiles(generation: Generation): Promise<Parent> {
  const index = await readRecordIndex(generation.dir, generation.id);
  if (index === undefined) throw new Error(`generation ${generation.id} has no record index (${RECORD_INDEX_FILE}) to compare with`);
  const files = generationFiles(generation.dir);
  return { dir: generation.dir, files: { public: files.public, nonPublic: files.nonPublic }, index };
}

/**
 * The life of a new generation: a staging folder, its files written by `writeFiles`, fsynced, checked, the
 * manifest, the derived files, the move into generations/ and (unless told otherwise) `current`. On any failure
 * the staging folder is removed and `current` is untouched.
 */
async function stageGeneration(
  dataDir: string,
  meta: GenerationMeta,
  options: CreateOptions & { parent?: Generation },
  writeFiles: (
    files: { public: string; nonPublic: string },
    tap: GenerationTap | undefined,
    staging: string,
    id: string,
  ) => Promise<(WriteResult & { checks?: [FileCheck, FileCheck] }) | void>,
): Promise<Generation> {
  await cleanStaging(dataDir);
  const id = newGenerationId();
  const staging = path.join(stagingRoot(dataDir), id);
  await mkdir(staging, { recursive: true });
  let manifest: GenerationManifest;
  let tap: GenerationTap | undefined;
  try {
    await writeFile(path.join(staging, OWNER_FILE), JSON.stringify({ pid: process.pid, host: hostname() }));
    const files = generationFiles(staging);
    tap = await options.tap?.(id, options.parent);
    const result = (await writeFiles(files, tap, staging, id)) ?? {};
    await Promise.all([fsyncFile(files.public), fsyncFile(files.nonPublic)]);
    const baseUrl = result.baseUrl ?? meta.baseUrl;
    if (baseUrl === undefined) throw new Error('the base URL of the records is unknown; pass it explicitly');
    const [pub, nonPub] = result.checks ?? (await checkPair(files, options.onCheck));
    manifest = buildManifest(id, meta, baseUrl, pub, nonPub, result.details);
    await writeFile(files.manifest, `${JSON.stringify(manifest, null, 2)}\n`);
    await fsyncFile(files.manifest);
    await options.derive?.({ id, dir: staging, manifest, ...(options.parent ? { parent: options.parent } : {}) });
    await rm(path.join(staging, OWNER_FILE));
    await mkdir(generationsDir(dataDir), { recursive: true });
    await rename(staging, path.join(generationsDir(dataDir), id));
    await fsyncDir(generationsDir(dataDir));
  } catch (err) {
    await tap?.abort().catch(() => undefined);
    await rm(staging, { recursive: true, force: true });
    throw err;
  }
  const generation = { id, dir: path.join(generationsDir(dataDir), id), manifest };
  if (options.makeCurrent !== false) await setCurrent(dataDir, id, options.onCurrent);
  return generation;
}

async function writeGzipPair(
  files: { public: string; nonPublic: string },
  write: (out: GenerationOutput) => Promise<WriteResult | void>,
  tap?: GenerationTap,
): Promise<WriteResult | void> {
  const gzip = (): ReturnType<typeof createGzip> => createGzip({ level: GZIP_LEVEL, chunkSize: 1 << 16 });
  // With a tap, each chunk goes to it before the gzip stream (strings stay strings: decodeStrings false).
  const tapped = (see: ((chunk: string) => Promise<void>) | undefined): Writable[] =>
    see === undefined
      ? [gzip()]
      : [
          new Transform({
            decodeStrings: false,
            transform(chunk: string | Buffer, _encoding, callback) {
              see(typeof chunk === 'string' ? chunk : chunk.toString('utf8')).then(() => callback(null, chunk), callback);
            },
          }),
          gzip(),
        ];
  const streams = { public: tapped(tap && ((chunk) => tap.public(chunk))), nonPublic: tapped(tap && ((chunk) => tap.nonPublic(chunk))) };
  const out = { public: streams.public[0] as Writable, nonPublic: streams.nonPublic[0] as Writable };
  const done = Promise.all([
    pipeline([...streams.public, createWriteStream(files.public)]),
    pipeline([...streams.nonPublic, createWriteStream(files.nonPublic)]),
  ]);
  // Observed here so that a pipeline failing while `write` still runs is not an unhandled rejection.
  done.catch(() => undefined);
  let result: WriteResult | void;
  try {
    // Only a failing output cuts the writer short; a writer may end the streams itself.
    result = await Promise.race([write(out), done.then(() => new Promise<never>(() => undefined))]);
  } catch (err) {
    out.public.destroy();
    out.nonPublic.destroy();
    throw err;
  }
  for (const stream of [out.public, out.nonPublic]) if (!stream.writableEnded) stream.end();
  await done;
  await tap?.end();
  return result;
}

async function checkPair(
  files: { public: string; nonPublic: string },
  onCheck: CreateOptions['onCheck'],
): Promise<[FileCheck, FileCheck]> {
  const [a, b] = await Promise.all([stat(files.public), stat(files.nonPublic)]);
  const total = a.size + b.size;
  const pub = await checkNQuadsFile(files.public, (n) => onCheck?.({ done: n, total }));
  const nonPub = await checkNQuadsFile(files.nonPublic, (n) => onCheck?.({ done: a.size + n, total }));
  return [pub, nonPub];
}

function buildManifest(
  id: string,
  meta: GenerationMeta,
  baseUrl: string,
  pub: FileCheck,
  nonPub: FileCheck,
  details: Record<string, unknown> | undefined,
): GenerationManifest {
  const graphs = new Set([...pub.graphs, ...nonPub.graphs]);
  return {
    formatVersion: FORMAT_VERSION,
    id,
    created: new Date().toISOString(),
    source: meta.source,
    baseUrl,
    counts: {
      publicQuads: pub.quads,
      nonPublicQuads: nonPub.quads,
      graphs: graphs.size,
      publicRecords: countRecordGraphs(pub.graphs, baseUrl, meta.kinds),
      nonPublicRecords: countRecordGraphs(nonPub.graphs, baseUrl, meta.kinds),
    },
    checksums: { public: pub.sha256, nonPublic: nonPub.sha256 },
    bytes: { public: pub.bytes, nonPublic: nonPub.bytes },
    ...(details ? { details } : {}),
  };
}

/** Reads a generation folder; throws when its manifest is unreadable or a file is missing or of the wrong size. */
export async function readGeneration(dataDir: string, id: string): Promise<Generation> {
  if (!isGenerationId(id)) throw new Error(`not a generation id: ${JSON.stringify(id)}`);
  const dir = path.join(generationsDir(dataDir), id);
  const files = generationFiles(dir);
  let text: string;
  try {
    text = await readFile(files.manifest, 'utf8');
  } catch {
    throw new Error(`generation ${id} has no manifest.json`);
  }
  const manifest = parseManifest(text);
  if (manifest.id !== id) throw new Error(`generation ${id}: manifest names ${manifest.id}`);
  for (const [key, file] of [['public', files.public], ['nonPublic', files.nonPublic]] as const) {
    const size = await stat(file).then((s) => s.size, () => undefined);
    if (size === undefined) throw new Error(`generation ${id}: ${path.basename(file)} is missing`);
    if (size !== manifest.bytes[key]) {
      throw new Error(`generation ${id}: ${path.basename(file)} has ${size} bytes, the manifest says ${manifest.bytes[key]}`);
    }
  }
  return { id, dir, manifest };
}

/** Re-reads both files of a generation in full: checksums, gzip integrity, N-Quads syntax, quad counts. */
export async function verifyGeneration(generation: Generation): Promise<void> {
  const files = generationFiles(generation.dir);
  const { manifest } = generation;
  const pub = await checkNQuadsFile(files.public);
  const nonPub = await checkNQuadsFile(files.nonPublic);
  const problems: string[] = [];
  if (pub.sha256 !== manifest.checksums.public) problems.push(`${PUBLIC_FILE} checksum differs`);
  if (nonPub.sha256 !== manifest.checksums.nonPublic) problems.push(`${NONPUBLIC_FILE} checksum differs`);
  if (pub.quads !== manifest.counts.publicQuads) problems.push(`${PUBLIC_FILE} has ${pub.quads} quads, not ${manifest.counts.publicQuads}`);
  if (nonPub.quads !== manifest.counts.nonPublicQuads) {
    problems.push(`${NONPUBLIC_FILE} has ${nonPub.quads} quads, not ${manifest.counts.nonPublicQuads}`);
  }
  if (problems.length > 0) throw new Error(`generation ${generation.id}: ${problems.join('; ')}`);
}

async function readCurrentId(dataDir: string): Promise<string | undefined> {
  try {
    return (await readFile(currentFile(dataDir), 'utf8')).trim();
  } catch {
    return undefined;
  }
}

/**
 * Every folder under generations/, oldest first, each with its manifest or the reason it cannot be served;
 * `current` marks the generation `currentGeneration` returns.
 */
export async function listGenerations(dataDir: string): Promise<GenerationEntry[]> {
  const names = await readdir(generationsDir(dataDir)).catch(() => [] as string[]);
  const entries: GenerationEntry[] = [];
  for (const id of names.filter(isGenerationId).sort()) {
    const dir = path.join(generationsDir(dataDir), id);
    try {
      const { manifest } = await readGeneration(dataDir, id);
      entries.push({ id, dir, current: false, manifest });
    } catch (err) {
      entries.push({ id, dir, current: false, problem: (err as Error).message });
    }
  }
  const pointer = await readCurrentId(dataDir);
  const good = entries.filter((e) => e.manifest !== undefined);
  const current = good.find((e) => e.id === pointer) ?? good[good.length - 1];
  if (current) current.current = true;
  return entries;
}

/** The generation `current` names; when that is missing or broken, the newest readable one; else undefined. */
export async function currentGeneration(dataDir: string): Promise<Generation | undefined> {
  const id = await readCurrentId(dataDir);
  if (id !== undefined && isGenerationId(id)) {
    try {
      return await readGeneration(dataDir, id);
    } catch {
      // Fall through to the newest readable generation.
    }
  }
  const entry = (await listGenerations(dataDir)).find((e) => e.current);
  return entry?.manifest ? { id: entry.id, dir: entry.dir, manifest: entry.manifest } : undefined;
}

/**
 * Makes generation `id` current (also how to roll back); atomic: readers see the old or the new id. The
 * change log gets the changes first (src/changes/record-switch.ts): this is the one place `current` moves.
 */
export async function setCurrent(dataDir: string, id: string, onMoved?: () => void): Promise<SwitchSummary> {
  const target = await readGeneration(dataDir, id);
  const pointed = async (): Promise<Generation | undefined> => {
    const currentId = await readCurrentId(dataDir);
    return currentId !== undefined && isGenerationId(currentId) ? readGeneration(dataDir, currentId).catch(() => undefined) : undefined;
  };
  const move = async (): Promise<void> => {
    const tmp = `${currentFile(dataDir)}.tmp`;
    await writeFile(tmp, `${id}\n`);
    await fsyncFile(tmp);
    await rename(tmp, currentFile(dataDir));
    await fsyncDir(dataDir);
  };
  return recordSwitch(dataDir, target, { readCurrent: pointed, files: generationFiles, move, ...(onMoved ? { onMoved } : {}) });
}

/** Removes all but the newest `keep` readable generations, never the current one; returns the removed ids. */
export async function pruneGenerations(dataDir: string, keep = 3): Promise<string[]> {
  if (!Number.isInteger(keep) || keep < 1) throw new Error(`keep must be a whole number >= 1, not ${keep}`);
  const current = await currentGeneration(dataDir);
  const entries = await listGenerations(dataDir);
  const kept = new Set(entries.filter((e) => e.manifest !== undefined).slice(-keep).map((e) => e.id));
  if (current) kept.add(current.id);
  const removed: string[] = [];
  for (const entry of entries) {
    if (kept.has(entry.id)) continue;
    // Moved out first so that generations/ never holds a half-deleted folder.
    const doomed = path.join(stagingRoot(dataDir), `${entry.id}-removed`);
    await mkdir(stagingRoot(dataDir), { recursive: true });
    await rename(entry.dir, doomed);
    await rm(doomed, { recursive: true, force: true });
    removed.push(entry.id);
  }
  return removed;
}

/** Removes staging folders whose writer is gone (dead process, or no owner after a grace period). */
export async function cleanStaging(dataDir: string): Promise<string[]> {
  const root = stagingRoot(dataDir);
  const names = await readdir(root).catch(() => [] as string[]);
  const removed: string[] = [];
  for (const name of names) {
    const dir = path.join(root, name);
    if (await isLive(dir)) continue;
    await rm(dir, { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

/**
 * Whether the process that owns folder `dir` (its {@link OWNER_FILE}) may still be at work: alive on this host,
 * on another host (not probed), or the folder too new to have its owner file yet.
 */
export async function isLive(dir: string): Promise<boolean> {
  let owner: { pid?: unknown; host?: unknown };
  try {
    owner = JSON.parse(await readFile(path.join(dir, OWNER_FILE), 'utf8')) as typeof owner;
  } catch {
    if (dir.endsWith('-removed')) return false;
    const age = await stat(dir).then((s) => Date.now() - s.mtimeMs, () => Infinity);
    return age < OWNERLESS_GRACE_MS;
  }
  // A writer on another host sharing DATA_DIR cannot be probed; leave its folder alone.
  if (owner.host !== hostname()) return true;
  return typeof owner.pid === 'number' && (await processAlive(owner.pid));
}

async function processAlive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A killed process that nobody has reaped yet (a zombie) still answers signal 0; Linux tells it apart.
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

/** Calls `onChange` whenever `current` is replaced (polled, so renames are seen); returns a stop function. */
export function watchCurrent(dataDir: string, onChange: (generation: Generation | undefined) => void, intervalMs = 2000): () => void {
  const file = currentFile(dataDir);
  const listener = (now: { mtimeMs: number; ino: number }, before: { mtimeMs: number; ino: number }): void => {
    if (now.mtimeMs === before.mtimeMs && now.ino === before.ino) return;
    void currentGeneration(dataDir).then(onChange, () => undefined);
  };
  watchFile(file, { interval: intervalMs, persistent: false }, listener);
  return () => unwatchFile(file, listener);
}

async function fsyncFile(file: string): Promise<void> {
  const fh = await open(file, 'r+');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

async function fsyncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } catch (err) {
    // Some file systems refuse fsync on a directory; the rename is still atomic there.
    if ((err as NodeJS.ErrnoException).code !== 'EINVAL' && (err as NodeJS.ErrnoException).code !== 'EPERM') throw err;
  } finally {
    await fh.close();
  }
}
