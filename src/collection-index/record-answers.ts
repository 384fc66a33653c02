/**
 * The answers of the record-scoped index queries kept record by record (docs/incremental.md, "The stored index,
 * record by record"): for each public record of a generation, in the order of its public file, the rows each
 * record-scoped query gives over that record's graph. The stored index's answer of such a query is these rows, record
 * after record, with a DISTINCT query's rows repeated across records kept once (the first). Kept beside the
 * generation as `record-answers.bin`, they let the next harvest ask the queries of its changed records only and
 * take every other record's rows from here (`mergeRecordAnswers`), with the same result as asking them all.
 *
 * Within a record the rows are in a canonical order (by their values, then their terms' kinds), so a record's rows
 * do not depend on which records were asked beside it, and the answers of an incremental harvest are those of a
 * harvest from nothing, row for row.
 *
 *   line 1   {"format":"museum-record-answers","version":1,"generation":…,"payload":{bytes,sha256}}
 *   rest     gzip(v8.serialize({ strings, graphs, digests, answers: [{ key, name, vars, distinct, counts, cells, kinds }] }))
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { types } from 'node:util';
import { writeDurably } from '../store/durable-write.js';
import { framedBytes, unframe } from '../store/framed-file.js';
import type { EncodedAnswer } from './stored-index.js';
import { StringTable } from './stored-index.js';

export const RECORD_ANSWERS_FILE = 'record-answers.bin';
const FORMAT = 'museum-record-answers';
const VERSION = 1;

/** One record-scoped query's rows, record by record, encoded against the strings of its {@link RecordAnswers}. */
export interface RecordAnswer {
  /** The key of the query's text (`queryKey`), as in the stored index. */
  key: string;
  name: string;
  vars: string[];
  distinct: boolean;
  /** Rows per record, in the order of `graphs`. */
  counts: Uint32Array;
  /** Row by row, one cell per variable (a string's index plus one; 0 is unbound). */
  cells: Uint32Array;
  /** A DISTINCT query's: per row, the cell of its terms' kinds (rows of equal values and other kinds are distinct). */
  kinds?: Uint32Array;
}

/** The record-scoped answers of a generation's public records. */
export interface RecordAnswers {
  strings: string[];
  /** The public records' graphs, in the order of the public file. */
  graphs: string[];
  answers: RecordAnswer[];
}

/** As kept beside a generation: with the digest of each record (`record-index.jsonl.gz`'s). */
export interface KeptRecordAnswers extends RecordAnswers {
  generation: string;
  digests: string[];
}

/** One query's rows of one chunk of records as they came from a worker: encoded, each with its graph's cell. */
export interface ChunkRows {
  rows: number;
  cells: Uint32Array;
  graphs: Uint32Array;
  kinds?: Uint32Array;
}

/**
 * The record answers of chunks of records: `chunks` in order, each with its record graphs in order (`graphs`) and,
 * per query, its rows (`rows[query]`, absent: none). Rows are put record by record, in canonical order within each.
 */
export function recordAnswersOfChunks(
  table: StringTable,
  queries: readonly { key: string; name: string; vars: string[]; distinct: boolean }[],
  chunks: readonly { graphs: readonly string[]; rows: readonly (ChunkRows | undefined)[] }[],
): RecordAnswers {
  const graphs = chunks.flatMap((chunk) => chunk.graphs);
  const answers = queries.map((query, q): RecordAnswer => {
    const width = query.vars.length;
    const counts = new Uint32Array(graphs.length);
    const total = chunks.reduce((n, chunk) => n + (chunk.rows[q]?.rows ?? 0), 0);
    const cells = new Uint32Array(total * width);
    const kinds = query.distinct ? new Uint32Array(total) : undefined;
    let record = 0;
    let at = 0;
    for (const chunk of chunks) {
      const rows = chunk.rows[q];
      if (rows !== undefined && rows.rows > 0) {
        // Rows bucketed by their record's place in the chunk (a counting sort), then sorted within each record.
        const position = new Map(chunk.graphs.map((graph, i) => [table.cell(graph), i]));
        const place = new Uint32Array(rows.rows);
        for (let r = 0; r < rows.rows; r++) {
          const p = position.get(rows.graphs[r] as number);
          if (p === undefined) throw new Error(`${query.name}: a row of a graph not in its chunk (${table.strings[(rows.graphs[r] as number) - 1]})`);
          place[r] = p;
          counts[record + p]! += 1;
        }
        const start = new Uint32Array(chunk.graphs.length + 1);
        for (let p = 0; p < chunk.graphs.length; p++) start[p + 1] = (start[p] as number) + (counts[record + p] as number);
        const next = start.slice(0, -1);
        const order = new Uint32Array(rows.rows);
        for (let r = 0; r < rows.rows; r++) order[next[place[r] as number]!++] = r;
        for (let p = 0; p < chunk.graphs.length; p++) {
          const [from, to] = [start[p] as number, start[p + 1] as number];
          if (to - from > 1) order.subarray(from, to).sort((a, b) => compareRows(table.strings, rows.cells, width, a, b, rows.kinds));
        }
        for (const r of order) {
          cells.set(rows.cells.subarray(r * width, (r + 1) * width), at * width);
          if (kinds && rows.kinds) kinds[at] = rows.kinds[r] as number;
          at++;
        }
      }
      record += chunk.graphs.length;
    }
    return { key: query.key, name: query.name, vars: query.vars, distinct: query.distinct, counts, cells, ...(kinds ? { kinds } : {}) };
  });
  return { strings: table.strings, graphs, answers };
}

