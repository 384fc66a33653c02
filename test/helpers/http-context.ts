/**
 * Building blocks for HTTP tests of routes that never query the store (catalog, health, errors, limits,
 * metrics): a context with a validated config, a logger whose lines the test can read, and a store stand-in
 * that only reports readiness. Tests of anything that queries use the real store instead.
 */
import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';
import type { AppContext } from '../../src/engine/app-context.js';
import { loadConfig } from '../../src/config/config.js';
import { Metrics } from '../../src/http/metrics.js';
import { QueryLibrary } from '../../src/queries/library.js';
import type { GenerationManifest, QueryStore } from '../../src/store/types.js';
import { Iris } from '../../src/vocab/iris.js';
import { KIND_NAMES } from '../../src/kinds/index.js';

/** A logger that keeps every line as a parsed object, for assertions on what was (not) logged. */
export function memoryLogger(level: pino.Level = 'debug'): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString('utf8').split('\n')) if (text !== '') lines.push(JSON.parse(text) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level }, sink), lines };
}

/** A store stand-in for routes that do not query: readiness and generation are settable, `query` rejects. */
export class ReadinessOnlyStore implements QueryStore {
  generation: GenerationManifest | undefined;
  #ready: boolean;

  constructor(ready = true, generation?: GenerationManifest) {
    this.#ready = ready;
    this.generation = generation;
  }

  ready(): boolean {
    return this.#ready;
  }

  setReady(ready: boolean): void {
    this.#ready = ready;
  }

  async query(): Promise<string> {
    throw new Error('ReadinessOnlyStore answers no queries; use the real store for data tests');
  }
}

/**
 * A store stand-in for an empty generation: readiness settable as above, announced as the real stores do (`ready`,
 * so that the collection indexes are built), and every SELECT answered with no rows, so that every kind's index
 * is built empty and /readyz can turn 200.
 */
export class EmptyGenerationStore extends EventEmitter implements QueryStore {
  generation: GenerationManifest | undefined;
  #ready = false;

  ready(): boolean {
    return this.#ready;
  }

  /** Serves `generation` from now on, and says so. */
  serve(generation: GenerationManifest): void {
    this.generation = generation;
    this.#ready = true;
    this.emit('ready', generation);
  }

  async query(): Promise<string> {
    return JSON.stringify({ head: { vars: [] }, results: { bindings: [] } });
  }
}

/** A manifest with the given id and creation time, other fields empty. */
export function manifestStub(id: string, created: string, baseUrl = 'http://localhost:3000'): GenerationManifest {
  const none = { object: 0, agent: 0, exhibition: 0, concept: 0 };
  return {
    formatVersion: 1,
    id,
    created,
    source: { kind: 'load', path: '' },
    baseUrl,
    counts: { publicQuads: 0, nonPublicQuads: 0, graphs: 0, publicRecords: none, nonPublicRecords: none },
    checksums: { public: '', nonPublic: '' },
    bytes: { public: 0, nonPublic: 0 },
  };
}

// Parsed once per test file: the library is immutable and shared between requests anyway.
let library: QueryLibrary | undefined;

/** An AppContext from environment-style settings (validated by loadConfig) around `store`. */
export function httpTestContext(
  env: Record<string, string> = {},
  store: QueryStore = new ReadinessOnlyStore(),
  logger: Logger = pino({ level: 'silent' }),
): AppContext {
  const config = loadConfig({ DATA_DIR: 'data', ...env });
  library ??= new QueryLibrary();
  return { config, iris: new Iris(config.baseUrl), store, logger, metrics: new Metrics(), queries: library, kinds: KIND_NAMES };
}
