/**
 * The remote implementation of `QueryStore` (docs/remote-store.md): queries go to a SPARQL
 * 1.1 server (`STORE_URL`) that holds the generations written by `publishGeneration`. The store serves one
 * generation at a time, as the embedded `StoreManager` does, and emits the same events ('loading', 'ready',
 * 'swap'), so what the app derives from a generation is built the same way (before it serves: a `loading`
 * listener may hold the switch until its work is done). Starting or swapping reads the
 * generation's manifest from its folder and asks the server whether it holds the generation complete; the
 * data itself is already on the server, so a swap takes milliseconds and needs no memory.
 *
 * Every query is rewritten to the served generation's graphs (graph-view.ts), in the public view for the
 * SPARQL endpoint's store and the full one for the REST store; answers come back in the formats the embedded
 * store writes (results.ts). A deadline aborts the request; the server's own limit
 * (Virtuoso's MaxQueryExecutionTime) stops the query there. While the serving process's watchdog finds the server
 * silent (watchdog.ts), the store is not ready and every query fails at once with `StoreUnavailableError`.
 */
import { EventEmitter } from 'node:events';
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { QueryDeadlineError, QueryError, StoreUnavailableError } from '../errors.js';
import { generationFiles } from '../generations.js';
import { parseManifest } from '../manifest.js';
import { detached, readQuadBatches } from '../nquads-file.js';
import { answersWithRdf, queryForm, type QueryForm } from '../query-form.js';
import { queryOutcome, type QueryOutcome } from '../store-manager.js';
import { queryText, RDF_FORMATS, type GenerationManifest, type QueryOptions, type QueryStore, type StoreQuery } from '../types.js';
import { generationGraphs, type GraphView, type ViewQuery } from './graph-view.js';
import { isPublished, UnionPendingError } from './publish.js';
import { fixYearsInRdf, fromNTriples, jsonToCsv, jsonToTsv, normaliseJson, askBoolean } from './results.js';
import { TruncatedAnswerError, type RemoteServer } from './remote-server.js';
import { selectPages } from './paged-select.js';
import { QueryTemplates } from './query-templates.js';
import { rewriteOffLoop } from './view-rewrite.js';

export interface RemoteStoreOptions {
  server: RemoteServer;
  /**
   * Read the non-public graphs too (the REST store); the SPARQL store reads the public ones only, and serves a
   * generation once its union graph (the default graph of /sparql) is whole.
   */
  includeNonPublic: boolean;
  /** Base IRI of relative IRIs in queries. */
  baseIri?: string;
  /**
   * The server's row limit (Virtuoso's ResultSetMaxRows; 0: none). Virtuoso cuts a CONSTRUCT at this limit
   * + 1 triples without saying so, so an answer of exactly that size is taken as cut. Default 10,000 (stock).
   */
  rowLimit?: number;
  onQuery?: (ms: number, kind: string, outcome: QueryOutcome) => void;
}

const JSON_RESULTS = 'application/sparql-results+json';
/**
 * The deadline of a query that names none (the index queries of a start or of a data command): a query the
 * server never finishes must fail, not hang the process (docs/remote-store.md, "What the remote store does
 * not do").
 */
const DEFAULT_DEADLINE_MS = 300_000;

const countLines = (text: string): number => {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
};

/** The names of the graphs of an N-Quads file (the non-public file: the admin graph and the non-public records). */
async function graphNames(file: string): Promise<Set<string>> {
  const names = new Set<string>();
  for await (const batch of readQuadBatches(file)) {
    for (const terms of batch.terms) {
      if (!terms.graph?.startsWith('<')) continue;
      const name = terms.graph.slice(1, -1);
      // A copy only for a new name: a graph's statements come in runs.
      if (!names.has(name)) names.add(detached(name));
    }
  }
  return names;
}

/** SELECT results as the embedded store writes them in `format` (TSV, CSV, or SPARQL JSON). */
function resultsIn(format: string | undefined, results: ReturnType<typeof normaliseJson>): string {
  if (format === 'text/tab-separated-values') return jsonToTsv(results);
  if (format === 'text/csv') return jsonToCsv(results);
  return JSON.stringify(results);
}

/** An ASK answer as the embedded store writes it in `format`. */
function askAnswer(value: boolean, format: string): string {
  if (format === 'application/sparql-results+xml') return `<?xml version="1.0"?><sparql xmlns="http://www.w3.org/2005/sparql-results#"><head></head><boolean>${value}</boolean></sparql>`;
  if (format === 'text/csv' || format === 'text/tab-separated-values') return String(value);
  return JSON.stringify({ head: {}, boolean: value });
}

