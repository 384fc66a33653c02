/**
 * The stored index of a generation (docs/architecture.md, "Start-up from stored work"): the answers of the
 * SELECT queries that every per-generation structure is built from (each kind's collection index queries, what
 * its filters prepare, the record status), kept in the generation folder as `stored-index.bin`. Start-up and
 * swaps build the structures from these answers instead of asking the store again. What is stored is the input
 * of the build, not its output: the tables, sort orders and text indexes are built by the same code from the
 * same rows, so a stored index cannot answer differently from a rebuilt one, and a change to that code needs
 * no new file.
 *
 * Each answer is keyed by a hash of the exact query text sent to the store (query and bound values), so a
 * changed query is simply not found and is asked again. The file names its generation's id and checksums and
 * carries the length and sha256 of its payload: a file of another generation or format version, a truncated
 * or damaged one is ignored with its reason, and the structures are rebuilt from the store as without it.
 *
 *   line 1   {"format":"museum-stored-index","version":1,"generation":…,"checksums":…,"payload":{bytes,sha256},…}
 *   rest     gzip(v8.serialize({ strings, answers: [{ key, name, vars, rows, cells }] }))
 *
 * `cells` holds, row by row, one index per variable into `strings` (plus one; 0 is unbound): the same IRIs and
 * labels recur across rows and queries, so each distinct value is stored and decoded once.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { types } from 'node:util';
import { parseSelectJson } from '../records/sparql-json.js';
import { writeDurably } from '../store/durable-write.js';
import { framedBytes, unframe } from '../store/framed-file.js';
import type { GenerationManifest } from '../store/types.js';
import { boundSelect, type IndexDependencies } from './build.js';
import type { DeferredSelectRows } from './filters/filter.js';
import type { BoundTerm } from '../queries/terms.js';
import type { Row } from './record-table.js';

export const STORED_INDEX_FILE = 'stored-index.bin';
const FORMAT = 'museum-stored-index';
/** Version of the file layout and of the rows it holds (lexical values as `parseSelectJson` gives them); bumped on any change. */
export const STORED_INDEX_VERSION = 1;

/** The generation a stored index belongs to: its folder and what its manifest says of its files. */
export interface IndexedGeneration {
  dir: string;
  manifest: Pick<GenerationManifest, 'id' | 'checksums'>;
}

interface Header {
  format: string;
  version: number;
  generation: string;
  checksums: { public: string; nonPublic: string };
  payload: { bytes: number; sha256: string };
  answers: number;
  written: string;
}

/** One answer as stored: `cells` holds, row by row, one index per variable into the strings (plus one; 0 is unbound). */
export interface EncodedAnswer {
  key: string;
  name: string;
  vars: string[];
  rows: number;
  cells: Uint32Array;
}

interface Payload {
  strings: string[];
  answers: EncodedAnswer[];
}

/**
 * The strings of a stored index, each held once, and the encoding of rows against them: what keeps a million
 * objects' answers to a few hundred MiB while they are gathered (collection-index/by-graph.ts), where rows as
 * objects took gigabytes.
 */
export class StringTable {
  private readonly indexOf = new Map<string, number>();

  /** Starts from the strings of a stored index (kept as they are: its answers' cells stay valid). */
  constructor(readonly strings: string[] = []) {
    strings.forEach((value, i) => this.indexOf.set(value, i + 1));
  }

  /** The cell of `value` (its index plus one), added when new. */
  cell(value: string): number {
    let index = this.indexOf.get(value);
    if (index === undefined) {
      index = this.strings.push(value);
      this.indexOf.set(value, index);
    }
    return index;
  }

  /** The cells of `rows` for the variables `vars`, row by row. */
  cells(rows: readonly Row[], vars: readonly string[]): Uint32Array {
    const cells = new Uint32Array(rows.length * vars.length);
    rows.forEach((row, r) => {
      vars.forEach((variable, v) => {
        const value = row[variable];
        if (value !== undefined) cells[r * vars.length + v] = this.cell(value);
      });
    });
    return cells;
  }

  /** An answer of `rows`, its variables in the order they first appear. */
  encode(key: string, name: string, rows: readonly Row[]): EncodedAnswer {
    const vars = variablesOf(rows);
    return { key, name, vars, rows: rows.length, cells: this.cells(rows, vars) };
  }
}

/** The variables bound in `rows`, in the order they first appear. */
export const variablesOf = (rows: readonly Row[]): string[] => {
  const vars = new Set<string>();
  for (const row of rows) for (const variable in row) vars.add(variable);
  return [...vars];
};

