/**
 * The stored index of a generation being made (harvest, load, demo): `writeGenerationIndex` computes the answers
 * the derived structures are built from (engine/indexes.ts) and writes them into the generation's folder;
 * `storedIndexStep` is the data commands' step that does it, fed the generation's text while it is written, or,
 * for a generation written on a parent, asking only the records that changed (collection-index/by-record.ts).
 */
import { access } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { askIndexQueries } from '../collection-index/build.js';
import { answerByGraph, feedByGraph, type ByGraphFeed, type ByGraphOutcome } from '../collection-index/by-graph.js';
import { answerOnParent, keepRecordAnswers, onParent, type ByRecordCounts } from '../collection-index/by-record.js';
import type { RecordTable } from '../collection-index/record-table.js';
import { recordAnswersFile } from '../collection-index/record-answers.js';
import { storedSelect, StoredIndex, type IndexedGeneration } from '../collection-index/stored-index.js';
import { QueryLibrary } from '../queries/library.js';
import { STATUS_QUERY } from '../records/status-index.js';
import type { Generation, GenerationTap, StagedGeneration } from '../store/generations.js';
import { StoreManager } from '../store/store-manager.js';
import type { QueryOptions, QueryStore, StoreQuery } from '../store/types.js';
import { Iris } from '../vocab/iris.js';
import type { ResourceKind } from './kind.js';

/** A store the stored index can be asked of: started on the generation being made, closed after. */
export type IndexingStore = QueryStore & { start(generationDir: string): Promise<unknown>; close(): Promise<void> };

export interface StoredIndexReport {
  answers: number;
  bytes: number;
  /** How many answers came from the generation's files, graph by graph, and how many from a store. */
  from: { files: number; store: number };
  /** Why the files could not be read graph by graph, when they could not. */
  refused?: string;
  ms: { files: number; load: number; queries: number; write: number };
  /**
   * The record answers kept for the next harvest (`record-answers.bin`): the records asked and those taken from
   * the parent's (a generation written on one), the file's size and time; or why none were kept or used.
   */
  records?: (Partial<ByRecordCounts> & { bytes: number; ms: number; parentProblem?: string }) | { problem: string; parentProblem?: string };
}

/** The phases of writing a stored index, in order; `store` and `queries` only when a store is needed. */
export type StoredIndexPhase = 'files' | 'store' | 'queries' | 'write';

/**
 * Writes the stored index of a generation being made: the answers of every query the derived structures are
 * built from (each kind's index queries, what its filters prepare, the record statuses), with the records' IRIs
 * under `baseUrl`, into the generation's folder (computeGenerationIndex).
 */
export async function writeGenerationIndex(generation: Generation, options: GenerationIndexOptions): Promise<StoredIndexReport> {
  const { stored, report, byGraph } = await computeGenerationIndex(generation, options);
  options.onPhase?.('write');
  const written = await stored.write();
  // The record answers, for the next harvest on this generation (nothing for one without a record index: `load`).
  const kept = byGraph === undefined ? { problem: 'the files were not read graph by graph' } : await keepRecordAnswers(generation, byGraph.records);
  const parentProblem = options.parentProblem === undefined ? {} : { parentProblem: options.parentProblem };
  const records = 'problem' in kept ? { ...kept, ...parentProblem } : { ...kept, ...(byGraph?.counts ?? {}), ...parentProblem };
  return { ...report, answers: written.answers, bytes: written.bytes, ms: { ...report.ms, write: written.ms }, records };
}

/** What computeGenerationIndex and writeGenerationIndex are told. */
export interface GenerationIndexOptions {
  baseUrl: string;
  /** The kinds whose collection indexes the stored index holds the answers for: every kind the service serves. */
  kinds: readonly ResourceKind<RecordTable>[];
  onPhase?: (phase: StoredIndexPhase) => void;
  openStore?: () => IndexingStore;
  /**
   * Resolves once `openStore`'s server holds the generation (a publication still loading it: stores.ts,
   * `publication`); a query the files cannot answer waits for it, and fails when it rejects.
   */
  storeHolds?: Promise<void>;
  /**
   * The answers by graph, computed while the generation was written (`feedByGraph`) or from the changed records
   * (`answerOnParent`); else read from its files.
   */
  byGraph?: Promise<ByGraphOutcome & { counts?: ByRecordCounts }>;
  /** Why the parent's record answers could not be used (reported). */
  parentProblem?: string;
}

/** The index's queries, bound to the base URL's IRIs: every kind's, and the record statuses. */
function indexQueries(options: Pick<GenerationIndexOptions, 'baseUrl' | 'kinds'>): { library: { queries: QueryLibrary; iris: Iris }; names: string[] } {
  return {
    library: { queries: QueryLibrary.forKinds(options.kinds), iris: new Iris(options.baseUrl) },
    names: [...options.kinds.flatMap((kind) => Object.values(kind.index.queries)), STATUS_QUERY],
  };
}

/**
 * Computes the stored index of a generation, not written yet. Queries whose answers lie one record graph at a
 * time are answered from the generation's files, graph by graph (collection-index/by-graph.ts): no store holds
 * the whole generation and no server is asked. Any other query is asked of a store, started only then: a store
 * worker of its own, or `openStore` (the remote server, which holds the generation by then: stores.ts,
 * publishStep; or a replica's, for a generation that came without its stored index).
 */
