/**
 * Publication through Virtuoso's bulk loader, the server's documented fast path (docs/operations.md, "Bulk
 * publication"): the generation's bulk files (bulk-files.ts: gzipped TriG, graph names already prefixed, the
 * public statements also in the generation's union graph) are in a folder the server reads (`DirsAllowed`); the
 * files finished so far are registered with `ld_dir` and loaded by several `rdf_loader_run()` at once over the SQL
 * port while the next files are written (in rounds: {@link Loading}), and the whole is made durable with `checkpoint`. The loader skips
 * a file it cannot parse and records why only in `DB.DBA.LOAD_LIST`, so that table is read after the load and any
 * error fails the publication, naming the file. The load list's rows are removed again, whatever happened.
 * When the server stopped mid-load that last removal cannot reach it, and its rows outlive the folder: the next
 * load removes the rows of every folder of the bulk folder that is gone from the service's disk first.
 */
import { access } from 'node:fs/promises';
import path from 'node:path';
import { BULK_PARTS, BulkFiles, type BulkSeries } from './bulk-files.js';
import type { GenerationGraphs } from './graph-view.js';
import { type Isql, sqlNumber, sqlString } from './isql.js';

export interface BulkLoadOptions {
  /** The folder the service writes the files to; the server must be allowed to read it (`DirsAllowed`). */
  dir: string;
  /** The same folder as the server names it, when it differs (a container's mount); default {@link dir}. */
  serverDir?: string;
  isql: Isql;
  /** `rdf_loader_run()` calls at once (default 2, the cores of the smallest server this runs on). */
  loaders?: number;
  /** Statements per file (default 1,000,000), cut at the next graph boundary; at least one file per loader. */
  fileStatements?: number;
  /** How long the loaders may load without finishing a file before the load fails as stalled (default {@link LOAD_STALL_MS}). */
  stallMs?: number;
}

/**
 * A load that finishes no file for this long while a loader runs has stopped: Debian's Virtuoso 7.2 can hang in
 * the middle of a file, using no CPU, and never end it (docs/virtuoso-notes.md, "A bulk load that stops"). A file
 * of a million statements takes seconds to a minute on two cores, so 15 minutes is a stall, not a slow file.
 */
export const LOAD_STALL_MS = 15 * 60_000;

export interface BulkLoadReport {
  graphs: number;
  /** Distinct statements of the public and the non-public file (within each graph). */
  publicQuads: number;
  nonPublicQuads: number;
  files: number;
  /**
   * Rows the server's statement table (`DB.DBA.RDF_QUAD`) gained from before the first file to after the
   * checkpoint: every distinct statement of every graph, the union graph's included.
   */
  rowsAdded: number;
  /** Rows of the union graph after the record graphs' files: the copies of statements that name a blank node. */
  unionRows: number;
  /**
   * Milliseconds writing the files (files are loaded meanwhile; 0 when they were written before the load), and
   * from the last file written until every file is loaded and checkpointed.
   */
  writeMs: number;
  loadMs: number;
  /** Milliseconds the files took to write while the data command made the generation, when they were written then. */
  writtenBefore?: number;
}

/** What loading a union graph's own files did: files, statements in them, rows the union graph gained, milliseconds. */
export interface UnionReport {
  files: number;
  statements: number;
  rowsAdded: number;
  ms: number;
}

/** Publishes generation folders through the bulk loader. */
export class BulkLoader {
  private readonly loaders: number;
  private readonly fileStatements: number;

  constructor(private readonly options: BulkLoadOptions) {
    this.loaders = Math.max(1, options.loaders ?? 2);
    this.fileStatements = Math.max(1, options.fileStatements ?? 1_000_000);
  }

  /**
   * Loads the files of the generation in `generationDir` under `graphs`' names, the union graph's files last; the
   * server then holds them. With `publicOnly`, its public statements only (the non-public file is not read, and
   * the report counts none of it). The bulk files are written from the generation's files here, loaded as each is
   * finished, and removed after.
   */
  async load(generationDir: string, id: string, graphs: GenerationGraphs, onProgress?: (quads: number) => void, publicOnly = false): Promise<BulkLoadReport> {
    const files = await BulkFiles.create(this.options, id, graphs);
    try {
      const parts = publicOnly ? (['public'] as const) : BULK_PARTS;
      const writing = files.fromGeneration(generationDir, parts, onProgress);
      writing.catch(() => undefined);
      const [report] = await Promise.all([this.loadFiles(files, publicOnly), writing]);
      const union = await this.loadUnion(files);
      return { ...report, files: report.files + union.files, loadMs: report.loadMs + union.ms };
    } finally {
      await files.remove();
    }
  }