/** What reading a stored index found: the answers, or why the file was ignored (`missing`, `stale: …`, …). */
export interface StoredIndexRead {
  stored: StoredIndex;
  /** Undefined when the file was read and verified. */
  problem?: string;
  ms: number;
}

/** The key of a query text: its sha256. */
export const queryKey = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Where the stored index of a generation folder lives. */
export const storedIndexFile = (dir: string): string => path.join(dir, STORED_INDEX_FILE);

/** A query the stored index has no answer for, when the build must not ask the store (it is still loading). */
export class NotStoredError extends Error {
  constructor(readonly query: string) {
    super(`the stored index has no answer for ${query}`);
    this.name = 'NotStoredError';
  }
}

/** One generation's stored SELECT answers: those read from its file, and those added since (asked of the store). */
export class StoredIndex {
  private readonly added = new Map<string, { name: string; rows: readonly Row[] }>();
  /** Answers were added since the file was read or written. */
  private unsaved = false;

  private constructor(
    readonly generation: IndexedGeneration,
    private readonly payload: Payload,
    private readonly byKey: ReadonlyMap<string, EncodedAnswer>,
  ) {}

  /** A stored index with no answers yet (nothing on disk, or the file was ignored). */
  static empty(generation: IndexedGeneration): StoredIndex {
    return StoredIndex.of(generation, [], []);
  }

  /**
   * A stored index of answers already encoded against `strings` (answers gathered as they came: by-graph.ts), not
   * written yet. Each answer's key is its query text's ({@link queryKey}).
   */
  static of(generation: IndexedGeneration, strings: string[], answers: EncodedAnswer[]): StoredIndex {
    const stored = new StoredIndex(generation, { strings, answers }, new Map(answers.map((answer) => [answer.key, answer])));
    stored.unsaved = answers.length > 0;
    return stored;
  }

  /** Reads and verifies the stored index in the generation's folder; never throws. */
  static async read(generation: IndexedGeneration): Promise<StoredIndexRead> {
    const started = performance.now();
    const result = (stored: StoredIndex, problem?: string): StoredIndexRead => ({ stored, problem, ms: performance.now() - started });
    let bytes: Buffer;
    try {
      bytes = await readFile(storedIndexFile(generation.dir));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      return result(StoredIndex.empty(generation), code === 'ENOENT' ? 'missing' : `unreadable: ${code ?? (err as Error).message}`);
    }
    try {
      const payload = await verifiedPayload(bytes, generation);
      return result(new StoredIndex(generation, payload, new Map(payload.answers.map((answer) => [answer.key, answer]))));
    } catch (err) {
      return result(StoredIndex.empty(generation), (err as Error).message);
    }
  }

  /** Answers held: read from the file and added since. */
  get size(): number {
    return this.byKey.size + [...this.added.keys()].filter((key) => !this.byKey.has(key)).length;
  }

  /** True when answers were added since the file was read or last written: the file is worth writing. */
  get changed(): boolean {
    return this.unsaved;
  }

  /** The rows of the exact query `text`, when stored. */
  get(text: string): Row[] | undefined {
    return this.decoder(text)?.();
  }

  /** A function that decodes the rows of the exact query `text` each time it is called, when stored. */
  decoder(text: string): (() => Row[]) | undefined {
    const key = queryKey(text);
    const added = this.added.get(key);
    if (added) return () => [...added.rows];
    const answer = this.byKey.get(key);
    return answer && (() => decodeRows(answer, this.payload.strings));
  }

  /** Adds the rows the store gave for the query `text` (library name `name`). */
  add(text: string, name: string, rows: readonly Row[]): void {
    this.added.set(queryKey(text), { name, rows });
    this.unsaved = true;
  }

  /**
   * Writes every answer held into the generation folder, atomically (a temporary file renamed over the old one),
   * so a reader sees the old file or the new one. Throws when the folder is not writable.
   */
  async write(): Promise<{ bytes: number; answers: number; ms: number }> {
    const started = performance.now();
    // The answers held stay encoded as they are; the added ones are encoded against the same strings, extended.
    const table = new StringTable([...this.payload.strings]);
    const answers = this.payload.answers.filter((answer) => !this.added.has(answer.key));
    for (const [key, { name, rows }] of this.added) answers.push(table.encode(key, name, rows));
    const { manifest } = this.generation;
    const header: Omit<Header, 'payload'> = {
      format: FORMAT,
      version: STORED_INDEX_VERSION,
      generation: manifest.id,
      checksums: { public: manifest.checksums.public, nonPublic: manifest.checksums.nonPublic },
      answers: answers.length,
      written: new Date().toISOString(),
    };
    const file = storedIndexFile(this.generation.dir);
    const bytes = await framedBytes({ ...header }, { strings: table.strings, answers } satisfies Payload);
    await writeDurably(file, bytes);
    this.unsaved = false;
    return { bytes: bytes.length, answers: answers.length, ms: performance.now() - started };
  }
}

