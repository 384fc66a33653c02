/**
 * The hook `setCurrent` calls (src/store/generations.ts): before `current` moves to a generation, the changes
 * from the current generation to it are appended to the change log, then `current` moves, both under the
 * log's lock. Harvest, load, demo bootstrap and rollback all switch through it.
 */
import { access } from 'node:fs/promises';
import path from 'node:path';
import type { GenerationManifest } from '../store/types.js';
import { diffSnapshots, type Change } from './diff.js';
import { appendBlock, committedBlocks, readBlockHeaders, withLogLock, type BlockHeader } from './log.js';
import { computeSnapshot, pruneSnapshots, readSnapshot, snapshotOnParent, writeSnapshot, type Snapshot } from './snapshot.js';
import { readRecordIndex } from '../store/record-files.js';

/** A generation folder as the hook needs it (structurally a `Generation` of src/store/generations.ts). */
export interface SwitchGeneration {
  id: string;
  dir: string;
  manifest: GenerationManifest;
}

export interface SwitchOptions {
  /** The generation `current` names now (undefined when none or unreadable). */
  readCurrent: () => Promise<SwitchGeneration | undefined>;
  /** The paths of a generation's public and non-public files. */
  files: (dir: string) => { public: string; nonPublic: string };
  /** Moves `current`; runs after the log is written, still under the lock. */
  move: () => Promise<void>;
  /** The switch time (tests); default now. */
  now?: () => Date;
}

/** What one switch appended to the log. */
export interface SwitchSummary {
  blocks: BlockHeader[];
  created: number;
  updated: number;
  deleted: number;
}

/** Appends the changes to `target` to the log, then moves `current` (see the top of this file). */
export async function recordSwitch(dataDir: string, target: SwitchGeneration, options: SwitchOptions): Promise<SwitchSummary> {
  return withLogLock(dataDir, async () => {
    const now = options.now ?? (() => new Date());
    const snapshotOf = async (g: SwitchGeneration): Promise<Snapshot> => {
      const cached = await readSnapshot(dataDir, g.id);
      if (cached) return cached;
      const snapshot = (await onParent(dataDir, g, options)) ?? (await computeSnapshot(options.files(g.dir), g.manifest));
      await writeSnapshot(dataDir, snapshot);
      return snapshot;
    };
    const current = await options.readCurrent();
    const logged = committedBlocks(await readBlockHeaders(dataDir), current?.id).at(-1)?.to;
    const summary: SwitchSummary = { blocks: [], created: 0, updated: 0, deleted: 0 };
    const append = async (from: string | null, to: string, changes: Change[]): Promise<void> => {
      summary.blocks.push(await appendBlock(dataDir, { from, to, endTime: now().toISOString() }, changes));
      for (const c of changes) summary[c.type === 'Create' ? 'created' : c.type === 'Update' ? 'updated' : 'deleted']++;
    };

    let base: Snapshot | undefined;
    if (current !== undefined) {
      base = await snapshotOf(current);
      // `current` moved without the log (a folder older than the log, or moved by hand): catch the log up first,
      // so that replaying it from the start still ends on what is served. A fresh log starts with every record.
      if (logged !== current.id) {
        const before = logged === undefined ? undefined : await readSnapshot(dataDir, logged);
        await append(logged ?? null, current.id, diffSnapshots(before, base));
      }
    } else if (logged !== undefined) {
      // `current` is missing or broken: the log's own last state is the best base there is.
      base = await readSnapshot(dataDir, logged);
    }
    const from = current?.id ?? logged ?? null;
    if (from !== target.id) await append(from, target.id, diffSnapshots(base, await snapshotOf(target)));
    await options.move();

    const exists = (id: string): Promise<boolean> => access(path.join(dataDir, 'generations', id)).then(() => true, () => false);
    await pruneSnapshots(dataDir, exists, new Set([target.id]));
    return summary;
  });
}

/**
 * The snapshot of a generation written on a parent, from the parent's (docs/incremental.md), when the parent's
 * snapshot and both record indexes are at hand; undefined otherwise (the snapshot is then read from the files).
 */
async function onParent(dataDir: string, g: SwitchGeneration, options: SwitchOptions): Promise<Snapshot | undefined> {
  const parentId = (g.manifest.details?.changes as { parent?: unknown } | undefined)?.parent;
  if (typeof parentId !== 'string' || !/^[A-Za-z0-9-]+$/.test(parentId)) return undefined;
  const parent = await readSnapshot(dataDir, parentId);
  if (parent === undefined) return undefined;
  const [parentIndex, index] = await Promise.all([
    readRecordIndex(path.join(dataDir, 'generations', parentId), parentId).catch(() => undefined),
    readRecordIndex(g.dir, g.id),
  ]);
  if (parentIndex === undefined || index === undefined) return undefined;
  return snapshotOnParent(parent, parentIndex, index, options.files(g.dir), g.manifest);
}
