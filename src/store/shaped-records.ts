/**
 * A record graph made into its finished JSON (framed by the kind's compiled frame, shaped by the kind's rules,
 * serialised, digested), in whichever thread holds the graph: the main thread for a remote store, the store
 * worker that answered the query for the embedded store (docs/architecture.md, "Records shaped where they are
 * read"). The worker's answer carries the finished records packed in one string, which the main thread cuts
 * into the records' bodies without parsing them.
 */
import { createHash } from 'node:crypto';
import { frameRecordNodes } from '../shaping/compiled-frame.js';
import type { JsonObject } from '../shaping/frames.js';
import { literalOf, type RecordGraph } from '../shaping/record-graph.js';
import { NS } from '../vocab/namespaces.js';

/** What framing and shaping a kind's record needs: the frame's context, the kind's rules, its view's keys. */
export interface RecordShaping {
  readonly context: Record<string, unknown>;
  shape(framed: JsonObject): JsonObject;
  readonly viewKeys?: readonly string[];
}

/**
 * A kind's record shaping as a store worker loads it: the module and export of the shaping function, the frame
 * (`frames/<frame>.frame.jsonld`, or an absolute path) and the view's keys. Plain strings, sent with the query.
 */
export interface ShapingJob {
  readonly module: string;
  readonly name: string;
  readonly frame: string;
  readonly viewKeys?: readonly string[];
  /**
   * The records asked for. With a TSV answer (rows `?record ?s ?p ?o`, a page's) each is looked up among the
   * rows; with an RDF answer (the single record's CONSTRUCT) there is exactly one, and the answer is its graph.
   */
  readonly records: readonly string[];
}

/** One finished record: its JSON without and with the view's keys, their digests, and its harvest time. */
export interface ShapedRecord {
  body: string;
  /** The record with the view's keys, when it has any; otherwise `body` serves both. */
  viewBody?: string;
  digest: string;
  viewDigest?: string;
  /** prov:generatedAtTime of the record, in epoch milliseconds. */
  harvestedAt: number;
}

const GENERATED_AT = `${NS.prov}generatedAtTime`;

/** The harvest time of `iri` (its prov:generatedAtTime) in its parsed graph. */
export function harvestTime(graph: RecordGraph, iri: string): Date | undefined {
  const value = literalOf(graph, iri, GENERATED_AT);
  const date = value === undefined ? undefined : new Date(value);
  return date && !Number.isNaN(date.getTime()) ? date : undefined;
}

/** Digest of a body (base64url, 16 characters: 96 bits). */
export const bodyDigest = (body: string): string => createHash('sha256').update(body, 'utf8').digest('base64url').slice(0, 16);

/** The finished record of `iri` in its graph; undefined without a harvest time (not a servable record). */
export function shapeRecordGraph(graph: RecordGraph, iri: string, shaping: RecordShaping): ShapedRecord | undefined {
  const harvestedAt = harvestTime(graph, iri);
  if (!harvestedAt) return undefined;
  const shaped = shaping.shape(frameRecordNodes(graph, iri, shaping.context));
  const keys = shaping.viewKeys;
  if (keys === undefined || !keys.some((key) => key in shaped)) {
    const body = JSON.stringify(shaped);
    return { body, digest: bodyDigest(body), harvestedAt: harvestedAt.getTime() };
  }
  const viewBody = JSON.stringify(shaped);
  const without: JsonObject = {};
  for (const [key, value] of Object.entries(shaped)) if (!keys.includes(key)) without[key] = value;
  const body = JSON.stringify(without);
  return { body, viewBody, digest: bodyDigest(body), viewDigest: bodyDigest(viewBody), harvestedAt: harvestedAt.getTime() };
}

/**
 * Finished records packed in one string: per record a head line `iri TAB harvestedAt TAB digest TAB viewDigest
 * TAB body length TAB view body length (-1: none)`, then the body and the view body. IRIs hold no tab or line
 * break (N-Triples forbids them), and the lengths delimit the bodies, so nothing in them is escaped.
 */
export function packShapedRecords(records: Iterable<[iri: string, record: ShapedRecord]>): string {
  const parts: string[] = [];
  for (const [iri, r] of records) {
    parts.push(`${iri}\t${r.harvestedAt}\t${r.digest}\t${r.viewDigest ?? ''}\t${r.body.length}\t${r.viewBody?.length ?? -1}\n`, r.body, r.viewBody ?? '');
  }
  return parts.join('');
}

class PackedAnswerError extends Error {}

/** The records of `packShapedRecords`, by IRI; the bodies are slices of `packed`. */
export function unpackShapedRecords(packed: string): Map<string, ShapedRecord> {
  const records = new Map<string, ShapedRecord>();
  let pos = 0;
  while (pos < packed.length) {
    const end = packed.indexOf('\n', pos);
    const head = end < 0 ? [] : packed.slice(pos, end).split('\t');
    if (head.length !== 6) throw new PackedAnswerError(`shaped records: bad head at offset ${pos}`);
    const [iri, harvestedAt, digest, viewDigest, bodyLength, viewLength] = head as [string, string, string, string, string, string];
    const bodyEnd = end + 1 + Number(bodyLength);
    const viewEnd = bodyEnd + Math.max(0, Number(viewLength));
    if (!(bodyEnd > end && viewEnd <= packed.length)) throw new PackedAnswerError(`shaped records: ${iri} runs past the answer`);
    const record: ShapedRecord = { body: packed.slice(end + 1, bodyEnd), digest, harvestedAt: Number(harvestedAt) };
    if (Number(viewLength) >= 0) {
      record.viewBody = packed.slice(bodyEnd, viewEnd);
      record.viewDigest = viewDigest;
    }
    records.set(iri, record);
    pos = viewEnd;
  }
  return records;
}
