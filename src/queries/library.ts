/**
 * The query library: every `queries/<resource>/<name>.rq` file, parsed once at start-up with sparqljs.
 * Request values are bound on the parsed query as a VALUES block in front of the WHERE clause (docs/architecture.md,
 * "Queries"), never spliced into query text; the bound AST is then serialised by sparqljs.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import sparqljs from 'sparqljs';
import type { Pattern, Query, SparqlQuery, ValuesPattern, ValuePatternRow } from 'sparqljs';
import { type BoundTerm, type ParamType, toRdfTerm } from './terms.js';

/** A declared parameter of a query (`#+ param: name - type - description`). */
export interface QueryParam {
  name: string;
  type: ParamType;
  description: string;
}

/** One parsed `.rq` file. */
export interface LibraryEntry {
  /** `<resource>/<name>`, e.g. `objects/record`. */
  name: string;
  summary: string;
  params: QueryParam[];
  /**
   * `#+ part: non-public`: the query reads the generation's non-public part (the admin graph, records that are
   * not public), and is sent there (QueryOptions.nonPublic); every other query reads the public part.
   */
  nonPublic: boolean;
  ast: Query;
  file: string;
}

export class QueryBindingError extends Error {}

const HEADER = /^#\+\s*(summary|param|part):\s*(.*)$/;
const PARAM_TYPES: readonly ParamType[] = ['iri', 'string', 'integer', 'decimal', 'boolean', 'date', 'dateTime', 'gYear'];

export const DEFAULT_QUERIES_DIR = fileURLToPath(new URL('../../queries', import.meta.url));

/** Reads the grlc-style header of a query file. */
export function parseHeader(text: string, file: string): { summary: string; params: QueryParam[]; nonPublic: boolean } {
  let summary = '';
  let nonPublic = false;
  const params: QueryParam[] = [];
  for (const line of text.split('\n')) {
    const match = HEADER.exec(line.trim());
    if (!match) continue;
    const [, key, value = ''] = match;
    if (key === 'summary') {
      summary = value.trim();
      continue;
    }
    if (key === 'part') {
      if (value.trim() !== 'non-public') throw new Error(`${file}: bad #+ part line (the one part a query may name is "non-public"): ${line}`);
      nonPublic = true;
      continue;
    }
    const [name, type, ...description] = value.split(' - ').map((part) => part.trim());
    if (!name || !PARAM_TYPES.includes(type as ParamType)) {
      throw new Error(`${file}: bad #+ param line (want "name - type - description", type one of ${PARAM_TYPES.join(', ')}): ${line}`);
    }
    params.push({ name, type: type as ParamType, description: description.join(' - ') });
  }
  if (!summary) throw new Error(`${file}: missing "#+ summary:" header`);
  return { summary, params, nonPublic };
}

function listRqFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return listRqFiles(path);
    return entry.endsWith('.rq') ? [path] : [];
  });
}

/** All queries of the project, parsed once. */
export class QueryLibrary {
  private readonly entries = new Map<string, LibraryEntry>();
  private readonly folders = new Set<string>();
  private readonly generator = new sparqljs.Generator();

  constructor(dir: string = DEFAULT_QUERIES_DIR) {
    this.include(dir);
  }

  /** The project's queries and those of every kind that brings its own folder (`ResourceKind.queries`). */
  static forKinds(kinds: readonly { readonly queries?: string }[], dir: string = DEFAULT_QUERIES_DIR): QueryLibrary {
    const library = new QueryLibrary(dir);
    for (const kind of kinds) if (kind.queries !== undefined) library.include(kind.queries);
    return library;
  }

  /** Whether the `.rq` files under `dir` are in the library. */
  includes(dir: string): boolean {
    return this.folders.has(resolve(dir));
  }

