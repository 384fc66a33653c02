/**
 * `npm run bench -- --only incremental --objects N [--embedded]`: issue 46's measure (docs/incremental.md). A
 * replica (`node dist/server.js`, on a throw-away Virtuoso as ready.ts starts it, or `--embedded` on its embedded
 * store) serves the 1,000-object bench generation. `npm run harvest` of the N-object source export makes the
 * first generation; then the same export with 1 % of its objects changed (a new title and modification date)
 * and 0.1 % removed is harvested twice, each timed from the command's start to the first page the replica serves
 * from its generation: on the current generation (incremental), then with `--full` (the baseline: the same final
 * export, every record written). Where each one's time went is logged as a timeline. Figures only.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import { BENCH_BASE_URL, benchGeneration, benchSource } from './bench-data.js';
import { emitResult, log, loggedRows, objectsArg, pidOfProcess, type BenchRow } from './report.js';
import { readyTimeoutMs, timeline, virtuosoEnv, withReplica } from './to-ready.js';
import { startVirtuoso } from '../helpers/virtuoso.js';
import { SOURCE_FILES, IMAGES_FILE } from '../../src/harvest/schema.js';

const objects = objectsArg();
const STARTING_OBJECTS = 1000;
/** Every 100th object changes, every 1000th (that nothing names) goes. */
const CHANGE_EVERY = 100;
const REMOVE_EVERY = 1000;
const startedAt = new Date().toISOString();
const rows: BenchRow[] = loggedRows();
const details: Record<string, unknown> = { loadavgAtStart: loadavg(), startingGenerationObjects: STARTING_OBJECTS };

