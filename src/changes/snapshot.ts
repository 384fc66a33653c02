/**
 * What the change log compares: a generation reduced to one digest per public record graph and the admin
 * state of every non-public record. Read in one streaming pass over the generation's two files and kept in
 * DATA_DIR/changes/snapshots/<id>.json (derived data: deleting it costs one more pass, never a wrong answer).
 */
import { createHash } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { readTextBlocks } from '../store/line-reader.js';
import { detached, readQuadBatches } from '../store/nquads-file.js';
import { lineTerms } from '../store/nquads-line.js';
import { generationKinds } from '../store/manifest.js';
import { PARTS, recordDigests, type RecordIndex } from '../store/record-files.js';
import type { GenerationManifest } from '../store/types.js';
import { NS } from '../vocab/namespaces.js';
import type { RecordKind } from '../vocab/iris.js';
import { recordKindOf } from '../vocab/record-kinds.js';

/** Why a record is not public in a generation (the admin graph's facts, as the status index reads them). */
export type HiddenState =
  | { state: 'merged' | 'renumbered' | 'withdrawn'; into: string }
  | { state: 'removed' | 'private' | 'unhealthy' };

/** A generation as the change log sees it. */
export interface Snapshot {
  generationId: string;
  /** Public record IRI → kind and digest of its graph. */
  records: Map<string, { kind: RecordKind; digest: string }>;
  /** Non-public record IRI → why it is not public. */
  hidden: Map<string, HiddenState>;
}

/** Version of the snapshot file; a file of another version is recomputed. */
/**
 * 2: digests over the file's bytes, lines sorted by byte (computeSnapshot reads the file as Latin-1).
 * 3: the file names its kinds (`kinds`), which the records point into.
 */
const SNAPSHOT_VERSION = 3;
const REDIRECTS = new Set(['merged', 'renumbered', 'withdrawn']);

interface SnapshotFile {
  version: number;
  generationId: string;
  /** The kinds of the records, in the generation's order. */
  kinds: string[];
  /** [iri, kind index in `kinds`, digest] */
  records: [string, number, string][];
  hidden: [string, string, string?][];
}

/** Folder of the cached snapshots under DATA_DIR. */
export const snapshotDir = (dataDir: string): string => path.join(dataDir, 'changes', 'snapshots');

/** A statement as three terms in N-Triples syntax (`<iri>`, `_:label`, `"literal"…`). */
type TermTriple = readonly [string, string, string];

/**
 * The signature of each blank node: its outgoing statements two levels deep, sorted, with the blank nodes
 * inside replaced by their own signatures (one level less). Any other term is its own signature.
 */
function blankSignatures(triples: readonly TermTriple[]): (term: string) => string {
  const out = new Map<string, [string, string][]>();
  for (const [s, p, o] of triples) {
    if (!s.startsWith('_:')) continue;
    let list = out.get(s);
    if (!list) out.set(s, (list = []));
    list.push([p, o]);
  }
  const level = (previous: (b: string) => string): ((b: string) => string) => {
    const sigs = new Map<string, string>();
    for (const [b, list] of out) sigs.set(b, `[${list.map(([p, o]) => `${p} ${o.startsWith('_:') ? previous(o) : o}`).sort().join(';')}]`);
    return (b) => sigs.get(b) ?? '[]';
  };
  const sig = level(level(() => '_'));
  return (term) => (term.startsWith('_:') ? sig(term) : term);
}

const hasBlankNode = (triples: readonly TermTriple[]): boolean => triples.some(([s, , o]) => s.startsWith('_:') || o.startsWith('_:'));

/**
 * Digest of one record graph, independent of quad order and of blank node labels (a harvest numbers blank
 * nodes across the whole export, so one added record renames the blank nodes of every later one). A blank
 * node stands for its outgoing statements two levels deep; lines are sorted, then hashed once. `encoding` says
 * how the terms hold the text: `latin1` for terms cut from bytes read as Latin-1 (one character per byte).
 */
