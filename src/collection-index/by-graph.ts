/**
 * Answers a generation's index SELECTs from its files, a few record graphs at a time, without loading the
 * generation into one store or asking a server (docs/collection-index.md, "The stored index"). A query qualifies
 * when its parsed form shows that each answer lies in one record graph beside the admin graph (graph-scope.ts);
 * the worker (by-graph-worker.ts) then streams the files, loads chunks of whole graphs into small Oxigraph stores
 * and unions their answers. The answers are those the store gives (store-worker.ts): the admin-scoped queries over
 * the admin graph, the record-scoped ones over the public part. A query that matches in the admin graph itself, or
 * files whose graphs are not kept together (a hand-made dump), are refused, and the caller asks a store.
 */
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { QueryLibrary } from '../queries/library.js';
import type { Worker } from 'node:worker_threads';
import sparqljs, { type SelectQuery, type VariableTerm } from 'sparqljs';
import { generationFiles, type GenerationTap } from '../store/generations.js';
import { WholeLines } from '../store/line-reader.js';
import { startTsWorker, workerModule } from '../threads/ts-worker.js';
import type { Iris } from '../vocab/iris.js';
import { boundSelect } from './build.js';
import { graphScope } from './graph-scope.js';
import type { Row } from './record-table.js';
import { recordAnswersOfChunks, storedAnswersOf, type ChunkRows, type RecordAnswers } from './record-answers.js';
import { decodeRows, queryKey, StringTable, type EncodedAnswer } from './stored-index.js';

/** One query the worker answers. */
export interface ByGraphQuery {
  name: string;
  /** The query as bound (its answer's key). */
  text: string;
  /** A record-scoped query's text as asked, when it differs: its graph variable projected too. */
  asked?: string;
  /** A record-scoped query's graph variable: each row's record graph. */
  graph?: string;
  /** The projected variables, in order (the graph variable only when the query itself projects it). */
  vars: string[];
  scope: 'admin' | 'record';
  distinct: boolean;
}

/** What the worker is started with. */
export interface ByGraphData {
  /** The generation's files; undefined: the worker is fed the text as it is written (`feedByGraph`). */
  files: { public: string; nonPublic: string } | undefined;
  /** The admin graph's IRI. */
  adminGraph: string;
  queries: ByGraphQuery[];
  /**
   * The predicates (as N-Quads terms, `<iri>`) that a record-scoped query can match, or undefined for any: the
   * statements of record graphs with other predicates are not loaded, since no query can see them.
   */
  predicates: string[] | undefined;
  /** Statements per chunk, about: a chunk ends at the first new graph past this many. */
  chunkQuads: number;
  /** This worker's share: the chunks whose number modulo `parts` is `part`. */
  part: number;
  parts: number;
}

/** What the main thread sends a worker that reads no files (`feedByGraph`): whole lines of each part, then the end. */
export type ByGraphFeedMessage = { type: 'public' | 'nonPublic'; text: string } | { type: 'end' };

/** What the worker sends. */
export type ByGraphMessage =
  /** Fed text of `bytes` characters was read. */
  | { type: 'read'; bytes: number }
  /** The record graphs of chunk `chunk`, in order (sent by the worker that asks it, before its rows). */
  | { type: 'graphs'; chunk: number; graphs: string[] }
  /**
   * Rows of one query over chunk `chunk` (-1: the admin graph); a record-scoped query's with each row's record
   * graph (`graphs`), a DISTINCT query's with each row's terms' kinds (`kinds`).
   */
  | { type: 'rows'; query: number; chunk: number; rows: Row[]; graphs?: string[]; kinds?: string[] }
  | { type: 'done'; chunks: number; quads: number; loaded: number; ms: { load: number; queries: number } }
  | { type: 'refused'; reason: string }
  | { type: 'failed'; message: string };

/** One query's answer by graph: encoded against the answers' strings; `rows` decodes it on each read. */
export interface ByGraphAnswer {
  name: string;
  text: string;
  encoded: EncodedAnswer;
  readonly rows: Row[];
}

/** The answer of query `query` (its name and text), encoded against `strings`. */
export function byGraphAnswer(query: { name: string; text: string }, encoded: EncodedAnswer, strings: readonly string[]): ByGraphAnswer {
  return {
    name: query.name,
    text: query.text,
    encoded,
    get rows(): Row[] {
      return decodeRows(encoded, strings);
    },
  };
}

