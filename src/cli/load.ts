/**
 * `npm run load -- FILE.nq[.gz] [--base-url URL] [--no-index]`: an N-Quads dump becomes the new current
 * generation, with its stored index. The base URL of the records is taken from --base-url, else from the record
 * graph IRIs, else BASE_URL.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { cliSettings, parseCommandLine, runCli, UsageError } from './common.js';
import { heapToRaise, heapWanted, rerunWithHeap } from './heap.js';
import { loadDump } from './load-dump.js';

const USAGE = `usage: npm run load -- FILE.nq[.gz] [--base-url URL] [--no-index]

Checks every line of FILE, splits the public from the non-public quads (admin graph) and makes the result
the current generation under DATA_DIR. Nothing changes when a line is bad (the error names file:line).
--no-index skips the stored index (the server then builds its indexes from the store once, and stores them).`;

/**
 * Bytes of heap per byte of a gzipped dump at the load's peak (the stored index's answers): 3.8 measured at
 * 100,000 objects (src/cli/heap.ts); an uncompressed dump is about ten times larger for the same statements.
 */
const LOAD_HEAP_PER_GZIP_BYTE = 4.5;

runCli(USAGE, async () => {
  const { values, positionals } = parseCommandLine({ 'base-url': { type: 'string' }, 'no-index': { type: 'boolean' } });
  if (positionals.length !== 1) throw new UsageError('give exactly one N-Quads file');
  const file = path.resolve(positionals[0] as string);
  const baseUrl = values['base-url']?.replace(/\/+$/, '');
  if (baseUrl !== undefined && !/^https?:\/\/[^/]+$/.test(baseUrl)) throw new UsageError('--base-url must be a scheme and host, such as https://data.example.org');
  cliSettings();
  // The stored index holds its answers until it writes them: a million objects want more than node's default heap.
  const fileBytes = (await stat(file).catch(() => undefined))?.size ?? 0;
  const heap = heapToRaise(heapWanted(fileBytes, file.endsWith('.gz') ? LOAD_HEAP_PER_GZIP_BYTE : LOAD_HEAP_PER_GZIP_BYTE / 10));
  if (heap !== undefined) await rerunWithHeap('load', heap, fileBytes);
  await loadDump('load', file, { ...(baseUrl === undefined ? {} : { baseUrl }), noIndex: values['no-index'] === true });
});
