/**
 * Building blocks of kind declarations (src/kinds/<kind>/kind.ts): what most kinds declare alike, said once.
 * A kind that differs declares that part in full instead (objects: their own stubs; concepts: no Cache-Control).
 */
import type { Bitset } from '../collection-index/bitset.js';
import { languageFilter } from '../collection-index/filters/language.js';
import { INVALID_MODIFIED_SINCE_OTHER_KINDS, modifiedSinceFilter } from '../collection-index/filters/modified-since.js';
import type { PerLanguage } from '../collection-index/languages.js';
import type { RecordTable, Row } from '../collection-index/record-table.js';
import { collatedOrder, modifiedOrder, type SortOrder } from '../collection-index/sort-orders.js';
import type { TextField } from '../collection-index/text/text-index.js';
import { RECORD_CACHE_CONTROL } from '../http/caching.js';
import { labelledStubs } from '../shaping/labelled-stub.js';
import { workerModule } from '../threads/ts-worker.js';
import type { IndexDeclaration, PageDeclaration, RecordDeclaration } from './kind.js';

/**
 * The `shapeExport` of a kind whose shaping function is the export `name` of `shaping.ts` beside its `kind.ts`
 * (`kindModule`: that module's import.meta.url; the extension follows it, .ts from the sources, .js from dist/).
 */
export const shapingExport = (kindModule: string, name: string): NonNullable<RecordDeclaration['shapeExport']> => ({
  module: workerModule(kindModule, 'shaping').href,
  name,
});

/**
 * A record served at `/id/<kind>/:pid` (and any `alsoAt` paths), read by the shared record CONSTRUCT
 * (`queries/records/record.rq`), framed by `frames/<frame>.frame.jsonld` and sent with the records'
 * Cache-Control unless `cacheControl` says otherwise (null: none).
 */
export function recordDeclaration(
  kind: string,
  declaration: Omit<RecordDeclaration, 'paths' | 'query' | 'frame' | 'cacheControl'> & { alsoAt?: readonly string[]; cacheControl?: string | null },
): RecordDeclaration {
  const { alsoAt = [], cacheControl = RECORD_CACHE_CONTROL, ...rest } = declaration;
  return {
    paths: [`/id/${kind}/:pid`, ...alsoAt],
    query: 'records/record',
    frame: kind,
    ...(cacheControl === null ? {} : { cacheControl }),
    ...rest,
  };
}

/**
 * The index SELECTs of a kind by the part of the rows each fills, and its table built from those rows: the
 * compiler holds the two to the same names.
 */
export const indexTable = <R extends object, T extends RecordTable>(
  queries: Readonly<Record<keyof R, string>>,
  build: (generationId: string, rows: R) => T | Promise<T>,
): Pick<IndexDeclaration<T>, 'queries' | 'table'> => ({
  queries: queries as Readonly<Record<string, string>>,
  table: (generationId: string, rows: Readonly<Record<string, readonly Row[]>>) => build(generationId, rows as unknown as R),
});

/** A page whose stubs are the records' labels (`@type` `classTerm`), read by the shared page queries. */
export const labelledPage = (classTerm: string): PageDeclaration => ({
  records: 'records/page-records',
  stubs: 'records/page-labels',
  stubsFromNQuads: labelledStubs(classTerm),
  stubFrame: 'labelled-stub',
  stubClass: classTerm,
});

/** The record's pid as a field of `q`: the strongest, matched as an identifier. */
export const pidField = (table: RecordTable): TextField => ({ name: 'pid', boost: 4, analysis: 'identifier', text: (id) => table.pids[id] });

/** The orders of `sortBy=modified` and of `sortBy=<key>`, the latter by `label` collated as Dutch. */
export const modifiedAndLabelSorts =
  <T extends RecordTable>(key: string, label: (table: T, id: number) => string | undefined) =>
  (table: T): Record<string, () => SortOrder> => ({ modified: () => modifiedOrder(table), [key]: () => collatedOrder(table.size, 'nl', (id) => label(table, id)) });

/**
 * The collection index of a kind listed under one label (exhibitions by title, concepts by label): sorted by
 * pid, by that label or by modification, searched by pid and `textFields`, filtered by `modifiedSince` and by
 * `language` (the records with a text in it).
 */
export function labelledIndex<T extends RecordTable>(declaration: Pick<IndexDeclaration<T>, 'queries' | 'table'> & {
  /** The sort key of the label (`sortBy=<key>`) and the label of each record. */
  label: { key: string; text: (table: T, id: number) => string | undefined };
  /** The fields `q` searches besides the pid. */
  textFields: (table: T) => TextField[];
  /** The records with a text in each language. */
  languages: (table: T) => PerLanguage<Bitset>;
}): IndexDeclaration<T> {
  const { queries, table, label, textFields, languages } = declaration;
  return {
    queries,
    table,
    sortKeys: ['pid', label.key, 'modified'],
    sorts: modifiedAndLabelSorts(label.key, label.text),
    textFields: (t) => [pidField(t), ...textFields(t)],
    filters: [modifiedSinceFilter(INVALID_MODIFIED_SINCE_OTHER_KINDS), languageFilter(languages)],
    linkOrder: ['fullRecord', 'modifiedSince', 'language', 'q', 'sortBy', 'sortOrder'],
  };
}
