/**
 * Writes a checked generation folder to the remote server under the generation's graph names
 * (graph-view.ts), checks what the server then holds against the manifest, and records the generation as
 * complete. Only then may the folder become `current`: replicas switch to a generation when `current` names
 * it, and the store refuses one the server does not list as complete. A failed or killed publication leaves
 * graphs that no view reads (their generation is never complete); `dropGenerations` removes them.
 *
 * The Graph Store Protocol is the write path (plain HTTP, any server): one POST of N-Triples per record graph,
 * a few in flight. Blank nodes are scoped to a request, so a graph's statements go in one request; the files
 * this service writes keep each graph's statements together, and a graph that comes back later in a file with
 * a blank node is refused rather than split. The public statements go a second time, in large requests, into
 * the generation's union graph, the SPARQL endpoint's default graph.
 */
import { NONPUBLIC_FILE, PUBLIC_FILE } from '../generations.js';
import type { GenerationManifest } from '../types.js';
import type { BulkFiles } from './bulk-files.js';
import type { BulkLoader, UnionReport } from './bulk-load.js';

export type { UnionReport } from './bulk-load.js';
import { GENERATIONS_GRAPH, generationGraphs, type GenerationGraphs } from './graph-view.js';
import { graphsOfFile } from './graphs-of-file.js';
import type { RemoteServer } from './remote-server.js';
import { askBoolean } from './results.js';
import path from 'node:path';

const STATE = 'urn:x-museum-ld:state';
/**
 * Said of a generation whose record graphs are complete while its union graph's own files are still to load
 * (bulk-files.ts): the REST API may serve it, `/sparql` not yet. Generations without it have their union graph.
 */
const UNION_PENDING = 'urn:x-museum-ld:unionPending';
/** Statements per union-graph request, cut at a graph boundary (blank nodes stay within one request). */
const UNION_BATCH = 20_000;

export interface PublishOptions {
  /** Requests in flight (default 4). */
  concurrency?: number;
  /** Write through the server's bulk loader rather than the Graph Store Protocol (bulk-load.ts). */
  bulk?: BulkLoader;
  /**
   * With `bulk`: the generation's bulk files, written (or being written) once for every server (bulk-files.ts);
   * without them the loader writes its own from the generation's files.
   */
  files?: BulkFiles;
  /**
   * Awaited once the generation is loaded and checked, before it is marked complete: a publication started while
   * the generation is still being made (its bulk files loaded as they are written) waits for the generation's own
   * check here, and fails, leaving the generation incomplete, when that rejects.
   */
  beforeComplete?: Promise<void>;
  /**
   * Write the generation's public statements only: the public SPARQL endpoint's own server (SPARQL_STORE_URL),
   * which then holds nothing private, whatever a query names (docs/operations.md).
   */
  publicOnly?: boolean;
  onProgress?: (p: { file: string; quads: number }) => void;
}

export interface PublishReport {
  graphs: number;
  quads: number;
  ms: number;
  /** Through the bulk loader: files, and milliseconds writing them and loading them. */
  bulk?: {
    files: number;
    writeMs: number;
    loadMs: number;
    /** Milliseconds the files took to write while the data command made the generation, when they were written then. */
    writtenBefore?: number;
    /** How the load was checked: by the rows the server gained, or graph by graph (checkCounts), and in how long. */
    check?: 'rows' | 'graphs';
    checkMs?: number;
  };
}

/** How a bulk load was checked, in words: `checked by the rows the server gained in 0.2 s`. */
export const describeCheck = (bulk: NonNullable<PublishReport['bulk']>): string =>
  `checked ${bulk.check === 'rows' ? 'by the rows the server gained' : 'graph by graph'} in ${((bulk.checkMs ?? 0) / 1000).toFixed(1)} s`;

/**
 * Writes the generation in `dir` (its manifest `manifest`) to `server`, checks it and marks it complete. A
 * connection to the server lost on the way fails it with what happened and how to go on
 * ({@link PublicationInterruptedError}).
 */
export async function publishGeneration(server: RemoteServer, dir: string, manifest: Pick<GenerationManifest, 'id'>, options: PublishOptions = {}): Promise<PublishReport> {
  try {
    return await publish(server, dir, manifest, options);
  } catch (err) {
    const lost = lostConnection(err);
    throw lost === undefined ? err : new PublicationInterruptedError(manifest.id, lost, err);
  }
}