export class RemoteStore extends EventEmitter implements QueryStore {
  /**
   * A page of full records in queries of 25 record graphs, sent at once. With up to about 25 graphs in the
   * rewrite's IN list Virtuoso 7.2 looks each graph up; with more it goes through every graph of the server
   * first (docs/virtuoso-notes.md, "A page's record graphs"). At 10,000 objects a page of 100 took 229-277 ms
   * as four such queries at once, against 278-433 ms as one query with the list and 386-1,364 ms as one query
   * with the prefix filter; ten queries of 10 were no faster than four of 25.
   */
  readonly recordsPerQuery = 25;
  private served: GenerationManifest | undefined;
  private view: GraphView | undefined;
  /** The library queries' templates for `view` (query-templates.ts). */
  private templates: QueryTemplates | undefined;
  private closed = false;

  constructor(private readonly options: RemoteStoreOptions) {
    super();
  }

  get generation(): GenerationManifest | undefined {
    return this.served;
  }

  /** True when a generation serves and the server answers (RemoteServer.answering: the watchdog's finding). */
  ready(): boolean {
    return this.view !== undefined && !this.closed && this.options.server.answering;
  }

  /** Says that the server does not answer, when that is why the store is not ready. */
  unavailableReason(): string | undefined {
    return this.view !== undefined && !this.closed && !this.options.server.answering ? 'The SPARQL server does not answer. Please retry shortly.' : undefined;
  }

  /** Serves the generation in `generationDir`, which the server must hold complete. */
  async start(generationDir: string): Promise<GenerationManifest> {
    const prepared = await this.prepare(generationDir);
    this.serve(prepared);
    this.emit('ready', prepared.manifest);
    return prepared.manifest;
  }

  /** Switches to the generation in `generationDir`; queries already sent finish on the old one. */
  async swap(generationDir: string): Promise<GenerationManifest> {
    const prepared = await this.prepare(generationDir);
    const from = this.served;
    this.serve(prepared);
    this.emit('swap', { from, to: prepared.manifest });
    return prepared.manifest;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.view = undefined;
    this.templates = undefined;
  }

  async query(query: StoreQuery, opts: QueryOptions = {}): Promise<string> {
    const started = performance.now();
    const form = typeof query === 'string' ? queryForm(query) : (query.entry.ast.queryType.toLowerCase() as QueryForm);
    const kind = opts.label ?? form ?? 'unknown';
    try {
      const view = this.view;
      const templates = this.templates;
      if (view === undefined || templates === undefined || this.closed) throw new StoreUnavailableError(this.closed ? 'the store is closed' : 'the store is not ready (starting)', 5);
      // Clients' queries (the public view) are rewritten in the parse worker, off the event loop (view-rewrite.ts).
      const rewrite = (text: string): Promise<ViewQuery> =>
        rewriteOffLoop(text, view, this.served?.id, { unionDefaultGraph: opts.unionDefaultGraph ?? false, ...(this.options.baseIri ? { baseIri: this.options.baseIri } : {}) });
      // The service's own queries (the query library) fill the generation's template of their entry (query-templates.ts).
      const fromTemplate = typeof query !== 'string' && !opts.unionDefaultGraph ? templates.rewrite(query) : undefined;
      const deadlined = { ...opts, deadlineMs: opts.deadlineMs ?? DEFAULT_DEADLINE_MS };
      const body = await this.ask(fromTemplate ?? (await rewrite(queryText(query))), form, deadlined).catch((err: unknown) => {
        // The service's own full reads (the REST store's) come in pages when the server cuts them.
        if (!(err instanceof TruncatedAnswerError) || !this.options.includeNonPublic || form !== 'select' || opts.format === 'application/sparql-results+xml') throw err;
        const pages = selectPages(queryText(query), err.rows, this.options.baseIri);
        if (pages === undefined) throw err;
        return this.askInPages(pages, err.rows, rewrite, deadlined);
      });
      this.options.onQuery?.(performance.now() - started, kind, 'ok');
      return body;
    } catch (err) {
      this.options.onQuery?.(performance.now() - started, kind, queryOutcome(err));
      throw err;
    }
  }

