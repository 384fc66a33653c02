/**
 * `npm run harvest -- DIR [--full] [--no-image-check] [--no-index]`: a source export (JSON Lines per record kind)
 * becomes the new current generation, with its stored index. Records get BASE_URL's IRIs; images are checked on
 * IMAGE_HOSTS. The current generation's unchanged records are kept rather than written again (docs/incremental.md).
 */
import path from 'node:path';
import { COLOR_CACHE_DIR } from '../harvest/image-colors.js';
import { harvestExport, SourceLineError } from '../harvest/harvest.js';
import { createRecordGeneration, currentGeneration, type Generation } from '../store/generations.js';
import { readRecordIndex } from '../store/record-files.js';
import { readImageVerdicts, writeImageVerdicts } from '../harvest/image-verdicts.js';
import { ChangesLineError, EXPORT_FILES, keepExport, keptExportDir, mergeChanges, mergeFolder, type ExportFile, type MergedExport } from '../harvest/kept-export.js';
import { rm, stat } from 'node:fs/promises';
import { cliSettings, finishPublication, parseCommandLine, printGeneration, runCli, UsageError, reportPublication, yieldToReplicas } from './common.js';
import { createProgress } from './progress.js';
import { storedIndexOption } from './stored-index.js';
import { bytesOfFolder, heapToRaise, heapWanted, rerunWithHeap } from './heap.js';
import { indexingStore, publication } from '../store/stores.js';
import { KIND_NAMES, KINDS } from '../kinds/index.js';
import { kindSources } from '../harvest/kind-source.js';
import { harvestStreams } from './harvest-ldes.js';

const USAGE = `usage: npm run harvest -- DIR [--full] [--no-image-check] [--no-index]
       npm run harvest -- --changes DIR [--no-image-check] [--no-index]
       npm run harvest -- --ldes URL [--ldes URL…] [--pages-per-second N] [--no-index]

Reads DIR/{objects,agents,exhibitions,concepts}.jsonl, maps every record to CIDOC-CRM quads and makes the
result the current generation under DATA_DIR. Nothing changes when a line is bad (the error names file:line).
Records unchanged since the current generation are kept as they are written there; --full writes every record.
--changes DIR applies an export of changes (changed and new records, deletions.jsonl for deleted ones) to the
export of the current generation, which every harvest keeps under DATA_DIR/exports (docs/source-format.md).
--ldes URL follows event streams (LDES) instead: this service's own, one per kind, or Ghent's (objects,
exhibitions, agents, thesaurus), mapped to an export in DATA_DIR/ldes/export (docs/ldes-harvest.md); a later
run reads only what is new. --pages-per-second limits the requests to their server (default 5).
--no-image-check keeps every image without a HEAD request (no IIIF server at hand).
--no-index skips the stored index (the server then builds its indexes from the store once, and stores them).`;

/** Bytes of heap per byte of source export at the harvest's peak: 3.9 measured at 100,000 objects (src/cli/heap.ts). */
const HARVEST_HEAP_PER_SOURCE_BYTE = 4.5;