/** Rows `a` and `b` of `cells` (of `width` cells each) compared by their values, then their kinds. */
function compareRows(strings: readonly string[], cells: Uint32Array, width: number, a: number, b: number, kinds?: Uint32Array): number {
  for (let v = 0; v < width; v++) {
    const x = cells[a * width + v] as number;
    const y = cells[b * width + v] as number;
    if (x === y) continue;
    if (x === 0 || y === 0) return x === 0 ? -1 : 1;
    const sx = strings[x - 1] as string;
    const sy = strings[y - 1] as string;
    return sx < sy ? -1 : sx > sy ? 1 : 0;
  }
  if (!kinds) return 0;
  const kx = strings[(kinds[a] as number) - 1] ?? '';
  const ky = strings[(kinds[b] as number) - 1] ?? '';
  return kx < ky ? -1 : kx > ky ? 1 : 0;
}

/**
 * The stored index's answer of each query of `answers`: the rows record after record, of a DISTINCT query's rows
 * repeated across records the first.
 */
export function storedAnswersOf(answers: RecordAnswers): EncodedAnswer[] {
  return answers.answers.map((answer) => {
    const width = answer.vars.length;
    const rows = answer.counts.reduce((n, c) => n + c, 0);
    if (!answer.distinct || !answer.kinds) return { key: answer.key, name: answer.name, vars: answer.vars, rows, cells: answer.cells };
    const seen = new Set<string>();
    const kept: number[] = [];
    for (let r = 0; r < rows; r++) {
      const key = `${answer.cells.subarray(r * width, (r + 1) * width).join(',')}|${answer.kinds[r] as number}`;
      if (seen.has(key)) continue;
      seen.add(key);
      kept.push(r);
    }
    const cells = new Uint32Array(kept.length * width);
    kept.forEach((r, i) => cells.set(answer.cells.subarray(r * width, (r + 1) * width), i * width));
    return { key: answer.key, name: answer.name, vars: answer.vars, rows: kept.length, cells };
  });
}

/**
 * The record answers of a generation whose public records are `records` (graph and digest, in file order), made of
 * `fresh` (the answers over some of its records, asked anew) and `parent` (a parent generation's): a record's
 * rows are the fresh ones when it was asked, else its rows in the parent when it is there with the same digest. A
 * record found in neither is an error: the caller asks every record the parent cannot answer. The queries are
 * those of `fresh`, each of which the parent must hold under the same key.
 */