/**
 * A publication that lost its connection to the server (the server stopped, restarted or was killed, often
 * during the load's `checkpoint` or under memory pressure), in words an operator can act on: nothing served
 * changed, and the same command run again once the server is back starts the publication over.
 */
export class PublicationInterruptedError extends Error {
  constructor(id: string, what: string, cause: unknown) {
    super(
      `the connection to the SPARQL server was lost while generation ${id} was being written to it (${what}); the server probably stopped or restarted (its virtuoso.log says why). ` +
        'Nothing served changed: the current generation is untouched and this one was not made current. ' +
        'Start the server again (sudo systemctl restart virtuoso-opensource-7) and run the same command again (npm run harvest, npm run load, or npm start): ' +
        'the publication starts over from nothing and clears what this one left on the server',
      { cause },
    );
    this.name = 'PublicationInterruptedError';
  }
}

/**
 * What lost the connection when `err` is a lost or refused connection: the SQL client's CLxxx errors (CL065 Lost
 * connection, CL033 Connect failed) and SQLSTATE 08xxx, or an HTTP request whose socket was refused, reset or
 * closed (undici says "fetch failed" and puts the code in the cause); undefined for anything else.
 */
export function lostConnection(err: unknown): string | undefined {
  // Not `instanceof Error`: a cause made by Node's own sockets comes from another realm under a test runner's VM.
  const isError = (e: unknown): e is Error => typeof e === 'object' && e !== null && typeof (e as Error).message === 'string';
  for (let e: unknown = err, depth = 0; isError(e) && depth < 4; e = e.cause, depth++) {
    const sql = /\b(CL0\d\d)\b[:\s]*([^;.]*)/.exec(e.message);
    if (sql) return `${sql[1]} ${sql[2]?.trim() ?? ''}`.trim();
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== undefined && CONNECTION_CODES.has(code)) return code;
    const named = /\b(ECONNREFUSED|ECONNRESET|EPIPE|UND_ERR_SOCKET)\b/.exec(e.message);
    if (named) return named[1];
  }
  return undefined;
}

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

async function publish(server: RemoteServer, dir: string, manifest: Pick<GenerationManifest, 'id'>, options: PublishOptions): Promise<PublishReport> {
  const started = Date.now();
  const graphs = generationGraphs(manifest.id);
  // A publication that died half-way left graphs under these names: start from nothing.
  await dropGraphsOf(server, graphs, options.bulk);
  await server.update(`INSERT DATA { GRAPH <${GENERATIONS_GRAPH}> { <${graphs.marker}> <${STATE}> "loading" } }`);
  let graphCount = 0;
  const distinct: number[] = [];
  let bulk: PublishReport['bulk'];
  let rows: { added: number; union: number } | undefined;
  if (options.bulk) {
    const loaded = options.files
      ? await options.bulk.loadFiles(options.files, options.publicOnly)
      : await options.bulk.load(dir, manifest.id, graphs, (quads) => options.onProgress?.({ file: 'bulk', quads }), options.publicOnly);
    graphCount = loaded.graphs;
    rows = { added: loaded.rowsAdded, union: loaded.unionRows };
    distinct.push(loaded.publicQuads, loaded.nonPublicQuads);
    bulk = { files: loaded.files, writeMs: loaded.writeMs, loadMs: loaded.loadMs, ...(loaded.writtenBefore === undefined ? {} : { writtenBefore: loaded.writtenBefore }) };
  } else {
    const pool = new RequestPool(options.concurrency ?? 4);
    let quads = 0;
    const parts = [
      [PUBLIC_FILE, graphs.publicPrefix, true],
      [NONPUBLIC_FILE, graphs.nonPublicPrefix, false],
    ] as const;
    for (const [file, prefix, union] of options.publicOnly ? parts.slice(0, 1) : parts) {
      const written = await writeFile(server, pool, path.join(dir, file), prefix, union ? graphs.unionGraph : undefined, (n) => options.onProgress?.({ file, quads: quads + n }));
      graphCount += written.graphs;
      quads += written.quads;
      distinct.push(written.quads);
    }
    await pool.drain();
  }
  const quads = distinct.reduce((a, b) => a + b, 0);
  const checkStarted = Date.now();
  const check = await checkCounts(server, graphs, manifest.id, { publicQuads: distinct[0] ?? 0, nonPublicQuads: distinct[1] ?? 0 }, options.bulk && rows && { loader: options.bulk, rows });
  if (bulk) Object.assign(bulk, { check, checkMs: Date.now() - checkStarted });
  await options.beforeComplete;
  // Bulk files written beside the generation: their union files are loaded once it is current ({@link publishUnion}).
  const pending = options.bulk !== undefined && options.files !== undefined;
  await server.update(
    `DELETE DATA { GRAPH <${GENERATIONS_GRAPH}> { <${graphs.marker}> <${STATE}> "loading" } } ; ` +
      `INSERT DATA { GRAPH <${GENERATIONS_GRAPH}> { <${graphs.marker}> <${STATE}> "${options.publicOnly ? PUBLIC_PART : WHOLE}"${pending ? ` ; <${UNION_PENDING}> true` : ''} } }`,
  );
  return { graphs: graphCount, quads, ms: Date.now() - started, ...(bulk ? { bulk } : {}) };
}

