/**
 * An N-Quads dump made the current generation, as `npm run load` does it: checked and split, published (the
 * remote store's bulk files, the stored index), then printed. Used by `load` and by `harvest --ldes`, which
 * writes a dump of the streams it read.
 */
import type { Generation } from '../store/generations.js';
import { loadNQuadsFile, type LoadProgress } from '../store/load.js';
import { indexingStore, publication } from '../store/stores.js';
import { KIND_NAMES } from '../kinds/index.js';
import { cliSettings, finishPublication, printGeneration, reportPublication } from './common.js';
import { createProgress } from './progress.js';
import { storedIndexOption } from './stored-index.js';

export interface LoadDumpOptions {
  /** The records' base URL when given; else the one the record graph IRIs show, else BASE_URL. */
  baseUrl?: string;
  /** Skip the stored index. */
  noIndex: boolean;
}

/** Loads `file` as the new current generation; `command` names the lines it prints. */
export async function loadDump(command: 'load' | 'harvest', file: string, options: LoadDumpOptions): Promise<Generation> {
  const settings = cliSettings();
  const progress = createProgress(command);
  const started = Date.now();
  const onProgress = ({ quads, ...p }: LoadProgress): void =>
    progress.update({
      ...p,
      unit: 'bytes',
      ...(quads === undefined ? {} : { detail: `${quads.toLocaleString('en')} quads`, rateOf: { count: quads, unit: 'quads' } }),
    });
  try {
    // The stored index reads the generation's files once it is checked, not fed while it is written: the load's
    // own thread keeps a core busy splitting the dump, and fed workers beside it made the load slower (50,000
    // objects, embedded, 2026-11-29: split and index 70.9 s fed against 61 s one after the other).
    const publishing = publication(settings, options.noIndex ? undefined : storedIndexOption(command, settings.baseUrl, progress, process.stderr, indexingStore(settings), false), reportPublication(command, progress));
    const { finish: _finish, ...steps } = publishing;
    const generation = await loadNQuadsFile(settings.dataDir, file, { kinds: KIND_NAMES, baseUrl: options.baseUrl, fallbackBaseUrl: settings.baseUrl, onProgress, ...steps });
    progress.stop();
    await finishPublication(command, generation.id, publishing);
    printGeneration(generation, Date.now() - started);
    return generation;
  } catch (err) {
    progress.abort();
    throw err;
  }
}
