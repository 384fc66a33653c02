/**
 * A worker of by-graph.ts: answers graph-scoped SELECTs over a generation's files a few record graphs at a
 * time, each over the part of the generation the store would answer it from (store-worker.ts). It reads the
 * admin graph first (from the non-public file, where the generation keeps it) and answers the admin-scoped
 * queries over it, then streams the public file, cutting it into chunks of whole record graphs; each chunk of
 * its share (every `parts`-th, from `part`) is loaded into a fresh Oxigraph store and asked every record-scoped
 * query. Every worker cuts the same chunks, since it reads the same file.
 */
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import oxigraph from 'oxigraph';
import { bindingValues, selectBindings, type JsonTerm } from '../records/sparql-json.js';
import { readLineBatches } from '../store/line-reader.js';
import { detached } from '../store/nquads-file.js';
import { lineTerms } from '../store/nquads-line.js';
import type { ByGraphData, ByGraphMessage } from './by-graph.js';

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
/** Rows this worker has sent of each DISTINCT query, by their terms: a later repeat is not sent again. */
const seen = queries.map((q) => (q.distinct ? new Set<string>() : undefined));

/** The rows of query `index` over `store`, sent as those of chunk `chunk` (-1: the admin graph). */
function ask(store: oxigraph.Store, index: number, chunk: number): void {
  const body = String(store.query(queries[index]!.text, { results_format: JSON_RESULTS }));
  const rows: Record<string, string>[] = [];
  const seenKeys = seen[index];
  const keys: string[] | undefined = seenKeys ? [] : undefined;
  for (const binding of selectBindings(body)) {
    if (seenKeys && keys) {
      const key = termsKey(binding);
      if (seenKeys.has(key)) continue;
      seenKeys.add(key);
      keys.push(key);
    }
    rows.push(bindingValues(binding));
  }
  send({ type: 'rows', query: index, chunk, rows, ...(keys ? { keys } : {}) });
}

/** The rows of query `index` over the admin graph alone. */
function adminRows(store: oxigraph.Store, index: number): number {
  return selectBindings(String(store.query(queries[index]!.text, { results_format: JSON_RESULTS }))).length;
}

const termsKey = (binding: Record<string, JsonTerm | undefined>): string =>
  JSON.stringify(Object.keys(binding).sort().map((name) => {
    const t = binding[name];
    return t ? [name, t.type, t.value, t['xml:lang'] ?? '', t.datatype ?? ''] : [name];
  }));

/**
 * Frees a store's WebAssembly memory now. A store left to the garbage collector holds it until a finaliser runs,
 * which a loop of chunk stores outpaces (the worker ran out of memory at 100k objects). `free` is wasm-bindgen's,
 * left out of the package's typings.
 */
const release = (store: oxigraph.Store): void => (store as unknown as { free(): void }).free();

async function main(): Promise<void> {
  // The admin graph, whole: the admin-scoped queries (the record statuses) read it; a record-scoped query that
  // matches in it could not be answered chunk by chunk.
  const adminLines: string[] = [];
  for await (const line of linesOf(files.nonPublic)) if (lineTerms(line)?.[3] === admin) adminLines.push(line);
  const adminText = adminLines.length > 0 ? `${adminLines.join('\n')}\n` : '';
  const adminStore = new oxigraph.Store();
  if (adminText) adminStore.load(adminText, { format: 'application/n-quads', lenient: true });
  queries.forEach((query, index) => {
    if (query.scope === 'admin') {
      if (part === 0) ask(adminStore, index, -1);
    } else if (adminRows(adminStore, index) > 0) {
      // A record-scoped query that matches in the admin graph would repeat those rows in every chunk.
      throw new NotByGraph(`${query.name} matches in the admin graph itself`);
    }
  });
  release(adminStore);
  const recordQueries = queries.flatMap((q, index) => (q.scope === 'record' ? [index] : []));
  const done = new Set<string>();
  let chunk: string[] = [];
  let graph: string | undefined;
  let chunks = 0;
  let loaded = 0;
  const ms = { load: 0, queries: 0 };
  let quads = 0;
  const flush = (): void => {
    if (chunk.length === 0) return;
    const number = chunks++;
    if (number % parts === part) {
      const t0 = performance.now();
      const store = new oxigraph.Store();
      store.load(`${chunk.join('\n')}\n`, { format: 'application/n-quads', lenient: true, no_transaction: true });
      const t1 = performance.now();
      for (const index of recordQueries) ask(store, index, number);
      ms.load += t1 - t0;
      ms.queries += performance.now() - t1;
      loaded += chunk.length;
      release(store);
    }
    chunk = [];
  };
  // The record-scoped queries read the public part, as the store answers them (the index queries drop the
  // non-public records anyway: test/store/public-part.test.ts).
  for await (const line of linesOf(files.public)) {
    const terms = lineTerms(line);
    if (terms === undefined) continue;
    const [, predicate, , g] = terms;
    // The default graph: no scoped query reads it.
    if (g === '' || g === admin) continue;
    if (g !== graph) {
      // A graph met again after others: the files are not grouped by graph (a hand-made dump).
      if (done.has(g)) throw new NotByGraph(`the statements of graph ${g} are not together in the generation's files`);
      // A copy: a slice of the text would keep its whole block alive for the rest of the files.
      if (graph !== undefined) done.add(detached(graph));
      if (chunk.length >= chunkQuads) flush();
      graph = g;
    }
    quads++;
    if (matchable === undefined || matchable.has(predicate)) chunk.push(line);
  }
  flush();
  send({ type: 'done', chunks, quads, loaded, ms });
}

main().catch((err: unknown) => {
  if (err instanceof NotByGraph) send({ type: 'refused', reason: err.message });
  else send({ type: 'failed', message: (err as Error).message ?? String(err) });
});