/** The state of a generation written whole, and of one written without its non-public part (`publicOnly`). */
const WHOLE = 'complete';
const PUBLIC_PART = 'public';

/**
 * True when the server lists generation `id` as complete: written whole, or (`part: 'public'`, what the public
 * SPARQL view reads) at least its public part. A server that holds the public part only is not published for
 * the REST API, which then writes the whole generation there first. With `union`, its union graph must be
 * whole too (what `/sparql` reads as its default graph).
 */
export async function isPublished(server: RemoteServer, id: string, part: 'whole' | 'public' = 'whole', union = false): Promise<boolean> {
  const { marker } = generationGraphs(id);
  const states = part === 'whole' ? `"${WHOLE}"` : `"${WHOLE}", "${PUBLIC_PART}"`;
  const whole = union ? ` FILTER NOT EXISTS { GRAPH <${GENERATIONS_GRAPH}> { <${marker}> <${UNION_PENDING}> ?pending } }` : '';
  const { body: answer } = await server.query(`ASK { GRAPH <${GENERATIONS_GRAPH}> { <${marker}> <${STATE}> ?state } FILTER(?state IN (${states}))${whole} }`, 'application/sparql-results+json');
  return askBoolean(answer);
}

/**
 * Loads the union graph's own files of a generation published from bulk files written beside it (the record
 * graphs are in, the generation may be current), or writes them again from the generation's folder (a command
 * that did not live to load them), then clears its pending mark: `/sparql` may then serve it.
 */
export async function publishUnion(server: RemoteServer, loader: BulkLoader, files: BulkFiles | { generationDir: string; id: string }): Promise<UnionReport> {
  const loaded = 'generationDir' in files ? await loader.loadUnionFromGeneration(files.generationDir, files.id, generationGraphs(files.id)) : await loader.loadUnion(files);
  await server.update(`DELETE WHERE { GRAPH <${GENERATIONS_GRAPH}> { <${generationGraphs(files.id).marker}> <${UNION_PENDING}> ?pending } }`);
  return loaded;
}


/** An error of a generation whose union graph is still being loaded: `/sparql` serves the one before until it is. */
export class UnionPendingError extends Error {
  constructor(id: string) {
    super(`the union graph of generation ${id} (the default graph of /sparql) is still being loaded; /sparql serves the generation before it until it is`);
    this.name = 'UnionPendingError';
  }
}

/** Ids of the generations the server holds (complete or not). */
export async function publishedGenerations(server: RemoteServer): Promise<{ id: string; state: string }[]> {
  const { body: answer } = await server.query(
    `SELECT ?g ?state WHERE { GRAPH <${GENERATIONS_GRAPH}> { ?g <${STATE}> ?state } }`,
    'application/sparql-results+json',
  );
  const rows = (JSON.parse(answer) as { results: { bindings: { g: { value: string }; state: { value: string } }[] } }).results.bindings;
  return rows.map((r) => ({ id: r.g.value.replace(/^urn:x-museum-ld:generation:/, ''), state: r.state.value }));
}