export function graphDigest(quads: readonly TermTriple[], encoding: 'utf8' | 'latin1' = 'utf8'): string {
  const term = hasBlankNode(quads) ? blankSignatures(quads) : (t: string): string => t;
  const lines = quads.map(([s, p, o]) => `${term(s)} ${p} ${term(o)}`);
  lines.sort();
  return createHash('sha256').update(lines.join('\n'), encoding).digest('base64url').slice(0, 22);
}

/** The record kind of a graph term `<{base}/v2/id/<kind>/<pid>>`, else undefined. */
/** Reads a snapshot from the generation's files (one pass over each). */
export async function computeSnapshot(files: { public: string; nonPublic: string }, manifest: GenerationManifest): Promise<Snapshot> {
  const kinds = new Set(generationKinds(manifest));
  const records = new Map<string, { kind: RecordKind; digest: string }>();
  let graph: string | undefined;
  let kind: RecordKind | undefined;
  let run: [string, string, string][] = [];
  const flush = (): void => {
    if (graph === undefined || kind === undefined || run.length === 0) return;
    // Decoded from the Latin-1 text (below), which also copies it: a slice would keep the whole block alive.
    const iri = Buffer.from(graph.slice(1, -1), 'latin1').toString('utf8');
    const digest = graphDigest(run, 'latin1');
    // A graph split into several runs (a hand-made dump) gets a digest of its runs in file order.
    const earlier = records.get(iri);
    records.set(iri, { kind, digest: earlier ? createHash('sha256').update(`${earlier.digest}${digest}`).digest('base64url').slice(0, 22) : digest });
  };
  // The file's bytes as Latin-1 text: terms split on ASCII alone, lines hash to the file's own bytes, and the
  // text decodes several times faster than as UTF-8 (the generation check has read it as UTF-8 already).
  for await (const block of readTextBlocks(files.public, { latin1: true })) {
    for (let start = 0, end = block.indexOf('\n'); start < block.length; start = end + 1, end = block.indexOf('\n', start)) {
      if (end < 0) end = block.length;
      const line = block.slice(start, end);
      const terms = lineTerms(line);
      if (terms === undefined) continue;
      const [subject, predicate, object, g] = terms;
      if (g !== graph) {
        flush();
        graph = g;
        kind = recordKindOf(g, manifest.baseUrl, kinds);
        run = [];
      }
      if (kind !== undefined) run.push([subject, predicate, object]);
    }
  }
  flush();
  return { generationId: manifest.id, records, hidden: await readHidden(files.nonPublic, manifest.baseUrl) };
}

/** What the admin graph says of one record. */
interface AdminFacts {
  state?: string;
  into?: string;
  private?: boolean;
  unhealthy?: boolean;
}

/** Adds one admin statement's fact (`decode` makes a value text of its own: a copy, or UTF-8 from Latin-1). */
function addAdminFact(f: AdminFacts, predicate: string, object: string, decode: (text: string) => string): void {
  if (predicate === `<${NS.admin}state>`) f.state = decode(literalValue(object));
  else if (predicate === `<${NS.admin}resolvesTo>` && object.startsWith('<')) f.into = decode(object.slice(1, -1));
  else if (predicate === `<${NS.admin}private>`) f.private = literalValue(object) === 'true';
  else if (predicate === `<${NS.admin}healthy>`) f.unhealthy = literalValue(object) === 'false';
}

/** A record's admin facts reduced to one state (as the status index does). */
function hiddenState(f: AdminFacts): HiddenState {
  const state = f.state ?? 'current';
  if (REDIRECTS.has(state) && f.into !== undefined) return { state: state as 'merged', into: f.into };
  if (state === 'removed') return { state: 'removed' };
  if (f.unhealthy && !f.private) return { state: 'unhealthy' };
  return { state: 'private' };
}