/** The answers by graph, and the queries left to a store. */
export interface ByGraphAnswers {
  answers: ByGraphAnswer[];
  /** The record-scoped queries' rows, record by record (against the same strings). */
  records: RecordAnswers;
  /** The strings the answers' cells point into (each value once). */
  strings: string[];
  /** Queries whose answer needs the whole generation in one store, with why. */
  left: { name: string; reason: string }[];
  chunks: number;
  /** Statements of the record graphs read, and how many of them were loaded (those a query can match). */
  quads: number;
  loaded: number;
  workers: number;
  /** The whole, and the workers' time loading chunks and asking them (added up). */
  ms: { total: number; load: number; queries: number };
}

const union = (a: ReadonlySet<string> | 'any', b: ReadonlySet<string> | 'any'): ReadonlySet<string> | 'any' =>
  a === 'any' || b === 'any' ? 'any' : new Set([...a, ...b]);

/** `text`, a SELECT, with `variable` projected as well. */
function withProjected(text: string, variable: string): string {
  const ast = new sparqljs.Parser().parse(text) as SelectQuery;
  return new sparqljs.Generator().stringify({ ...ast, variables: [...ast.variables, { termType: 'Variable', value: variable } as VariableTerm] } as SelectQuery);
}

/**
 * About 200k statements per chunk: large enough that loading dominates the per-chunk query overhead, small
 * enough that a chunk's store stays near 100 MB.
 */
export const CHUNK_QUADS = 200_000;

/**
 * Workers at once: two, each reading the files and taking every other chunk. Reading is repeated, but loading and
 * asking (about two thirds of the work) are shared, so two cores finish in about 60% of the time of one.
 */
export const WORKERS = Math.max(1, Math.min(2, availableParallelism()));

/** What answering needs before any statement is read: the queries by scope, the predicates they match, the workers. */
interface ByGraphPlan {
  data: Omit<ByGraphData, 'part' | 'files'>;
  queries: ByGraphQuery[];
  left: ByGraphAnswers['left'];
}

function plan(deps: { queries: QueryLibrary; iris: Iris }, names: readonly string[], options: ByGraphOptions): ByGraphPlan {
  const queries: ByGraphQuery[] = [];
  const left: ByGraphAnswers['left'] = [];
  let predicates: ReadonlySet<string> | 'any' = new Set<string>();
  for (const name of new Set(names)) {
    const entry = deps.queries.get(name);
    const scope = graphScope(entry.ast, entry.params.map((p) => p.name));
    if (scope.scope === 'whole') left.push({ name, reason: scope.reason });
    else {
      const text = boundSelect(deps, name);
      const vars = (entry.ast as SelectQuery).variables.map((v) => (v as VariableTerm).value);
      if (scope.scope === 'admin') queries.push({ name, text, vars, scope: 'admin', distinct: false });
      else {
        const asked = vars.includes(scope.variable) ? undefined : withProjected(text, scope.variable);
        queries.push({ name, text, ...(asked === undefined ? {} : { asked }), graph: scope.variable, vars, scope: 'record', distinct: scope.distinct });
      }
    }
    if (scope.scope === 'record') predicates = union(predicates, scope.predicates);
  }
  const data = {
    adminGraph: deps.iris.adminGraph,
    queries,
    predicates: predicates === 'any' ? undefined : [...predicates].map((iri) => `<${iri}>`),
    chunkQuads: options.chunkQuads ?? CHUNK_QUADS,
    parts: options.workers ?? WORKERS,
  };
  return { data, queries, left };
}

export interface ByGraphOptions {
  chunkQuads?: number;
  workers?: number;
}

/** The answers, or why the generation cannot be read graph by graph. */
export type ByGraphOutcome = ByGraphAnswers | { refused: string };

/**
 * Starts the workers of `planned` (on the generation's `files`, or fed by the caller) and gathers their answers;
 * `onRead` hears each worker's acknowledgement of fed text. The workers end with the answers.
 */