/** Checks a stored index file against its generation and itself, and decodes its payload; throws the reason. */
async function verifiedPayload(bytes: Buffer, generation: IndexedGeneration): Promise<Payload> {
  const framed = unframe(bytes);
  const header = framed.header as Partial<Header>;
  if (header.format !== FORMAT) throw new Error('corrupt: not a stored index');
  if (header.version !== STORED_INDEX_VERSION) throw new Error(`stale: format version ${String(header.version)}, not ${STORED_INDEX_VERSION}`);
  const { manifest } = generation;
  if (header.generation !== manifest.id) throw new Error(`stale: written for generation ${String(header.generation)}`);
  if (header.checksums?.public !== manifest.checksums.public || header.checksums?.nonPublic !== manifest.checksums.nonPublic) {
    throw new Error("stale: written for other quads (the generation's checksums differ)");
  }
  const payload = await framed.payload();
  if (!isPayload(payload)) throw new Error('corrupt: unexpected payload shape');
  // A deserialised typed array may be a view into the whole decompressed payload (87 MB at 100,000 objects):
  // copied, so that the payload's buffer is not kept for the few answers that point into it.
  for (const answer of payload.answers) if (answer.cells.byteLength !== answer.cells.buffer.byteLength) answer.cells = answer.cells.slice();
  return payload;
}

function isPayload(value: unknown): value is Payload {
  const payload = value as Partial<Payload> | null;
  if (typeof payload !== 'object' || payload === null || !Array.isArray(payload.strings) || !Array.isArray(payload.answers)) return false;
  if (!payload.strings.every((s) => typeof s === 'string')) return false;
  const limit = payload.strings.length;
  return payload.answers.every((answer: Partial<EncodedAnswer>) => {
    if (typeof answer?.key !== 'string' || typeof answer.name !== 'string' || typeof answer.rows !== 'number') return false;
    if (!Array.isArray(answer.vars) || !answer.vars.every((v) => typeof v === 'string')) return false;
    // Not `instanceof`: a deserialised array may come from another realm (a test VM context).
    if (!types.isUint32Array(answer.cells) || answer.cells.length !== answer.rows * answer.vars.length) return false;
    for (const cell of answer.cells) if (cell > limit) return false;
    return true;
  });
}

/** The rows of an encoded answer, as objects. */
export function decodeRows(answer: EncodedAnswer, strings: readonly string[]): Row[] {
  const { vars, cells } = answer;
  const rows: Row[] = new Array(answer.rows);
  for (let r = 0, at = 0; r < answer.rows; r++) {
    const row: Record<string, string> = {};
    for (let v = 0; v < vars.length; v++, at++) {
      const cell = cells[at]!;
      if (cell !== 0) row[vars[v]!] = strings[cell - 1]!;
    }
    rows[r] = row;
  }
  return rows;
}

/** How a build's rows were answered. */
export interface AnswerCounts {
  stored: number;
  asked: number;
}

/**
 * A SelectRows over the library that answers from `stored` when it holds the exact query, else asks the store
 * and adds the answer to `stored` (so it is written with it); with `fromStore: false` a missing answer rejects
 * with NotStoredError instead (a build ahead of the store, while it still loads the generation). Its `deferred`
 * form leaves a stored answer undecoded until the table reads it.
 */
export function storedSelect(
  deps: IndexDependencies,
  stored: StoredIndex,
  options: { fromStore: boolean },
  counts: AnswerCounts = { stored: 0, asked: 0 },
): DeferredSelectRows {
  const deferred = async (name: string, bindings?: Record<string, BoundTerm>): Promise<() => Row[]> => {
    const text = boundSelect(deps, name, bindings);
    const decode = stored.decoder(text);
    if (decode) {
      counts.stored++;
      return decode;
    }
    if (!options.fromStore) throw new NotStoredError(name);
    const answer = parseSelectJson(await deps.store.query(text, { format: 'application/sparql-results+json', label: name, nonPublic: deps.queries.get(name).nonPublic }));
    counts.asked++;
    stored.add(text, name, answer);
    return () => answer;
  };
  return Object.assign(async (name: string, bindings?: Record<string, BoundTerm>) => (await deferred(name, bindings))(), { deferred });
}