export function mergeRecordAnswers(records: readonly (readonly [graph: string, digest: string])[], fresh: RecordAnswers, parent: KeptRecordAnswers, generation: string): KeptRecordAnswers {
  const table = new StringTable([...fresh.strings]);
  // A parent string's cell in the new table, made when first needed.
  const fromParent = new Uint32Array(parent.strings.length + 1);
  const parentCell = (cell: number): number => {
    if (cell === 0) return 0;
    let mapped = fromParent[cell] as number;
    if (mapped === 0) mapped = fromParent[cell] = table.cell(parent.strings[cell - 1] as string);
    return mapped;
  };
  const freshAt = new Map(fresh.graphs.map((graph, i) => [graph, i]));
  const parentAt = new Map(parent.graphs.map((graph, i) => [graph, i]));
  const sources = records.map(([graph, digest]) => {
    const f = freshAt.get(graph);
    if (f !== undefined) return { from: 'fresh' as const, at: f };
    const p = parentAt.get(graph);
    if (p !== undefined && parent.digests[p] === digest) return { from: 'parent' as const, at: p };
    throw new Error(`the record <${graph}> was neither asked nor unchanged since generation ${parent.generation}`);
  });
  const answers = fresh.answers.map((answer): RecordAnswer => {
    const old = parent.answers.find((a) => a.key === answer.key);
    if (old === undefined || old.vars.join() !== answer.vars.join() || old.distinct !== answer.distinct) {
      throw new Error(`generation ${parent.generation} has no record answers of ${answer.name} as asked now`);
    }
    const width = answer.vars.length;
    const starts = { fresh: offsets(answer.counts), parent: offsets(old.counts) };
    const counts = new Uint32Array(records.length);
    const total = sources.reduce((n, s) => n + (s.from === 'fresh' ? (answer.counts[s.at] as number) : (old.counts[s.at] as number)), 0);
    const cells = new Uint32Array(total * width);
    const kinds = answer.distinct ? new Uint32Array(total) : undefined;
    let at = 0;
    sources.forEach((source, i) => {
      const from = source.from === 'fresh' ? answer : old;
      const n = from.counts[source.at] as number;
      const start = starts[source.from][source.at] as number;
      counts[i] = n;
      for (let r = start; r < start + n; r++, at++) {
        for (let v = 0; v < width; v++) {
          const cell = from.cells[r * width + v] as number;
          cells[at * width + v] = source.from === 'fresh' ? cell : parentCell(cell);
        }
        if (kinds && from.kinds) kinds[at] = source.from === 'fresh' ? (from.kinds[r] as number) : parentCell(from.kinds[r] as number);
      }
    });
    return { key: answer.key, name: answer.name, vars: answer.vars, distinct: answer.distinct, counts, cells, ...(kinds ? { kinds } : {}) };
  });
  return { generation, strings: table.strings, graphs: records.map(([graph]) => graph), digests: records.map(([, digest]) => digest), answers };
}

/** The index of each record's first row. */
function offsets(counts: Uint32Array): Uint32Array {
  const starts = new Uint32Array(counts.length);
  let sum = 0;
  counts.forEach((n, i) => {
    starts[i] = sum;
    sum += n;
  });
  return starts;
}

/** Where the record answers of a generation folder live. */
export const recordAnswersFile = (dir: string): string => path.join(dir, RECORD_ANSWERS_FILE);

/** Writes `answers` into the generation folder `dir`, atomically (a temporary file renamed); the bytes written. */
export async function writeRecordAnswers(dir: string, answers: KeptRecordAnswers): Promise<number> {
  const { generation, strings, graphs, digests } = answers;
  const bytes = await framedBytes({ format: FORMAT, version: VERSION, generation }, { strings, graphs, digests, answers: answers.answers });
  await writeDurably(recordAnswersFile(dir), bytes);
  return bytes.length;
}

/**
 * The record answers kept in the folder of generation `generation`, or why there are none to use (missing,
 * written for another generation or format, damaged): the caller then asks every record.
 */
export async function readRecordAnswers(dir: string, generation: string): Promise<KeptRecordAnswers | { problem: string }> {
  let bytes: Buffer;
  try {
    bytes = await readFile(recordAnswersFile(dir));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { problem: code === 'ENOENT' ? 'missing' : `unreadable: ${code ?? (err as Error).message}` };
  }
  let payload: Omit<KeptRecordAnswers, 'generation'>;
  try {
    const { header, payload: read } = unframe(bytes);
    if (header.format !== FORMAT) return { problem: 'corrupt: not record answers' };
    if (header.version !== VERSION) return { problem: `stale: format version ${String(header.version)}, not ${VERSION}` };
    if (header.generation !== generation) return { problem: `stale: written for generation ${String(header.generation)}` };
    payload = (await read()) as Omit<KeptRecordAnswers, 'generation'>;
  } catch (err) {
    return { problem: (err as Error).message };
  }
  if (!isPayload(payload)) return { problem: 'corrupt: unexpected payload shape' };
  return { generation, ...payload };
}

function isPayload(value: Omit<KeptRecordAnswers, 'generation'>): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const { strings, graphs, digests, answers } = value;
  if (![strings, graphs, digests, answers].every(Array.isArray) || graphs.length !== digests.length) return false;
  return answers.every((a) => {
    if (typeof a?.key !== 'string' || !Array.isArray(a.vars) || !types.isUint32Array(a.counts) || !types.isUint32Array(a.cells)) return false;
    const rows = a.counts.reduce((n, c) => n + c, 0);
    return a.counts.length === graphs.length && a.cells.length === rows * a.vars.length && (!a.distinct || (types.isUint32Array(a.kinds) && a.kinds.length === rows));
  });
}
