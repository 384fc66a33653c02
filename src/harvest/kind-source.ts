/**
 * The harvest of a kind declared beyond the export's four (a museum's own, or a test's): the kind names its
 * JSON Lines file in the export, the schema of a line, and how one record becomes its named graph. The harvest
 * reads the file once, after the built-in kinds, checks each line and pid as it does theirs (a bad line is a
 * SourceLineError naming the file and the line), and writes each graph with its admin facts.
 */
import { join } from 'node:path';
import type { z } from 'zod';
import { PID, type Iris } from '../vocab/iris.js';
import type { GraphBuilder } from './graph-builder.js';
import { describeIssue, readLines } from './source-reader.js';
import { SourceLineError } from './source-line-error.js';

/** What a record's graph is built from. */
export interface KindGraphContext {
  /** The record's IRI, `{base}/v2/id/<kind>/<pid>`. */
  record: string;
  iris: Iris;
}

/** How the records of a kind come from the source export. */
export interface KindSource<R> {
  /** The kind's singular, as in its record IRIs. */
  readonly kind: string;
  /** Its JSON Lines file in the export folder, such as `books.jsonl`. */
  readonly file: string;
  /** One line's record. */
  readonly schema: z.ZodType<R>;
  pid(record: R): string;
  /** False keeps the record out of the public data (its graph goes to the non-public file). */
  isPublic(record: R): boolean;
  graph(record: R, ctx: KindGraphContext): GraphBuilder;
}

/** Yields the records of `source` in `sourceDir`, each with its line, pid and IRI; throws SourceLineError on a bad line. */
export async function* kindRecords<R>(sourceDir: string, source: KindSource<R>, iris: Iris): AsyncGenerator<{ line: number; record: R; iri: string }> {
  const seen = new Map<string, number>();
  for await (const { line, text } of readLines(join(sourceDir, source.file))) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new SourceLineError(source.file, line, `invalid JSON: ${(error as Error).message}`);
    }
    const result = source.schema.safeParse(json);
    if (!result.success) throw new SourceLineError(source.file, line, describeIssue(result.error));
    const pid = source.pid(result.data);
    if (!PID.test(pid)) throw new SourceLineError(source.file, line, `pid ${JSON.stringify(pid)} is not a pid (1 to 64 of A-Z a-z 0-9 . _ + -, the first a letter or digit)`);
    const first = seen.get(pid);
    if (first !== undefined) throw new SourceLineError(source.file, line, `duplicate pid ${pid} (first on line ${first})`);
    seen.set(pid, line);
    yield { line, record: result.data, iri: iris.record(source.kind, pid) };
  }
}

/** The sources of the kinds that declare one (`ResourceKind.source`), by collection: what `harvestExport` takes as `kinds`. */
export function kindSources(kinds: readonly { readonly collection: string; readonly source?: KindSource<never> }[]): Record<string, KindSource<never>> {
  return Object.fromEntries(kinds.flatMap((kind) => (kind.source === undefined ? [] : [[kind.collection, kind.source] as const])));
}
