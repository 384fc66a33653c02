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
import { readQuadBatches } from '../nquads-file.js';
import { GENERATIONS_GRAPH, generationGraphs, type GenerationGraphs } from './graph-view.js';
import type { RemoteServer } from './remote-server.js';
import path from 'node:path';

const STATE = 'urn:x-museum-ld:state';
/** Statements per union-graph request, cut at a graph boundary (blank nodes stay within one request). */
const UNION_BATCH = 20_000;

export interface PublishOptions {
  /** Requests in flight (default 4). */
  concurrency?: number;
  onProgress?: (p: { file: string; quads: number }) => void;
}

export interface PublishReport {
  graphs: number;
  quads: number;
  ms: number;
}

/** Writes the generation in `dir` (its manifest `manifest`) to `server`, checks it and marks it complete. */
export async function publishGeneration(server: RemoteServer, dir: string, manifest: GenerationManifest, options: PublishOptions = {}): Promise<PublishReport> {
  const started = Date.now();
  const graphs = generationGraphs(manifest.id);
  // A publication that died half-way left graphs under these names: start from nothing.
  await dropGraphsOf(server, graphs);
  await server.update(`INSERT DATA { GRAPH <${GENERATIONS_GRAPH}> { <${graphs.marker}> <${STATE}> "loading" } }`);
  const pool = new RequestPool(options.concurrency ?? 4);
  let graphCount = 0;
  let quads = 0;
  const distinct: number[] = [];
  for (const [file, prefix, union] of [
    [PUBLIC_FILE, graphs.publicPrefix, true],
    [NONPUBLIC_FILE, graphs.nonPublicPrefix, false],
  ] as const) {
    const written = await writeFile(server, pool, path.join(dir, file), prefix, union ? graphs.unionGraph : undefined, (n) => options.onProgress?.({ file, quads: quads + n }));
    graphCount += written.graphs;
    quads += written.quads;
    distinct.push(written.quads);
  }
  await pool.drain();
  await checkCounts(server, graphs, manifest.id, { publicQuads: distinct[0] ?? 0, nonPublicQuads: distinct[1] ?? 0 });
  await server.update(
    `DELETE DATA { GRAPH <${GENERATIONS_GRAPH}> { <${graphs.marker}> <${STATE}> "loading" } } ; ` +
      `INSERT DATA { GRAPH <${GENERATIONS_GRAPH}> { <${graphs.marker}> <${STATE}> "complete" } }`,
  );
  return { graphs: graphCount, quads, ms: Date.now() - started };
}

/** True when the server lists generation `id` as complete. */
export async function isPublished(server: RemoteServer, id: string): Promise<boolean> {
  const { marker } = generationGraphs(id);
  const { body: answer } = await server.query(`ASK { GRAPH <${GENERATIONS_GRAPH}> { <${marker}> <${STATE}> "complete" } }`, 'application/sparql-results+json');
  return (JSON.parse(answer) as { boolean?: boolean }).boolean === true;
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
export async function dropGenerations(server: RemoteServer, ids: readonly string[]): Promise<void> {
  for (const id of ids) {
    const graphs = generationGraphs(id);
    await server.update(
      `DELETE WHERE { GRAPH <${GENERATIONS_GRAPH}> { <${graphs.marker}> <${STATE}> ?state } } ; ` +
        `INSERT DATA { GRAPH <${GENERATIONS_GRAPH}> { <${graphs.marker}> <${STATE}> "dropping" } }`,
    );
    await dropGraphsOf(server, graphs);
    await server.update(`DELETE WHERE { GRAPH <${GENERATIONS_GRAPH}> { <${graphs.marker}> ?p ?o } }`);
  }
}

async function dropGraphsOf(server: RemoteServer, graphs: GenerationGraphs): Promise<void> {
  await server.update(`DROP SILENT GRAPH <${graphs.unionGraph}>`);
  // One statement per graph would take hours at 100k records; one DELETE over the prefix, without the
  // transaction log (Virtuoso's `sql:log-enable 3`, autocommit per row), takes seconds.
  await server.update(
    `DEFINE sql:log-enable 3 DELETE { GRAPH ?g { ?s ?p ?o } } WHERE { GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), "${graphs.prefix}")) }`,
  );
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
  const seen = new Set<string>();
  const withBlankNodes = new Set<string>();
  let graph: string | undefined;
  let lines: string[] = [];
  let blank = false;
  let union: string[] = [];
  let unionLines = 0;
  let quads = 0;
  const flush = (): void => {
    if (graph === undefined) return;
    const name = graph;
    if (seen.has(name) && (blank || withBlankNodes.has(name))) {
      throw new Error(`${file}: the statements of graph ${name} are not together and it has blank nodes; they cannot be written in parts`);
    }
    seen.add(name);
    if (blank) withBlankNodes.add(name);
    // A statement written twice is one statement to the server (and to Oxigraph).
    const distinct = new Set(lines);
    quads += distinct.size;
    const body = [...distinct].join('\n') + '\n';
    pool.add(() => withRetries(() => server.addToGraph(prefix + name.slice(1, -1), body)));
    if (unionGraph !== undefined) {
      union.push(body);
      unionLines += distinct.size;
      if (unionLines >= UNION_BATCH) flushUnion();
    }
    lines = [];
    blank = false;
  };
  const flushUnion = (): void => {
    if (union.length === 0 || unionGraph === undefined) return;
    const body = union.join('');
    union = [];
    unionLines = 0;
    pool.add(() => withRetries(() => server.addToGraph(unionGraph, body)));
  };
  for await (const batch of readQuadBatches(file)) {
    for (let i = 0; i < batch.terms.length; i++) {
      const terms = batch.terms[i]!;
      if (terms.graph === undefined || !terms.graph.startsWith('<')) throw new Error(`${file}: a statement outside a named graph cannot be published`);
      if (terms.graph !== graph) {
        flush();
        await pool.room();
        graph = terms.graph;
      }
      const object = terms.object;
      if (terms.subject.startsWith('_:') || object.startsWith('_:')) blank = true;
      lines.push(`${terms.subject} ${terms.predicate} ${object} .`);
    }
    onQuads(quads);
  }
  flush();
  flushUnion();
  return { graphs: seen.size, quads };
}

/** Compares the statements the server holds for the generation with those written (distinct within each graph). */
async function checkCounts(server: RemoteServer, graphs: GenerationGraphs, id: string, expected: { publicQuads: number; nonPublicQuads: number }): Promise<void> {
  const count = async (prefix: string): Promise<number> => {
    const { body: answer } = await withRetries(() =>
      server.query(`SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), "${prefix}")) }`, 'application/sparql-results+json'),
    );
    return Number((JSON.parse(answer) as { results: { bindings: { n: { value: string } }[] } }).results.bindings[0]?.n.value ?? NaN);
  };
  const [publicQuads, nonPublicQuads] = await Promise.all([count(graphs.publicPrefix), count(graphs.nonPublicPrefix)]);
  if (publicQuads !== expected.publicQuads || nonPublicQuads !== expected.nonPublicQuads) {
    throw new Error(
      `the server holds ${publicQuads} public and ${nonPublicQuads} non-public statements of generation ${id}; ` +
        `${expected.publicQuads} and ${expected.nonPublicQuads} were written`,
    );
  }
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
