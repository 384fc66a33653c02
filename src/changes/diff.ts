/**
 * The change set between two snapshots, record by record: a record that became public is created, one whose
 * public graph changed is updated, one that left the public data is deleted (with the reason, and the record
 * it now resolves to when it was merged, renumbered or withdrawn).
 */
import type { RecordKind } from '../vocab/iris.js';
import type { HiddenState, Snapshot } from './snapshot.js';

/** Why a record left the public data; `absent` when the new generation does not name it at all. */
export type DeleteReason = HiddenState['state'] | 'absent';

/** One change as the log stores it (the time is the block's). */
export type Change =
  | { type: 'Create' | 'Update'; id: string; kind: RecordKind }
  | { type: 'Delete'; id: string; kind: RecordKind; reason: DeleteReason; target?: string };

const ORDER = { Create: 0, Update: 1, Delete: 2 } as const;

/** Changes that turn `before` (undefined: nothing public) into `after`, in a fixed order (type, then IRI). */
export function diffSnapshots(before: Snapshot | undefined, after: Snapshot): Change[] {
  const changes: Change[] = [];
  for (const [id, record] of after.records) {
    const old = before?.records.get(id);
    if (old === undefined) changes.push({ type: 'Create', id, kind: record.kind });
    else if (old.digest !== record.digest) changes.push({ type: 'Update', id, kind: record.kind });
  }
  if (before) {
    for (const [id, record] of before.records) {
      if (after.records.has(id)) continue;
      const hidden = after.hidden.get(id);
      if (hidden === undefined) changes.push({ type: 'Delete', id, kind: record.kind, reason: 'absent' });
      else if ('into' in hidden) changes.push({ type: 'Delete', id, kind: record.kind, reason: hidden.state, target: hidden.into });
      else changes.push({ type: 'Delete', id, kind: record.kind, reason: hidden.state });
    }
  }
  return changes.sort((a, b) => ORDER[a.type] - ORDER[b.type] || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
