/**
 * The remote pass of `npm test`: the endpoint and conformance tests (test/endpoints, test/queries) once more,
 * on the remote store. Starts a throw-away Virtuoso (Debian's virtuoso-opensource, test/helpers/virtuoso.ts),
 * writes the demo generation to it as `npm start` would, runs jest with TEST_STORE_URL set (test/helpers/demo.ts
 * then builds every app on the remote store), and stops the server. Without Virtuoso it says so and passes,
 * as the other server-backed tests skip.
 */
import { spawn } from 'node:child_process';
import { StoredIndex } from '../../src/collection-index/stored-index.js';
import { loadConfig } from '../../src/config/config.js';
import { writeGenerationIndex } from '../../src/engine/generation-index.js';
import { KINDS } from '../../src/kinds/index.js';
import { currentGeneration } from '../../src/store/generations.js';
import { ensurePublished } from '../../src/store/stores.js';
import { DEMO_READY_FILE, demoData, TEST_BASE_URL } from '../helpers/demo.js';
import { ISQL_BIN, restartIfCrashed, startVirtuoso, VIRTUOSO_BIN } from '../helpers/virtuoso.js';

/**
 * Every conformance test runs here. The collection indexes are built from Virtuoso's answers; the oracle
 * queries that Virtuoso cannot be trusted with on this 2-core machine run on an embedded store of the same
 * generation within their files: the objects' concept filters (a `skos:broader*` path, answered wrongly on
 * some runs and past the 15 s this pass gives a query for `conceptSearch`) and the random combinations of the
 * objects and the agents (three or more EXISTS filters with a sort, past the 15 s). Every other filter and
 * order of every kind agrees with its oracle on Virtuoso itself.
 */
const TEST_DIRS = ['test/endpoints', 'test/queries'];
/**
 * Endpoint tests that never reach the store, or that run their own server processes or generations on the
 * embedded store: the first pass covers them, and here they would only repeat it.
 */
const NOT_STORE_TESTS = ['http-', 'landing', 'iiif', 'replicas', 'sparql-apart', 'readiness', 'changes-feed', 'event-streams.test', 'ldes-round-trip', 'ghent-harvest', 'validators-harvests', 'api-docs'];
/**
 * Endpoints answered from the generation's files and the collection index, never from the server: the dumps
 * are the generation's files (src/endpoints/dumps.ts, src/sparql/kind-dumps.ts), and the index endpoints (types,
 * nationalities, materials, production density, …) are computed from the collection index, which every app of
 * this pass builds from the demo generation's stored index rather than from the server's answers
 * (src/engine/indexes.ts). The index SELECTs themselves run on the server in the oracle tests of test/queries,
 * which build their collection index from the store.
 */
const FROM_FILES = ['dumps', 'exact-dumps', 'indexes', 'production-density'];
/**
 * v1 is shapers over the v2 records and indexes that this pass covers (docs/v1.md), the pages for people are
 * templates over the same shaped documents (docs/html.md), and conditional GET is one writer whatever the store
 * (src/http/answer.ts), related objects are the collection index read backwards, and the OpenAPI document, its
 * examples and the README tour are checked against the records, pages and indexes the record and collection
 * tests of this pass cover. The pages, similar, conditional-GET and README-tour tests pass on the remote store
 * too (checked 2026-11-27: `npx tsx test/remote/run.ts test/endpoints/pages.test.ts …`) and are left out to keep
 * CI short. The OpenAPI examples do not: they were captured from the embedded store, and a multi-valued property
 * (`owl:sameAs`, techniques) lists its values in the order the store sends the record's statements, which
 * Virtuoso's differs from (the JSON-LD is the same graph; the bytes and ETags differ between the two stores).
 */
const REDUNDANT = ['v1-', 'pages', 'conditional-get', 'similar', 'readme-tour', 'openapi', ...FROM_FILES];

/** Times a crashed Virtuoso is started again within one pass. */
const MAX_RESTARTS = 3;

