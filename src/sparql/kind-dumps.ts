/**
 * Per-kind dump files (one per kind the generation holds) of a generation: the record graphs of one kind
 * from the generation's public.nq.gz, written once per generation in one streaming pass to
 * `DATA_DIR/dumps/<generation id>/<kind>.nq.gz` (beside the generation, which is never modified), so that
 * they are served like the collection dump: from a file, with Range. Files appear whole (written under a
 * temporary name, then renamed); folders of generations that no longer exist are removed.
 */
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip, type Gzip } from 'node:zlib';
import { generationFiles, isGenerationId, type Generation } from '../store/generations.js';
import { readLineBatches } from '../store/line-reader.js';
import { parseQuadLine } from '../store/nquads-line.js';
import { generationKinds } from '../store/manifest.js';
import type { RecordKind } from '../vocab/iris.js';
import { recordKindOf } from '../vocab/record-kinds.js';
const GZIP_LEVEL = 3;

/** The folder of a generation's per-kind dumps. */
export const kindDumpDir = (dataDir: string, generationId: string): string => path.join(dataDir, 'dumps', generationId);

/** The per-kind dump file of a generation. */
export const kindDumpFile = (dataDir: string, generationId: string, kind: RecordKind): string =>
  path.join(kindDumpDir(dataDir, generationId), `${kind}.nq.gz`);

/** Writes `text` to `out`, waiting when its buffer is full (or until the output fails). */
async function write(out: Writable, text: string, failed: Promise<unknown>): Promise<void> {
  if (!out.write(text)) await Promise.race([new Promise<void>((resolve) => out.once('drain', resolve)), failed]);
}

/** Splits the generation's public quads by record kind into a dump file per kind. */
async function buildKindDumps(dataDir: string, generation: Generation): Promise<void> {
  const dir = kindDumpDir(dataDir, generation.id);
  await mkdir(dir, { recursive: true });
  const kinds = generationKinds(generation.manifest);
  const names = new Set(kinds);
  const temporary = (kind: RecordKind): string => `${kindDumpFile(dataDir, generation.id, kind)}.${process.pid}.partial`;
  const outputs = new Map<RecordKind, Gzip>(kinds.map((kind) => [kind, createGzip({ level: GZIP_LEVEL })]));
  const written = Promise.all([...outputs].map(([kind, gzip]) => pipeline(gzip, createWriteStream(temporary(kind)))));
  // Observed at once: a failing file must not be an unhandled rejection while the reader still runs.
  written.catch(() => undefined);
  try {
    for await (const { lines } of readLineBatches(generationFiles(generation.dir).public)) {
      const kept = new Map<RecordKind, string[]>();
      for (const line of lines) {
        // Most lines name their graph after the marker; only those are parsed.
        if (!line.includes('/v2/id/')) continue;
        const graph = parseQuadLine(line)?.graph;
        const kind = graph === undefined ? undefined : recordKindOf(graph, generation.manifest.baseUrl, names);
        if (kind === undefined) continue;
        const batch = kept.get(kind);
        if (batch) batch.push(line);
        else kept.set(kind, [line]);
      }
      for (const [kind, batch] of kept) {
        const out = outputs.get(kind);
        if (out) await write(out, `${batch.join('\n')}\n`, written);
      }
    }
    for (const out of outputs.values()) out.end();
    await written;
    for (const kind of kinds) await rename(temporary(kind), kindDumpFile(dataDir, generation.id, kind));
  } catch (err) {
    for (const out of outputs.values()) out.destroy();
    await Promise.all(kinds.map((kind) => rm(temporary(kind), { force: true })));
    throw err;
  }
}

/** Builds the per-kind dumps of each generation once, on demand; concurrent callers share the build. */
export class KindDumps {
  private readonly builds = new Map<string, Promise<void>>();

  constructor(private readonly dataDir: string) {}

  /** True when the file of every kind of `generation` exists. */
  ready(generation: Generation): boolean {
    return generationKinds(generation.manifest).every((kind) => existsSync(kindDumpFile(this.dataDir, generation.id, kind)));
  }

  /** Resolves when the files of `generation` exist, building them if needed. */
  ensure(generation: Generation): Promise<void> {
    if (this.ready(generation)) return Promise.resolve();
    let build = this.builds.get(generation.id);
    if (!build) {
      build = buildKindDumps(this.dataDir, generation)
        .then(() => this.prune(generation.id))
        .finally(() => this.builds.delete(generation.id));
      this.builds.set(generation.id, build);
    }
    return build;
  }

  /** Removes dump folders of generations other than `keep` that no longer exist. */
  private async prune(keep: string): Promise<void> {
    const root = path.join(this.dataDir, 'dumps');
    for (const id of await readdir(root).catch(() => [] as string[])) {
      if (id === keep || !isGenerationId(id)) continue;
      if (!existsSync(path.join(this.dataDir, 'generations', id))) await rm(path.join(root, id), { recursive: true, force: true });
    }
  }
}
