/**
 * The stored index step of the data commands: once the new generation is checked, the answers its indexes are
 * built from are computed from its files (engine/indexes.ts) and written into its folder, so that
 * the server that swaps to it, and every later start, reads them instead of querying the store. The step
 * reports on stderr; it never fails the command.
 */
import { storedIndexStep, type IndexingStore, type StoredIndexStep } from '../engine/generation-index.js';
import { formatAmount, type Progress } from './progress.js';
import { KINDS } from '../kinds/index.js';

const PHASES = {
  files: "answering the index queries graph by graph",
  store: 'loading the generation into a store for the queries the files cannot answer',
  queries: 'asking the store',
  write: 'writing',
} as const;

/** The stored index step of a data command `command` (harvest, load): its `tap` and what runs after the check. */
export function storedIndexOption(
  command: string,
  baseUrl: string,
  progress: Progress,
  stream: NodeJS.WritableStream = process.stderr,
  openStore?: () => IndexingStore,
  feed = true,
): StoredIndexStep {
  return storedIndexStep({
    baseUrl,
    kinds: KINDS,
    feed,
    ...(openStore ? { openStore } : {}),
    onPhase: (phase) => {
      progress.stop();
      stream.write(`${command}: stored index, ${PHASES[phase]}\n`);
    },
    onDone: (outcome) => {
      if ('problem' in outcome) {
        stream.write(`${command}: stored index not written (${outcome.problem}); the server will build the indexes from the store\n`);
        return;
      }
      const { answers, bytes, ms, from, refused } = outcome.report;
      const s = (x: number): string => `${(x / 1000).toFixed(1)} s`;
      const store = from.store > 0 ? `, ${from.store} from a store (load ${s(ms.load)}, queries ${s(ms.queries)})` : '';
      if (refused !== undefined) stream.write(`${command}: the generation's files cannot be read graph by graph (${refused})\n`);
      stream.write(
        `${command}: stored index written, ${answers} answers, ${formatAmount(bytes, 'bytes')}: ${from.files} from the files (${s(ms.files)})${store}, write ${s(ms.write)}\n`,
      );
      const { records } = outcome.report;
      if (records?.parentProblem !== undefined) stream.write(`${command}: stored index asked of every record: ${records.parentProblem}\n`);
      if (records === undefined || 'problem' in records) return;
      const asked = records.asked === undefined ? '' : `, ${records.asked.toLocaleString('en')} records asked (${records.members} members), ${(records.kept ?? 0).toLocaleString('en')} from the parent's`;
      stream.write(`${command}: record answers kept for the next harvest, ${formatAmount(records.bytes, 'bytes')} in ${s(records.ms)}${asked}\n`);
    },
  });
}