/** The admin graph's facts of every non-public record, reduced to one state each (as the status index does). */
async function readHidden(file: string, baseUrl: string): Promise<Map<string, HiddenState>> {
  const admin = `<${baseUrl}/graph/admin>`;
  const facts = new Map<string, AdminFacts>();
  for await (const batch of readQuadBatches(file)) {
    for (const { subject, predicate, object, graph } of batch.terms) {
      if (graph !== admin || !subject.startsWith('<')) continue;
      const iri = subject.slice(1, -1);
      let f = facts.get(iri);
      // Kept for the whole file: copies, not slices of the text blocks (nquads-file.ts).
      if (!f) facts.set(detached(iri), (f = {}));
      addAdminFact(f, predicate, object, detached);
    }
  }
  const hidden = new Map<string, HiddenState>();
  for (const [iri, f] of facts) hidden.set(iri, hiddenState(f));
  return hidden;
}

/** Where {@link snapshotFromIndex} takes what it does not read. */
export interface SnapshotSources {
  /**
   * Another generation's snapshot and record index (the parent's, or the current generation's): a record whose
   * digest in the record index is the one it has there has the same text, and takes its entry unread.
   */
  base?: { snapshot: Snapshot; index: RecordIndex };
  /**
   * The records worth reading among those the base does not give (default: all). Any other public record gets
   * its kind and an empty digest, and any other non-public one no state: a partial snapshot, which diffs right
   * against a snapshot that names none of them (all are created) and is never stored.
   */
  wanted?: (graph: string) => boolean;
}

/**
 * A generation's snapshot from its record index (src/store/record-files.ts; docs/incremental.md): the records
 * the base gives are taken from it, the others read from the members that hold them, and no other member is
 * read. With the parent's snapshot as base, it reads what changed, not the collection, and equals what
 * {@link computeSnapshot} reads from the whole files (tested).
 */
export async function snapshotFromIndex(index: RecordIndex, files: { public: string; nonPublic: string }, manifest: GenerationManifest, sources: SnapshotSources = {}): Promise<Snapshot> {
  const { base, wanted } = sources;
  const kinds = new Set(generationKinds(manifest));
  const admin = `<${manifest.baseUrl}/graph/admin>`;
  const records = new Map<string, { kind: RecordKind; digest: string }>();
  const hidden = new Map<string, HiddenState>();
  const before = base ? recordDigests(base.index) : new Map<string, string>();
  const fromLatin1 = (text: string): string => Buffer.from(text, 'latin1').toString('utf8');
  for (const part of PARTS) {
    const read = new Set<string>();
    const members = index[part].filter((m) => {
      let any = false;
      for (const [graph, digest] of m.records) {
        const kept = before.get(graph) === digest ? (part === 'public' ? base?.snapshot.records.get(graph) : base?.snapshot.hidden.get(graph)) : undefined;
        if (kept !== undefined) {
          if (part === 'public') records.set(graph, kept as { kind: RecordKind; digest: string });
          else hidden.set(graph, kept as HiddenState);
        } else if (wanted === undefined || wanted(graph)) {
          read.add(graph);
          any = true;
        } else if (part === 'public') {
          const kind = recordKindOf(`<${graph}>`, manifest.baseUrl, kinds);
          if (kind !== undefined) records.set(graph, { kind, digest: '' });
        }
      }
      return any;
    });
    if (members.length === 0) continue;
    const handle = await open(files[part], 'r');
    try {
      for (const member of members) {
        const bytes = Buffer.allocUnsafe(member.length);
        const { bytesRead } = await handle.read(bytes, 0, member.length, member.offset);
        if (bytesRead !== member.length) throw new Error(`${files[part]}: the file ends inside a member (at byte ${member.offset})`);
        // Latin-1, as computeSnapshot reads: its digests sort and hash lines by their bytes.
        const text = gunzipSync(bytes).toString('latin1');
        const graphs = new Map<string, TermTriple[]>();
        const facts = new Map<string, AdminFacts>();
        for (const line of text.split('\n')) {
          const terms = lineTerms(line);
          if (terms === undefined) continue;
          const [subject, predicate, object, graph] = terms;
          if (graph === admin) {
            if (!subject.startsWith('<')) continue;
            const iri = fromLatin1(subject.slice(1, -1));
            let f = facts.get(iri);
            if (!f) facts.set(iri, (f = {}));
            addAdminFact(f, predicate, object, fromLatin1);
            continue;
          }
          const iri = fromLatin1(graph.slice(1, -1));
          let triples = graphs.get(iri);
          if (!triples) graphs.set(iri, (triples = []));
          triples.push([subject, predicate, object]);
        }
        for (const [graph] of member.records) {
          if (!read.has(graph)) continue;
          const kind = recordKindOf(`<${graph}>`, manifest.baseUrl, kinds);
          const triples = graphs.get(graph);
          if (part === 'public' && kind !== undefined && triples !== undefined) records.set(graph, { kind, digest: graphDigest(triples, 'latin1') });
          const f = facts.get(graph);
          if (part === 'nonPublic' && f !== undefined) hidden.set(graph, hiddenState(f));
        }
      }
    } finally {
      await handle.close();
    }
  }
  return { generationId: manifest.id, records, hidden };
}

