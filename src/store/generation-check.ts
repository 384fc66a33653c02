/**
 * Reads a written N-Quads gzip file back in one streaming pass: gzip integrity, every line parses, quads
 * counted, graphs collected, sha256 of the stored bytes. A generation is published only after this passes.
 */
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import type { RecordKinds } from '../vocab/record-kinds.js';
import { detached, readQuadBatches } from './nquads-file.js';
import type { RecordCounts } from './types.js';

export interface FileCheck {
  quads: number;
  /** Graph terms as written (`<iri>` or `_:label`); the default graph is not a member. */
  graphs: Set<string>;
  sha256: string;
  bytes: number;
}

/** Streams `file` through gunzip and the N-Quads line parser; throws `NQuadsSyntaxError` on the first bad line. */
export async function checkNQuadsFile(file: string, onBytes?: (bytesRead: number) => void): Promise<FileCheck> {
  const hash = createHash('sha256');
  const graphs = new Set<string>();
  let quads = 0;
  let lastGraph: string | undefined;
  for await (const batch of readQuadBatches(file, { onRaw: (c) => hash.update(c), onBytes })) {
    quads += batch.terms.length;
    for (const { graph } of batch.terms) {
      // Record graphs come in runs; skipping the Set for a repeat keeps this pass cheap.
      // A copy: a slice would keep its whole text block alive (nquads-file.ts).
      if (graph !== undefined && graph !== lastGraph && !graphs.has(graph)) graphs.add(detached(graph));
      lastGraph = graph;
    }
  }
  const { size } = await stat(file);
  return { quads, graphs, sha256: hash.digest('hex'), bytes: size };
}

/** Counts the record graphs (`<{base}/v2/id/<kind>/<pid>>`) among graph terms, per kind (every kind, zeros included). */
export function countRecordGraphs(graphs: Iterable<string>, baseUrl: string, kinds: RecordKinds): RecordCounts {
  const counts = kinds.zeroCounts();
  for (const graph of graphs) {
    const kind = kinds.kindOfGraph(graph, baseUrl);
    if (kind !== undefined) counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}
