/**
 * Reads one JSON Lines file of the source export and validates each line with its zod schema.
 * A bad line throws SourceLineError with the file name, the 1-based line and the first issue.
 */
import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { join } from 'node:path';
import type { z } from 'zod';
import { RECORD_SCHEMAS, SOURCE_FILES, type SourceKind, type SourceRecord } from './schema.js';
import { SourceLineError } from './source-line-error.js';

/** One non-blank line of a JSON Lines file. */
export interface SourceLine {
  line: number;
  text: string;
}

/** Yields the non-blank lines of `path` with 1-based line numbers (LF or CRLF; a leading BOM is ignored). */
export async function* readLines(path: string): AsyncGenerator<SourceLine> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  let line = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    const text = rest + decoder.write(chunk as Buffer);
    let start = 0;
    let end = text.indexOf('\n', start);
    while (end !== -1) {
      line += 1;
      const value = lineValue(text, start, end, line);
      if (value !== '') yield { line, text: value };
      start = end + 1;
      end = text.indexOf('\n', start);
    }
    rest = text.slice(start);
  }
  rest += decoder.end();
  if (rest !== '') {
    line += 1;
    const value = lineValue(rest, 0, rest.length, line);
    if (value !== '') yield { line, text: value };
  }
}

function lineValue(text: string, start: number, end: number, line: number): string {
  let value = text.slice(start, text.charCodeAt(end - 1) === 13 ? end - 1 : end);
  if (line === 1 && value.charCodeAt(0) === 0xfeff) value = value.slice(1);
  // Blank lines carry no record; tolerating them keeps hand-edited exports loadable.
  return value.trim() === '' ? '' : value;
}

/** "path.to[0].field: message" for the first zod issue. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'invalid record';
  let path = '';
  for (const key of issue.path) {
    if (typeof key === 'number') path += `[${key}]`;
    else path += path === '' ? String(key) : `.${String(key)}`;
  }
  return path === '' ? issue.message : `${path}: ${issue.message}`;
}

/** Parses and validates one line as a record of `kind`; throws SourceLineError when it is not one. */
export function parseRecord<K extends SourceKind>(kind: K, source: SourceLine): SourceRecord[K] {
  const file = SOURCE_FILES[kind];
  let json: unknown;
  try {
    json = JSON.parse(source.text);
  } catch (error) {
    throw new SourceLineError(file, source.line, `invalid JSON: ${(error as Error).message}`);
  }
  const result = RECORD_SCHEMAS[kind].safeParse(json);
  if (!result.success) throw new SourceLineError(file, source.line, describeIssue(result.error));
  return result.data as SourceRecord[K];
}

/** Yields every record of `kind` in `sourceDir` with its line number. */
export async function* readRecords<K extends SourceKind>(
  sourceDir: string,
  kind: K,
): AsyncGenerator<{ line: number; record: SourceRecord[K] }> {
  for await (const source of readLines(join(sourceDir, SOURCE_FILES[kind]))) {
    yield { line: source.line, record: parseRecord(kind, source) };
  }
}