/**
 * Removes every graph of the generations `ids` from the server, then their entries. Each is first marked
 * "dropping", so a drop that fails half-way never leaves a generation listed as complete, and the next drop
 * (which lists it still) finishes it.
 */
export async function dropGenerations(server: RemoteServer, ids: readonly string[], bulk?: BulkLoader): Promise<void> {
  for (const id of ids) {
    const graphs = generationGraphs(id);
    await server.update(
      `DELETE WHERE { GRAPH <${GENERATIONS_GRAPH}> { <${graphs.marker}> <${STATE}> ?state } } ; ` +
        `INSERT DATA { GRAPH <${GENERATIONS_GRAPH}> { <${graphs.marker}> <${STATE}> "dropping" } }`,
    );
    await dropGraphsOf(server, graphs, bulk);
    await server.update(`DELETE WHERE { GRAPH <${GENERATIONS_GRAPH}> { <${graphs.marker}> ?p ?o } }`);
  }
}

/**
 * Removes the graphs of `graphs` from the server: over the SQL port when there is one (`bulk`), where no time
 * limit or cost estimate applies. Virtuoso estimates a DELETE's cost from the whole store, not from what
 * matches: with Debian's MaxQueryCostEstimationTime (400 s) its HTTP endpoint refused the DELETE of a fresh
 * id's graphs (estimated 785 s) with two generations of 250,000 objects on the server (docs/virtuoso-notes.md).
 */
async function dropGraphsOf(server: RemoteServer, graphs: GenerationGraphs, bulk?: BulkLoader): Promise<void> {
  const update = (text: string): Promise<void> => (bulk ? bulk.update(text) : server.update(text));
  await update(`DROP SILENT GRAPH <${graphs.unionGraph}>`);
  // A generation's graphs are written only after its entry in the generations graph, and its entry is removed
  // only after them: an id without an entry (a new generation's) names no graph, and the DELETE is left out.
  // Asking the entry is one index lookup; asking the server's list of graphs for the prefix is a scan of every
  // graph, which ran past Virtuoso's MaxQueryExecutionTime (60 s) beside a generation of 1,000,000 objects.
  if (!(await hasEntry(server, graphs.marker))) return;
  // One statement per graph would take hours at 100k records; one DELETE over the prefix, without the
  // transaction log (Virtuoso's `sql:log-enable 3`, autocommit per row), takes seconds.
  await update(`DEFINE sql:log-enable 3 DELETE { GRAPH ?g { ?s ?p ?o } } WHERE { ${graphsNamed(graphs.prefix)} GRAPH ?g { ?s ?p ?o } }`);
}

/** Whether the generations graph lists the generation named `marker` ({@link GenerationGraphs}), in any state. */
export async function hasEntry(server: RemoteServer, marker: string): Promise<boolean> {
  const { body } = await withRetries(() => server.query(`ASK { GRAPH <${GENERATIONS_GRAPH}> { <${marker}> ?p ?o } }`, 'application/sparql-results+json'));
  return askBoolean(body);
}

/**
 * A pattern binding ?g to every graph whose name starts with `prefix`. The graphs are listed first and their
 * names tested after: a filter on the name of every statement's graph costs a string per statement (3 s for
 * 1.3M statements on Virtuoso), the list of graphs is an index (0.1 s). The LIMITs keep the server from
 * merging the sub-selects back into one scan.
 */
export function graphsNamed(prefix: string): string {
  const all = 'SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s_g ?p_g ?o_g } } LIMIT 1000000000000';
  return `{ SELECT ?g WHERE { { ${all} } FILTER(STRSTARTS(STR(?g), "${prefix}")) } LIMIT 1000000000000 }`;
}

/** Streams one N-Quads file to the server graph by graph; returns what it wrote. */
async function writeFile(
  server: RemoteServer,
  pool: RequestPool,
  file: string,
  prefix: string,
  unionGraph: string | undefined,
  onQuads: (n: number) => void,
): Promise<{ graphs: number; quads: number }> {
  let union: string[] = [];
  let unionLines = 0;
  let graphs = 0;
  let quads = 0;
  const flushUnion = (): void => {
    if (union.length === 0 || unionGraph === undefined) return;
    const body = union.join('');
    union = [];
    unionLines = 0;
    pool.add(() => withRetries(() => server.addToGraph(unionGraph, body)));
  };
  for await (const { name, triples } of graphsOfFile(file)) {
    await pool.room();
    graphs++;
    quads += triples.length;
    const body = triples.join(' .\n') + ' .\n';
    pool.add(() => withRetries(() => server.addToGraph(prefix + name.slice(1, -1), body)));
    if (unionGraph !== undefined) {
      union.push(body);
      unionLines += triples.length;
      if (unionLines >= UNION_BATCH) flushUnion();
    }
    if (graphs % 1000 === 0) onQuads(quads);
  }
  flushUnion();
  onQuads(quads);
  return { graphs, quads };
}

