/**
 * What the data commands share: settings from the environment (through the service's own validation, so
 * DATA_DIR and BASE_URL mean the same to the server and the commands), and one way to fail: a message on
 * stderr (`file:line: reason` for bad input) and exit code 1; 2 for a wrong command line; and the summary
 * they print on stdout about the generation they made.
 */
import { setPriority } from 'node:os';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError, loadConfig } from '../config/config.js';
import type { Config } from '../config/config.js';
import type { Generation } from '../store/generations.js';
import type { Publication, PublishEvents } from '../store/stores.js';
import { describeCheck, type PublishReport } from '../store/remote/publish.js';
import type { Progress } from './progress.js';
import { KIND_NAMES } from '../kinds/index.js';
import type { RecordKinds } from '../vocab/record-kinds.js';

export interface CliSettings {
  dataDir: string;
  baseUrl: string;
  imageHosts: string[];
  keepGenerations: number;
  /** The remote store (STORE_URL), whose server gets each new generation before it becomes current. */
  store: Config['store'];
}

/** A wrong command line; printed with the usage text. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** DATA_DIR (default ./data), BASE_URL (default http://localhost:3000), IMAGE_HOSTS (default BASE_URL's host). */
export function cliSettings(env: NodeJS.ProcessEnv = process.env): CliSettings {
  const config = loadConfig(env);
  return {
    dataDir: config.dataDir,
    baseUrl: config.baseUrl,
    imageHosts: [...config.imageHosts],
    keepGenerations: config.keepGenerations,
    store: config.store,
  };
}

/** Parses argv after the script name; unknown options and missing values are UsageErrors. */
export function parseCommandLine<T extends ParseArgsConfig['options']>(options: T, args = process.argv.slice(2)) {
  try {
    return parseArgs({ options, args, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/**
 * Runs a command's main function and turns any failure into a message and an exit code. A command that failed
 * ends 10 s after its message even when something is left waiting (a server that stopped answering mid-load
 * holds the SQL client or a socket open).
 */
export function runCli(usage: string, main: () => Promise<void>): void {
  const exitSoon = (): void => void setTimeout(() => process.exit(), 10_000).unref();
  main().then(
    () => {
      process.exitCode = 0;
    },
    (err: unknown) => {
      if (err instanceof UsageError) {
        process.stderr.write(`${err.message}\n\n${usage}\n`);
        process.exitCode = 2;
        return;
      }
      const message = err instanceof ConfigError ? err.message : err instanceof Error ? err.message : String(err);
      process.stderr.write(`${message}\n`);
      if (process.env.DEBUG_CLI && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
      process.exitCode = 1;
      exitSoon();
    },
  );
}

/** Prints id, counts (per kind, by its collection's name) and rate of a new generation. */
export function printGeneration(generation: Generation, elapsedMs: number, kinds: RecordKinds = KIND_NAMES): void {
  const { manifest } = generation;
  const { counts } = manifest;
  const quads = counts.publicQuads + counts.nonPublicQuads;
  const n = (x: number): string => x.toLocaleString('en');
  const records = (r: typeof counts.publicRecords): string =>
    Object.entries(r)
      .map(([kind, count]) => `${n(count)} ${kinds.has(kind) ? kinds.get(kind).collection : kind}`)
      .join(', ');
  const lines = [
    `generation ${manifest.id} is current (${generation.dir})`,
    `  base URL      ${manifest.baseUrl}`,
    `  public        ${n(counts.publicQuads)} quads; ${records(counts.publicRecords)}`,
    `  non-public    ${n(counts.nonPublicQuads)} quads; ${records(counts.nonPublicRecords)}`,
    `  took          ${(elapsedMs / 1000).toFixed(1)} s (${n(Math.round(quads / Math.max(elapsedMs / 1000, 0.001)))} quads/s)`,
  ];
  // An incremental harvest (docs/incremental.md) says how its records compare with the generation before.
  const changes = manifest.details?.changes as { parent: string; created: number; updated: number; removed: number; unchanged: number; copied: { bytes: number }; written: { bytes: number } } | undefined;
  if (changes !== undefined) {
    const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
    lines.splice(
      4,
      0,
      `  records       ${n(changes.created)} created, ${n(changes.updated)} updated, ${n(changes.removed)} removed, ${n(changes.unchanged)} unchanged since ${changes.parent}`,
      `  files         ${mib(changes.copied.bytes)} kept, ${mib(changes.written.bytes)} written`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

/**
 * The lines a data command prints around writing its generation to the remote server (`publishStep`'s events):
 * the step that came before (the check) ends its progress line when the write starts.
 */
export function reportPublication(command: string, progress: Progress, stream: NodeJS.WritableStream = process.stderr): PublishEvents {
  return {
    onStart: () => {
      progress.stop();
      stream.write(`${command}: writing to the SPARQL server\n`);
    },
    onDone: (report, role) => {
      const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
      const written = (bulk: NonNullable<PublishReport['bulk']>): string =>
        bulk.writtenBefore === undefined ? `written in ${seconds(bulk.writeMs)}` : `written beside the generation in ${seconds(bulk.writtenBefore)}`;
      const bulk = report.bulk ? ` (bulk loader: ${report.bulk.files} files ${written(report.bulk)}, loaded in ${seconds(report.bulk.loadMs)}, ${describeCheck(report.bulk)})` : '';
      const server = role === 'sparql' ? "the public SPARQL endpoint's server" : 'the SPARQL server';
      stream.write(`${command}: written to ${server}, ${report.quads} statements in ${report.graphs} graphs, ${(report.ms / 1000).toFixed(1)} s${bulk}\n`);
    },
  };
}

/**
 * Once the generation is current: the rest of its publication (the union graph's own files, stores.ts), beside
 * `alongside` (the kept export); reports what it loaded. A union graph that fails to load fails the command with
 * what is served: the REST API serves the generation, /sparql the one before, until the service loads it again.
 */
export async function finishPublication(command: string, id: string, publication: Publication, alongside: Promise<unknown> = Promise.resolve(), stream: NodeJS.WritableStream = process.stderr): Promise<void> {
  const [union, other] = await Promise.allSettled([publication.finish(), alongside]);
  if (union.status === 'rejected') {
    const why = union.reason instanceof Error ? union.reason.message : String(union.reason);
    throw new Error(
      `generation ${id} is current and the REST API serves it, but its union graph (the default graph of /sparql) did not load: ${why}. ` +
        '/sparql serves the generation before it until the service is started again, which loads it',
      { cause: union.reason },
    );
  }
  if (other.status === 'rejected') throw other.reason;
  const loaded = union.value;
  if (loaded === undefined) return;
  stream.write(
    `${command}: the union graph (/sparql's default graph) loaded, ${loaded.statements.toLocaleString('en')} statements in ${loaded.files} files, ${(loaded.ms / 1000).toFixed(1)} s; /sparql serves ${id}\n`,
  );
}

/**
 * Once `current` has moved, what is left of a data command (the next switch's change snapshot, the kept export)
 * serves no reader yet: it runs at a lower CPU priority (nice 10), so that replicas swapping to the generation on
 * the same cores come first. On Linux this lowers the command's main thread, where that work runs. A system that
 * refuses is left as it is.
 */
export function yieldToReplicas(): void {
  try {
    setPriority(10);
  } catch {
    // Not allowed here (or not supported): the command runs on at its own priority.
  }
}
