/**
 * The export behind the current generation, kept under `DATA_DIR/exports/<generation id>/`, and an export of
 * changes applied to it (`npm run harvest -- --changes DIR`; docs/source-format.md, "An export of changes").
 *
 * A record's graph carries the labels of the records it links to, so a change can only be harvested with the
 * whole export it changes: the changed records replace theirs in the kept export, the deleted ones leave it, new
 * ones are added at the end of their file, and the result is harvested like any export, on the current
 * generation (docs/incremental.md). An error in the result is reported at its origin: the file and line of the
 * export of changes, or of the kept export.
 */
import { once } from 'node:events';
import { constants, createWriteStream } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { readLines } from './source-reader.js';
import { SOURCE_FILES } from './schema.js';

/** The file of an export of changes that lists the records deleted: `{"collection": "objects", "id": "1987-1105"}` per line. */
export const DELETIONS_FILE = 'deletions.jsonl';

const exportsDir = (dataDir: string): string => path.join(dataDir, 'exports');

/** The folder of the export kept for generation `id` (whether or not there is one). */
export const keptExportDir = (dataDir: string, id: string): string => path.join(exportsDir(dataDir), id);

/** A line of an export, or of an export of changes, that is wrong. */
export class ChangesLineError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly reason: string,
  ) {
    super(`${file}:${line}: ${reason}`);
    this.name = 'ChangesLineError';
  }
}

/** A JSON Lines file of an export: its name, and how a line names its record (`objectNumber`, `pid`, …). */
export interface ExportFile {
  file: string;
  idOf: (record: Record<string, unknown>) => unknown;
}

/** The four files of every export; a museum's own kinds add theirs. */
export const EXPORT_FILES: ExportFile[] = [
  { file: SOURCE_FILES.concepts, idOf: (r) => r.pid },
  { file: SOURCE_FILES.agents, idOf: (r) => r.pid },
  { file: SOURCE_FILES.exhibitions, idOf: (r) => r.pid },
  { file: SOURCE_FILES.objects, idOf: (r) => r.objectNumber },
];

/** An export made of a kept one and changes: where it is, and where each of its lines came from. */
export interface MergedExport {
  dir: string;
  /** The origin of line `line` of `file` of the merged export (its path and line). */
  origin(file: string, line: number): { path: string; line: number };
  /** Records replaced, added and deleted. */
  counts: { replaced: number; added: number; deleted: number };
}

const exists = (file: string): Promise<boolean> => stat(file).then(() => true, () => false);

/** Reads a JSON line of `file` and the id its `idOf` gives; a line that is not an object with an id is an error there. */
function idOfLine(filePath: string, line: number, text: string, idOf: ExportFile['idOf']): { id: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ChangesLineError(filePath, line, 'not JSON');
  }
  const id = json !== null && typeof json === 'object' && !Array.isArray(json) ? idOf(json as Record<string, unknown>) : undefined;
  if (typeof id !== 'string' || id === '') throw new ChangesLineError(filePath, line, 'a record without its id');
  return { id };
}

/**
 * Applies the export of changes in `changesDir` to the kept export in `baseDir`, writing the result into `outDir`
 * (created): per file, each kept line whose record the changes hold is replaced by the changed line, each whose
 * record `deletions.jsonl` names is left out, and the changes' other records are added at the end, in their order.
 */
