/**
 * The graphs of a generation's N-Quads file, one at a time (publish.ts writes each in one request of the Graph
 * Store Protocol; bulk-files.ts writes the bulk loader's files from a generation made without STORE_URL).
 */
import { NQuadsSyntaxError } from '../errors.js';
import { readLineBatches, TextFileError } from '../line-reader.js';
import { detached, parseLineOf } from '../nquads-file.js';
import { graphStatement } from '../nquads-line.js';

/** The statements of one graph of a generation file, each once, as triples (`s p o`, without the final ` .`). */
export interface GraphStatements {
  /** The graph's IRI as the file writes it (`<…>`). */
  name: string;
  triples: string[];
  /** True when a statement names a blank node. */
  blank: boolean;
}

/**
 * The graphs of an N-Quads file of the generation, one at a time, each statement once. A graph whose statements
 * are not together and that names blank nodes is refused: blank-node labels are scoped to one write (a request,
 * or a file of the bulk loader), and the parts would name different nodes.
 *
 * The generation's files were written and checked by the service, so a line is cut where its graph term starts
 * (`splitCanonical`) and fully parsed only when it has another form (a dump written elsewhere): at 100k objects
 * the full parse of every line was a third of the time spent writing the bulk loader's files.
 */
export async function* graphsOfFile(file: string): AsyncGenerator<GraphStatements> {
  const seen = new Set<string>();
  const withBlankNodes = new Set<string>();
  let graph: string | undefined;
  let triples: string[] = [];
  let blank = false;
  const done = (): GraphStatements | undefined => {
    if (graph === undefined) return undefined;
    const name = graph;
    if (seen.has(name) && (blank || withBlankNodes.has(name))) {
      throw new Error(`${file}: the statements of graph ${name} are not together and it has blank nodes; they cannot be written in parts`);
    }
    // Kept for the whole file: a copy, not a slice of the line's text block (nquads-file.ts).
    const key = detached(name);
    seen.add(key);
    if (blank) withBlankNodes.add(key);
    // A statement written twice is one statement to the server (and to Oxigraph).
    return { name, triples: [...new Set(triples)], blank };
  };
  try {
    for await (const { lines, first } of readLineBatches(file)) {
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i] as string;
        const statement = graphStatement(line, (text) => parseLineOf(file, first + i, text));
        if (statement === undefined) continue;
        const { subject, object, graph: name, triple } = statement;
        if (name === undefined || !name.startsWith('<')) throw new Error(`${file}: a statement outside a named graph cannot be published`);
        if (name !== graph) {
          const finished = done();
          if (finished) yield finished;
          graph = name;
          triples = [];
          blank = false;
        }
        if (subject.startsWith('_:') || object.startsWith('_:')) blank = true;
        triples.push(triple);
      }
    }
  } catch (err) {
    if (err instanceof TextFileError) throw new NQuadsSyntaxError(file, err.line, err.reason);
    throw err;
  }
  const last = done();
  if (last) yield last;
}