  /** Sends the rewritten query and brings the answer into the embedded store's form. */
  private async ask(query: ViewQuery, form: ReturnType<typeof queryForm>, opts: QueryOptions): Promise<string> {
    const rdf = answersWithRdf(form);
    const format = opts.format ?? (rdf ? 'application/n-quads' : JSON_RESULTS);
    if (rdf !== (RDF_FORMATS as readonly string[]).includes(format)) {
      throw new QueryError(`${format} is not a format for ${form?.toUpperCase() ?? 'this'} queries`);
    }
    const { server } = this.options;
    const send = async (accept: string): Promise<string> => {
      const { body, maxRows } = await server.query(query.text, accept, opts.deadlineMs);
      // The server says the answer reached its row limit: cut, unless the query asked for no more than that.
      if (maxRows !== undefined && !(query.limit !== undefined && query.limit <= maxRows)) throw new TruncatedAnswerError(maxRows);
      return body;
    };
    if (rdf) {
      // Always N-Triples from the server (Virtuoso writes an empty graph as the comment "# Empty NT").
      const body = fixYearsInRdf((await send('application/n-triples')).replace(/^# Empty [A-Z]+\s*$/, ''));
      // Virtuoso cuts a CONSTRUCT at its row limit + 1 triples without saying so (docs/virtuoso-notes.md).
      const limit = this.options.rowLimit ?? 10_000;
      if (limit > 0 && countLines(body) === limit + 1) throw new TruncatedAnswerError(limit + 1);
      if (format === 'application/n-quads' || format === 'application/n-triples') return body;
      return fromNTriples(body, format as 'text/turtle' | 'application/ld+json' | 'application/rdf+xml');
    }
    if (form === 'ask') return askAnswer(askBoolean(await send(JSON_RESULTS)), format);
    if (format === 'application/sparql-results+xml') return send(format);
    return resultsIn(format, normaliseJson(await send(JSON_RESULTS), query.booleans, query.hidden));
  }

  /** The pages of a SELECT, `size` rows each, until one comes back short; the rows joined in the asked format. */
  private async askInPages(pages: (page: number) => string, size: number, rewrite: (text: string) => Promise<ViewQuery>, opts: QueryOptions): Promise<string> {
    const started = performance.now();
    const bindings: NonNullable<ReturnType<typeof normaliseJson>['results']>['bindings'] = [];
    let head: ReturnType<typeof normaliseJson>['head'] | undefined;
    for (let page = 0; ; page++) {
      const left = opts.deadlineMs === undefined ? undefined : opts.deadlineMs - (performance.now() - started);
      if (left !== undefined && left <= 0) throw new QueryDeadlineError(opts.deadlineMs as number);
      const results = JSON.parse(await this.ask(await rewrite(pages(page)), 'select', { ...opts, format: JSON_RESULTS, ...(left === undefined ? {} : { deadlineMs: left }) })) as ReturnType<typeof normaliseJson>;
      head ??= results.head;
      const rows = results.results?.bindings ?? [];
      for (const row of rows) bindings.push(row);
      if (rows.length < size) break;
    }
    return resultsIn(opts.format, { head: head ?? {}, results: { bindings } });
  }

  private async prepare(generationDir: string): Promise<{ manifest: GenerationManifest; nonPublicGraphs?: ReadonlySet<string> }> {
    if (this.closed) throw new Error('the store is closed');
    const manifest = parseManifest(await readFile(generationFiles(generationDir).manifest, 'utf8'));
    const { server, includeNonPublic } = this.options;
    if (!(await isPublished(server, manifest.id, includeNonPublic ? 'whole' : 'public'))) {
      throw new Error(
        `generation ${manifest.id} is not complete on the SPARQL server at ${this.options.server.queryUrl}; ` +
          'harvest or load with STORE_URL set, or start the service with STORE_URL set, which writes the current generation',
      );
    }
    // The public view is /sparql's, whose default graph is the union graph: loaded after the record graphs.
    if (!includeNonPublic && !(await isPublished(server, manifest.id, 'public', true))) throw new UnionPendingError(manifest.id);
    // Announced once the server holds it, so that a refused swap starts no work derived from the generation.
    // What the app derives from it (its collection indexes) may hold the switch until it is built: without it
    // every request would wait for index queries the server takes minutes to answer, and a swap keeps the old
    // generation serving meanwhile.
    const held: Promise<unknown>[] = [];
    this.emit('loading', { generationDir, manifest, hold: (work: Promise<unknown>) => held.push(work) });
    const nonPublicGraphs = this.options.includeNonPublic ? await graphNames(generationFiles(generationDir).nonPublic) : undefined;
    await Promise.allSettled(held);
    if (this.closed) throw new Error('the store is closed');
    return nonPublicGraphs === undefined ? { manifest } : { manifest, nonPublicGraphs };
  }

  private serve({ manifest, nonPublicGraphs }: { manifest: GenerationManifest; nonPublicGraphs?: ReadonlySet<string> }): void {
    this.served = manifest;
    this.view = { graphs: generationGraphs(manifest.id), includeNonPublic: this.options.includeNonPublic, ...(nonPublicGraphs ? { nonPublicGraphs } : {}) };
    this.templates = new QueryTemplates(this.view, { unionDefaultGraph: false, ...(this.options.baseIri ? { baseIri: this.options.baseIri } : {}) });
  }
}
