/** Streams the statements of an N-Quads file (plain or gzip), each line checked; errors name file and line. */
import { NQuadsSyntaxError } from './errors.js';
import { readLineBatches, TextFileError, type ReadOptions } from './line-reader.js';
import { LineSyntaxError, parseQuadLine, type QuadTerms } from './nquads-line.js';

/**
 * A copy of `text` that holds no larger string alive. The terms of a batch are slices of the text block they
 * were read from, and V8 keeps the whole block alive as long as a slice lives: a term kept for a whole file (a
 * graph name in a Set) must be copied, or the file ends up in memory (about 4 GB at 100k objects).
 */
export const detached = (text: string): string => Buffer.from(text, 'utf8').toString('utf8');

/** Consecutive statements: `lines[i]` is the text of the statement whose terms are `terms[i]`. */
export interface QuadBatch {
  lines: string[];
  terms: QuadTerms[];
}

/** The terms of line `lineNumber` of `file` (undefined for a blank or comment line); throws `NQuadsSyntaxError` naming both. */
export function parseLineOf(file: string, lineNumber: number, line: string): QuadTerms | undefined {
  try {
    return parseQuadLine(line);
  } catch (err) {
    if (err instanceof LineSyntaxError) throw new NQuadsSyntaxError(file, lineNumber, err.message);
    throw err;
  }
}

/** Yields the statements of `file` in batches (blank and comment lines dropped); throws `NQuadsSyntaxError`. */
export async function* readQuadBatches(file: string, options: ReadOptions = {}): AsyncGenerator<QuadBatch> {
  try {
    for await (const { lines, first } of readLineBatches(file, options)) {
      const batch: QuadBatch = { lines: [], terms: [] };
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i] as string;
        const terms = parseLineOf(file, first + i, line);
        if (terms === undefined) continue;
        batch.lines.push(line);
        batch.terms.push(terms);
      }
      yield batch;
    }
  } catch (err) {
    if (err instanceof TextFileError) throw new NQuadsSyntaxError(file, err.line, err.reason);
    throw err;
  }
}
