/**
 * The store seam (docs/architecture.md, "The remote store"): endpoints reach data only through `QueryStore`,
 * so the embedded Oxigraph workers can be replaced by a remote SPARQL 1.1 endpoint without touching them.
 */
import type { EventEmitter } from 'node:events';
import type { BoundQuery } from '../queries/library.js';
import type { ShapingJob } from './shaped-records.js';
import type { RecordKind } from '../vocab/iris.js';

/** Serialisations a query can answer in: RDF for CONSTRUCT/DESCRIBE, SPARQL results for SELECT/ASK. */
export const RDF_FORMATS = ['application/n-quads', 'application/n-triples', 'text/turtle', 'application/rdf+xml', 'application/ld+json'] as const;
export const RESULTS_FORMATS = [
  'application/sparql-results+json',
  'application/sparql-results+xml',
  'text/csv',
  'text/tab-separated-values',
] as const;
export type RdfFormat = (typeof RDF_FORMATS)[number];
export type ResultsFormat = (typeof RESULTS_FORMATS)[number];
export type QueryResultFormat = RdfFormat | ResultsFormat;

export interface QueryOptions {
  /**
   * Answer format. Defaults to N-Quads for CONSTRUCT/DESCRIBE and SPARQL JSON for SELECT/ASK; a format of
   * the wrong family for the query form rejects with `QueryError`.
   */
  format?: QueryResultFormat;
  /** Time from the call to the answer, queueing included; past it the query rejects with `QueryDeadlineError`. */
  deadlineMs?: number;
  /** Name reported to metrics (such as the library query name); defaults to the query form. */
  label?: string;
  /**
   * Let the default graph be the union of all named graphs (the SPARQL endpoint's dataset). Default false:
   * the default graph is the store's own, which holds nothing since every quad sits in a record graph.
   */
  unionDefaultGraph?: boolean;
  /**
   * Read the generation's non-public part (the admin graph and the graphs of records that are not public)
   * instead of its public part. The embedded store keeps the two apart (store-worker.ts); only the record
   * statuses and v1's private objects ask for it. A library query bound by the library (BoundQuery) asks for it
   * by its `#+ part: non-public` header; a query sent as text says it here. The remote store's REST view holds both in one dataset, where
   * the library's queries give the same answers either way (test/store/public-part.test.ts).
   */
  nonPublic?: boolean;
  /**
   * A client's query (the SPARQL endpoint's), which may run until its deadline. An embedded store whose two
   * workers share the work runs clients' queries on one of them and steers its own queries to the other
   * while one runs (StoreManager, option `share`).
   */
  clientQuery?: boolean;
  /**
   * Shape the records of the answer (a page's rows of record graphs as TSV results, or one record's CONSTRUCT as
   * N-Triples) in the store's own thread and answer them packed (shaped-records.ts); only for a store
   * whose `shapesRecords` is true.
   */
  shape?: ShapingJob;
}

/**
 * What a store runs: a query text (a client's, or one the service writes), or a library query bound to its
 * values, which the remote store fills into a per-generation template instead of rewriting its text.
 */
export type StoreQuery = string | BoundQuery;

/** The text of `query`. */
export const queryText = (query: StoreQuery): string => (typeof query === 'string' ? query : query.text);

/** A read-only SPARQL store serving one generation at a time. */
export interface QueryStore {
  /** Runs a SPARQL query and returns the serialised answer. */
  query(sparql: StoreQuery, opts?: QueryOptions): Promise<string>;
  /** The generation being served; undefined before the first one is ready. */
  readonly generation: GenerationManifest | undefined;
  /** True when a query would be answered now rather than rejected with `StoreUnavailableError`. */
  ready(): boolean;
  /** Why `ready()` is false, for clients, when it is not the start or a restart (a SPARQL server that does not answer). */
  unavailableReason?(): string | undefined;
  /**
   * Records a page of full records asks for in one query (default 25: the embedded store answers a page's
   * queries in turn while the service shapes the records of those already in). A remote server answers a page
   * faster in one round trip (docs/remote-store.md, "Pages in one round trip").
   */
  readonly recordsPerQuery?: number;
  /**
   * True while the store shapes records where it reads them (QueryOptions.shape): the embedded store's
   * two workers while they share the service's queries. Asked per query; records are shaped on the main thread
   * otherwise (a remote store, one embedded worker serving alone).
   */
  readonly shapesRecords?: boolean;
  /** The memory of each worker thread holding a generation (embedded stores; a remote store has none). */
  workerMemory?(): readonly WorkerMemoryReport[];
}

/** One store worker's memory as it last reported it, and its answers so far: serving, standing by, or loading a generation. */
export interface WorkerMemoryReport {
  worker: 'serving' | 'standby' | 'loading';
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  /** Queries the worker has answered since it started (with `share`, both workers answer the service's). */
  answered: number;
}

export type RecordCounts = Record<RecordKind, number>;

/** `manifest.json` of a generation folder (FORMAT_VERSION 1). */
export interface GenerationManifest {
  formatVersion: number;
  /** Folder name under `generations/`; sorts by creation time. */
  id: string;
  /** ISO 8601 time the generation was created. */
  created: string;
  source: { kind: 'harvest' | 'load'; path: string };
  /** Scheme and host of every record IRI in the generation. */
  baseUrl: string;
  counts: {
    publicQuads: number;
    nonPublicQuads: number;
    /** Distinct named graphs over both files. */
    graphs: number;
    /** Record graphs (`{base}/v2/id/<kind>/<pid>`) per kind, in the public and in the non-public file. */
    publicRecords: RecordCounts;
    nonPublicRecords: RecordCounts;
  };
  /** Lower-case hex sha256 of the files as stored (gzip bytes). */
  checksums: { public: string; nonPublic: string };
  /** Sizes in bytes of the files as stored, checked cheaply at start-up. */
  bytes: { public: number; nonPublic: number };
  /** Whatever the producer reported (harvest report, load statistics). */
  details?: Record<string, unknown>;
}

/** A store that serves one generation folder at a time (StoreManager or RemoteStore). */
export interface ServingStore extends QueryStore, Pick<EventEmitter, 'on' | 'once' | 'off'> {
  start(generationDir: string): Promise<GenerationManifest>;
  swap(generationDir: string): Promise<GenerationManifest>;
  close(): Promise<void>;
}
