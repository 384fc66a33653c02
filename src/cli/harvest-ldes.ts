/**
 * `npm run harvest -- --ldes URL [--ldes URL…]`: event streams become the new current generation
 * (docs/ldes-harvest.md). Each stream is followed into DATA_DIR/ldes/<digest of its URL>, which remembers where
 * it stopped, so a later run reads only what is new; the latest version of every record of all of them is
 * written as a dump and loaded as `npm run load` loads one. So far only this service's own streams are mapped
 * (a second deployment mirroring a first); a member of another shape stops the command, naming it.
 */
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_FOLLOW_OPTIONS, followStream, latestVersions, type JournalMember } from '../harvest/ldes/follow.js';
import { writeRecordDump } from '../harvest/ldes/own-records.js';
import { cliSettings } from './common.js';
import { loadDump } from './load-dump.js';

export interface StreamHarvestOptions {
  noIndex: boolean;
  /** The operator's limit on requests a second to the streams' server. */
  pagesPerSecond?: number;
}

/** The folder that follows the stream at `url` under DATA_DIR. */
export const streamFolder = (dataDir: string, url: string): string => path.join(dataDir, 'ldes', createHash('sha256').update(url).digest('hex').slice(0, 16));

export async function harvestStreams(urls: readonly string[], options: StreamHarvestOptions): Promise<void> {
  const settings = cliSettings();
  const latest = new Map<string, JournalMember>();
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
    await latestVersions(dir, latest);
  }
  await mkdir(path.join(settings.dataDir, 'ldes'), { recursive: true });
  const scratch = await mkdtemp(path.join(settings.dataDir, 'ldes', '.dump-'));
  try {
    const file = path.join(scratch, 'records.nq');
    const dump = await writeRecordDump(latest.values(), file, settings.baseUrl);
    process.stderr.write(`harvest: ${dump.records.toLocaleString('en')} records and ${dump.tombstones.toLocaleString('en')} tombstones of ${dump.sourceBase || 'no deployment'}, ${dump.quads.toLocaleString('en')} quads\n`);
    await loadDump('harvest', file, { baseUrl: settings.baseUrl, noIndex: options.noIndex });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
