/**
 * `npm run harvest -- --ldes URL [--ldes URL…]`: event streams become the new current generation
 * (docs/ldes-harvest.md). Each stream is followed into DATA_DIR/ldes/<digest of its URL>, which remembers where
 * it stopped, so a later run reads only what is new. Then the latest version of every record of all of them:
 *
 * - from this service's own streams (a second deployment mirroring a first), is written as a dump and loaded as
 *   `npm run load` loads one;
 * - from Ghent's streams (the OSLO profiles of Design Museum Gent and the CoGhent museums), is mapped to a source
 *   export in DATA_DIR/ldes/export (src/harvest/ldes/oslo.ts), which the caller harvests as any export.
 *
 * Members of both shapes at once stop the command, naming one. Ghent's members of none of the four kinds are left
 * out and reported.
 */
import { createHash } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_FOLLOW_OPTIONS, followStream } from '../harvest/ldes/follow.js';
import { latestEntries, readMembers, type JournalEntry } from '../harvest/ldes/journal.js';
import { isOwnRecord, writeRecordDump } from '../harvest/ldes/own-records.js';
import { mapOsloMembers, type OsloKind, type OsloReport } from '../harvest/ldes/oslo.js';
import { SOURCE_FILES } from '../harvest/schema.js';
import { cliSettings } from './common.js';
import { loadDump } from './load-dump.js';

export interface StreamHarvestOptions {
  noIndex: boolean;
  /** The operator's limit on requests a second to the streams' server. */
  pagesPerSecond?: number;
}

/** The folder that follows the stream at `url` under DATA_DIR. */
export const streamFolder = (dataDir: string, url: string): string => path.join(dataDir, 'ldes', createHash('sha256').update(url).digest('hex').slice(0, 16));

/**
 * Follows the streams, then loads their records (this service's own streams: returns undefined) or maps them to a
 * source export (Ghent's: returns its folder, for the caller to harvest).
 */
export async function harvestStreams(urls: readonly string[], options: StreamHarvestOptions): Promise<string | undefined> {
  const settings = cliSettings();
  // Where the latest version of each record is in the journals; the members are read back when used.
  const latest = new Map<string, JournalEntry>();
  for (const url of urls) {
    const dir = streamFolder(settings.dataDir, url);
    process.stderr.write(`harvest: following ${url} (what was read is kept in ${dir})\n`);
    const report = await followStream(url, dir, {
      ...DEFAULT_FOLLOW_OPTIONS,
      ...(options.pagesPerSecond === undefined ? {} : { pagesPerSecond: options.pagesPerSecond }),
      onEvent: (event) => {
        if (event.kind === 'retry') process.stderr.write(`harvest: ${event.url} ${event.reason}; trying again in ${(event.waitMs / 1000).toFixed(1)} s\n`);
      },
    });
    process.stderr.write(`harvest: ${url}: ${report.pages.toLocaleString('en')} pages read, ${report.members.toLocaleString('en')} members; ${report.complete.toLocaleString('en')} pages complete, never read again\n`);
    await latestEntries(dir, latest);
  }
  await mkdir(path.join(settings.dataDir, 'ldes'), { recursive: true });
  let own = 0;
  let other: JournalEntry | undefined;
  for (const entry of latest.values()) {
    if (isOwnRecord(entry)) own++;
    else other ??= entry;
  }
  if (own > 0 && other !== undefined) {
    throw new Error(`${other.id} is not a version of a record of this service, as the other members are: harvest one deployment's streams, or Ghent's, at a time`);
  }
  if (own === 0 && latest.size > 0) return writeOsloExport(latest, settings.dataDir);
  const scratch = await mkdtemp(path.join(settings.dataDir, 'ldes', '.dump-'));
  try {
    const file = path.join(scratch, 'records.nq');
    const dump = await writeRecordDump(readMembers(latest.values()), file, settings.baseUrl);
    process.stderr.write(`harvest: ${dump.records.toLocaleString('en')} records and ${dump.tombstones.toLocaleString('en')} tombstones of ${dump.sourceBase || 'no deployment'}, ${dump.quads.toLocaleString('en')} quads\n`);
    await loadDump('harvest', file, { baseUrl: settings.baseUrl, noIndex: options.noIndex });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return undefined;
}

/**
 * Ghent's members as a source export in DATA_DIR/ldes/export (replaced whole), written as the records are made,
 * with what was left out said and kept in DATA_DIR/ldes/mapping-report.json.
 */
async function writeOsloExport(latest: ReadonlyMap<string, JournalEntry>, dataDir: string): Promise<string> {
  const dir = path.join(dataDir, 'ldes', 'export');
  const staging = await mkdtemp(path.join(dataDir, 'ldes', '.export-'));
  const files = Object.fromEntries((Object.keys(SOURCE_FILES) as OsloKind[]).map((kind) => [kind, createWriteStream(path.join(staging, SOURCE_FILES[kind]))])) as Record<OsloKind, WriteStream>;
  let report: OsloReport;
  try {
    report = await mapOsloMembers(
      () => readMembers(latest.values()),
      async (kind, record) => {
        if (!files[kind].write(`${JSON.stringify(record)}\n`)) await once(files[kind], 'drain');
      },
    );
    await Promise.all(Object.values(files).map(async (f) => once(f.end(), 'finish')));
  } catch (err) {
    for (const f of Object.values(files)) f.destroy();
    await rm(staging, { recursive: true, force: true });
    throw err;
  }
  const reportFile = path.join(dataDir, 'ldes', 'mapping-report.json');
  await writeFile(reportFile, `${JSON.stringify({ skipped: report.skipped, dropped: report.dropped }, null, 2)}\n`);
  await rm(dir, { recursive: true, force: true });
  await rename(staging, dir);
  process.stderr.write(`harvest: ${mappingSummary(report)}; the export is ${dir}, what was left out is in ${reportFile}\n`);
  return dir;
}

function mappingSummary({ counts, skipped, dropped }: OsloReport): string {
  const n = (count: number, noun: string): string => `${count.toLocaleString('en')} ${noun}${count === 1 ? '' : 's'}`;
  return `Ghent's members mapped to ${n(counts.objects, 'object')}, ${n(counts.exhibitions, 'exhibition')}, ${n(counts.agents, 'agent')} and ${n(counts.concepts, 'concept')}; ${n(skipped.length, 'member')} left out, ${n(dropped.length, 'reference')} dropped`;
}
