/**
 * What turns a store that holds one generation into one that holds the next, when the next was written on it
 * (record-files.ts; docs/incremental.md): the records to take out (their graph, and the statements they made
 * in shared graphs such as the admin graph) and the text of the records to put in. Read from the two record
 * indexes and the members that hold changed records, never from the whole files.
 *
 * Synchronous: a store worker applies it between two queries, so no query sees half of it.
 */
import { openSync, closeSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { generationFiles } from './generations.js';
import { lineTerms } from './nquads-line.js';
import { parseRecordIndex, PARTS, RECORD_INDEX_FILE, recordDigests, type Member, type Part, type RecordIndex } from './record-files.js';

/** One record to take out of a part. */
export interface DroppedRecord {
  graph: string;
  part: Part;
  /** Its statements in shared graphs (N-Quads lines), which are taken out one by one. */
  shared: string;
}

export interface RecordDelta {
  drop: DroppedRecord[];
  /** The text of the records to put in, per part. */
  add: Record<Part, string>;
  /** Records put in. */
  added: number;
}

/** The record index of the generation in `dir`, read synchronously; undefined when it has none or names another. */
export function readRecordIndexSync(dir: string, generationId: string): RecordIndex | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path.join(dir, RECORD_INDEX_FILE));
  } catch {
    return undefined;
  }
  return parseRecordIndex(gunzipSync(bytes).toString('utf8'), path.join(dir, RECORD_INDEX_FILE), generationId);
}

/** Each record's text in `member` of `file`, by graph: its graph's lines and the shared lines after them. */
function memberRecords(file: string, fd: number, member: Member): Map<string, { own: string; shared: string }> {
  const bytes = Buffer.allocUnsafe(member.length);
  if (readSync(fd, bytes, 0, member.length, member.offset) !== member.length) throw new Error(`${file}: the file ends inside a member (at byte ${member.offset})`);
  const text = gunzipSync(bytes).toString('utf8');
  const graphs = new Set(member.records.map(([graph]) => `<${graph}>`));
  const records = new Map<string, { own: string; shared: string }>();
  let current: { own: string; shared: string } | undefined;
  for (const line of text.split('\n')) {
    const terms = lineTerms(line);
    if (terms === undefined) continue;
    const graph = terms[3];
    if (graphs.has(graph)) {
      const iri = graph.slice(1, -1);
      current = records.get(iri);
      if (current === undefined) records.set(iri, (current = { own: '', shared: '' }));
      current.own += `${line}\n`;
    } else {
      if (current === undefined) throw new Error(`${file}: a member starts with a statement of no record (at byte ${member.offset})`);
      current.shared += `${line}\n`;
    }
  }
  return records;
}

/**
 * The delta from generation `from` to generation `to` (folders and ids), when `to` has a record index and so
 * has `from`; undefined otherwise.
 */
export function recordDelta(from: { dir: string; id: string }, to: { dir: string; id: string }): RecordDelta | undefined {
  const before = readRecordIndexSync(from.dir, from.id);
  const after = readRecordIndexSync(to.dir, to.id);
  if (before === undefined || after === undefined) return undefined;
  const old = new Map<string, { digest: string; member: Member }>();
  for (const part of PARTS) for (const member of before[part]) for (const [graph, digest] of member.records) old.set(graph, { digest, member });
  // A digest covers its record's part: a record that moved from one file to the other has another digest.
  const now = recordDigests(after);
  const same = (graph: string): boolean => old.get(graph)?.digest === now.get(graph);

  const delta: RecordDelta = { drop: [], add: { public: '', nonPublic: '' }, added: 0 };
  // The records to put in, from the new files' members that hold them.
  for (const part of PARTS) {
    const file = generationFiles(to.dir)[part];
    const members = after[part].filter((m) => m.records.some(([graph]) => !same(graph)));
    if (members.length === 0) continue;
    const fd = openSync(file, 'r');
    try {
      for (const member of members) {
        const texts = memberRecords(file, fd, member);
        for (const [graph] of member.records) {
          if (same(graph)) continue;
          const text = texts.get(graph);
          if (text === undefined) throw new Error(`${file}: the record <${graph}> is not in the member its index names`);
          delta.add[part] += text.own + text.shared;
          delta.added += 1;
        }
      }
    } finally {
      closeSync(fd);
    }
  }
  // The records to take out: changed or gone; their shared statements from the old files' members.
  const dropped = [...old].filter(([graph]) => !same(graph));
  const byMember = new Map<Member, string[]>();
  for (const [graph, was] of dropped) {
    const list = byMember.get(was.member);
    if (list) list.push(graph);
    else byMember.set(was.member, [graph]);
  }
  for (const part of PARTS) {
    const file = generationFiles(from.dir)[part];
    const members = before[part].filter((m) => byMember.has(m));
    if (members.length === 0) continue;
    const fd = openSync(file, 'r');
    try {
      for (const member of members) {
        const texts = memberRecords(file, fd, member);
        for (const graph of byMember.get(member) as string[]) delta.drop.push({ graph, part, shared: texts.get(graph)?.shared ?? '' });
      }
    } finally {
      closeSync(fd);
    }
  }
  return delta;
}