  /**
   * Loads the union graph of the generation in `generationDir` again from its public file (the union files alone:
   * the copies that name a blank node came with the record graphs). For a publication that did not live to load
   * them; loading a statement the graph holds already changes nothing.
   */
  async loadUnionFromGeneration(generationDir: string, id: string, graphs: GenerationGraphs): Promise<UnionReport> {
    const files = await BulkFiles.create(this.options, id, graphs);
    try {
      const writing = files.fromGeneration(generationDir, ['public'], undefined, true);
      writing.catch(() => undefined);
      const [loaded] = await Promise.all([this.loadUnion(files), writing]);
      return loaded;
    } finally {
      await files.remove();
    }
  }

  /**
   * Loads bulk files (being written, or written while the data command made the generation) into the server,
   * each as soon as it is finished: the record graphs' files of both parts, or with `publicOnly` the public ones;
   * not the union graph's own files ({@link loadUnion}). The files stay: whoever made them removes them once
   * every server has loaded them.
   */
  async loadFiles(files: BulkFiles, publicOnly = false): Promise<BulkLoadReport> {
    const parts = publicOnly ? (['public'] as const) : BULK_PARTS;
    const loaded = await this.loadSeries(files, parts);
    const counts = parts.map((part) => files.countsOf(part));
    return {
      graphs: counts.reduce((sum, part) => sum + part.graphs, 0),
      publicQuads: counts[0]?.quads ?? 0,
      nonPublicQuads: counts[1]?.quads ?? 0,
      files: loaded.files,
      rowsAdded: loaded.rowsAdded,
      unionRows: await this.graphRows(files.unionGraph),
      writeMs: loaded.writeMs,
      loadMs: loaded.loadMs,
      ...(loaded.writtenBefore === undefined ? {} : { writtenBefore: loaded.writtenBefore }),
    };
  }

  /**
   * Loads the union graph's own files (bulk-files.ts), once they are all written. The loader's own record of each
   * file (`DB.DBA.LOAD_LIST`) says whether it loaded; the rows the union graph gained can be fewer than the
   * statements in the files (a statement in several record graphs is one in the union graph), never more.
   */
  async loadUnion(files: BulkFiles): Promise<UnionReport> {
    const unionGraph = files.unionGraph;
    const before = await this.graphRows(unionGraph);
    const loaded = await this.loadSeries(files, ['union']);
    const rowsAdded = (await this.graphRows(unionGraph)) - before;
    const statements = files.unionFileStatements;
    if (rowsAdded > statements) throw new Error(`the union graph ${unionGraph} gained ${rowsAdded} statements from files that hold ${statements}`);
    return { files: loaded.files, statements, rowsAdded, ms: Math.round(loaded.writeMs + loaded.loadMs) };
  }

  /** Loads the files of `series`, each as soon as it is finished; the load list's rows of the folder are removed after. */
  private async loadSeries(files: BulkFiles, series: readonly BulkSeries[]): Promise<{ files: number; rowsAdded: number; writeMs: number; loadMs: number; writtenBefore?: number }> {
    const { isql } = this.options;
    const listed = `ll_file like ${sqlString(`${files.serverFolder}/%`)}`;
    try {
      await this.clearLeftovers();
      await isql.run([`delete from DB.DBA.LOAD_LIST where ${listed};`]);
      const rowsBefore = await this.rows();
      const started = performance.now();
      const alreadyWritten = files.writeMs !== undefined;
      // Each file is loaded as soon as it is finished, while the next ones are being written.
      const loading = new Loading(isql, files.serverFolder, this.loaders, this.options.stallMs ?? LOAD_STALL_MS);
      let registered = 0;
      await files
        .follow(series, (file) => {
          registered++;
          loading.add(file.name);
        })
        .catch(async (err: unknown) => {
          await loading.finish().catch(() => undefined);
          throw err;
        });
      const writeMs = alreadyWritten ? 0 : performance.now() - started;
      await loading.finish();
      const listedFiles = await sqlNumber(isql, `select count(*) from DB.DBA.LOAD_LIST where ${listed};`);
      if (listedFiles !== registered) throw unreadable(files.serverFolder, `it found ${listedFiles} of ${registered} files there`);
      await isql.run(['checkpoint;']);
      const failed = (await isql.run([`select ll_file, ll_state, ll_error from DB.DBA.LOAD_LIST where ${listed} and (ll_state <> 2 or ll_error is not null);`])).trim();
      if (failed !== '') throw new Error(`the server's bulk loader did not load every file: ${failed.replace(/\s+/g, ' ')}`);
      const loadMs = performance.now() - started - writeMs;
      return {
        files: registered,
        rowsAdded: (await this.rows()) - rowsBefore,
        writeMs: Math.round(writeMs),
        loadMs: Math.round(loadMs),
        ...(alreadyWritten ? { writtenBefore: Math.round(files.writeMs ?? 0) } : {}),
      };
    } finally {
      // Bounded: a server whose loader stopped may hold the load list's locks for good.
      await isql.run([`delete from DB.DBA.LOAD_LIST where ${listed};`], 60_000).catch(() => undefined);
    }
  }