/**
 * Compares the statements the server holds for the generation with those written (distinct within each graph).
 *
 * After a bulk load, first the cheap way: the rows the statement table gained during the load, less the union
 * graph's rows, must be the statements written to the record graphs (a SQL `count(*)` before and after, and one
 * graph's count; seconds at 250,000 objects). When that does not hold (the loader lost statements, or another
 * writer changed the server meanwhile, such as a replica dropping an old generation), each prefix's statements
 * are counted graph by graph, which is exact whatever else the server holds and took about 9 minutes at 250,000
 * objects. A SQL count grouped by graph was faster and wrong with two generations on the server
 * (docs/virtuoso-notes.md, "Counting a generation's statements").
 */
async function checkCounts(
  server: RemoteServer,
  graphs: GenerationGraphs,
  id: string,
  expected: { publicQuads: number; nonPublicQuads: number },
  bulk?: { loader: BulkLoader; rows: { added: number; union: number } },
): Promise<'rows' | 'graphs'> {
  if (bulk !== undefined) {
    const { added, union } = bulk.rows;
    if (added - union === expected.publicQuads + expected.nonPublicQuads && union <= expected.publicQuads) return 'rows';
  }
  const count = async (prefix: string): Promise<number> => {
    const query = `SELECT (COUNT(*) AS ?n) WHERE { ${graphsNamed(prefix)} GRAPH ?g { ?s ?p ?o } }`;
    // Over the SQL port when there is one: the HTTP endpoint's time limit (MaxQueryExecutionTime) and cost
    // estimate refused this count at 100k objects (16M statements).
    if (bulk) return bulk.loader.count(query);
    const { body: answer } = await withRetries(() => server.query(query, 'application/sparql-results+json'));
    return Number((JSON.parse(answer) as { results: { bindings: { n: { value: string } }[] } }).results.bindings[0]?.n.value ?? NaN);
  };
  const [publicQuads, nonPublicQuads] = await Promise.all([count(graphs.publicPrefix), count(graphs.nonPublicPrefix)]);
  if (publicQuads !== expected.publicQuads || nonPublicQuads !== expected.nonPublicQuads) {
    throw new Error(
      `the server holds ${publicQuads} public and ${nonPublicQuads} non-public statements of generation ${id}; ` +
        `${expected.publicQuads} and ${expected.nonPublicQuads} were written`,
    );
  }
  return 'graphs';
}

/**
 * A request, tried up to three times. Writes: Virtuoso refuses one of two concurrent requests that both bring a
 * new language tag to a fresh database (`SR197: Non unique primary key on DB.DBA.RDF_LANGUAGE`); a refused
 * request is rolled back, and if one ever half-applied, the count check after the write would fail the
 * publication. The count check itself: Virtuoso estimates a query's cost from sampled statistics and refused
 * one run of its scan as too long (seen once in a test run, not reproduced); another try gets another estimate.
 */
async function withRetries<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      if (attempt >= attempts) throw err;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}

/** At most `size` requests in flight; the first failure fails `room()` and `drain()`. */
class RequestPool {
  private readonly running = new Set<Promise<void>>();
  private failure: Error | undefined;

  constructor(private readonly size: number) {}

  add(request: () => Promise<void>): void {
    const p = request().then(
      () => void this.running.delete(p),
      (err: Error) => {
        this.running.delete(p);
        this.failure ??= err;
      },
    );
    this.running.add(p);
  }

  async room(): Promise<void> {
    while (this.running.size >= this.size) await Promise.race(this.running);
    if (this.failure) throw this.failure;
  }

  async drain(): Promise<void> {
    await Promise.all(this.running);
    if (this.failure) throw this.failure;
  }
}