async function main(): Promise<number> {
  if (VIRTUOSO_BIN === undefined || ISQL_BIN === undefined) {
    console.warn('remote-store pass skipped: no Virtuoso at /usr/bin/virtuoso-t (apt-get install virtuoso-opensource)');
    return 0;
  }
  const data = await demoData();
  // The server's own limit ends a query the service gave up on (a client abort leaves it running there). Its
  // cost estimate is off: it refused an exhibitions oracle query answered in 0.4 s (estimated 157 s for the
  // plan on one run, over 400 s on another); as recommended to operators (docs/operations.md), it is off.
  const virtuoso = await startVirtuoso({ maxQueryExecutionTime: 15, maxQueryCostEstimationTime: 0 });
  try {
    const env = {
      TEST_STORE_URL: virtuoso.sparqlUrl,
      TEST_STORE_USER: virtuoso.user,
      TEST_STORE_PASSWORD: virtuoso.password,
      // The tests read the very demo generation written to the server.
      TEST_DEMO_READY: DEMO_READY_FILE,
    };
    // Written through the bulk loader, as a museum's operator would (docs/operations.md); the store tests cover the
    // Graph Store Protocol.
    const config = loadConfig({
      BASE_URL: TEST_BASE_URL,
      DATA_DIR: data.dataDir,
      STORE_URL: env.TEST_STORE_URL,
      STORE_USER: env.TEST_STORE_USER,
      STORE_PASSWORD: env.TEST_STORE_PASSWORD,
      STORE_BULK_DIR: virtuoso.loadDir,
      STORE_ISQL: `127.0.0.1:${virtuoso.isqlPort}`,
      STORE_ISQL_BIN: ISQL_BIN,
    });
    const generation = (await currentGeneration(data.dataDir)) ?? data.generation;
    // As a harvest does: the apps of this pass build their collection indexes from it (FROM_FILES above).
    if ((await StoredIndex.read(generation)).problem !== undefined) await writeGenerationIndex(generation, { baseUrl: TEST_BASE_URL, kinds: KINDS });
    const started = Date.now();
    const report = await ensurePublished(config, generation.dir);
    console.log(`remote-store pass: Virtuoso ready in ${virtuoso.startupMs} ms; demo generation written in ${Date.now() - started} ms (${report?.quads ?? 0} statements, bulk loader)`);
    const paths = process.argv.length > 2 ? process.argv.slice(2) : TEST_DIRS;
    const ignore = process.argv.length > 2 ? [] : ['--testPathIgnorePatterns', ...[...NOT_STORE_TESTS, ...REDUNDANT].map((name) => `/test/endpoints/${name}`)];
    const jest = (more: string[] = []): Promise<number> =>
      new Promise<number>((resolve) => {
        const args = ['--experimental-vm-modules', '--no-warnings', 'node_modules/jest/bin/jest.js', ...paths, ...ignore, ...more];
        const child = spawn(process.execPath, args, { stdio: 'inherit', env: { ...process.env, ...env } });
        child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
      });
    let code = await jest();
    // Debian's Virtuoso 7.2 (07.20.3229) ends with SIGSEGV now and then under this pass's queries (docs/virtuoso-notes.md,
    // "Crashes": sparql-growth's alone crashed it in 3 of 17 runs on 2026-11-29, on the code before and after issue 46),
    // and every test that asks it after that fails with a refused connection. Then the server is started again on its
    // database (the demo generation was checkpointed when written) and the tests that failed run again, up to
    // MAX_RESTARTS times. A test that fails without a crash fails the pass.
    for (let restarts = 0; code !== 0 && restarts < MAX_RESTARTS; restarts++) {
      if (!(await restartIfCrashed(virtuoso, 'during the remote-store pass'))) return code;
      code = await jest(['--onlyFailures']);
    }
    return code;
  } finally {
    await virtuoso.stop();
  }
}

process.exitCode = await main();
