/**
 * `npm run generations [-- --rollback ID | --prune K | --verify [ID] | --json]`: lists the generations
 * under DATA_DIR, makes an older one current again, removes old ones, or re-checks one in full.
 */
import { currentGeneration, listGenerations, pruneGenerations, readGeneration, setCurrent, verifyGeneration } from '../store/generations.js';
import { dropRemoteGenerations } from '../store/stores.js';
import { cliSettings, parseCommandLine, runCli, UsageError } from './common.js';

const USAGE = `usage: npm run generations [-- --rollback ID | --prune K | --verify [ID] | --json]

Without options: lists the generations under DATA_DIR, oldest first, * marking the current one.
--rollback ID  makes generation ID current (a running server swaps to it); the change log records the changes.
--prune K      removes all but the newest K generations (and, with STORE_URL, drops them from the server); the
               current one is always kept.
--verify [ID]  re-reads a generation (default the current one): checksums, gzip, N-Quads, counts.
--json         prints the list as JSON.`;

runCli(USAGE, async () => {
  const { values, positionals } = parseCommandLine({
    rollback: { type: 'string' },
    prune: { type: 'string' },
    verify: { type: 'boolean' },
    json: { type: 'boolean' },
  });
  const actions = [values.rollback !== undefined, values.prune !== undefined, values.verify === true].filter(Boolean).length;
  if (actions > 1) throw new UsageError('give at most one of --rollback, --prune, --verify');
  if (positionals.length > (values.verify ? 1 : 0)) throw new UsageError(`unexpected argument ${positionals.join(' ')}`);
  const settings = cliSettings();
  const { dataDir } = settings;

  if (values.rollback !== undefined) {
    const changes = await setCurrent(dataDir, values.rollback);
    process.stdout.write(`generation ${values.rollback} is current\n`);
    // A rollback is a set of changes like any other; the change feed (/v2/changes) lists them.
    process.stdout.write(`change log: ${changes.created} created, ${changes.updated} updated, ${changes.deleted} deleted\n`);
    return;
  }
  if (values.prune !== undefined) {
    if (!/^\d+$/.test(values.prune) || Number(values.prune) < 1) throw new UsageError('--prune takes a whole number >= 1');
    const removed = await pruneGenerations(dataDir, Number(values.prune));
    process.stdout.write(removed.length === 0 ? 'nothing to remove\n' : removed.map((id) => `removed ${id}\n`).join(''));
    // With STORE_URL, what the folder no longer keeps leaves the server too (a running service would do it at its
    // next swap; until then a pruned generation would stay listed as complete there).
    const dropped = await dropRemoteGenerations(settings, (await listGenerations(dataDir)).map((g) => g.id));
    if (dropped.length > 0) process.stdout.write(dropped.map((id) => `dropped ${id} from the SPARQL server\n`).join(''));
    return;
  }
  if (values.verify) {
    const id = positionals[0];
    const generation = id === undefined ? await currentGeneration(dataDir) : await readGeneration(dataDir, id);
    if (!generation) throw new Error(`no generation in ${dataDir}`);
    await verifyGeneration(generation);
    process.stdout.write(`generation ${generation.id} is intact\n`);
    return;
  }

  const entries = await listGenerations(dataDir);
  if (values.json) {
    process.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
    return;
  }
  if (entries.length === 0) process.stdout.write(`no generations in ${dataDir}\n`);
  for (const e of entries) {
    const m = e.manifest;
    const what = m
      ? `${m.source.kind.padEnd(7)} ${String(m.counts.publicQuads).padStart(10)} public ${String(m.counts.nonPublicQuads).padStart(9)} non-public  ${m.source.path}`
      : `unusable: ${e.problem}`;
    process.stdout.write(`${e.current ? '*' : ' '} ${e.id}  ${what}\n`);
  }
});
