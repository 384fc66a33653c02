/**
 * Benchmark of the change log (issue "Change discovery") for one collection size (`--objects N`; the issue's
 * figure is `--objects 50000`):
 *   - the change set between two generations with 1 % of the objects changed (a title each): the `setCurrent`
 *     that appends it to the log (snapshot of the new generation, diff against the cached snapshot of the
 *     previous one, block written, `current` moved), beside the load of that generation itself in the same run;
 *     apart, the snapshot pass and the diff alone;
 *   - the first switch of a fresh folder (one Create per public record), beside its load;
 *   - feed latency over HTTP (one keep-alive connection, sequential, a client process of its own): the
 *     collection, the first page, a middle page and the last page, against /healthz on the same server.
 *
 * Inputs are the cached bench generation's two files joined into one N-Quads file (A) and a copy with the
 * `rdfs:label` of every hundredth object changed (B), both loaded into a scratch DATA_DIR with `loadNQuadsFile`.
 *
 * Run through run.ts, or alone: npx tsx test/bench/changes.ts --objects N
 */
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGzip } from 'node:zlib';
import { createApp } from '../../src/app.js';
import { diffSnapshots } from '../../src/changes/diff.js';
import { DEFAULT_PAGE_SIZE } from '../../src/changes/feed.js';
import { computeSnapshot, readSnapshot } from '../../src/changes/snapshot.js';
import { generationFiles, setCurrent } from '../../src/store/generations.js';
import { readTextBlocks } from '../../src/store/line-reader.js';
import { loadNQuadsFile } from '../../src/store/load.js';
import { httpTestContext, ReadinessOnlyStore } from '../helpers/http-context.js';
import { BENCH_BASE_URL, benchGeneration } from './bench-data.js';
import type { SequentialResult } from './http-load.js';
import { runLoadClient } from './load-client.js';
import { emitResult, log, objectsArg, quantile, type BenchRow } from './report.js';
import { KIND_NAMES } from '../../src/kinds/index.js';

const objects = objectsArg();
const startedAt = new Date().toISOString();
const rows: BenchRow[] = [];
const details: Record<string, unknown> = { loadavgAtStart: loadavg(), pageSize: DEFAULT_PAGE_SIZE };
const RDFS_LABEL = '<http://www.w3.org/2000/01/rdf-schema#label>';
const OBJECT_GRAPH = `<${BENCH_BASE_URL}/v2/id/object/`;

const timed = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
  const t0 = performance.now();
  const value = await fn();
  return [value, (performance.now() - t0) / 1000];
};

/**
 * Writes A (both files of the generation, their gzip members joined: a valid gzip file) and B (the same with
 * every hundredth object's label changed, the public file re-compressed) in one pass over the public file.
 */
async function writeInputs(files: { public: string; nonPublic: string }, a: string, b: string): Promise<number> {
  await writeFile(a, Buffer.concat([await readFile(files.public), await readFile(files.nonPublic)]));
  const outB = createGzip({ level: 1 });
  const doneB = once(outB.pipe(createWriteStream(b)), 'finish');
  let objectIndex = -1;
  let lastGraph = '';
  let changed = 0;
  for await (const block of readTextBlocks(files.public)) {
    const lines = block.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] as string;
      if (line === '') continue;
      // Generation files are canonical (`s p o g .`, single spaces, every statement in a record or admin graph),
      // so the graph is the last term; parsing every line would cost more than the load being measured.
      const graph = line.slice(line.lastIndexOf(' <', line.length - 4) + 1, line.length - 2);
      if (!graph.startsWith(OBJECT_GRAPH)) continue;
      if (graph !== lastGraph) {
        objectIndex++;
        lastGraph = graph;
      }
      if (objectIndex % 100 === 0 && line.startsWith(`${graph} ${RDFS_LABEL} `)) {
        lines[i] = `${graph} ${RDFS_LABEL} "changed title ${objectIndex}" ${graph} .`;
        changed++;
      }
    }
    if (!outB.write(lines.join('\n'))) await once(outB, 'drain');
  }
  outB.end();
  await doneB;
  await appendFile(b, await readFile(files.nonPublic));
  return changed;
}

