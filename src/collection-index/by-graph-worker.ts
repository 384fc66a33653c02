/**
 * A worker of by-graph.ts: answers graph-scoped SELECTs over a generation a few record graphs at a time, each
 * over the part of the generation the store would answer it from (store-worker.ts), from its files or from the
 * text it is written as (fed by the main thread while the generation is made). It answers the admin-scoped
 * queries over the admin graph (kept in the non-public part), and cuts the public statements into chunks of
 * whole record graphs; each chunk of its share (every `parts`-th, from `part`) is loaded into a fresh Oxigraph
 * store and asked every record-scoped query. Every worker cuts the same chunks, since it sees the same lines.
 */
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import oxigraph from 'oxigraph';
import { bindingValues, selectBindings, type JsonTerm } from '../records/sparql-json.js';
import { readLineBatches } from '../store/line-reader.js';
import { detached } from '../store/nquads-file.js';
import { lineTerms } from '../store/nquads-line.js';
import type { ByGraphData, ByGraphFeedMessage, ByGraphMessage } from './by-graph.js';

const { files, adminGraph, queries, predicates, chunkQuads, part, parts } = (workerData as { data: ByGraphData }).data;
const port = parentPort;
if (!port) throw new Error('by-graph-worker.ts runs only as a worker thread');
const send = (message: ByGraphMessage): void => port.postMessage(message);
const JSON_RESULTS = 'application/sparql-results+json';

class NotByGraph extends Error {}

const matchable = predicates === undefined ? undefined : new Set(predicates);

async function* linesOf(file: string): AsyncGenerator<string> {
  for await (const { lines } of readLineBatches(file)) yield* lines;
}

const admin = `<${adminGraph}>`;

/**
 * The rows of query `index` over `store`, sent as those of chunk `chunk` (-1: the admin graph). A record-scoped
 * query is asked with its graph variable projected (`asked`): each row is sent with the record graph it came
 * from, and without that variable when the query itself does not project it. A DISTINCT query's rows are
 * distinct within their record graph; the main thread keeps the first of rows repeated across graphs, told apart
 * by their values and each value's kind (`kinds`).
 */
function ask(store: oxigraph.Store, index: number, chunk: number): void {
  const query = queries[index]!;
  const body = String(store.query(query.asked ?? query.text, { results_format: JSON_RESULTS }));
  const rows: Record<string, string>[] = [];
  const graphs: string[] | undefined = query.graph === undefined ? undefined : [];
  const kinds: string[] | undefined = query.distinct ? [] : undefined;
  for (const binding of selectBindings(body)) {
    if (graphs && query.graph !== undefined) {
      graphs.push(binding[query.graph]?.value ?? '');
      if (query.asked !== undefined) delete binding[query.graph];
    }
    kinds?.push(termKinds(binding));
    rows.push(bindingValues(binding));
  }
  send({ type: 'rows', query: index, chunk, rows, ...(graphs ? { graphs } : {}), ...(kinds ? { kinds } : {}) });
}

/** The rows of query `index` over the admin graph alone. */
function adminRows(store: oxigraph.Store, index: number): number {
  return selectBindings(String(store.query(queries[index]!.text, { results_format: JSON_RESULTS }))).length;
}

/** What tells two rows of equal values apart: the kind of each bound term (IRI, blank node, literal with its language or datatype). */
const termKinds = (binding: Record<string, JsonTerm | undefined>): string =>
  JSON.stringify(Object.keys(binding).sort().map((name) => {
    const t = binding[name];
    return t ? [name, t.type, t['xml:lang'] ?? '', t.datatype ?? ''] : [name];
  }));

/**
 * Frees a store's WebAssembly memory now. A store left to the garbage collector holds it until a finaliser runs,
 * which a loop of chunk stores outpaces (the worker ran out of memory at 100k objects). `free` is wasm-bindgen's,
 * left out of the package's typings.
 */
const release = (store: oxigraph.Store): void => (store as unknown as { free(): void }).free();

/** Answers the admin-scoped queries over the admin graph (part 0), and refuses a record-scoped one that matches in it. */
function askAdmin(adminLines: readonly string[]): void {
  const adminStore = new oxigraph.Store();
  try {
    if (adminLines.length > 0) adminStore.load(`${adminLines.join('\n')}\n`, { format: 'application/n-quads', lenient: true });
    queries.forEach((query, index) => {
      if (query.scope === 'admin') {
        if (part === 0) ask(adminStore, index, -1);
      } else if (adminRows(adminStore, index) > 0) {
        // A record-scoped query that matches in the admin graph would repeat those rows in every chunk.
        throw new NotByGraph(`${query.name} matches in the admin graph itself`);
      }
    });
  } finally {
    release(adminStore);
  }
}

