/**
 * `npm run bench -- --only ready --objects N`: remote.ts's section 6 alone, the section that fits a session at a
 * million objects. A replica (`node dist/server.js` on a throw-away Virtuoso, Debian's, as remote.ts starts it)
 * serves a small generation (the 1,000-object bench collection); then `npm run harvest` of the N-object source
 * export runs as its own process and the clock stops at the first page the replica serves from its generation
 * (harvest-to-ready); then `npm run load` of that generation's public dump, the same way (load-to-ready). The
 * bench generation of N objects is never built (bench-data.ts --source-only): at a million objects that alone
 * takes most of an hour.
 *
 * Reported beside each other: both times, where every minute of each went (the commands' steps and the replica's
 * first page on one clock, in the log and in the result's details), peak RSS of the harvest, the load, Virtuoso
 * and the replica. The baseline of harvest-to-ready is the replica's start on the small generation (start-up
 * alone); that of load-to-ready is harvest-to-ready. `--embedded` runs the same on the embedded store (no
 * Virtuoso): the embedded harvest's records/s from source to ready to serve. Figures only; nothing is asserted.
 */
import { loadavg } from 'node:os';
import { BENCH_BASE_URL, benchGeneration, benchSource } from './bench-data.js';
import { emitResult, log, loggedRows, objectsArg, pidOfProcess, type BenchRow } from './report.js';
import { measureToReady, readyTimeoutMs, toReadyDetails, toReadyRows, virtuosoEnv } from './to-ready.js';
import { startVirtuoso } from '../helpers/virtuoso.js';

const objects = objectsArg();
const STARTING_OBJECTS = 1000;
const startedAt = new Date().toISOString();
const rows: BenchRow[] = loggedRows();
const details: Record<string, unknown> = { loadavgAtStart: loadavg(), startingGenerationObjects: STARTING_OBJECTS };

const sourceDir = await benchSource(objects);
const starting = await benchGeneration(STARTING_OBJECTS);
// `--embedded`: the replica on its embedded store (no STORE_URL), the harvest writing no bulk files.
const embedded = process.argv.includes('--embedded');
details.store = embedded ? 'embedded' : 'remote (Virtuoso, bulk loader)';
// Virtuoso as remote.ts starts it: buffers for about a third of the machine's memory at 100k+.
const virtuoso = embedded ? undefined : await startVirtuoso({ resultSetMaxRows: null, numberOfBuffers: Math.min(680_000, Math.max(10_000, objects * 4)), startTimeoutMs: 120_000 });
try {
  const env: Record<string, string> = { BASE_URL: BENCH_BASE_URL, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'info' };
  if (virtuoso) Object.assign(env, virtuosoEnv(virtuoso));
  log(`harvest-to-ready and load-to-ready of ${objects.toLocaleString('en')} objects on the ${embedded ? 'embedded' : 'remote'} store, from a replica serving ${STARTING_OBJECTS.toLocaleString('en')}`);
  const toReady = await measureToReady({ dataDir: starting.dataDir, sourceDir, env, readyTimeoutMs: readyTimeoutMs(objects), ...(virtuoso ? { serverPid: pidOfProcess(virtuoso.dir) } : {}) });
  // Records of the harvest, from its own account ("harvest: write, 470,833 records, … done in …").
  const written = /write, ([\d,]+) records,[^\n]*done in/.exec(toReady.harvestOutput)?.[1];
  const records = written === undefined ? NaN : Number(written.replace(/,/g, ''));
  rows.push(...toReadyRows(toReady, objects, records, `start-up of that replica on the ${STARTING_OBJECTS.toLocaleString('en')}-object generation (s)`));
  if (embedded) {
    const perSecond = records / (toReady.harvestToReadyMs / 1000);
    rows.push({
      figure: 'embedded harvest, source to ready to serve (records/s; stored index and change snapshot included)',
      value: perSecond,
      unit: 'records/s',
      goal: '≥ 1,500 records/s at 50k objects',
      met: perSecond >= 1500,
      note: `${records} records in ${(toReady.harvestToReadyMs / 1000).toFixed(1)} s`,
    });
  }
  details.toReady = toReadyDetails(toReady);
} catch (err) {
  details.error = (err as Error).stack ?? String(err);
  log(`stopped: ${(err as Error).message}`);
} finally {
  await virtuoso?.stop();
}
emitResult({ benchmark: 'ready', objects, startedAt, seconds: (Date.now() - Date.parse(startedAt)) / 1000, rows, details });
process.exit(details.error === undefined ? 0 : 1);