function answering(planned: ByGraphPlan, files: ByGraphData['files'], onRead?: (worker: number, bytes: number) => void): { workers: Worker[]; outcome: Promise<ByGraphOutcome> } {
  const started = performance.now();
  const { data, queries, left } = planned;
  const workers = Array.from({ length: data.parts }, (_, part) => startTsWorker(workerModule(import.meta.url, 'by-graph-worker'), { ...data, files, part }));
  /**
   * Per query, the rows of each chunk, encoded as they come (each value held once in `table`: rows as objects
   * took gigabytes at a million objects), put record by record at the end (record-answers.ts), whichever worker
   * answered first.
   */
  const table = new StringTable();
  const record = queries.flatMap((q, i) => (q.scope === 'record' ? [i] : []));
  /** Per chunk, its record graphs and each record query's rows (by position in `record`); the admin queries' rows. */
  const chunks = new Map<number, { graphs: string[]; rows: (ChunkRows | undefined)[] }>();
  const chunkOf = (number: number): { graphs: string[]; rows: (ChunkRows | undefined)[] } => {
    let chunk = chunks.get(number);
    if (chunk === undefined) chunks.set(number, (chunk = { graphs: [], rows: [] }));
    return chunk;
  };
  const adminRows = new Map<number, EncodedAnswer>();
  const outcome = (async (): Promise<ByGraphOutcome> => {
    try {
      const outcomes = await Promise.all(
        workers.map(
          (worker, w) =>
            new Promise<Extract<ByGraphMessage, { type: 'done' }> | { refused: string }>((resolve, reject) => {
              worker.on('message', (message: ByGraphMessage) => {
                if (message.type === 'rows') {
                  const query = queries[message.query] as ByGraphQuery;
                  const cells = table.cells(message.rows, query.vars);
                  if (query.scope === 'admin') {
                    adminRows.set(message.query, { key: queryKey(query.text), name: query.name, vars: query.vars, rows: message.rows.length, cells });
                  } else {
                    const encode = (values: readonly string[]): Uint32Array => Uint32Array.from(values, (value) => table.cell(value));
                    chunkOf(message.chunk).rows[record.indexOf(message.query)] = {
                      rows: message.rows.length,
                      cells,
                      graphs: encode(message.graphs ?? []),
                      ...(message.kinds ? { kinds: encode(message.kinds) } : {}),
                    };
                  }
                } else if (message.type === 'graphs') chunkOf(message.chunk).graphs = message.graphs;
                else if (message.type === 'read') onRead?.(w, message.bytes);
                else if (message.type === 'done') resolve(message);
                else if (message.type === 'refused') resolve({ refused: message.reason });
                else reject(new Error(message.message));
              });
              worker.once('error', reject);
              worker.once('exit', (code) => reject(new Error(`a by-graph worker exited (${code}) before it answered`)));
            }),
        ),
      );
      const refused = outcomes.find((o) => 'refused' in o);
      if (refused) return refused;
      const done = outcomes as Extract<ByGraphMessage, { type: 'done' }>[];
      const ordered = [...chunks.keys()].sort((a, b) => a - b).map((number) => chunks.get(number) as { graphs: string[]; rows: (ChunkRows | undefined)[] });
      const records = recordAnswersOfChunks(
        table,
        record.map((i) => {
          const q = queries[i] as ByGraphQuery;
          return { key: queryKey(q.text), name: q.name, vars: q.vars, distinct: q.distinct };
        }),
        ordered,
      );
      const stored = storedAnswersOf(records);
      const strings = table.strings;
      const encodedOf = (i: number): EncodedAnswer =>
        adminRows.get(i) ?? stored[record.indexOf(i)] ?? { key: queryKey((queries[i] as ByGraphQuery).text), name: (queries[i] as ByGraphQuery).name, vars: [], rows: 0, cells: new Uint32Array() };
      return {
        answers: queries.map((q, i) => byGraphAnswer(q, encodedOf(i), strings)),
        records,
        strings,
        left,
        chunks: done[0]?.chunks ?? 0,
        quads: done[0]?.quads ?? 0,
        loaded: done.reduce((n, d) => n + d.loaded, 0),
        workers: data.parts,
        ms: { total: performance.now() - started, load: done.reduce((n, d) => n + d.ms.load, 0), queries: done.reduce((n, d) => n + d.ms.queries, 0) },
      };
    } finally {
      await Promise.all(workers.map((worker) => worker.terminate()));
    }
  })();
  return { workers, outcome };
}