/**
 * Cuts the public statements into chunks of whole record graphs, in the order they come; loads each chunk of this
 * worker's share into a fresh store and asks it every record-scoped query. Every worker cuts the same chunks,
 * since it sees the same lines.
 */
class Chunks {
  private readonly recordQueries = queries.flatMap((q, index) => (q.scope === 'record' ? [index] : []));
  private readonly done = new Set<string>();
  private chunk: string[] = [];
  /** The record graphs of the chunk, in order (as N-Quads terms). */
  private graphs: string[] = [];
  private graph: string | undefined;
  private chunks = 0;
  private loaded = 0;
  private quads = 0;
  private readonly ms = { load: 0, queries: 0 };

  line(line: string): void {
    const terms = lineTerms(line);
    if (terms === undefined) return;
    const [, predicate, , g] = terms;
    // The default graph: no scoped query reads it.
    if (g === '' || g === admin) return;
    if (g !== this.graph) {
      // A graph met again after others: the files are not grouped by graph (a hand-made dump).
      if (this.done.has(g)) throw new NotByGraph(`the statements of graph ${g} are not together in the generation's files`);
      // A copy: a slice of the text would keep its whole block alive for the rest of the files.
      if (this.graph !== undefined) this.done.add(detached(this.graph));
      if (this.chunk.length >= chunkQuads) this.flush();
      this.graph = g;
      this.graphs.push(g);
    }
    this.quads++;
    if (matchable === undefined || matchable.has(predicate)) this.chunk.push(line);
  }

  flush(): void {
    if (this.chunk.length === 0 && this.graphs.length === 0) return;
    const number = this.chunks++;
    if (number % parts === part) {
      // The chunk's records in order, each once: the main thread lists the records (and their rows) by them.
      send({ type: 'graphs', chunk: number, graphs: this.graphs.map((g) => detached(g.slice(1, -1))) });
      const t0 = performance.now();
      const store = new oxigraph.Store();
      store.load(`${this.chunk.join('\n')}\n`, { format: 'application/n-quads', lenient: true, no_transaction: true });
      const t1 = performance.now();
      for (const index of this.recordQueries) ask(store, index, number);
      this.ms.load += t1 - t0;
      this.ms.queries += performance.now() - t1;
      this.loaded += this.chunk.length;
      release(store);
    }
    this.chunk = [];
    this.graphs = [];
  }

  /** The last chunk, then the worker's account. */
  end(): void {
    this.flush();
    send({ type: 'done', chunks: this.chunks, quads: this.quads, loaded: this.loaded, ms: this.ms });
  }
}

/** From the generation's files: the admin graph first (from the non-public file), then the public file. */
async function fromFiles(from: { public: string; nonPublic: string }): Promise<void> {
  // The admin graph, whole: the admin-scoped queries read it; a record-scoped query that matches in it could not
  // be answered chunk by chunk.
  const adminLines: string[] = [];
  for await (const line of linesOf(from.nonPublic)) if (lineTerms(line)?.[3] === admin) adminLines.push(line);
  askAdmin(adminLines);
  const chunks = new Chunks();
  // The record-scoped queries read the public part, as the store answers them (the index queries drop the
  // non-public records anyway: test/store/public-part.test.ts).
  for await (const line of linesOf(from.public)) chunks.line(line);
  chunks.end();
}

/**
 * From the text the generation is written as (by-graph.ts, `feedByGraph`): `public` and `nonPublic` messages
 * of whole lines, each acknowledged once read; the admin graph is gathered from the non-public text and asked at
 * the `end`. After a refusal or a failure the rest is acknowledged unread.
 */
function fromFeed(): void {
  const chunks = new Chunks();
  const adminLines: string[] = [];
  let over = false;
  port!.on('message', (message: ByGraphFeedMessage) => {
    try {
      if (over) return;
      if (message.type === 'public') for (const line of message.text.split('\n')) chunks.line(line);
      else if (message.type === 'nonPublic') {
        for (const line of message.text.split('\n')) if (lineTerms(line)?.[3] === admin) adminLines.push(detached(line));
      } else {
        over = true;
        askAdmin(adminLines);
        chunks.end();
      }
    } catch (err) {
      over = true;
      fail(err);
    } finally {
      if (message.type !== 'end') send({ type: 'read', bytes: message.text.length });
    }
  });
}

const fail = (err: unknown): void => {
  if (err instanceof NotByGraph) send({ type: 'refused', reason: err.message });
  else send({ type: 'failed', message: (err as Error).message ?? String(err) });
};

if (files === undefined) fromFeed();
else fromFiles(files).catch(fail);