  /**
   * Removes the load list's rows of the folders of the bulk folder that the service no longer has: a load ends by
   * removing its folder and its rows, so rows without a folder are those of a load whose server stopped (killed,
   * restarted) before the rows could go. They would stay for good (a row being loaded when the server stopped keeps
   * that state), and `rdf_loader_run()` would try the registered ones again at every load. A folder that is still
   * there may be another writer's load in progress: its rows stay.
   */
  async clearLeftovers(): Promise<string[]> {
    const root = (this.options.serverDir ?? this.options.dir).replace(/\/+$/, '');
    const files = (await this.options.isql.run([`select distinct ll_file from DB.DBA.LOAD_LIST where ll_file like ${sqlString(`${root}/%`)};`]))
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.startsWith(`${root}/`));
    const folders = [...new Set(files.map((file) => file.slice(root.length + 1).split('/')[0] as string))];
    const gone: string[] = [];
    for (const folder of folders) {
      const there = await access(path.join(this.options.dir, folder)).then(() => true, () => false);
      if (!there) gone.push(folder);
    }
    if (gone.length > 0) await this.options.isql.run(gone.map((folder) => `delete from DB.DBA.LOAD_LIST where ll_file like ${sqlString(`${root}/${folder}/%`)};`));
    return gone;
  }

  /** The single number a SPARQL COUNT query answers, asked over the SQL port (no HTTP time limit there). */
  async count(query: string): Promise<number> {
    return sqlNumber(this.options.isql, `SPARQL ${query};`);
  }

  /**
   * A SPARQL update sent over the SQL port: neither the HTTP endpoint's time limit nor its cost estimate
   * (`MaxQueryCostEstimationTime`) applies there, and Virtuoso estimates a DELETE's cost from the whole store.
   */
  async update(update: string): Promise<void> {
    await this.options.isql.run([`SPARQL ${update};`]);
  }

  /** Rows of the server's statement table, all graphs: 30 ms at 2.6M statements (a column-wise table). */
  async rows(): Promise<number> {
    return sqlNumber(this.options.isql, 'select count(*) from DB.DBA.RDF_QUAD;');
  }

  /** Statements of one graph, counted in SQL over the table's graph column. */
  async graphRows(graph: string): Promise<number> {
    return sqlNumber(this.options.isql, `select count(*) from DB.DBA.RDF_QUAD where G = iri_to_id(${sqlString(graph)}, 0);`);
  }
}

/** The error of a folder the server may not read. */
const unreadable = (serverFolder: string, why: string): Error =>
  new Error(
    `the SPARQL server cannot read the bulk files in ${serverFolder} (${why}): list that folder in virtuoso.ini [Parameters] DirsAllowed, ` +
      'and set STORE_BULK_SERVER_DIR when the server names it differently',
  );

/**
 * Files loaded in rounds: the files finished since the last round are registered with `ld_dir` (one SQL call),
 * then `loaders` sessions run `rdf_loader_run()` (each loads registered files not yet loaded, then returns) until
 * the round's files are loaded; then the next round, until the last file is added and loaded. Registration and
 * loading never overlap: in the two 1,000,000-object runs where `ld_dir` ran while a loader loaded, Virtuoso 7.2's
 * loader stopped for good in the middle of a file with both waiting on locks, and in the runs where every file
 * was registered before the loaders ran it did not (docs/virtuoso-notes.md, "A bulk load that stops").
 */
