/**
 * A store worker thread: loads one generation into in-memory Oxigraph stores, then answers queries one
 * at a time. It lives in its own thread because Oxigraph cannot cancel a query (ending the thread is the
 * only deadline) and because each thread has its own WebAssembly heap (docs/architecture.md, "Store workers").
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import oxigraph from 'oxigraph';
import { fileChunks } from './file-feed.js';
import { generationFiles } from './generations.js';
import { recordDelta } from './record-delta.js';
import { PARTS } from './record-files.js';
import { parseManifest } from './manifest.js';
import { answersWithRdf, queryForm } from './query-form.js';
import type { StoreWorkerData, ToWorker, FromWorker } from './store-protocol.js';
import { currentThreadId } from './thread-priority.js';
import { answerShape, shapeAnswer, shapingOf } from './worker-shaping.js';
import type { RecordShaping } from './shaped-records.js';

const { generationDir, includeNonPublic, testHooks } = (workerData as { data: StoreWorkerData }).data;
const port = parentPort;
if (!port) throw new Error('store-worker.ts runs only as a worker thread');
const send = (message: FromWorker): void => port.postMessage(message);
const threadId = currentThreadId();
if (threadId !== undefined) send({ type: 'thread', threadId });

/**
 * Reports this worker's memory (process.memoryUsage() in a worker thread counts its own isolate; Oxigraph's
 * WebAssembly memory is in `external`, about 250 MB for the 1,000-object demo) after the load and after answers,
 * at most once a second: /metrics shows the last report.
 */
let reportedAt = 0;
function reportMemory(): void {
  const now = Date.now();
  if (now - reportedAt < 1000) return;
  reportedAt = now;
  const { heapUsed, external, arrayBuffers } = process.memoryUsage();
  send({ type: 'memory', heapUsed, external, arrayBuffers });
}

// Oxigraph wraps an error thrown by the input iterator in a "JsValue(...)" text with its stack; the
// reader's own error is the message worth reporting.
let readError: Error | undefined;
function* chunksOf(file: string): Generator<Uint8Array> {
  try {
    yield* fileChunks(file);
  } catch (err) {
    readError = err as Error;
    throw err;
  }
}

/**
 * Below this many quads the load skips Oxigraph's transaction (`no_transaction`): a third less CPU at 50k objects
 * (8.5M quads) for about 7% more memory, which only matters near the heap's ceiling (about 13M quads), where the
 * transactional load keeps fitting. A load that fails leaves nothing half-loaded behind: the worker exits.
 */
const BULK_LOAD_MAX_QUADS = 11_000_000;

/**
 * The generation's two parts, in two datasets: the public quads, which the SPARQL endpoint and every REST query
 * but two read, and (the REST store) the non-public ones, which only queries that ask for them read
 * (QueryOptions.nonPublic: the record statuses, v1's private objects). Kept apart, no query for the public part
 * can reach a non-public quad, whatever it names: the union default graph of /sparql is the public part's.
 * test/store/public-part.test.ts checks that the REST queries answer on the public part as on the whole.
 */
const publicPart = new oxigraph.Store();
const nonPublicPart = includeNonPublic ? new oxigraph.Store() : undefined;
/** The generation the stores hold: the one loaded, then each one a change was applied to them for. */
let held = { dir: generationDir, id: '' };
try {
  const started = performance.now();
  const files = generationFiles(generationDir);
  const { counts, id } = parseManifest(readFileSync(files.manifest, 'utf8'));
  held = { dir: generationDir, id };
  const quads = counts.publicQuads + (includeNonPublic ? counts.nonPublicQuads : 0);
  const options = { format: 'application/n-quads', lenient: true, no_transaction: quads <= BULK_LOAD_MAX_QUADS };
  publicPart.load(chunksOf(files.public), options);
  nonPublicPart?.load(chunksOf(files.nonPublic), options);
  // The memory first: a worker that is ready has reported it (/metrics, and a test that reads it at once).
  reportMemory();
  send({ type: 'ready', quads: publicPart.size + (nonPublicPart?.size ?? 0), ms: performance.now() - started });
} catch (err) {
  send({ type: 'loadFailed', message: (readError ?? (err as Error)).message });
  process.exit(1);
}

port.on('message', (message: ToWorker) => {
  if (message.type === 'exit') {
    if (testHooks) process.exit(3);
    return;
  }
  if (message.type === 'apply') {
    applyChange(message.generationDir);
    return;
  }
  // A kind's shaping is imported on its first query; later queries of the kind are answered at once.
  const shaping = message.shape && shapingOf(message.shape);
  if (shaping instanceof Promise) shaping.then((loaded) => answer(message, loaded), (err: Error) => send({ type: 'failed', id: message.id, message: err.message }));
  else answer(message, shaping);
});

