/**
 * The files Virtuoso's bulk loader reads (bulk-load.ts): a generation's statements as gzipped TriG, one block per
 * graph, graph names already prefixed (graph-view.ts). Public and non-public statements go to files of their own
 * (`public-00001.trig.gz`, `nonpublic-00001.trig.gz`), so that the public SPARQL endpoint's own server loads the
 * public ones only. The public statements are also written into the generation's union graph (the SPARQL
 * endpoint's default graph): those without a blank node in files of their own (`union-00001.trig.gz`), loaded
 * after the record graphs, once the REST API can serve the generation; those with one beside their graph's block,
 * in the same file, because blank-node labels are scoped to a file and the union graph must name the same nodes.
 *
 * The files are written once per generation, whoever loads them: while the data command writes the generation
 * (a tap on its two N-Quads streams, `tap()`: nothing is read back), or from a finished generation's files
 * (`fromGeneration`, for a generation made without STORE_URL). Each server's loader follows the files as they are
 * finished (`follow`), so that loading starts with the first file, and the folder is removed once every server
 * has loaded them.
 *
 * Files are cut at graph boundaries: a graph's statements stay in one file. A graph whose statements come back
 * later, after another graph's, is written as a second block, unless both runs name blank nodes: they could name
 * the same node, which two files would make two; such a graph is refused. TriG rather than N-Quads: a block names
 * its graph once, where N-Quads repeat the long prefixed name on every line (456 MB of text instead of 715 MB at
 * 10,000 objects).
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip, constants as zlib } from 'node:zlib';
import { NONPUBLIC_FILE, OWNER_FILE, PUBLIC_FILE, type GenerationTap } from '../generations.js';
import { WholeLines } from '../line-reader.js';
import { graphStatement, parseQuadLine } from '../nquads-line.js';
import type { GenerationGraphs } from './graph-view.js';
import { graphsOfFile } from './graphs-of-file.js';

/** The two parts of a generation: statements of public records, and everything else (docs/graph-model.md). */
export type BulkPart = 'public' | 'nonPublic';

export const BULK_PARTS: readonly BulkPart[] = ['public', 'nonPublic'];
const BULK_SERIES: readonly BulkSeries[] = ['public', 'nonPublic', 'union'];

/** The files of a part, and the union graph's own files (the public statements without a blank node, again). */
export type BulkSeries = BulkPart | 'union';

/** A finished file: its name in the folder, its series, and its statements (union-graph copies included). */
export interface BulkFile {
  name: string;
  part: BulkSeries;
  statements: number;
}

export interface BulkFilesOptions {
  /** The bulk folder (STORE_BULK_DIR); the generation's files go to a folder named by its id inside it. */
  dir: string;
  /** The same folder as the servers name it, when it differs (a container's mount); default {@link dir}. */
  serverDir?: string;
  /** Statements per file (default 1,000,000), cut at the next graph boundary. */
  fileStatements?: number;
}

/** What a part's files hold: graphs (blocks of a graph written twice count once each) and statements, distinct within each block. */
export interface PartCounts {
  graphs: number;
  quads: number;
}

/** The bulk files of one generation, being written or written. */
export class BulkFiles {
  readonly folder: string;
  readonly serverFolder: string;
  private readonly series: Record<BulkSeries, FileSeries>;
  private readonly finished: BulkFile[] = [];
  private readonly followers = new Set<(file: BulkFile) => void>();
  private readonly counts: Record<BulkPart, PartCounts> = { public: { graphs: 0, quads: 0 }, nonPublic: { graphs: 0, quads: 0 } };
  /** Statements written to the union graph's own files. */
  private unionStatements = 0;
  private readonly closed: Promise<void>;
  private settle!: { resolve: () => void; reject: (err: Error) => void };
  private ended = false;
  /** When the first statement was written, and when the last file was finished (performance.now()). */
  private startedAt: number | undefined;
  private closedAt: number | undefined;

