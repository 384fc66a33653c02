/**
 * What every kind's collection table has (docs/architecture.md, "One engine, many kinds"): the listed records of
 * one generation with dense ids 0 … size-1 in pid order (code points, as SPARQL's ORDER BY gives plain
 * strings), so id order is the default sort, and the modification date that `modifiedSince` and the
 * `modified` sort read. A kind's own table extends this with its flags, postings and texts.
 */
export type Row = Readonly<Record<string, string>>;

export interface RecordTable {
  readonly generationId: string;
  readonly size: number;
  /** Record IRI and pid per id; ids follow pid order. */
  readonly iris: readonly string[];
  readonly pids: readonly string[];
  readonly idOf: ReadonlyMap<string, number>;
  /** dcterms:modified as YYYY-MM-DD (ISO dates sort as strings). */
  readonly modified: readonly (string | undefined)[];
}

/** Code-point order, the order SPARQL's ORDER BY gives plain strings. */
export const compareCodePoints = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The listed records of `rows` (one row per record, `record`/`pid`/`modified` named by `columns`; the first row
 * of a record wins) in pid order, and the shared part of the table built from them.
 */
export function listRecords(
  generationId: string,
  rows: readonly Row[],
  columns: { record: string; pid: string },
): { listed: Row[]; base: RecordTable } {
  const byIri = new Map<string, Row>();
  for (const row of rows) {
    const iri = row[columns.record];
    if (iri !== undefined && row[columns.pid] !== undefined && !byIri.has(iri)) byIri.set(iri, row);
  }
  const listed = [...byIri.values()].sort((a, b) => compareCodePoints(a[columns.pid]!, b[columns.pid]!));
  const idOf = new Map<string, number>();
  listed.forEach((row, id) => idOf.set(row[columns.record]!, id));
  return {
    listed,
    base: {
      generationId,
      size: listed.length,
      iris: listed.map((row) => row[columns.record]!),
      pids: listed.map((row) => row[columns.pid]!),
      idOf,
      modified: listed.map((row) => row.modified),
    },
  };
}

/** Calls `visit` for each row whose `column` names a listed record. */
export function forEachListed(rows: readonly Row[], idOf: ReadonlyMap<string, number>, visit: (id: number, row: Row) => void, column = 'record'): void {
  for (const row of rows) {
    const id = idOf.get(row[column] ?? '');
    if (id !== undefined) visit(id, row);
  }
}