  /**
   * Adds the `.rq` files under `dir`, each named by its path there (`books/index-books`): how a kind declared
   * outside src/kinds brings its own queries (`ResourceKind.queries`). Including a folder again changes
   * nothing; a name the library has from another file is an error, so no kind replaces a project query.
   */
  include(dir: string): void {
    const parser = new sparqljs.Parser();
    for (const file of listRqFiles(dir)) {
      const name = relative(dir, file).split(sep).join('/').replace(/\.rq$/, '');
      const known = this.entries.get(name);
      if (known !== undefined) {
        if (known.file === file) continue;
        throw new Error(`${file}: the library has a query named ${name} already (${known.file})`);
      }
      const text = readFileSync(file, 'utf8');
      const { summary, params, nonPublic } = parseHeader(text, file);
      let parsed: ReturnType<typeof parser.parse>;
      try {
        parsed = parser.parse(text);
      } catch (error) {
        throw new Error(`${file}: ${(error as Error).message}`);
      }
      if (parsed.type !== 'query') throw new Error(`${file}: only queries belong in the library, not updates`);
      this.entries.set(name, { name, summary, params, nonPublic, ast: parsed, file });
    }
    this.folders.add(resolve(dir));
  }

  /** The parsed entry; throws for an unknown name (a programming error, not a request error). */
  get(name: string): LibraryEntry {
    const entry = this.entries.get(name);
    if (!entry) throw new Error(`no query named ${name} in the library`);
    return entry;
  }

  /** Names of all queries, sorted. */
  names(): string[] {
    return [...this.entries.keys()].sort();
  }

  /**
   * The query text with `rows` bound as one VALUES block over the declared parameters. Each row gives a
   * value for every parameter; several rows bind several records in one query (`VALUES ?record { … }`).
   */
  bind(name: string, rows: Record<string, BoundTerm>[] | Record<string, BoundTerm>): string {
    return this.bound(name, rows).text;
  }

  /**
   * The query bound to `rows` as a store takes it: its text, and the entry and VALUES rows from which a remote
   * store fills its per-generation template of the query instead of rewriting the text (query-templates.ts).
   */
  bound(name: string, rows: Record<string, BoundTerm>[] | Record<string, BoundTerm>): BoundQuery {
    const entry = this.get(name);
    return new BoundQuery(entry, valueRows(entry, Array.isArray(rows) ? rows : [rows]), this.generator);
  }

  /** The bound AST (exposed for tests that inspect the meaning of a bound query). */
  bindAst(name: string, rows: Record<string, BoundTerm>[]): SparqlQuery {
    const entry = this.get(name);
    return withValues(entry.ast, valueRows(entry, rows));
  }
}

/** The VALUES rows of `rows` over the declared parameters of `entry`; QueryBindingError for a missing or unknown one. */
function valueRows(entry: LibraryEntry, rows: Record<string, BoundTerm>[]): ValuePatternRow[] {
  if (rows.length === 0) throw new QueryBindingError(`${entry.name}: nothing to bind`);
  return rows.map((row) => {
    const extra = Object.keys(row).filter((key) => !entry.params.some((param) => param.name === key));
    if (extra.length > 0) throw new QueryBindingError(`${entry.name}: unknown parameter ${extra.join(', ')}`);
    const bound: ValuePatternRow = {};
    for (const param of entry.params) {
      const value = row[param.name];
      if (value === undefined) throw new QueryBindingError(`${entry.name}: missing parameter ${param.name}`);
      bound[`?${param.name}`] = toRdfTerm(param.type, value, param.name);
    }
    return bound;
  });
}

/** `ast` with `rows` as a VALUES block in front of its WHERE clause: a shallow copy, since parsed ASTs are shared. */
export function withValues(ast: SparqlQuery, rows: ValuePatternRow[]): SparqlQuery {
  const values: ValuesPattern = { type: 'values', values: rows };
  const query = ast as SparqlQuery & { where?: Pattern[] };
  return { ...query, where: [values, ...(query.where ?? [])] } as SparqlQuery;
}

/**
 * A library query bound to its values (`QueryLibrary.bound`), as the stores take it (`StoreQuery`): the
 * embedded store runs its text; the remote store fills a template of `entry` with `rows` (query-templates.ts).
 */
export class BoundQuery {
  private written: string | undefined;

  constructor(
    readonly entry: LibraryEntry,
    readonly rows: readonly ValuePatternRow[],
    private readonly generator: InstanceType<typeof sparqljs.Generator>,
  ) {}

  /** The bound query's text, written on first use. */
  get text(): string {
    this.written ??= this.generator.stringify(withValues(this.entry.ast, [...this.rows]));
    return this.written;
  }
}