  private constructor(
    options: BulkFilesOptions,
    readonly id: string,
    private readonly graphs: GenerationGraphs,
  ) {
    this.folder = path.join(options.dir, id);
    this.serverFolder = path.posix.join(options.serverDir ?? options.dir, id);
    const perFile = Math.max(1, options.fileStatements ?? 1_000_000);
    const onFile = (part: BulkSeries) => (name: string, statements: number) => this.announce({ name, part, statements });
    this.series = {
      public: new FileSeries(this.folder, 'public', perFile, onFile('public')),
      nonPublic: new FileSeries(this.folder, 'nonpublic', perFile, onFile('nonPublic')),
      union: new FileSeries(this.folder, 'union', perFile, onFile('union')),
    };
    this.closed = new Promise<void>((resolve, reject) => (this.settle = { resolve, reject }));
    // Observed by follow(); a failure nobody follows is the writer's to report.
    this.closed.catch(() => undefined);
  }

  /**
   * An empty folder for generation `id`'s files (a folder left by a killed command is emptied first), naming this
   * process as its owner: a folder whose owner is gone is a publication that will not finish (stores.ts, `ensureUnion`).
   */
  static async create(options: BulkFilesOptions, id: string, graphs: GenerationGraphs): Promise<BulkFiles> {
    const files = new BulkFiles(options, id, graphs);
    await rm(files.folder, { recursive: true, force: true });
    await mkdir(files.folder, { recursive: true });
    await writeFile(path.join(files.folder, OWNER_FILE), JSON.stringify({ pid: process.pid, host: hostname() }));
    return files;
  }

  /**
   * Writes one graph's statements (`s p o` each, distinct) as a block of `part`: `name` is the graph's IRI term
   * (`<…>`). With `unionOnly`, only the union files' copies of a public graph (its union graph loaded again).
   */
  async writeGraph(part: BulkPart, name: string, triples: readonly string[], unionOnly = false): Promise<void> {
    if (triples.length === 0) return;
    this.startedAt ??= performance.now();
    const counts = this.counts[part];
    counts.graphs++;
    counts.quads += triples.length;
    // A block `<graph> { s p o . … }`; each triple is an N-Triples statement, which is Turtle.
    const prefix = part === 'public' ? this.graphs.publicPrefix : this.graphs.nonPublicPrefix;
    const block = (graph: string, list: readonly string[]): string => `<${graph}> {\n${list.join(' .\n')} .\n}\n`;
    const text = block(`${prefix}${name.slice(1, -1)}`, triples);
    if (part === 'nonPublic') return this.series.nonPublic.write(text, triples.length);
    // The union copy: statements naming a blank node in the same file as the graph's, the others in the union files.
    const blank: string[] = [];
    const plain: string[] = [];
    for (const t of triples) (t.includes('_:') && namesBlankNode(t) ? blank : plain).push(t);
    if (!unionOnly) await this.series.public.write(blank.length === 0 ? text : text + block(this.graphs.unionGraph, blank), triples.length + blank.length);
    if (plain.length > 0) {
      this.unionStatements += plain.length;
      await this.series.union.write(block(this.graphs.unionGraph, plain), plain.length);
    }
  }

  /** Finishes the last files; followers then see every file. */
  async close(): Promise<void> {
    try {
      for (const series of BULK_SERIES) await this.series[series].close();
      this.closedAt = performance.now();
      this.ended = true;
      this.settle.resolve();
    } catch (err) {
      this.fail(err);
      throw err;
    }
  }

  /** Writing failed: followers stop with `err`. */
  fail(err: unknown): void {
    if (this.ended) return;
    this.ended = true;
    for (const series of BULK_SERIES) this.series[series].destroy();
    this.settle.reject(err instanceof Error ? err : new Error(String(err)));
  }

  /**
   * Calls `onFile` for every finished file of `parts`, those finished already first, then each as it is
   * finished; resolves once the last file is finished (rejects when writing failed).
   */
  async follow(parts: readonly BulkSeries[], onFile: (file: BulkFile) => void): Promise<void> {
    const wanted = (file: BulkFile): void => {
      if (parts.includes(file.part)) onFile(file);
    };
    for (const file of this.finished) wanted(file);
    this.followers.add(wanted);
    try {
      await this.closed;
    } finally {
      this.followers.delete(wanted);
    }
  }