export async function computeGenerationIndex(
  generation: IndexedGeneration,
  options: GenerationIndexOptions,
): Promise<{ stored: StoredIndex; report: Omit<StoredIndexReport, 'bytes'>; byGraph?: Exclude<ByGraphOutcome, { refused: string }> & { counts?: ByRecordCounts } }> {
  const started = performance.now();
  const { library, names } = indexQueries(options);
  options.onPhase?.('files');
  const byGraph = await (options.byGraph ?? answerByGraph(library, generation.dir, names));
  const stored = 'refused' in byGraph ? StoredIndex.empty(generation) : StoredIndex.of(generation, byGraph.strings, byGraph.answers.map((answer) => answer.encoded));
  const from = { files: 'refused' in byGraph ? 0 : byGraph.answers.length, store: 0 };
  const read = performance.now();
  const store = new LazyStore(async () => {
    await options.storeHolds;
    options.onPhase?.('store');
    const opened = options.openStore?.() ?? new StoreManager({ includeNonPublic: true });
    await opened.start(generation.dir);
    options.onPhase?.('queries');
    return opened;
  });
  try {
    const counts = { stored: 0, asked: 0 };
    const select = storedSelect({ ...library, store }, stored, { fromStore: true }, counts);
    for (const kind of options.kinds) await askIndexQueries(kind.index, generation.manifest.id, select);
    await select(STATUS_QUERY);
    from.store = counts.asked;
    const queried = performance.now();
    return {
      stored,
      ...('refused' in byGraph ? {} : { byGraph }),
      report: {
        answers: stored.size,
        from,
        ...('refused' in byGraph ? { refused: byGraph.refused } : {}),
        ms: { files: read - started, load: store.startMs, queries: queried - read - store.startMs, write: 0 },
      },
    };
  } finally {
    await store.close();
  }
}

/** A store started on its first query, if any: asking a store is the exception once the files answer. */
class LazyStore implements QueryStore {
  readonly generation = undefined;
  startMs = 0;
  private opened: Promise<IndexingStore> | undefined;

  constructor(private readonly open: () => Promise<IndexingStore>) {}

  ready(): boolean {
    return true;
  }

  async query(sparql: StoreQuery, opts?: QueryOptions): Promise<string> {
    if (!this.opened) {
      const started = performance.now();
      this.opened = this.open();
      this.opened.then(() => (this.startMs = performance.now() - started), () => undefined);
    }
    return (await this.opened).query(sparql, opts);
  }

  async close(): Promise<void> {
    const opened = await this.opened?.catch(() => undefined);
    await opened?.close();
  }
}

/**
 * A `derive` step for createGeneration that writes the stored index and tells `onDone` how it went; it never
 * fails the generation (without a stored index the server builds the structures from the store, and stores them).
 * On the remote store it runs while the servers load the generation (stores.ts, `publication`): it reads the
 * generation's files, and asks the server only once `storeHolds` says the server holds the generation.
 */
export function storedIndexStep(options: {
  baseUrl: string;
  kinds: readonly ResourceKind<RecordTable>[];
  onPhase?: (phase: StoredIndexPhase) => void;
  openStore?: () => IndexingStore;
  onDone: (outcome: { report: StoredIndexReport } | { problem: string }) => void;
  /** Offer a `tap` that answers while the generation is written (default true). */
  feed?: boolean;
}): StoredIndexStep {
  /** Answers being computed as generations are written (`tap`), by generation id. */
  const fed = new Map<string, ByGraphFeed>();
  const step = async (staged: StagedGeneration, storeHolds?: Promise<void>): Promise<void> => {
    const feed = fed.get(staged.id);
    fed.delete(staged.id);
    let outcome: { report: StoredIndexReport } | { problem: string };
    try {
      let byGraph = feed?.answers;
      let parentProblem: string | undefined;
      // Written on a parent and not fed: only the changed records are asked, the others' rows are the parent's.
      if (byGraph === undefined && staged.parent !== undefined) {
        const from = await onParent(staged, staged.parent);
        if ('problem' in from) parentProblem = from.problem;
        else {
          const { library, names } = indexQueries(options);
          byGraph = answerOnParent(library, staged, names, from);
        }
      }
      const given = { ...(storeHolds === undefined ? {} : { storeHolds }), ...(byGraph ? { byGraph } : {}), ...(parentProblem === undefined ? {} : { parentProblem }) };
      outcome = { report: await writeGenerationIndex(staged, { ...options, ...given }) };
    } catch (err) {
      outcome = { problem: (err as Error).message };
    }
    options.onDone(outcome);
  };
  const tap = async (id: string, parent?: Generation): Promise<GenerationTap> => {
    // A generation written on a parent that kept its record answers: nothing to compute while it is written.
    if (parent !== undefined && (await access(recordAnswersFile(parent.dir)).then(() => true, () => false))) return IDLE_TAP;
    const { library, names } = indexQueries(options);
    const feed = feedByGraph(library, names);
    fed.set(id, feed);
    return {
      ...feed.tap,
      abort: async () => {
        fed.delete(id);
        await feed.tap.abort();
      },
    };
  };
  return options.feed === false ? step : Object.assign(step, { tap });
}

/** A tap that takes the text and does nothing with it. */
const IDLE_TAP: GenerationTap = { public: async () => undefined, nonPublic: async () => undefined, end: async () => undefined, abort: async () => undefined };

/**
 * The stored index step: run once the generation is checked (`derive`, or after its publication); its `tap`, given
 * to createGeneration, has the answers by graph computed while the generation is written, from its text.
 */
export type StoredIndexStep = ((staged: StagedGeneration, storeHolds?: Promise<void>) => Promise<void>) & { tap?: (id: string, parent?: Generation) => Promise<GenerationTap> };