const scratch = mkdtempSync(join(tmpdir(), 'bench-changes-'));
try {
  const data = await benchGeneration(objects);
  const inputA = join(scratch, 'a.nq.gz');
  const inputB = join(scratch, 'b.nq.gz');
  log(`changes: writing inputs for ${objects} objects`);
  const changed = await writeInputs(generationFiles(data.generation.dir), inputA, inputB);
  details.changedObjects = changed;
  const dataDir = join(scratch, 'data');

  log('changes: load A, first switch');
  const [genA, loadA] = await timed(() => loadNQuadsFile(dataDir, inputA, { makeCurrent: false, baseUrl: BENCH_BASE_URL, kinds: KIND_NAMES }));
  const [first, firstSwitch] = await timed(() => setCurrent(dataDir, genA.id));
  log('changes: load B, switch A → B');
  const [genB, loadB] = await timed(() => loadNQuadsFile(dataDir, inputB, { makeCurrent: false, baseUrl: BENCH_BASE_URL, kinds: KIND_NAMES }));
  const [second, switchB] = await timed(() => setCurrent(dataDir, genB.id));
  details.publicQuads = genB.manifest.counts.publicQuads;
  details.firstSwitch = { created: first.created };
  details.changeSet = { created: second.created, updated: second.updated, deleted: second.deleted };

  const [snapB, snapshotSeconds] = await timed(() => computeSnapshot(generationFiles(genB.dir), genB.manifest));
  const snapA = await readSnapshot(dataDir, genA.id);
  if (!snapA) throw new Error('the snapshot of generation A was not cached');
  const [, diffSeconds] = await timed(async () => diffSnapshots(snapA, snapB));

  rows.push(
    {
      figure: `change set, 1 % of ${objects} objects changed (setCurrent)`,
      value: switchB,
      unit: 's',
      baselineName: 'load of that generation',
      baseline: loadB,
      ratio: switchB / loadB,
      note: `${second.updated} updated, ${second.created} created, ${second.deleted} deleted (${changed} labels changed)`,
    },
    { figure: 'snapshot of one generation (graph digests)', value: snapshotSeconds, unit: 's', baselineName: 'load', baseline: loadB, ratio: snapshotSeconds / loadB },
    { figure: 'diff of two snapshots', value: diffSeconds * 1000, unit: 'ms' },
    {
      figure: 'first switch of a fresh folder (one Create per record)',
      value: firstSwitch,
      unit: 's',
      baselineName: 'load of that generation',
      baseline: loadA,
      ratio: firstSwitch / loadA,
      note: `${first.created} Create activities`,
    },
  );

  log('changes: feed latency');
  const store = new ReadinessOnlyStore(true, genB.manifest);
  const app = createApp(httpTestContext({ DATA_DIR: dataDir, BASE_URL: BENCH_BASE_URL, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'silent' }, store));
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const collection = (await (await fetch(`${origin}/v2/changes`)).json()) as { totalItems: number; last: { id: string } };
    const lastPage = Number(collection.last.id.split('/').pop());
    details.feed = { totalItems: collection.totalItems, pages: lastPage };
    const measure = async (path: string, requests = 300): Promise<{ p50: number; p99: number }> => {
      const result = await runLoadClient<SequentialResult>({ mode: 'sequential', origin, paths: [path], requests });
      if (Object.keys(result.statuses).some((s) => s !== '200')) throw new Error(`${path}: ${JSON.stringify(result.statuses)}`);
      return { p50: quantile(result.latencies, 0.5), p99: quantile(result.latencies, 0.99) };
    };
    const healthz = await measure('/healthz');
    const middle = Math.max(1, Math.floor(lastPage / 2));
    for (const [name, path] of [
      ['collection', '/v2/changes'],
      ['first page', '/v2/changes/page/1'],
      [`middle page (${middle})`, `/v2/changes/page/${middle}`],
      [`last page (${lastPage})`, `/v2/changes/page/${lastPage}`],
    ] as const) {
      const m = await measure(path);
      rows.push({ figure: `feed ${name}, p50`, value: m.p50, unit: 'ms', baselineName: '/healthz', baseline: healthz.p50, ratio: m.p50 / healthz.p50 });
      rows.push({ figure: `feed ${name}, p99`, value: m.p99, unit: 'ms', baselineName: '/healthz', baseline: healthz.p99, ratio: m.p99 / healthz.p99 });
    }
  } finally {
    server.close();
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

emitResult({ benchmark: 'changes', objects, startedAt, seconds: (Date.now() - Date.parse(startedAt)) / 1000, rows, details });