/** The export with 1 % of its objects changed and 0.1 % removed, written beside; how many of each. */
async function editedExport(sourceDir: string, into: string): Promise<{ changed: number; removed: number }> {
  await mkdir(into, { recursive: true });
  for (const file of [SOURCE_FILES.agents, SOURCE_FILES.concepts, SOURCE_FILES.exhibitions, IMAGES_FILE]) {
    await copyFile(path.join(sourceDir, file), path.join(into, file)).catch(() => undefined);
  }
  const lines = (file: string) => createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  // Objects some record names (an exhibition, a set, a redirect) stay: the export must stay whole.
  const named = new Set<string>();
  for await (const line of lines(path.join(sourceDir, SOURCE_FILES.exhibitions))) if (line !== '') for (const n of (JSON.parse(line) as { objects: string[] }).objects) named.add(n);
  for await (const line of lines(path.join(sourceDir, SOURCE_FILES.objects))) {
    if (line === '') continue;
    const o = JSON.parse(line) as { partOfSet?: string; state: { into?: string } };
    if (o.partOfSet !== undefined) named.add(o.partOfSet);
    if (o.state.into !== undefined) named.add(o.state.into);
  }
  const out = createWriteStream(path.join(into, SOURCE_FILES.objects));
  let n = 0;
  let changed = 0;
  let removed = 0;
  for await (const line of lines(path.join(sourceDir, SOURCE_FILES.objects))) {
    if (line === '') continue;
    n += 1;
    let text = line;
    if (n % REMOVE_EVERY === 0) {
      const o = JSON.parse(line) as { objectNumber: string };
      if (!named.has(o.objectNumber)) {
        removed += 1;
        continue;
      }
    }
    if (n % CHANGE_EVERY === 1) {
      const o = JSON.parse(line) as { titles: Record<string, string>; modified: string };
      o.titles = { ...o.titles, nl: `${o.titles.nl ?? ''} (herzien)` };
      o.modified = '2026-11-29';
      text = JSON.stringify(o);
      changed += 1;
    }
    if (!out.write(`${text}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return { changed, removed };
}

const sourceDir = await benchSource(objects);
const starting = await benchGeneration(STARTING_OBJECTS);
const embedded = process.argv.includes('--embedded');
details.store = embedded ? 'embedded' : 'remote (Virtuoso, bulk loader)';
const work = await mkdtemp(path.join(tmpdir(), 'bench-incremental-'));
const virtuoso = embedded ? undefined : await startVirtuoso({ resultSetMaxRows: null, numberOfBuffers: Math.min(680_000, Math.max(10_000, objects * 4)), startTimeoutMs: 120_000 });
try {
  const edited = path.join(work, 'edited');
  const edits = await editedExport(sourceDir, edited);
  details.edits = edits;
  log(`the edited export: ${edits.changed.toLocaleString('en')} objects changed, ${edits.removed.toLocaleString('en')} removed`);
  const env: Record<string, string> = { BASE_URL: BENCH_BASE_URL, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'info' };
  if (virtuoso) Object.assign(env, virtuosoEnv(virtuoso));
  if (virtuoso) details.serverPid = pidOfProcess(virtuoso.dir);
  await withReplica({ dataDir: starting.dataDir, env, readyTimeoutMs: readyTimeoutMs(objects) }, async (replica) => {
    log(`replica ready on the ${STARTING_OBJECTS.toLocaleString('en')}-object generation in ${(replica.startMs / 1000).toFixed(1)} s`);
    const timed = async (what: string, args: string[]) => {
      const r = await replica.toReady('cli/harvest.js', args);
      log(`${what}: ${(r.toReadyMs / 1000).toFixed(1)} s to ready (the harvest process ${(r.run.ms / 1000).toFixed(1)} s)`);
      for (const line of timeline(r.run.steps, r.run.ms, r.toReadyMs)) log(line);
      return r;
    };
    const first = await timed('first harvest', [sourceDir, '--no-image-check']);
    const incremental = await timed('incremental harvest of the edited export', [edited, '--no-image-check']);
    const full = await timed('full harvest of the edited export', [edited, '--no-image-check', '--full']);
    const records = /records +([\d,]+) created, ([\d,]+) updated, ([\d,]+) removed, ([\d,]+) unchanged/.exec(incremental.run.output);
    const ratio = incremental.toReadyMs / full.toReadyMs;
    rows.push(
      {
        figure: `incremental harvest-to-ready (the export with ${edits.changed} objects changed and ${edits.removed} removed, on the current generation)`,
        value: incremental.toReadyMs / 1000,
        unit: 's',
        baselineName: '`--full` harvest-to-ready of the same export, same run (s)',
        baseline: full.toReadyMs / 1000,
        ratio,
        goal: '≤ 5 % of the full harvest (moonshot ≤ 1 %, reading the export aside)',
        met: ratio <= 0.05,
        note: `harvest process ${(incremental.run.ms / 1000).toFixed(1)} s against ${(full.run.ms / 1000).toFixed(1)} s; records ${records ? `${records[1]} created, ${records[2]} updated, ${records[3]} removed, ${records[4]} unchanged` : '?'}`,
      },
      {
        figure: 'first harvest-to-ready (the unedited export, on the small generation)',
        value: first.toReadyMs / 1000,
        unit: 's',
        baselineName: `start-up of the replica on the ${STARTING_OBJECTS.toLocaleString('en')}-object generation (s)`,
        baseline: replica.startMs / 1000,
        ratio: first.toReadyMs / replica.startMs,
        note: `harvest process ${(first.run.ms / 1000).toFixed(1)} s`,
      },
      {
        figure: 'peak RSS of the incremental harvest process',
        value: incremental.run.peakRssMiB ?? NaN,
        unit: 'MiB',
        baselineName: 'peak RSS of the full harvest process (MiB)',
        baseline: full.run.peakRssMiB ?? NaN,
        ratio: (incremental.run.peakRssMiB ?? NaN) / (full.run.peakRssMiB ?? NaN),
        note: `the replica: ${replica.rssMiB()?.toFixed(0) ?? '?'} MiB at the end, peak ${replica.peakRssMiB()?.toFixed(0) ?? '?'} MiB`,
      },
    );
    details.timelines = {
      first: timeline(first.run.steps, first.run.ms, first.toReadyMs),
      incremental: timeline(incremental.run.steps, incremental.run.ms, incremental.toReadyMs),
      full: timeline(full.run.steps, full.run.ms, full.toReadyMs),
    };
    details.incrementalOutput = incremental.run.output.slice(-3000);
  });
} catch (err) {
  details.error = (err as Error).stack ?? String(err);
  log(`stopped: ${(err as Error).message}`);
} finally {
  await virtuoso?.stop();
  await rm(work, { recursive: true, force: true });
}
emitResult({ benchmark: 'incremental', objects, startedAt, seconds: (Date.now() - Date.parse(startedAt)) / 1000, rows, details });
process.exit(details.error === undefined ? 0 : 1);
