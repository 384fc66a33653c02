/**
 * Dumps of the public quads, streamed from the generation's files (never from the store: `store.dump()`
 * fails at 100k objects; docs/architecture.md, "Exact dumps"). Output files appear whole or not at all
 * (written beside, renamed).
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import type { RecordKind } from '../vocab/iris.js';
import { currentGeneration, generationFiles, type Generation } from './generations.js';
import { readLineBatches } from './line-reader.js';
import { parseQuadLine } from './nquads-line.js';

/** Where a dump goes: a file path (`.gz` → gzip, else plain N-Quads) or an open stream of plain N-Quads. */
export type DumpTarget = string | Writable;

/** The current generation, or an error saying there is none. */
async function requireCurrent(dataDir: string): Promise<Generation> {
  const generation = await currentGeneration(dataDir);
  if (!generation) throw new Error(`no generation in ${dataDir}: run harvest or load first`);
  return generation;
}

/** Streams the current generation's public.nq.gz to `target`: copied as is for `.gz`, gunzipped otherwise. */
export async function dumpCurrent(dataDir: string, target: DumpTarget): Promise<Generation> {
  const generation = await requireCurrent(dataDir);
  const source = createReadStream(generationFiles(generation.dir).public);
  if (typeof target === 'string' && target.endsWith('.gz')) await writeWhole(target, (out) => pipeline(source, out));
  else await toTarget(target, (out) => pipeline(source, createGunzip(), out));
  return generation;
}

/** The public quads of the record graphs of one kind (`<{base}/v2/id/<kind>/...>`), as N-Quads text. */
export function kindQuads(generation: Generation, kind: RecordKind): Readable {
  const prefix = `<${generation.manifest.baseUrl}/v2/id/${kind}/`;
  const marker = `/v2/id/${kind}/`;
  async function* lines(): AsyncGenerator<string> {
    for await (const { lines: batch } of readLineBatches(generationFiles(generation.dir).public)) {
      const kept: string[] = [];
      for (const line of batch) {
        // Most lines of other kinds are skipped by the substring test before any parsing.
        if (!line.includes(marker)) continue;
        const graph = parseQuadLine(line)?.graph;
        if (graph?.startsWith(prefix) && !graph.includes('/', prefix.length)) kept.push(line);
      }
      if (kept.length > 0) yield `${kept.join('\n')}\n`;
    }
  }
  return Readable.from(lines());
}

/** Streams the public quads of one record kind of the current generation to `target` (`.gz` → gzip). */
export async function dumpKind(dataDir: string, kind: RecordKind, target: DumpTarget): Promise<Generation> {
  const generation = await requireCurrent(dataDir);
  const quads = kindQuads(generation, kind);
  if (typeof target === 'string' && target.endsWith('.gz')) await writeWhole(target, (out) => pipeline(quads, createGzip(), out));
  else await toTarget(target, (out) => pipeline(quads, out));
  return generation;
}

function toTarget(target: DumpTarget, run: (out: Writable) => Promise<void>): Promise<void> {
  return typeof target === 'string' ? writeWhole(target, run) : run(target);
}

/** Writes `file` through a temporary sibling renamed at the end, so a failed dump leaves no partial file. */
async function writeWhole(file: string, run: (out: Writable) => Promise<void>): Promise<void> {
  const tmp = `${file}.${process.pid}.partial`;
  try {
    await run(createWriteStream(tmp));
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}
