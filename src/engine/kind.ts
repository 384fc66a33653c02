/**
 * A resource kind as the engine sees it (docs/architecture.md, "One engine, many kinds"): declarations only.
 * Objects, agents, exhibitions and concepts differ in their queries, frame, shaping rules, stub, index
 * SELECTs, filters, sort keys and text fields; the engine (src/engine, src/collection-index, src/records,
 * src/endpoints) owns everything else once: the per-generation index and its build, paging and Hydra links,
 * stubs and full records, the record cache, the compiled frame, negotiation, caching headers and errors.
 */
import type { IndexDeclaration, OracleDeclaration } from '../collection-index/declarations.js';
import type { RawQuery } from '../http/raw-query.js';
import type { CollectionIndex } from '../collection-index/collection-index.js';
import type { RecordTable } from '../collection-index/record-table.js';
import type { ServiceContext } from './service-context.js';
import type { ApiDeclaration } from './api-declaration.js';
import type { JsonObject } from '../shaping/jsonld.js';
import type { KindSource } from '../harvest/kind-source.js';
import type { LabelledSet } from './label-index.js';
import type { CollectionName, RecordKind } from '../vocab/iris.js';
import type { KindNames } from '../vocab/record-kinds.js';
import type { LinkedRecords, LocalText, RecordFact } from './page-declarations.js';
import type { TitleLanguage } from '../collection-index/languages.js';
import type { RecordDeclaration } from '../records/declarations.js';

export type { FactValue, LinkedRecords, LocalText, RecordFact } from './page-declarations.js';

export type { CollectionName };
export type { RecordDeclaration } from '../records/declarations.js';
export type { ApiDeclaration } from './api-declaration.js';
export type { IndexDeclaration, OracleDeclaration } from '../collection-index/declarations.js';

/** The collection page: its member queries and stub builder. */
export interface PageDeclaration {
  /** Library name of the SELECT of record graphs (`?record ?s ?p ?o`, one VALUES row per record). */
  readonly records: string;
  /** Library name of the stub CONSTRUCT (one VALUES row per record). */
  readonly stubs: string;
  /** Stub JSON per record IRI, built straight from the stub CONSTRUCT's N-Quads. */
  stubsFromNQuads(nquads: string): Map<string, JsonObject>;
  /** The reference frame of the stubs (jsonld.js), which tests hold `stubsFromNQuads` equal to. */
  readonly stubFrame: string;
  /** The class of its stubs when they are labelled stubs (`crm:E39_Actor`): their schema in the OpenAPI document follows from it. */
  readonly stubClass?: string;
}

/**
 * A facet of the kind's search page for people (docs/html.md): a filter parameter of the collection and the
 * records each of its values selects, counted under the current query.
 */
export interface FacetDeclaration<T extends RecordTable> {
  readonly param: string;
  /** The facet's heading. */
  readonly title: LocalText;
  /** The values by count, highest first (the default), or in the order of their labels (periods: time). */
  readonly order?: 'count' | 'label';
  /** Whether a second value narrows further (`type=a,b`, the default) or replaces the first (`date`). */
  readonly combines?: boolean;
  /** The values and their records in one generation's table (computed once per table). */
  sets(table: T): readonly LabelledSet[];
}

/** One index endpoint: what it reads from the query, and how it answers from one generation's index. */
export interface IndexEndpoint<T extends RecordTable, Q> {
  /** The path under `/v2/id/`. */
  name: string;
  /** Parses the query (and the path's parameters, for a name with `:param`s); throws ParamError. */
  parse(query: RawQuery, params?: Readonly<Record<string, string>>): Q;
  /** The query in canonical form: the document's `@id` query and part of the ETag. */
  params(query: Q): [string, string][];
  /** Whether one generation's document for a given canonical query is kept (false for open-ended queries such as `q`). */
  keep(query: Q): boolean;
  document(index: CollectionIndex<T>, query: Q, id: string): Record<string, unknown> | Promise<Record<string, unknown>>;
}

/** The index endpoints of a kind, made once per app. */
export type IndexEndpoints<T extends RecordTable> = (ctx: ServiceContext, kind: ResourceKind<T>) => readonly IndexEndpoint<T, never>[];

/** A record related to another, and why (for people). */
export interface RelatedRecord {
  id: number;
  label: string;
  /** What the two share, in words. */
  why: string;
}

export interface ResourceKind<T extends RecordTable = RecordTable> extends KindNames {
  readonly kind: RecordKind;
  readonly collection: CollectionName;
  /**
   * A folder of the kind's own `.rq` files, named by their path there (`<folder>/books/index-books.rq` is
   * `books/index-books`), for a kind declared outside src/kinds; the library of an app or a stored index
   * includes it. The built-in kinds' queries are in the project's `queries/<collection>/`.
   */
  readonly queries?: string;
  /**
   * Where the harvest reads the kind's records, for a kind beyond the export's four (src/harvest/kind-source.ts):
   * its file in the export, the schema of a line, and the mapping of a record to its graph. The four built-in
   * kinds are read by the harvest itself, since their records refer to each other.
   */
  readonly source?: KindSource<never>;
  readonly record: RecordDeclaration;
  readonly page: PageDeclaration;
  readonly index: IndexDeclaration<T>;
  readonly oracle: OracleDeclaration;
  readonly api: ApiDeclaration;
  /** The index endpoints the kind owns (`/v2/id/<name>`, computed from its collection index), made once per app. */
  readonly indexes?: IndexEndpoints<T>;
  /** The facets of its page for people, in the order shown. */
  readonly facets?: readonly FacetDeclaration<T>[];
  /** Records related to the record with id `id` in the table, best first (shown on its page for people). */
  related?(table: T, id: number, limit: number): readonly RelatedRecord[];
  /** The key facts of a record (its finished JSON-LD) in `lang`, for its page and its cards. */
  facts?(record: JsonObject, lang: TitleLanguage): readonly RecordFact[];
  /** The records of other collections its page lists as cards. */
  readonly linked?: readonly LinkedRecords[];
}