  /** Graphs and statements of a part, written so far (all of them once closed). */
  countsOf(part: BulkPart): PartCounts {
    return { ...this.counts[part] };
  }

  /** The generation's union graph, which the union files (and the blank-node copies beside each graph) fill. */
  get unionGraph(): string {
    return this.graphs.unionGraph;
  }

  /** Statements in the union graph's own files, so far (with repeats across graphs: the server keeps one). */
  get unionFileStatements(): number {
    return this.unionStatements;
  }

  /** Files finished so far. */
  get files(): readonly BulkFile[] {
    return this.finished;
  }

  /** Milliseconds from the first statement written to the last file finished (undefined while writing). */
  get writeMs(): number | undefined {
    return this.closedAt === undefined ? undefined : this.closedAt - (this.startedAt ?? this.closedAt);
  }

  /** Removes the folder and its files. */
  async remove(): Promise<void> {
    this.fail(new Error('the bulk files were removed'));
    await rm(this.folder, { recursive: true, force: true });
  }

  /**
   * A tap for the generation's two N-Quads streams while they are written (generations.ts, `CreateOptions.tap`):
   * every statement line goes to these files as well, graph by graph.
   */
  tap(): GenerationTap {
    const readers = { public: new GraphRuns(this, 'public', PUBLIC_FILE), nonPublic: new GraphRuns(this, 'nonPublic', NONPUBLIC_FILE) };
    return {
      public: (chunk) => readers.public.write(chunk),
      nonPublic: (chunk) => readers.nonPublic.write(chunk),
      end: async () => {
        await readers.public.end();
        await readers.nonPublic.end();
        await this.close();
      },
      abort: () => this.remove(),
    };
  }

  /**
   * Writes the files of the finished generation in `generationDir` (its two N-Quads files read again), then
   * closes; with `unionOnly`, the union files alone (from the public file).
   */
  async fromGeneration(generationDir: string, parts: readonly BulkPart[] = BULK_PARTS, onProgress?: (quads: number) => void, unionOnly = false): Promise<void> {
    try {
      let quads = 0;
      let graphs = 0;
      for (const part of unionOnly ? (['public'] as const) : parts) {
        for await (const { name, triples } of graphsOfFile(path.join(generationDir, part === 'public' ? PUBLIC_FILE : NONPUBLIC_FILE))) {
          await this.writeGraph(part, name, triples, unionOnly);
          quads += triples.length;
          if (++graphs % 1000 === 0) onProgress?.(quads);
        }
      }
      onProgress?.(quads);
      await this.close();
    } catch (err) {
      this.fail(err);
      throw err;
    }
  }

  private announce(file: BulkFile): void {
    this.finished.push(file);
    for (const follower of this.followers) follower(file);
  }
}

/**
 * Cuts one N-Quads stream into runs of one graph's statements and writes each run as a block. The lines are the
 * data command's own (canonical, checked after) and are cut where their graph term starts; another form takes
 * the full parse, and a line neither reads is left to the generation's check, which names its file and line.
 */
class GraphRuns {
  private readonly lines = new WholeLines();
  private graph: string | undefined;
  private triples: string[] = [];
  private blank = false;
  /** Graphs whose run named blank nodes (copies of the names, not slices of a chunk). */
  private readonly withBlankNodes = new Set<string>();

  constructor(
    private readonly files: BulkFiles,
    private readonly part: BulkPart,
    private readonly file: string,
  ) {}

  async write(chunk: string): Promise<void> {
    const text = this.lines.take(chunk);
    for (let at = 0; at < text.length; ) {
      const end = text.indexOf('\n', at);
      // Awaited only where a graph ends: most lines continue their graph's run.
      const written = this.line(text.slice(at, end));
      if (written !== undefined) await written;
      at = end + 1;
    }
  }