export async function mergeChanges(baseDir: string, changesDir: string, outDir: string, files: readonly ExportFile[] = EXPORT_FILES): Promise<MergedExport> {
  await mkdir(outDir, { recursive: true });
  const byName = new Map(files.map((f) => [path.basename(f.file, '.jsonl'), f]));
  // The deletions, by file.
  const deleted = new Map<string, Map<string, number>>();
  const deletionsPath = path.join(changesDir, DELETIONS_FILE);
  if (await exists(deletionsPath)) {
    for await (const { line, text } of readLines(deletionsPath)) {
      let json: { collection?: unknown; id?: unknown };
      try {
        json = JSON.parse(text) as typeof json;
      } catch {
        throw new ChangesLineError(deletionsPath, line, 'not JSON');
      }
      const file = typeof json.collection === 'string' ? byName.get(json.collection)?.file : undefined;
      if (file === undefined) throw new ChangesLineError(deletionsPath, line, `"collection" must be one of ${[...byName.keys()].join(', ')}`);
      if (typeof json.id !== 'string' || json.id === '') throw new ChangesLineError(deletionsPath, line, '"id" must be a record id');
      let ids = deleted.get(file);
      if (!ids) deleted.set(file, (ids = new Map()));
      if (ids.has(json.id)) throw new ChangesLineError(deletionsPath, line, `${json.id} is deleted twice (first on line ${ids.get(json.id)})`);
      ids.set(json.id, line);
    }
  }
  const origins = new Map<string, { base: string; changes: string; lines: Int32Array }>();
  const counts = { replaced: 0, added: 0, deleted: 0 };
  for (const { file, idOf } of files) {
    const basePath = path.join(baseDir, file);
    const changesPath = path.join(changesDir, file);
    // The changed records of this file, by id, with their lines.
    const changed = new Map<string, { line: number; text: string }>();
    if (await exists(changesPath)) {
      for await (const { line, text } of readLines(changesPath)) {
        const { id } = idOfLine(changesPath, line, text, idOf);
        if (changed.has(id)) throw new ChangesLineError(changesPath, line, `${id} is changed twice (first on line ${changed.get(id)?.line})`);
        const deletion = deleted.get(file)?.get(id);
        if (deletion !== undefined) throw new ChangesLineError(changesPath, line, `${id} is changed and deleted (${DELETIONS_FILE}:${deletion})`);
        changed.set(id, { line, text });
      }
    }
    const gone = new Set(deleted.get(file)?.keys() ?? []);
    const out = createWriteStream(path.join(outDir, file));
    const lines: number[] = [];
    const write = async (text: string, origin: number): Promise<void> => {
      lines.push(origin);
      if (!out.write(`${text}\n`)) await once(out, 'drain');
    };
    const seen = new Set<string>();
    if (await exists(basePath)) {
      for await (const { line, text } of readLines(basePath)) {
        const { id } = idOfLine(basePath, line, text, idOf);
        seen.add(id);
        if (gone.has(id)) {
          gone.delete(id);
          counts.deleted += 1;
          continue;
        }
        const change = changed.get(id);
        if (change === undefined) await write(text, line);
        else {
          changed.delete(id);
          counts.replaced += 1;
          await write(change.text, -change.line);
        }
      }
    }
    for (const id of gone) throw new ChangesLineError(deletionsPath, deleted.get(file)?.get(id) ?? 0, `no record ${id} in ${file} to delete`);
    for (const { line, text } of changed.values()) {
      counts.added += 1;
      await write(text, -line);
    }
    out.end();
    await once(out, 'finish');
    origins.set(file, { base: basePath, changes: changesPath, lines: Int32Array.from(lines) });
  }
  return {
    dir: outDir,
    counts,
    origin: (file, line) => {
      const o = origins.get(file);
      const at = o?.lines[line - 1];
      if (o === undefined || at === undefined) return { path: path.join(outDir, file), line };
      return at < 0 ? { path: o.changes, line: -at } : { path: o.base, line: at };
    },
  };
}

/**
 * Keeps the export of generation `id` (after its harvest): `merged` is moved there, or the export in `sourceDir`
 * is copied (a clone where the file system can). Every other kept export is removed: only the current
 * generation's is ever needed.
 */
export async function keepExport(dataDir: string, id: string, sourceDir: string, files: readonly ExportFile[] = EXPORT_FILES, merged?: MergedExport): Promise<void> {
  const target = keptExportDir(dataDir, id);
  await mkdir(exportsDir(dataDir), { recursive: true });
  if (merged !== undefined) await rename(merged.dir, target);
  else {
    const staging = `${target}.tmp`;
    await rm(staging, { recursive: true, force: true });
    await mkdir(staging);
    for (const { file } of files) {
      if (await exists(path.join(sourceDir, file))) await copyFile(path.join(sourceDir, file), path.join(staging, file), constants.COPYFILE_FICLONE);
    }
    await rename(staging, target);
  }
  for (const name of await readdir(exportsDir(dataDir))) {
    if (name !== id && !name.startsWith(MERGING)) await rm(path.join(exportsDir(dataDir), name), { recursive: true, force: true });
  }
}

const MERGING = '.merging-';

/** A fresh folder to merge an export of changes into (under DATA_DIR/exports; a crashed merge's folder is removed). */
export async function mergeFolder(dataDir: string): Promise<string> {
  await mkdir(exportsDir(dataDir), { recursive: true });
  for (const name of await readdir(exportsDir(dataDir))) {
    if (name.startsWith(MERGING)) await rm(path.join(exportsDir(dataDir), name), { recursive: true, force: true });
  }
  return path.join(exportsDir(dataDir), `${MERGING}${process.pid}`);
}
