/**
 * Writes a collection as JSON Lines (objects, agents, exhibitions, concepts, images), one record per line,
 * `\n` line ends, records serialised as built (stable key order). Lines are buffered in chunks and written
 * synchronously, so memory stays flat however many objects stream through. Each file is written beside its
 * final name and renamed when complete, so a failed run never leaves a truncated file under the real name.
 */
import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { IMAGES_FILE, SOURCE_FILES } from '../harvest/schema.js';
import type { CollectionSource } from './collection.js';

const CHUNK = 1 << 20;

export interface WriteCounts {
  objects: number;
  agents: number;
  exhibitions: number;
  concepts: number;
  images: number;
}

/** Writes the five files of `collection` into `dir` (created when missing); returns the line counts. */
export function writeCollection(dir: string, collection: CollectionSource): WriteCounts {
  mkdirSync(dir, { recursive: true });
  return {
    concepts: writeLines(join(dir, SOURCE_FILES.concepts), collection.concepts),
    agents: writeLines(join(dir, SOURCE_FILES.agents), collection.agents),
    exhibitions: writeLines(join(dir, SOURCE_FILES.exhibitions), collection.exhibitions),
    images: writeLines(join(dir, IMAGES_FILE), collection.images),
    objects: writeLines(join(dir, SOURCE_FILES.objects), collection.objects),
  };
}

function writeLines(path: string, records: Iterable<unknown>): number {
  const partial = `${path}.partial`;
  const fd = openSync(partial, 'w');
  let count = 0;
  try {
    let buffer = '';
    for (const record of records) {
      buffer += `${JSON.stringify(record)}\n`;
      count++;
      if (buffer.length >= CHUNK) {
        writeSync(fd, buffer);
        buffer = '';
      }
    }
    if (buffer.length > 0) writeSync(fd, buffer);
  } catch (error) {
    closeSync(fd);
    rmSync(partial, { force: true });
    throw error;
  }
  closeSync(fd);
  renameSync(partial, path);
  return count;
}