  async end(): Promise<void> {
    const last = this.lines.end();
    if (last !== '') await this.line(last);
    await this.flush();
    // A name per record graph at most: gone before the generation's check reads its own list of graphs.
    this.withBlankNodes.clear();
  }

  /** Adds a line to its graph's run; when it starts another graph, the write of the run before (to be awaited). */
  private line(line: string): Promise<void> | undefined {
    // A line that is not a statement is skipped: the generation's check refuses the file, naming the line.
    const statement = graphStatement(line, (text) => {
      try {
        return parseQuadLine(text);
      } catch {
        return undefined;
      }
    });
    if (statement === undefined) return undefined;
    const { subject, object, graph: name, triple } = statement;
    if (name === undefined || !name.startsWith('<')) return Promise.reject(new Error(`${this.file}: a statement outside a named graph cannot be published`));
    // flush() takes the run before it yields, so the new graph's lines start a run of their own at once.
    const written = name === this.graph ? undefined : this.flush();
    this.graph = name;
    if (subject.startsWith('_:') || object.startsWith('_:')) this.blank = true;
    this.triples.push(triple);
    return written;
  }

  private flush(): Promise<void> {
    const name = this.graph;
    if (name === undefined) return Promise.resolve();
    if (this.blank) {
      if (this.withBlankNodes.has(name)) {
        return Promise.reject(new Error(`${this.file}: the statements of graph ${name} are not together and name blank nodes; they cannot be written in parts`));
      }
      this.withBlankNodes.add(Buffer.from(name, 'utf8').toString('utf8'));
    }
    // A statement written twice is one statement to the server.
    const triples = [...new Set(this.triples)];
    this.graph = undefined;
    this.triples = [];
    this.blank = false;
    return this.files.writeGraph(this.part, name, triples);
  }
}

/** Numbered gzipped TriG files of about `perFile` statements each, each cut only between two writes. */
class FileSeries {
  private stream: ReturnType<typeof createGzip> | undefined;
  private done: Promise<unknown> | undefined;
  private name = '';
  private inFile = 0;
  private count = 0;

  constructor(
    private readonly folder: string,
    private readonly label: string,
    private readonly perFile: number,
    /** Called with the name of each file (and its statements) once it is complete on disk. */
    private readonly onFile: (name: string, statements: number) => void,
  ) {}

  async write(text: string, statements: number): Promise<void> {
    if (this.stream === undefined || this.inFile >= this.perFile) await this.next();
    const stream = this.stream as ReturnType<typeof createGzip>;
    this.inFile += statements;
    if (!stream.write(text)) await once(stream, 'drain');
  }

  async close(): Promise<void> {
    await this.finish();
  }

  destroy(): void {
    this.stream?.destroy();
    this.stream = undefined;
  }

  private async next(): Promise<void> {
    await this.finish();
    this.count++;
    // Level 1: the server reads the files once, and compressing harder costs more than it saves here.
    const gzip = createGzip({ level: 1, chunkSize: 1 << 20, flush: zlib.Z_NO_FLUSH });
    this.name = `${this.label}-${String(this.count).padStart(5, '0')}.trig.gz`;
    // A failing file (a full disk) destroys the gzip stream too, which fails a write waiting for 'drain'.
    this.done = pipeline(gzip, createWriteStream(path.join(this.folder, this.name)));
    this.done.catch(() => undefined);
    this.stream = gzip;
    this.inFile = 0;
  }

  private async finish(): Promise<void> {
    if (this.stream === undefined) return;
    const statements = this.inFile;
    this.stream.end();
    await this.done;
    this.stream = undefined;
    this.onFile(this.name, statements);
  }
}

/** Whether an N-Triples statement `s p o` names a blank node (as subject or object; a literal's text does not count). */
export function namesBlankNode(triple: string): boolean {
  if (triple.startsWith('_:')) return true;
  // The subject is an IRI, so is the predicate; neither holds `>` or a space.
  const object = triple.indexOf('> ', triple.indexOf('> <') + 2) + 2;
  return triple.startsWith('_:', object);
}
