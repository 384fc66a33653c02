/**
 * The members of this service's own event streams (docs/changes.md, "The event streams") as an N-Quads dump that
 * `npm run load` makes a generation of: a second deployment mirrors a first one from its streams
 * (docs/ldes-harvest.md, "From another deployment of this service").
 *
 * A version's named graph is its record's graph as the first deployment served it. Here it becomes the graph of
 * the record, with every IRI under the first deployment's `/v2/id/` moved under this one's (records, the nodes
 * inside them, the types the service mints); every other IRI stays (images stay where the first deployment
 * serves them). A tombstone's record is not public here: with a `dcterms:isReplacedBy`, a merge into that
 * record (301); without, a private record (404), since the stream does not say whether it was removed or hidden.
 */
import type * as RDF from '@rdfjs/types';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { DataFactory, Parser, Writer } from 'n3';
import type { JournalMember } from './journal.js';
import { writerText } from '../../rdf/write.js';

const ADMIN = 'urn:x-museum-ld:admin#';
const AS_DELETE = 'https://www.w3.org/ns/activitystreams#Delete';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const REPLACED_BY = 'http://purl.org/dc/terms/isReplacedBy';
const XSD_BOOLEAN = 'http://www.w3.org/2001/XMLSchema#boolean';
/** A record IRI of a deployment of this service: `{base}/v2/id/<kind>/<pid>`. */
const RECORD_IRI = /^(https?:\/\/[^/]+)\/v2\/id\/[a-z]+\/[^/]+$/;

/** Whether a member is a version of a record of a deployment of this service. */
export const isOwnRecord = (member: Pick<JournalMember, 'versionOf'>): boolean => RECORD_IRI.test(member.versionOf);

/** A member that is not a version of a record of this service. */
export class NotOwnRecordError extends Error {}

export interface RecordDumpReport {
  records: number;
  tombstones: number;
  quads: number;
  /** The base URL of the deployment the streams came from. */
  sourceBase: string;
}

/** Writes the latest versions as a dump for `baseUrl` into `file`. */
export async function writeRecordDump(latest: Iterable<JournalMember> | AsyncIterable<JournalMember>, file: string, baseUrl: string): Promise<RecordDumpReport> {
  const { namedNode, literal, quad } = DataFactory;
  const out = createWriteStream(file);
  const report: RecordDumpReport = { records: 0, tombstones: 0, quads: 0, sourceBase: '' };
  const adminGraph = namedNode(`${baseUrl}/graph/admin`);
  let i = 0;
  for await (const member of latest) {
    const base = RECORD_IRI.exec(member.versionOf)?.[1];
    if (base === undefined) throw new NotOwnRecordError(`${member.id} (on ${member.page}) is a version of ${member.versionOf}, not of a record of this service ({base}/v2/id/<kind>/<pid>); only this service's own streams can be harvested so far`);
    if (report.sourceBase === '') report.sourceBase = base;
    else if (report.sourceBase !== base) throw new NotOwnRecordError(`${member.id} (on ${member.page}) comes from ${base}, the other members from ${report.sourceBase}: one deployment at a time`);
    const from = `${base}/v2/id/`;
    const to = `${baseUrl}/v2/id/`;
    const move = <T extends RDF.Term>(term: T): T => (term.termType === 'NamedNode' && term.value.startsWith(from) ? (namedNode(`${to}${term.value.slice(from.length)}`) as unknown as T) : term);
    const record = move(namedNode(member.versionOf));
    // Blank node labels are the page's; each record gets its own.
    const quads = new Parser({ format: 'application/n-quads', blankNodePrefix: `r${i++}_` }).parse(member.nquads);
    const tombstone = quads.some((q) => q.subject.value === member.id && q.predicate.value === RDF_TYPE && q.object.value === AS_DELETE);
    const lines: RDF.Quad[] = [];
    if (tombstone) {
      const target = quads.find((q) => q.subject.value === member.id && q.predicate.value === REPLACED_BY)?.object;
      if (target?.termType === 'NamedNode') {
        lines.push(quad(record, namedNode(`${ADMIN}state`), literal('merged'), adminGraph), quad(record, namedNode(`${ADMIN}resolvesTo`), move(target), adminGraph));
      } else {
        lines.push(quad(record, namedNode(`${ADMIN}state`), literal('current'), adminGraph), quad(record, namedNode(`${ADMIN}private`), literal('true', namedNode(XSD_BOOLEAN)), adminGraph));
      }
      report.tombstones++;
    } else {
      for (const q of quads) if (q.graph.value === member.id) lines.push(quad(move(q.subject), q.predicate, move(q.object), record));
      if (lines.length === 0) throw new NotOwnRecordError(`${member.id} (on ${member.page}) holds no statement in its named graph: not a version of this service's streams`);
      report.records++;
    }
    report.quads += lines.length;
    const writer = new Writer({ format: 'N-Quads' });
    writer.addQuads(lines as never);
    const text = await writerText(writer);
    if (!out.write(text)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return report;
}
