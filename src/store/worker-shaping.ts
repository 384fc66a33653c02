/**
 * Records shaped in the store worker that reads them (shaped-records.ts): the query's answer is parsed,
 * framed and shaped here, so the main thread receives finished JSON, and the two workers of the shared
 * embedded store shape a page's records on both cores at once. A kind's shaping function is imported once
 * per worker from the module its declaration names; frames are read once.
 */
import { loadFrame } from '../shaping/frames.js';
import { parseGraph, parseRecordRows, type RecordGraph } from '../shaping/record-graph.js';
import type { QueryResultFormat } from './types.js';
import { packShapedRecords, shapeRecordGraph, type RecordShaping, type ShapedRecord, type ShapingJob } from './shaped-records.js';

const shapings = new Map<string, RecordShaping | Promise<RecordShaping>>();

/** The shaping of `job`'s kind: at once when loaded, else a promise of it (the first query of a kind). */
export function shapingOf(job: ShapingJob): RecordShaping | Promise<RecordShaping> {
  const key = `${job.module}#${job.name}#${job.frame}#${(job.viewKeys ?? []).join(' ')}`;
  const known = shapings.get(key);
  if (known) return known;
  const loading = import(job.module).then((module: Record<string, unknown>) => {
    const shape = module[job.name];
    if (typeof shape !== 'function') throw new Error(`${job.module} exports no shaping function ${job.name}`);
    const shaping: RecordShaping = {
      context: loadFrame(job.frame)['@context'] as Record<string, unknown>,
      shape: shape as RecordShaping['shape'],
      ...(job.viewKeys ? { viewKeys: job.viewKeys } : {}),
    };
    shapings.set(key, shaping);
    return shaping;
  });
  loading.catch(() => shapings.delete(key));
  shapings.set(key, loading);
  return loading;
}

/** How an answer in `format` holds the records of `job`; throws, before any query runs, for one that cannot. */
export function answerShape(format: QueryResultFormat, job: ShapingJob): 'rows' | 'graph' {
  if (format === 'text/tab-separated-values') return 'rows';
  if ((format === 'application/n-triples' || format === 'application/n-quads') && job.records.length === 1) return 'graph';
  throw new Error('records are shaped from rows of their graphs (TSV results) or from the N-Triples of one record');
}

/**
 * The finished records of a query's answer, packed: rows `?record ?s ?p ?o` as TSV results (a page), or the
 * N-Triples of one record's graph (the single record's CONSTRUCT).
 */
export function shapeAnswer(answer: string, shape: 'rows' | 'graph', job: ShapingJob, shaping: RecordShaping): string {
  const graphs: Map<string, RecordGraph> = shape === 'rows' ? parseRecordRows(answer) : new Map([[job.records[0] as string, parseGraph(answer)]]);
  const shaped: [string, ShapedRecord][] = [];
  for (const iri of job.records) {
    const graph = graphs.get(iri);
    // An empty graph (a record the store does not hold) has no harvest time: shapeRecordGraph gives nothing.
    const record = graph && shapeRecordGraph(graph, iri, shaping);
    if (record) shaped.push([iri, record]);
  }
  return packShapedRecords(shaped);
}
