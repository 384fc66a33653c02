/**
 * `npm run dump -- OUT.nq.gz | OUT.nq | - [--kind object|agent|exhibition|concept]`: the current
 * generation's public quads, streamed from its files (`-` writes plain N-Quads to stdout).
 */
import path from 'node:path';
import { dumpCurrent, dumpKind } from '../store/dump.js';
import { RECORD_KIND_ALTERNATIVES, RECORD_KINDS, type RecordKind } from '../vocab/iris.js';
import { cliSettings, parseCommandLine, runCli, UsageError } from './common.js';

const USAGE = `usage: npm run dump -- OUT.nq.gz | OUT.nq | - [--kind ${RECORD_KIND_ALTERNATIVES}]

Writes the public quads of the current generation under DATA_DIR: gzip when OUT ends in .gz, plain
N-Quads otherwise, to stdout for -. With --kind, only the record graphs of that kind.`;


runCli(USAGE, async () => {
  const { values, positionals } = parseCommandLine({ kind: { type: 'string' } });
  if (positionals.length !== 1) throw new UsageError('give exactly one output file (or - for stdout)');
  const kind = values.kind;
  if (kind !== undefined && !(RECORD_KINDS as readonly string[]).includes(kind)) throw new UsageError(`--kind must be one of ${RECORD_KINDS.join(', ')}`);
  const out = positionals[0] === '-' ? process.stdout : path.resolve(positionals[0] as string);
  const { dataDir } = cliSettings();
  const generation = kind === undefined ? await dumpCurrent(dataDir, out) : await dumpKind(dataDir, kind as RecordKind, out);
  if (out !== process.stdout) {
    process.stderr.write(`dumped generation ${generation.id} (${generation.manifest.counts.publicQuads.toLocaleString('en')} public quads) to ${out}\n`);
  }
});