export class Loading {
  private readonly added: string[] = [];
  private finished = false;
  private failure: Error | undefined;
  private readonly waiting: (() => void)[] = [];
  private readonly rounds: Promise<void>;
  /** Cancels every SQL call of this load (a stall): the clients are killed, the calls reject. */
  private readonly cancel = new AbortController();
  /** SQL calls of this load under way now: `ld_dir` and `rdf_loader_run()`; while there are, files must finish. */
  private running = 0;
  private readonly watch: ReturnType<typeof setInterval>;

  constructor(
    private readonly isql: Isql,
    private readonly serverFolder: string,
    private readonly loaders: number,
    stallMs = LOAD_STALL_MS,
  ) {
    this.rounds = this.loadRounds().catch((err: unknown) => {
      this.failure ??= err instanceof Error ? err : new Error(String(err));
    });
    this.watch = this.watchForStall(stallMs);
  }

  /** A finished file of the folder, loaded in the next round. */
  add(file: string): void {
    this.added.push(file);
    this.wake();
  }

  /** Resolves once every file added is registered and loaded; rejects with the first failure (a stall among them). */
  async finish(): Promise<void> {
    this.finished = true;
    this.wake();
    try {
      await this.rounds;
    } finally {
      clearInterval(this.watch);
    }
    if (this.failure) throw this.failure;
  }

  /**
   * Every `stallMs / 15` (at most a minute), the files of this load the server has finished; when that number has
   * not grown for `stallMs` while a loader runs, the load fails and its SQL calls are cancelled. A count that
   * cannot be read counts as no progress.
   */
  private watchForStall(stallMs: number): ReturnType<typeof setInterval> {
    let done = -1;
    let since = performance.now();
    const listed = `ll_file like ${sqlString(`${this.serverFolder}/%`)}`;
    let asking = false;
    const timer = setInterval(() => {
      if (asking || this.failure) return;
      asking = true;
      // Read uncommitted: a loader that stopped holds locks that a committed read would wait on (for its whole timeout).
      void this.isql
        .run(["set isolation = 'uncommitted';", `select count(*) from DB.DBA.LOAD_LIST where ${listed} and ll_state = 2;`], Math.max(1000, stallMs / 2))
        .then((out) => Number(out.trim()))
        .catch(() => done)
        .then(async (now) => {
          if (now !== done) {
            done = now;
            since = performance.now();
          } else if (this.running === 0) {
            since = performance.now();
          } else if (performance.now() - since > stallMs) {
            const out = await this.isql.run([`select ll_file from DB.DBA.LOAD_LIST where ${listed} and ll_state = 1;`], 10_000).catch(() => '');
            const loading = out.split('\n').map((line) => line.trim()).filter((line) => line.startsWith(`${this.serverFolder}/`));
            this.stall(stallMs, loading.join(', '));
          }
        })
        .finally(() => (asking = false));
    }, Math.min(60_000, Math.max(200, stallMs / 15)));
    timer.unref();
    return timer;
  }

  private stall(stallMs: number, file: string): void {
    const span = stallMs >= 60_000 ? `${Math.round(stallMs / 60_000)} min` : `${stallMs / 1000} s`;
    this.failure ??= new Error(
      `the SPARQL server's bulk loader finished no file in ${span}${file === '' ? '' : ` while it loaded ${file}`}: Virtuoso 7.2's loader can stop in ` +
        'the middle of a file (docs/virtuoso-notes.md, "A bulk load that stops"); restart the server and run the same command again',
    );
    this.cancel.abort(this.failure);
    this.wake();
  }

  private wake(): void {
    for (const resume of this.waiting.splice(0)) resume();
  }

  private async loadRounds(): Promise<void> {
    for (;;) {
      if (this.failure) throw this.failure;
      if (this.added.length > 0) {
        const round = this.added.splice(0);
        await this.sql(round.map((file) => `ld_dir(${sqlString(this.serverFolder)}, ${sqlString(file)}, 'urn:x-museum-ld:empty');`)).catch((err: Error) => {
          throw this.failure ?? (/FA003|denied/.test(err.message) ? unreadable(this.serverFolder, 'access denied') : err);
        });
        const runs = await Promise.allSettled(Array.from({ length: Math.min(this.loaders, round.length) }, () => this.sql(['rdf_loader_run();'])));
        for (const run of runs) if (run.status === 'rejected') throw run.reason;
      } else if (this.finished) {
        return;
      } else {
        await new Promise<void>((resume) => this.waiting.push(resume));
      }
    }
  }

  private async sql(statements: string[]): Promise<void> {
    this.running++;
    try {
      await this.isql.run(statements, 0, this.cancel.signal);
    } finally {
      this.running--;
    }
  }
}