/**
 * A CONSTRUCT or DESCRIBE answer with each triple once. Oxigraph writes a triple once per solution that makes it
 * (a DESCRIBE over the union of the record graphs repeats a triple stated in several graphs); the answer is a
 * graph, a set. Its N-Triples lines are kept once each (one line is one triple, blank node labels are the
 * answer's own); another syntax is written by a store of its own that holds those triples.
 */
function graphAnswer(store: oxigraph.Store, sparql: string, format: string, union: boolean | undefined): string {
  const lines = String(store.query(sparql, { results_format: 'application/n-triples', use_default_graph_as_union: union })).split('\n');
  const triples = [...new Set(lines.filter((line) => line !== ''))].map((line) => `${line}\n`).join('');
  if (format === 'application/n-triples' || format === 'application/n-quads') return triples;
  const graph = new oxigraph.Store();
  graph.load(triples, { format: 'application/n-triples' });
  return String(graph.dump({ format, from_graph_name: oxigraph.defaultGraph() }));
}

/** Runs a query on its part of the generation; with a shaping job, answers the finished records instead. */
function answer(message: Extract<ToWorker, { type: 'query' }>, shaping: RecordShaping | undefined): void {
  const started = performance.now();
  try {
    const form = queryForm(message.sparql);
    const format = message.format ?? (answersWithRdf(form) ? 'application/n-quads' : 'application/sparql-results+json');
    const store = message.nonPublic ? nonPublicPart : publicPart;
    if (store === undefined) throw new Error('this store holds the public part only');
    const shape = message.shape && answerShape(format, message.shape);
    const result =
      answersWithRdf(form) && !message.shape
        ? graphAnswer(store, message.sparql, format, message.union)
        : String(store.query(message.sparql, { results_format: format, use_default_graph_as_union: message.union }));
    const body = message.shape && shape && shaping ? shapeAnswer(result, shape, message.shape, shaping) : result;
    send({ type: 'answer', id: message.id, body, ms: performance.now() - started });
    reportMemory();
  } catch (err) {
    send({ type: 'failed', id: message.id, message: (err as Error).message ?? String(err) });
    // A WebAssembly trap (a Rust panic, memory exhausted) may leave the store inconsistent: start afresh.
    if (err instanceof WebAssembly.RuntimeError) process.exit(2);
  }
}

/**
 * Makes the stores hold the generation in `targetDir`, written on the one they hold (docs/incremental.md): the
 * changed and removed records taken out (their graphs, and their statements in shared graphs such as the admin
 * graph), the changed and new ones put in. Synchronous, so no query sees half of it. The stores must then hold
 * exactly the new generation's statement count, or the worker exits (its store may hold part of the change) and
 * the manager loads the generation instead.
 */
function applyChange(targetDir: string): void {
  const started = performance.now();
  try {
    const target = parseManifest(readFileSync(generationFiles(targetDir).manifest, 'utf8'));
    const delta = recordDelta(held, { dir: targetDir, id: target.id });
    if (delta === undefined) throw new Error(`generation ${target.id} was not written on ${held.id} record by record`);
    const stores = { public: publicPart, nonPublic: nonPublicPart };
    for (const { graph, part, shared } of delta.drop) {
      const store = stores[part];
      if (store === undefined) continue;
      for (const quad of store.match(null, null, null, oxigraph.namedNode(graph))) store.delete(quad);
      if (shared !== '') for (const quad of oxigraph.parse(shared, { format: 'application/n-quads' })) store.delete(quad);
    }
    for (const part of PARTS) {
      const text = delta.add[part];
      if (text !== '') stores[part]?.load(text, { format: 'application/n-quads', lenient: true });
    }
    const quads = publicPart.size + (nonPublicPart?.size ?? 0);
    const expected = target.counts.publicQuads + (includeNonPublic ? target.counts.nonPublicQuads : 0);
    if (quads !== expected) throw new Error(`after the change the store holds ${quads} statements, generation ${target.id} has ${expected}`);
    held = { dir: targetDir, id: target.id };
    reportMemory();
    send({ type: 'applied', quads, records: delta.added + delta.drop.length, ms: performance.now() - started });
  } catch (err) {
    send({ type: 'applyFailed', message: (err as Error).message ?? String(err) });
    process.exit(4);
  }
}
