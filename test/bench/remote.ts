/**
 * Benchmark of the remote store (`npm run bench -- --store remote --objects N`): the bench generation written to
 * a throw-away Virtuoso (Debian's, test/helpers/virtuoso.ts, no row limit as docs/remote-store.md advises), then
 * the real app on a RemoteStore on real ports, every client in a child process (http-load.ts). Each figure
 * beside a baseline of the same run:
 *   1. publication rate through the bulk loader (statements/s, records/s) beside the embedded store loading the
 *      same generation;
 *   2. time to a ready generation (store start, collection indexes from the stored index, first page);
 *   3. single records, record cache off and on: sequential p50 beside the same CONSTRUCT sent straight to the
 *      server; autocannon requests/s; the event-loop time of writing a record's or a page's query for the
 *      server from the generation's template beside parsing and rewriting its text;
 *   4. 10 stubs, 100 full records never asked before, `q`, and the first and the last pages (deep paging);
 *   5. RSS of this process (two apps: cache off and on) and of the Virtuoso server, and in 6 the RSS of the
 *      replica (one service process, as deployed), at the end and at its peak;
 *   6. harvest-to-ready and load-to-ready on a running replica (to-ready.ts): `harvest` of the bench's source
 *      export, then `load` of the served generation's public dump, each timed from the command's start to the
 *      first page the replica serves from the new generation, beside the replica's own start-up.
 * Figures only; nothing is asserted.
 */
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import type { AppContext } from '../../src/engine/app-context.js';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/config/logger.js';
import { Metrics } from '../../src/http/metrics.js';
import { listen } from '../../src/http/server-lifecycle.js';
import { QueryLibrary } from '../../src/queries/library.js';
import { storedIndexFile } from '../../src/collection-index/stored-index.js';
import { generationGraphs, rewriteForView } from '../../src/store/remote/graph-view.js';
import { BulkLoader } from '../../src/store/remote/bulk-load.js';
import { BulkFiles } from '../../src/store/remote/bulk-files.js';
import { Isql, sqlString } from '../../src/store/remote/isql.js';
import { describeCheck, graphsNamed, hasEntry, publishGeneration, publishUnion } from '../../src/store/remote/publish.js';
import { QueryTemplates } from '../../src/store/remote/query-templates.js';
import { StoreManager } from '../../src/store/store-manager.js';
import { createStores, remoteServer, type ServingStore } from '../../src/store/stores.js';
import { Iris } from '../../src/vocab/iris.js';
import { ISQL_BIN, startVirtuoso } from '../helpers/virtuoso.js';
import { BENCH_BASE_URL, benchGeneration } from './bench-data.js';
import type { AutocannonResult, SequentialResult } from './http-load.js';
import { runLoadClient } from './load-client.js';
import { measureToReady, readyTimeoutMs, toReadyDetails, toReadyRows } from './to-ready.js';
import { emitResult, log, loggedRows, objectsArg, pidOfProcess, quantile, rssMiB, rssMiBOfPid, type BenchRow } from './report.js';
import { KIND_NAMES } from '../../src/kinds/index.js';

const objects = objectsArg();
const CANNON_SECONDS = 8;
const CONNECTIONS = 10;
const PAGES = 10;
const startedAt = new Date().toISOString();
const rows: BenchRow[] = loggedRows();
const details: Record<string, unknown> = { loadavgAtStart: loadavg(), cannonSeconds: CANNON_SECONDS, connections: CONNECTIONS };
const p50 = (values: number[]): number => quantile(values, 0.5);

/** Resident set size of the process whose command line mentions `needle`, in MiB. */
const rssOfProcess = (needle: string): number | undefined => rssMiBOfPid(pidOfProcess(needle));

