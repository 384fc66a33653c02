/**
 * Loads an N-Quads dump (.nq or .nq.gz) as a new generation. Two streaming passes: the first reads the admin
 * graph (which records are not public) and infers the base URL; the second checks every line and splits the
 * quads into the public and non-public files (docs/graph-model.md, "Non-public quads"), dropping a statement
 * its graph already holds (docs/architecture.md, "Exact dumps").
 */
import { once } from 'node:events';
import { stat } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import type { RecordKinds } from '../vocab/record-kinds.js';
import { NS } from '../vocab/namespaces.js';
import { createGeneration, type CreateOptions, type Generation, type GenerationOutput } from './generations.js';
import { readTextBlocks, TextFileError } from './line-reader.js';
import { readQuadBatches } from './nquads-file.js';
import { literalValue, parseQuadLine, type QuadTerms } from './nquads-line.js';

export interface LoadProgress {
  phase: 'scan' | 'split' | 'check';
  /** Bytes of the input (scan, split) or of the written files (check) read so far. */
  done: number;
  total: number;
  /** Quads written so far (split). */
  quads?: number;
}

export interface LoadOptions {
  /** The kinds whose record graphs the dump may hold (src/kinds/index.ts, KIND_NAMES). */
  kinds: RecordKinds;
  /** Base URL of the records; inferred from the record graph IRIs when absent. */
  baseUrl?: string;
  /** Used when `baseUrl` is absent and no record graph names one. */
  fallbackBaseUrl?: string;
  onProgress?: (p: LoadProgress) => void;
  /** Make the new generation current (default true). */
  makeCurrent?: boolean;
  /** Writes derived files into the checked generation before it is moved in (see CreateOptions). */
  derive?: CreateOptions['derive'];
  /** Sees the statements as they are written (see CreateOptions). */
  tap?: CreateOptions['tap'];
}

const ADMIN = {
  state: `<${NS.admin}state>`,
  private: `<${NS.admin}private>`,
  healthy: `<${NS.admin}healthy>`,
};
const ADMIN_GRAPH_SUFFIX = '/graph/admin>';

/** What the first pass learns: the record graphs that go to the non-public file, and the base URL. */
interface Scan {
  nonPublic: Set<string>;
  baseUrl: string | undefined;
  adminQuads: number;
}

/** Loads `file` into a new generation under `dataDir` and (by default) makes it current. */
export async function loadNQuadsFile(dataDir: string, file: string, options: LoadOptions): Promise<Generation> {
  const { size } = await stat(file);
  const progress = (phase: LoadProgress['phase'], total: number) => (done: number, quads?: number) =>
    options.onProgress?.({ phase, done, total, quads });
  const scan = await scanAdmin(file, options.kinds.graphPattern, progress('scan', size));
  const baseUrl = options.baseUrl ?? scan.baseUrl ?? options.fallbackBaseUrl;
  return createGeneration(
    dataDir,
    { source: { kind: 'load', path: file }, baseUrl, kinds: options.kinds },
    async (out) => {
      const split = await splitQuads(file, scan.nonPublic, out, progress('split', size));
      return {
        details: {
          inputBytes: size,
          inputQuads: split.quads,
          duplicateQuads: split.duplicates,
          scatteredRuns: split.scatteredRuns,
          nonPublicRecords: scan.nonPublic.size,
          adminQuads: scan.adminQuads,
          baseUrlFrom: options.baseUrl ? 'option' : scan.baseUrl ? 'record graphs' : 'fallback',
        },
      };
    },
    { makeCurrent: options.makeCurrent, onCheck: (p) => options.onProgress?.({ phase: 'check', ...p }), derive: options.derive, tap: options.tap },
  );
}

const isAdminGraph = (graph: string | undefined): boolean => graph !== undefined && graph.endsWith(ADMIN_GRAPH_SUFFIX);

/**
 * First pass: only the lines around an occurrence of the admin graph name are parsed (found by a substring
 * search over whole blocks), plus graph IRIs until one names the base URL. Bad lines are left to the second
 * pass, which reports them with their line numbers.
 */