/** The lexical form of a literal term (`"x"`, `"x"^^<dt>`, `"x"@en`). */
function literalValue(term: string): string {
  const end = term.lastIndexOf('"');
  return end > 0 ? term.slice(1, end) : term;
}

/** The cached snapshot of generation `id`, or undefined when there is none (or it is of another version). */
export async function readSnapshot(dataDir: string, id: string): Promise<Snapshot | undefined> {
  let file: SnapshotFile;
  try {
    file = JSON.parse(await readFile(path.join(snapshotDir(dataDir), `${id}.json`), 'utf8')) as SnapshotFile;
  } catch {
    return undefined;
  }
  if (file.version !== SNAPSHOT_VERSION || file.generationId !== id) return undefined;
  const records = new Map<string, { kind: RecordKind; digest: string }>();
  for (const [iri, k, digest] of file.records) {
    const kind = file.kinds[k];
    if (kind === undefined) return undefined;
    records.set(iri, { kind, digest });
  }
  const hidden = new Map<string, HiddenState>();
  for (const [iri, state, into] of file.hidden) hidden.set(iri, (into === undefined ? { state } : { state, into }) as HiddenState);
  return { generationId: id, records, hidden };
}

/** Stores a snapshot (written aside and renamed, so a reader never sees half a file). */
export async function writeSnapshot(dataDir: string, snapshot: Snapshot): Promise<void> {
  const seen = new Set<string>();
  for (const r of snapshot.records.values()) seen.add(r.kind);
  const kinds = [...seen];
  const file: SnapshotFile = {
    version: SNAPSHOT_VERSION,
    generationId: snapshot.generationId,
    kinds,
    records: [...snapshot.records].map(([iri, r]) => [iri, kinds.indexOf(r.kind), r.digest]),
    hidden: [...snapshot.hidden].map(([iri, h]) => ('into' in h ? [iri, h.state, h.into] : [iri, h.state])),
  };
  const dir = snapshotDir(dataDir);
  await mkdir(dir, { recursive: true });
  const target = path.join(dir, `${snapshot.generationId}.json`);
  const tmp = `${target}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(file));
  await rename(tmp, target);
}

/**
 * Removes cached snapshots of generations that are gone, except those in `keep`, and the temporary files of a
 * writer that died (snapshots are written only under the log's lock, so no live writer owns one).
 */
export async function pruneSnapshots(dataDir: string, exists: (id: string) => Promise<boolean>, keep: ReadonlySet<string>): Promise<void> {
  const names = await readdir(snapshotDir(dataDir)).catch(() => [] as string[]);
  for (const name of names) {
    const id = name.replace(/\.json$/, '');
    if (!name.endsWith('.tmp') && (keep.has(id) || (await exists(id)))) continue;
    await rm(path.join(snapshotDir(dataDir), name), { force: true });
  }
}