const data = await benchGeneration(objects);
const manifest = data.generation.manifest;
const records = Object.values(manifest.counts.publicRecords).reduce((a, b) => a + b, 0) + Object.values(manifest.counts.nonPublicRecords).reduce((a, b) => a + b, 0);
// Buffers for about a third of the machine's memory at 100k+, Virtuoso's own rule of thumb scaled down.
const virtuosoOptions = { resultSetMaxRows: null, numberOfBuffers: Math.min(680_000, Math.max(10_000, objects * 4)), startTimeoutMs: 120_000 };
const virtuoso = await startVirtuoso(virtuosoOptions);
try {
  const env = { BASE_URL: BENCH_BASE_URL, DATA_DIR: data.dataDir, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'info', STORE_URL: virtuoso.sparqlUrl, STORE_USER: virtuoso.user, STORE_PASSWORD: virtuoso.password, STORE_ROW_LIMIT: '0' };
  const server = remoteServer(loadConfig(env))!;

  // 1. Publication beside the bare bulk loader on the same files, and beside the embedded load of the same generation.
  log('publishing');
  const isql = new Isql({ address: `127.0.0.1:${virtuoso.isqlPort}`, user: virtuoso.user, password: virtuoso.password, bin: ISQL_BIN as string });
  const bulk = new BulkLoader({ dir: virtuoso.loadDir, loaders: 2, isql });
  const statements = manifest.counts.publicQuads + manifest.counts.nonPublicQuads;
  // The bare loader: the generation's bulk files (written first, not timed) registered with one ld_dir and loaded
  // by two rdf_loader_run() and a checkpoint, nothing else, on a fresh server of its own with the same settings
  // (dropping them again from this one took 6.5 minutes at 100,000 objects), so that both loads start from nothing.
  // `--no-bare` leaves the baseline out (a run for the later sections only: at 250,000 objects it takes 8 minutes).
  let bareMs: number | undefined;
  let filesFromGenerationMs: number | undefined;
  if (!process.argv.includes('--no-bare')) {
    const bareServer = await startVirtuoso(virtuosoOptions);
    const bareIsql = new Isql({ address: `127.0.0.1:${bareServer.isqlPort}`, user: bareServer.user, password: bareServer.password, bin: ISQL_BIN as string });
    const bareFiles = await BulkFiles.create({ dir: bareServer.loadDir }, 'bench-bare', generationGraphs('bench-bare'));
    let began = performance.now();
    await bareFiles.fromGeneration(data.generation.dir);
    filesFromGenerationMs = performance.now() - began;
    began = performance.now();
    await bareIsql.run([`ld_dir(${sqlString(bareFiles.serverFolder)}, '*.trig.gz', 'urn:x-museum-ld:empty');`]);
    await Promise.all([bareIsql.run(['rdf_loader_run();']), bareIsql.run(['rdf_loader_run();'])]);
    await bareIsql.run(['checkpoint;']);
    bareMs = performance.now() - began;
    await bareFiles.remove();
    await bareServer.stop();
  }
  // The publication as a data command runs it: the files written beside the generation (here before, not timed),
  // then loaded, checked and marked complete.
  const files = await BulkFiles.create({ dir: virtuoso.loadDir }, manifest.id, generationGraphs(manifest.id));
  await files.fromGeneration(data.generation.dir);
  const published = await publishGeneration(server, data.generation.dir, manifest, { bulk, files });
  // Then the union graph's own files, as the data command loads them once the generation is current.
  const unionStarted = performance.now();
  const union = await publishUnion(server, bulk, files);
  const wholeMs = published.ms + (performance.now() - unionStarted);
  await files.remove();
  const t = performance.now();
  const embedded = new StoreManager({ includeNonPublic: true });
  let embeddedMs: number | undefined;
  try {
    await embedded.start(data.generation.dir);
    embeddedMs = performance.now() - t;
  } catch (err) {
    details.embeddedLoad = String(err);
  }
  await embedded.close();
  const bareLoad = bareMs === undefined ? undefined : { ms: bareMs, filesMs: filesFromGenerationMs ?? NaN };
  rows.push({
    figure: 'publication of a generation whose bulk files were written beside it (as a data command does: the record graphs, then the union graph\'s own files)',
    value: wholeMs / 1000,
    unit: 's',
    ...(bareLoad === undefined
      ? {}
      : {
          baselineName: 'the bare bulk loader on the same files: ld_dir, 2 × rdf_loader_run(), checkpoint (s)',
          baseline: bareLoad.ms / 1000,
          ratio: wholeMs / bareLoad.ms,
          goal: "the loader's own speed: bare ÷ publication ≥ 0.9",
          met: bareLoad.ms / wholeMs >= 0.9,
        }),
    note:
      `REST could serve after ${(published.ms / 1000).toFixed(1)} s (the record graphs, checked), /sparql after the union graph's ${union.files} files (${((wholeMs - published.ms) / 1000).toFixed(1)} s more); ` +
      `${statements} statements (+ ${manifest.counts.publicQuads} into the union graph), ${published.graphs} graphs, ${records} records, ${(published.bulk?.files ?? 0) + union.files} files: ` +
      `${(statements / (wholeMs / 1000)).toFixed(0)} statements/s${bareLoad === undefined ? ' (bare loader not run: --no-bare)' : ` (bare ${(statements / (bareLoad.ms / 1000)).toFixed(0)})`}, loaded in ${((published.bulk?.loadMs ?? 0) / 1000).toFixed(1)} s, ` +
      `${published.bulk ? describeCheck(published.bulk) : 'not checked by the bulk loader'}` +
      (bareLoad === undefined ? '' : `; the files from the generation's own files (a generation made without STORE_URL) took ${(bareLoad.filesMs / 1000).toFixed(1)} s more`),
  });
  rows.push({
    figure: 'write a generation to the server (bulk loader, 2 loaders)',
    value: statements / (published.ms / 1000),
    unit: 'statements/s',
    ...(embeddedMs === undefined ? {} : { baselineName: 'embedded store loading it (statements/s)', baseline: statements / (embeddedMs / 1000), ratio: embeddedMs / published.ms }),
    note: `${(records / (published.ms / 1000)).toFixed(0)} records/s`,
  });
  rows.push({ figure: 'Virtuoso RSS after the write', value: rssOfProcess(virtuoso.dir) ?? NaN, unit: 'MiB' });
  // Whether a new id has graphs to drop before its publication: its entry in the generations graph, beside the
  // server's list of graphs filtered on the id's prefix (what was asked before; past the 60 s limit at 1M).
  const fresh = generationGraphs('bench-fresh-id');
  const timedWork = async (work: () => Promise<unknown>): Promise<number> => {
    const began = performance.now();
    await work();
    return performance.now() - began;
  };
  const entryMs: number[] = [];
  const listMs: number[] = [];
  // The list is asked over HTTP, where the server's time limit applies: once it ends the list, that is the figure.
  let listEnded: string | undefined;
  for (let i = 0; i < 3; i++) {
    entryMs.push(await timedWork(() => hasEntry(server, fresh.marker)));
    if (listEnded !== undefined) continue;
    const began = performance.now();
    try {
      await server.query(`ASK { ${graphsNamed(fresh.prefix)} }`, 'application/sparql-results+json');
      listMs.push(performance.now() - began);
    } catch (err) {
      listEnded = `${(err as Error).message} after ${((performance.now() - began) / 1000).toFixed(1)} s`;
    }
  }
  rows.push({
    figure: 'a new id: leftover graphs to drop? (its entry in the generations graph) p50 of 3',
    value: p50(entryMs),
    unit: 'ms',
    ...(listMs.length === 0 ? {} : { baselineName: 'the server\'s list of graphs filtered on the id\'s prefix (ms)', baseline: p50(listMs), ratio: p50(entryMs) / p50(listMs) }),
    note: `list of graphs ${listMs.map((ms) => ms.toFixed(0)).join(', ')} ms${listEnded === undefined ? '' : `; ${listEnded}`}`,
  });

  // 2. Time to a ready generation.
  log('starting the service');
  const queries = new QueryLibrary();
  const startApp = async (recordCacheSize: string): Promise<{ origin: string; store: ServingStore; close: () => void; readyMs: number }> => {
    const started = performance.now();
    const appConfig = loadConfig({ ...env, RECORD_CACHE_SIZE: recordCacheSize });
    const store = createStores(appConfig).rest;
    await store.start(data.generation.dir);
    const logger = createLogger(appConfig, pino.destination({ dest: '/dev/null', sync: false }));
    const ctx: AppContext = { config: appConfig, iris: new Iris(BENCH_BASE_URL), store, logger, metrics: new Metrics(), queries, kinds: KIND_NAMES };
    const http = await listen(createApp(ctx), 0, '127.0.0.1');
    const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    // Ready: every kind's first page answers 200 (a 503 says its index is still built from the stored index).
    for (const path of ['objects', 'agents', 'exhibitions', 'concepts'].map((kind) => `/v2/id/${kind}`)) {
      for (;;) {
        const response = await fetch(`${origin}${path}`);
        await response.arrayBuffer();
        if (response.status === 200) break;
        if (response.status !== 503 || performance.now() - started > 10 * 60_000) throw new Error(`${path} answered ${response.status} after ${Math.round(performance.now() - started)} ms`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    return { origin, store, close: () => http.close(), readyMs: performance.now() - started };
  };
  // Written by the bench data's harvest; a generation without it is indexed from the server's answers (minutes at 250k).
  const hadStoredIndex = existsSync(storedIndexFile(data.generation.dir));
  const cold = await startApp('0');
  const warm = await startApp('');
  rows.push({ figure: 'time to a ready generation (store, indexes, first page of each kind)', value: cold.readyMs / 1000, unit: 's', note: hadStoredIndex ? 'collection indexes from the stored index in the generation folder' : 'no stored index: collection indexes from the server\'s answers' });

  // 3. Single records.
  log('single records');
  const listed = ((await (await fetch(`${warm.origin}/v2/id/objects`)).json()) as { 'hydra:totalItems': number })['hydra:totalItems'];
  const lastPage = Math.ceil(listed / 100);
  const pagePaths = Array.from({ length: PAGES }, (_, i) => `/v2/id/objects?fullRecord=true&itemsPerPage=100&page=${1 + ((i * 7919) % lastPage)}`);
  const ids: string[] = [];
  for (const path of pagePaths.slice(0, 3)) {
    const response = await fetch(`${warm.origin}${path.replace('fullRecord=true&', '')}`);
    const body = (await response.json()) as { 'hydra:member'?: { '@id': string }[] };
    if (body['hydra:member'] === undefined) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
    ids.push(...body['hydra:member'].map((m) => m['@id']));
  }
  const recordPaths = ids.map((iri) => new URL(iri).pathname);
  const sequentialCold = await runLoadClient<SequentialResult>({ mode: 'sequential', origin: cold.origin, paths: recordPaths, requests: recordPaths.length });
  /** Milliseconds of a query already written for the server, sent straight to it. */
  const timedQuery = async (text: string, accept: string): Promise<number> => {
    const began = performance.now();
    await server.query(text, accept);
    return performance.now() - began;
  };
  /** Milliseconds of a CONSTRUCT as the REST store sends it (rewritten), straight to the server. */
  const bareConstruct = (text: string): Promise<number> =>
    timedQuery(rewriteForView(text, { graphs: generationGraphs(manifest.id), includeNonPublic: true }, { unionDefaultGraph: false }).text, 'application/n-triples');
  const bare: number[] = [];
  const admin = `${BENCH_BASE_URL}/graph/admin`;
  for (const iri of ids) bare.push(await bareConstruct(queries.bind('records/record', { record: iri, admin })));
  rows.push({
    figure: 'single record, record cache off: sequential p50',
    value: p50(sequentialCold.latencies),
    unit: 'ms',
    baselineName: 'the same CONSTRUCT straight to the server p50',
    baseline: p50(bare),
    ratio: p50(sequentialCold.latencies) / p50(bare),
    goal: '≤ 2× the bare CONSTRUCT + 1 ms',
    met: p50(sequentialCold.latencies) <= 2 * p50(bare) + 1,
    note: `${recordPaths.length} distinct records; p90 ${quantile(sequentialCold.latencies, 0.9).toFixed(2)} ms`,
  });
  // The event-loop cost of writing a library query for the server: the generation's template filled
  // (query-templates.ts) beside the bound text parsed and rewritten (what every request paid before).
  const view = { graphs: generationGraphs(manifest.id), includeNonPublic: true, nonPublicGraphs: new Set<string>() };
  const templates = new QueryTemplates(view, { unionDefaultGraph: false });
  const perCall = (f: () => unknown): number => {
    for (let i = 0; i < 200; i++) f();
    const began = performance.now();
    for (let i = 0; i < 1000; i++) f();
    return (performance.now() - began) / 1000;
  };
  const pageRows = ids.slice(0, 100).map((record) => ({ record }));
  for (const [label, name, bindings] of [
    ['a record', 'records/record', [{ record: ids[0] as string, admin }]],
    ['a page of 100 full records', 'records/page-records', pageRows],
    ['a page of 100 object stubs', 'objects/page-stubs', pageRows],
  ] as const) {
    const filled = perCall(() => templates.rewrite(queries.bound(name, [...bindings])));
    const rewritten = perCall(() => rewriteForView(queries.bind(name, [...bindings]), view, { unionDefaultGraph: false }));
    rows.push({ figure: `query for ${label}, bound and written for the server (event-loop time)`, value: filled, unit: 'ms', baselineName: 'the bound text parsed and rewritten', baseline: rewritten, ratio: filled / rewritten });
  }
  const cannon = (origin: string): Promise<AutocannonResult> => runLoadClient<AutocannonResult>({ mode: 'autocannon', origin, paths: recordPaths, connections: CONNECTIONS, seconds: CANNON_SECONDS });
  const uncached = await cannon(cold.origin);
  await runLoadClient<SequentialResult>({ mode: 'sequential', origin: warm.origin, paths: recordPaths, requests: recordPaths.length });
  const cached = await cannon(warm.origin);
  rows.push({
    figure: 'single records, record cache off',
    value: uncached.requestsPerSecond,
    unit: 'req/s',
    baselineName: 'record cache on',
    baseline: cached.requestsPerSecond,
    ratio: uncached.requestsPerSecond / cached.requestsPerSecond,
    note: `off p50 ${uncached.p50} ms p99 ${uncached.p99} ms; on p50 ${cached.p50} ms; non-2xx ${uncached.non2xx}/${cached.non2xx}`,
  });

  // 4. Pages.
  log('pages');
  const timed = async (paths: string[]): Promise<number> => p50((await runLoadClient<SequentialResult>({ mode: 'sequential', origin: cold.origin, paths, requests: paths.length })).latencies);
  const fullCold = await timed(pagePaths);
  // Baseline: the CONSTRUCT of the same 100 record graphs, rewritten as the store would, straight to the server.
  const bareFull: number[] = [];
  // And the page's own query (one SELECT of record, subject, predicate, object: a triple stays with its record),
  // written from the generation's template as the store writes it and answered as JSON results (what the store
  // asks for: Virtuoso's TSV has no term syntax), straight to the server: what the store waits for, without the
  // service's parsing and shaping.
  const pageSelect: number[] = [];
  for (const path of pagePaths) {
    const body = (await (await fetch(`${warm.origin}${path.replace('fullRecord=true&', '')}`)).json()) as { 'hydra:member': { '@id': string }[] };
    const values = body['hydra:member'].map((m) => `<${m['@id']}>`).join(' ');
    bareFull.push(await bareConstruct(`CONSTRUCT { ?s ?p ?o } WHERE { VALUES ?record { ${values} } GRAPH ?record { ?s ?p ?o } }`));
    const select = templates.rewrite(queries.bound('records/page-records', body['hydra:member'].map((m) => ({ record: m['@id'] }))));
    if (select === undefined) throw new Error('records/page-records has no template');
    pageSelect.push(await timedQuery(select.text, 'application/sparql-results+json'));
  }
  rows.push({
    figure: '100 full records, never requested before: p50',
    value: fullCold,
    unit: 'ms',
    baselineName: 'bare CONSTRUCT of those 100 record graphs p50',
    baseline: p50(bareFull),
    ratio: fullCold / p50(bareFull),
    goal: '≤ 2× the bare CONSTRUCT',
    met: fullCold <= 2 * p50(bareFull),
    note: `${PAGES} distinct pages`,
  });
  rows.push({
    figure: '100 full records, never requested before: p50, beside the page\'s own SELECT',
    value: fullCold,
    unit: 'ms',
    baselineName: 'the page\'s SELECT (JSON results, as the store asks) straight to the server p50',
    baseline: p50(pageSelect),
    ratio: fullCold / p50(pageSelect),
    note: 'the store\'s wait without the service\'s parsing, framing and shaping',
  });
  const stubs = await timed(Array.from({ length: PAGES }, (_, i) => `/v2/id/objects?itemsPerPage=10&page=${2 + i * 13}`));
  rows.push({ figure: '10 stubs: p50', value: stubs, unit: 'ms' });
  const search = await timed(['stoel', 'vaas', 'lamp', 'glas', 'hout', 'tafel', 'affiche', 'zilver'].map((q) => `/v2/id/objects?q=${q}`));
  rows.push({ figure: '`q` search, first page: p50', value: search, unit: 'ms' });
  const first = await timed(Array.from({ length: PAGES }, () => '/v2/id/objects?fullRecord=true&itemsPerPage=100&page=1'));
  // The last full page: the last page itself may hold a few records only.
  const deepPage = listed % 100 === 0 || lastPage === 1 ? lastPage : lastPage - 1;
  const deep = await timed(Array.from({ length: PAGES }, () => `/v2/id/objects?fullRecord=true&itemsPerPage=100&page=${deepPage}`));
  rows.push({ figure: `deep page (page ${deepPage} of ${lastPage}, 100 full records): p50`, value: deep, unit: 'ms', baselineName: 'page 1', baseline: first, ratio: deep / first, goal: 'nothing growing with page number', met: deep <= 1.5 * first });

  // 5. Memory.
  rows.push({ figure: 'service RSS (two apps, both caches filled)', value: rssMiB(), unit: 'MiB' });
  rows.push({ figure: 'Virtuoso RSS at the end', value: rssOfProcess(virtuoso.dir) ?? NaN, unit: 'MiB' });
  details.runs = { bare, sequentialCold: sequentialCold.latencies, uncached, cached };
  details.published = published;
  cold.close();
  warm.close();
  await Promise.all([cold.store.close(), warm.store.close()]);

  // 6. Harvest-to-ready and load-to-ready on a running replica (the compiled service and data commands).
  log('harvest-to-ready and load-to-ready');
  const bulkEnv = { STORE_BULK_DIR: virtuoso.loadDir, STORE_ISQL: `127.0.0.1:${virtuoso.isqlPort}`, STORE_ISQL_BIN: ISQL_BIN as string, STORE_BULK_LOADERS: '2' };
  const toReady = await measureToReady({ dataDir: data.dataDir, sourceDir: data.sourceDir, env: { ...env, ...bulkEnv }, readyTimeoutMs: readyTimeoutMs(objects), serverPid: pidOfProcess(virtuoso.dir) });
  rows.push(...toReadyRows(toReady, objects, records));
  details.toReady = toReadyDetails(toReady);
} catch (err) {
  // The rows measured so far are still reported: a 100k run takes most of an hour.
  details.error = (err as Error).stack ?? String(err);
  log(`stopped: ${(err as Error).message}`);
} finally {
  await virtuoso.stop();
}
emitResult({ benchmark: 'remote', objects, startedAt, seconds: (Date.now() - Date.parse(startedAt)) / 1000, rows, details });
process.exit(details.error === undefined ? 0 : 1);