async function scanAdmin(file: string, recordGraph: RegExp, onBytes: (n: number) => void): Promise<Scan> {
  const hidden = new Set<string>();
  let baseUrl: string | undefined;
  let adminQuads = 0;
  const tryParse = (line: string): QuadTerms | undefined => {
    try {
      return parseQuadLine(line);
    } catch {
      return undefined;
    }
  };
  try {
    for await (const block of readTextBlocks(file, { onBytes })) {
      for (let at = 0; baseUrl === undefined && at < block.length; ) {
        const end = lineEnd(block, at);
        const graph = tryParse(block.slice(at, end))?.graph;
        if (graph !== undefined) baseUrl = recordGraph.exec(graph)?.[1];
        at = end + 1;
      }
      for (let hit = block.indexOf(ADMIN_GRAPH_SUFFIX); hit >= 0; ) {
        const start = block.lastIndexOf('\n', hit) + 1;
        const end = lineEnd(block, hit);
        hit = block.indexOf(ADMIN_GRAPH_SUFFIX, end);
        const terms = tryParse(block.slice(start, end));
        if (!terms || !isAdminGraph(terms.graph)) continue;
        adminQuads++;
        const value = literalValue(terms.object);
        const { subject, predicate } = terms;
        // Any statement that hides a record wins: a record is public only when nothing says otherwise.
        if (predicate === ADMIN.state && value !== 'current') hidden.add(subject);
        else if (predicate === ADMIN.private && (value === 'true' || value === '1')) hidden.add(subject);
        else if (predicate === ADMIN.healthy && (value === 'false' || value === '0')) hidden.add(subject);
      }
    }
  } catch (err) {
    // Broken gzip or UTF-8: the second pass meets it too and names the line.
    if (!(err instanceof TextFileError)) throw err;
  }
  return { nonPublic: hidden, baseUrl, adminQuads };
}

function lineEnd(block: string, from: number): number {
  const nl = block.indexOf('\n', from);
  return nl < 0 ? block.length : nl;
}

/**
 * Drops exact duplicate statements within a graph while streaming: the statements of the graph being read are
 * remembered until another graph starts, so memory is bounded by the largest graph, not the file. The dumps of
 * this service (and the usual store dumps, in graph order) list each graph's quads together, so for them this
 * is exact; a graph whose quads come back after another graph's starts a scattered run (counted in the
 * manifest's details), and a repeat across two separate runs of one graph is not seen.
 */
class RunDeduplicator {
  private graph: string | undefined | null = null;
  private seen = new Set<string>();
  private readonly ended = new Set<string>();
  duplicates = 0;
  scatteredRuns = 0;

  /** True the first time `text` (a normalised statement of `graph`) appears in the current run of its graph. */
  keep(text: string, graph: string | undefined): boolean {
    if (graph !== this.graph) {
      // A copy: the parsed term is a slice that would keep its whole block of the file alive.
      if (this.graph !== null) this.ended.add(Buffer.from(this.graph ?? '', 'utf8').toString('utf8'));
      if (this.ended.has(graph ?? '')) this.scatteredRuns += 1;
      this.graph = graph;
      this.seen = new Set();
    }
    if (this.seen.has(text)) {
      this.duplicates += 1;
      return false;
    }
    this.seen.add(text);
    return true;
  }
}

/** Second pass: every line checked, then written (once per graph) to the public or the non-public stream. */
async function splitQuads(
  file: string,
  nonPublic: Set<string>,
  out: GenerationOutput,
  progress: (done: number, quads?: number) => void,
): Promise<{ quads: number; duplicates: number; scatteredRuns: number }> {
  let quads = 0;
  let bytes = 0;
  const onBytes = (n: number): void => {
    bytes = n;
  };
  const runs = new RunDeduplicator();
  for await (const { lines, terms } of readQuadBatches(file, { onBytes })) {
    const pub: string[] = [];
    const priv: string[] = [];
    for (let i = 0; i < terms.length; i++) {
      const t = terms[i] as QuadTerms;
      const text = normalised(lines[i] as string, t);
      if (!runs.keep(text, t.graph)) continue;
      if (t.graph !== undefined && (nonPublic.has(t.graph) || isAdminGraph(t.graph))) priv.push(text);
      else pub.push(text);
    }
    quads += terms.length;
    await Promise.all([writeLines(out.public, pub), writeLines(out.nonPublic, priv)]);
    progress(bytes, quads);
  }
  return { quads, duplicates: runs.duplicates, scatteredRuns: runs.scatteredRuns };
}

/** The statement as `s p o [g] .`: the line itself when it is written so already (the common case). */
function normalised(line: string, t: QuadTerms): string {
  const g = t.graph === undefined ? 0 : t.graph.length + 1;
  const plain = line.length === t.subject.length + t.predicate.length + t.object.length + g + 4;
  if (plain && line.startsWith(t.subject) && line.endsWith(' .')) return line;
  return t.graph === undefined ? `${t.subject} ${t.predicate} ${t.object} .` : `${t.subject} ${t.predicate} ${t.object} ${t.graph} .`;
}

async function writeLines(stream: Writable, lines: string[]): Promise<void> {
  if (lines.length > 0 && !stream.write(`${lines.join('\n')}\n`)) await once(stream, 'drain');
}
