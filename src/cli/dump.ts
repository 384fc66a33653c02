/**
 * `npm run dump -- OUT.nq.gz | OUT.nq | - [--kind <kind>]` (a kind of src/kinds): the current
 * generation's public quads, streamed from its files (`-` writes plain N-Quads to stdout).
 */
import path from 'node:path';
import { dumpCurrent, dumpKind } from '../store/dump.js';
import { KIND_NAMES } from '../kinds/index.js';
import { cliSettings, parseCommandLine, runCli, UsageError } from './common.js';

const USAGE = `usage: npm run dump -- OUT.nq.gz | OUT.nq | - [--kind ${KIND_NAMES.kindAlternatives}]

Writes the public quads of the current generation under DATA_DIR: gzip when OUT ends in .gz, plain
N-Quads otherwise, to stdout for -. With --kind, only the record graphs of that kind.`;


runCli(USAGE, async () => {
  const { values, positionals } = parseCommandLine({ kind: { type: 'string' } });
  if (positionals.length !== 1) throw new UsageError('give exactly one output file (or - for stdout)');
  const kind = values.kind;
  if (kind !== undefined && !KIND_NAMES.has(kind)) throw new UsageError(`--kind must be one of ${KIND_NAMES.names.join(', ')}`);
  const out = positionals[0] === '-' ? process.stdout : path.resolve(positionals[0] as string);
  const { dataDir } = cliSettings();
  const generation = kind === undefined ? await dumpCurrent(dataDir, out) : await dumpKind(dataDir, kind, out);
  if (out !== process.stdout) {
    process.stderr.write(`dumped generation ${generation.id} (${generation.manifest.counts.publicQuads.toLocaleString('en')} public quads) to ${out}\n`);
  }
});