/**
 * The answers of the queries `names` (the admin graph bound as every SELECT of the index binds it) over the
 * generation in `generationDir`, or `{ refused }` with the reason when the files cannot be read graph by graph.
 */
export function answerByGraph(deps: { queries: QueryLibrary; iris: Iris }, generationDir: string, names: readonly string[], options: ByGraphOptions = {}): Promise<ByGraphOutcome> {
  return answering(plan(deps, names, options), generationFiles(generationDir)).outcome;
}

/** Text fed to the workers and not yet read by the slowest of them, at most: the writer waits beyond it. */
const FEED_AHEAD_BYTES = 32 << 20;
/** Text gathered before it goes to the workers, in one message. */
const FEED_BATCH_BYTES = 1 << 20;

/** The same answers as {@link answerByGraph}, computed from the generation's text as it is written (a tap). */
export interface ByGraphFeed {
  /** The generation's statements as they are written; never fails the generation (a failure is `answers`'). */
  tap: GenerationTap;
  /** The answers, once the tap has ended. */
  answers: Promise<ByGraphOutcome>;
}

/**
 * Answers the queries `names` while the generation is written (stores.ts, `publication`; engine/indexes.ts,
 * `storedIndexStep`): the public and non-public text goes to the workers in batches of whole lines, the public
 * text to every worker (each takes its share of the chunks, as from the files), the non-public to the first (the
 * admin graph). Nothing is read back from the generation's files, and the workers answer while the harvest
 * writes. The writer waits when the slowest worker is {@link FEED_AHEAD_BYTES} behind.
 */
export function feedByGraph(deps: { queries: QueryLibrary; iris: Iris }, names: readonly string[], options: ByGraphOptions = {}): ByGraphFeed {
  const planned = plan(deps, names, options);
  const unread = new Array<number>(planned.data.parts).fill(0);
  let waiting: (() => void) | undefined;
  const { workers, outcome } = answering(planned, undefined, (w, bytes) => {
    unread[w] = (unread[w] ?? 0) - bytes;
    if (waiting && Math.max(...unread) <= FEED_AHEAD_BYTES) {
      const wake = waiting;
      waiting = undefined;
      wake();
    }
  });
  // Settled (answered, refused or failed): nothing more is fed, and a writer waiting is let go.
  let settled = false;
  const answers = outcome.finally(() => {
    settled = true;
    waiting?.();
  });
  answers.catch(() => undefined);
  const lines = { public: new WholeLines(), nonPublic: new WholeLines() };
  const batch = { public: [] as string[], nonPublic: [] as string[] };
  const size = { public: 0, nonPublic: 0 };
  const post = (part: 'public' | 'nonPublic', text: string): void => {
    const targets = part === 'public' ? workers : workers.slice(0, 1);
    targets.forEach((worker, w) => {
      unread[w] = (unread[w] ?? 0) + text.length;
      worker.postMessage({ type: part, text } satisfies ByGraphFeedMessage);
    });
  };
  const send = (part: 'public' | 'nonPublic'): void => {
    if (batch[part].length === 0) return;
    post(part, batch[part].join(''));
    batch[part] = [];
    size[part] = 0;
  };
  const feed = async (part: 'public' | 'nonPublic', chunk: string): Promise<void> => {
    if (settled) return;
    // Whole lines only: the part after the last line end waits for the next chunk.
    const text = lines[part].take(chunk);
    if (text === '') return;
    batch[part].push(text);
    size[part] += text.length;
    if (size[part] < FEED_BATCH_BYTES) return;
    send(part);
    if (Math.max(...unread) > FEED_AHEAD_BYTES && !settled) await new Promise<void>((resolve) => (waiting = resolve));
  };
  return {
    tap: {
      public: (chunk) => feed('public', chunk),
      nonPublic: (chunk) => feed('nonPublic', chunk),
      end: async () => {
        if (settled) return;
        for (const part of ['public', 'nonPublic'] as const) {
          const last = lines[part].end();
          if (last !== '') batch[part].push(last);
          send(part);
        }
        for (const worker of workers) worker.postMessage({ type: 'end' } satisfies ByGraphFeedMessage);
      },
      abort: async () => {
        settled = true;
        waiting?.();
        await Promise.all(workers.map((worker) => worker.terminate()));
      },
    },
    answers,
  };
}