runCli(USAGE, async () => {
  const { values, positionals } = parseCommandLine({
    full: { type: 'boolean' },
    changes: { type: 'string' },
    'no-image-check': { type: 'boolean' },
    'no-index': { type: 'boolean' },
    ldes: { type: 'string', multiple: true },
    'pages-per-second': { type: 'string' },
  });
  // --ldes: Ghent's streams come back as a source export to harvest; this service's own are loaded there.
  let streamsExport: string | undefined;
  if (values.ldes !== undefined) {
    if (positionals.length > 0 || values.changes !== undefined || values.full === true) throw new UsageError('--ldes reads event streams: no source export folder, --changes or --full with it');
    const rate = values['pages-per-second'] === undefined ? undefined : Number(values['pages-per-second']);
    if (rate !== undefined && !(rate > 0)) throw new UsageError('--pages-per-second must be a number above 0');
    for (const url of values.ldes) if (!/^https?:\/\//.test(url)) throw new UsageError(`--ldes ${url}: an http(s) URL`);
    streamsExport = await harvestStreams(values.ldes, { noIndex: values['no-index'] === true, ...(rate === undefined ? {} : { pagesPerSecond: rate }) });
    if (streamsExport === undefined) return;
  } else if (values['pages-per-second'] !== undefined) throw new UsageError('--pages-per-second goes with --ldes');
  const changesDir = values.changes === undefined ? undefined : path.resolve(values.changes);
  if (streamsExport === undefined && (changesDir === undefined ? positionals.length !== 1 : positionals.length !== 0)) throw new UsageError('give exactly one source export folder, or --changes DIR');
  if (changesDir !== undefined && values.full === true) throw new UsageError('--changes applies changes to the current generation; --full makes one from a whole export');
  const settings = cliSettings();
  const exportFiles = [...EXPORT_FILES, ...Object.values(kindSources(KINDS)).map((k) => ({ file: k.file, idOf: (r: Record<string, unknown>) => k.pid(r as never) }))];
  // With --changes, the export harvested is the current generation's with the changes applied.
  const merged = changesDir === undefined ? undefined : await mergeOnCurrent(settings.dataDir, changesDir, exportFiles);
  const sourceDir = merged?.dir ?? streamsExport ?? path.resolve(positionals[0] as string);
  // Every record is held between the read and the write: a million objects want more than node's default heap.
  const sourceBytes = await bytesOfFolder(sourceDir);
  const heap = heapToRaise(heapWanted(sourceBytes, HARVEST_HEAP_PER_SOURCE_BYTE));
  if (heap !== undefined) await rerunWithHeap('harvest', heap, sourceBytes);
  const progress = createProgress('harvest');
  const started = Date.now();
  try {
    const parent = values.full === true ? undefined : await parentGeneration(settings.dataDir);
    // The parent's image verdicts stand; --full asks about every image again.
    const knownImages = parent && (await readImageVerdicts(parent.dir));
    let imageVerdicts: Map<string, boolean> | undefined;
    const published = publication(settings, values['no-index'] === true ? undefined : storedIndexOption('harvest', settings.baseUrl, progress, process.stderr, indexingStore(settings)), reportPublication('harvest', progress));
    const generation = await createRecordGeneration(
      settings.dataDir,
      { source: { kind: 'harvest', path: changesDir ?? sourceDir }, baseUrl: settings.baseUrl, kinds: KIND_NAMES },
      async (out) => {
        const report = await harvestExport(sourceDir, out, {
          kinds: kindSources(KINDS),
          baseUrl: settings.baseUrl,
          imageHosts: settings.imageHosts,
          validateImages: values['no-image-check'] !== true,
          ...(knownImages === undefined ? {} : { knownImages }),
          onImageVerdicts: (verdicts) => (imageVerdicts = verdicts),
          // Kept beside the generations: a re-harvest analyses only new or changed images.
          colors: { cacheDir: path.join(settings.dataDir, COLOR_CACHE_DIR) },
          onProgress: (p) => progress.update({ ...p, unit: p.phase === 'images' || p.phase === 'colors' ? 'images' : 'records' }),
        });
        return { details: { ...report } };
      },
      {
        onCheck: (p) => progress.update({ phase: 'check', ...p, unit: 'bytes' }),
        ...(published.tap ? { tap: published.tap } : {}),
        derive: async (staged) => {
          if (imageVerdicts !== undefined) await writeImageVerdicts(staged.dir, imageVerdicts);
          await published.derive?.(staged);
          // What follows: the change log's snapshot and block, then `current` moves (src/changes/record-switch.ts).
          progress.stop();
          process.stderr.write('harvest: switching: the change log, then current\n');
        },
        parent,
        // Replicas swap from here on; a first harvest's change snapshot is completed after (record-switch.ts).
        onCurrent: () => {
          process.stderr.write('harvest: current moved; completing the change snapshot\n');
          yieldToReplicas();
        },
      },
    );
    // What the next harvest --changes applies its changes to.
    process.stderr.write(`harvest: ${generation.id} is current; keeping its export for harvest --changes\n`);
    await finishPublication('harvest', generation.id, published, keepExport(settings.dataDir, generation.id, sourceDir, exportFiles, merged));
    progress.stop();
    printGeneration(generation, Date.now() - started);
  } catch (err) {
    progress.abort();
    if (merged !== undefined) await rm(merged.dir, { recursive: true, force: true });
    // The export names its files relative to DIR; the full path is what an editor opens (with --changes, the
    // line's origin: the export of changes, or the kept export).
    if (err instanceof SourceLineError) {
      const at = merged?.origin(err.file, err.line) ?? { path: path.join(sourceDir, err.file), line: err.line };
      throw new Error(`${at.path}:${at.line}: ${err.reason}`);
    }
    throw err;
  }
});

/**
 * The generation to compare with: the current one, when it has a record index (a harvest since record indexes; a
 * generation made by `load` has none, and then every record is written, as with --full).
 */
async function parentGeneration(dataDir: string): Promise<Generation | undefined> {
  const current = await currentGeneration(dataDir);
  if (current === undefined) return undefined;
  if ((await readRecordIndex(current.dir, current.id)) !== undefined) return current;
  process.stderr.write(`harvest: the current generation ${current.id} has no record index: every record is written\n`);
  return undefined;
}

/** The current generation's kept export with the changes in `changesDir` applied, in a folder of its own. */
async function mergeOnCurrent(dataDir: string, changesDir: string, files: ExportFile[]): Promise<MergedExport> {
  const current = await currentGeneration(dataDir);
  if (current === undefined) throw new Error('harvest --changes: there is no current generation to apply changes to; harvest a whole export first');
  const base = keptExportDir(dataDir, current.id);
  if (!(await stat(base).then((s) => s.isDirectory(), () => false))) {
    throw new Error(`harvest --changes: the export of the current generation ${current.id} was not kept (made by load, or before exports were kept); harvest a whole export first`);
  }
  const out = await mergeFolder(dataDir);
  try {
    const merged = await mergeChanges(base, changesDir, out, files);
    process.stderr.write(`harvest: ${merged.counts.replaced} records changed, ${merged.counts.added} added, ${merged.counts.deleted} deleted in the export of ${current.id}\n`);
    return merged;
  } catch (err) {
    await rm(out, { recursive: true, force: true });
    if (err instanceof ChangesLineError) throw new Error(err.message);
    throw err;
  }
}
