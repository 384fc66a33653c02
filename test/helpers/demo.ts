/**
 * The demo data set as tests see it: generated (1,000 objects, seed 1), images rendered, served by the real
 * IIIF router on 127.0.0.1 while the harvest HEAD-checks them, and harvested into a generation. Built once per
 * test run into `.cache/` (a lock directory keeps parallel jest workers from building it twice) and then
 * shared read-only; a test that changes generations copies what it needs.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { createApp } from '../../src/app.js';
import type { AppContext } from '../../src/engine/app-context.js';
import { loadConfig } from '../../src/config/config.js';
import { generateCollection, type GeneratedCollection } from '../../src/generator/collection.js';
import { writeCollection } from '../../src/generator/write.js';
import { harvestExport } from '../../src/harvest/harvest.js';
import { IMAGES_FILE, SOURCE_FILES, type ObjectRecord } from '../../src/harvest/schema.js';
import { errorHandler } from '../../src/endpoints/error-handler.js';
import { Metrics } from '../../src/http/metrics.js';
import { renderImages } from '../../src/iiif/render.js';
import { createIiifRouter } from '../../src/iiif/router.js';
import { ServedIiifAccess } from '../../src/iiif/served-access.js';
import { QueryLibrary } from '../../src/queries/library.js';
import { closeSharedParseWorker } from '../../src/sparql/parse-worker.js';
import { createRecordGeneration, currentGeneration, type Generation } from '../../src/store/generations.js';
import { StoreManager } from '../../src/store/store-manager.js';
import { createStores, type ServingStore } from '../../src/store/stores.js';
import { Iris } from '../../src/vocab/iris.js';
import { memoryLogger } from './http-context.js';
import { KIND_NAMES } from '../../src/kinds/index.js';
import { untilIndexesBuilt } from './ready-app.js';

export const DEMO_OBJECTS = 1000;
export const DEMO_SEED = 1;
/** Record IRIs of the test generation use this base, whatever port a test listens on. */
export const TEST_BASE_URL = 'http://localhost:3000';

/** The code the demo generation is made by; a change to it makes a new cache folder, so tests never read a stale generation. */
function codeHash(): string {
  const hash = createHash('sha256');
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|mjs|jsonl?|rq)$/.test(entry.name)) hash.update(path).update(readFileSync(path));
    }
  };
  for (const dir of ['colors', 'generator', 'harvest', 'iiif', 'store', 'vocab']) walk(fileURLToPath(new URL(`../../src/${dir}`, import.meta.url)));
  // The demo's stored index holds the answers of the kinds' index queries.
  walk(fileURLToPath(new URL('../../queries', import.meta.url)));
  return hash.digest('hex').slice(0, 12);
}

const ROOT = fileURLToPath(new URL(`../../.cache/test-demo-${DEMO_OBJECTS}-${DEMO_SEED}-${codeHash()}`, import.meta.url));
const READY = join(ROOT, 'ready');
/** The file that describes the built demo data set. */
export const DEMO_READY_FILE = READY;
const LOCK = `${ROOT}.lock`;

export interface DemoData {
  sourceDir: string;
  imageDir: string;
  dataDir: string;
  generation: Generation;
  /** The IIIF base the demo's image and manifest URIs use (the router that validated them is gone). */
  iiifBase: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The demo data set, built on first use. A pass that prepared it for its test processes beforehand (the
 * remote pass writes it to the test server first) names it in TEST_DEMO_READY, so they read that very one.
 */
export async function demoData(): Promise<DemoData> {
  const given = process.env.TEST_DEMO_READY;
  if (given !== undefined && given !== '') return JSON.parse(readFileSync(given, 'utf8')) as DemoData;
  for (;;) {
    if (existsSync(READY)) return JSON.parse(readFileSync(READY, 'utf8')) as DemoData;
    mkdirSync(dirname(LOCK), { recursive: true });
    try {
      mkdirSync(LOCK, { recursive: false });
    } catch {
      // Another worker builds it; a lock older than three minutes belongs to a dead run.
      if (existsSync(LOCK) && Date.now() - statSync(LOCK).mtimeMs > 180_000) rmSync(LOCK, { recursive: true, force: true });
      await sleep(250);
      continue;
    }
    try {
      const data = await buildDemo();
      writeFileSync(READY, JSON.stringify(data));
      return data;
    } finally {
      rmSync(LOCK, { recursive: true, force: true });
    }
  }
}

async function buildDemo(): Promise<DemoData> {
  rmSync(ROOT, { recursive: true, force: true });
  const sourceDir = join(ROOT, 'source');
  const imageDir = join(ROOT, 'images');
  const dataDir = join(ROOT, 'data');
  // The IIIF router listens on a free port; the generated image URIs must name it before generation.
  const iiif = express();
  const server = await new Promise<import('node:http').Server>((resolve) => {
    const s = iiif.listen(0, '127.0.0.1', () => resolve(s));
  });
  try {
    const iiifBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    writeCollection(sourceDir, generateCollection({ objects: DEMO_OBJECTS, seed: DEMO_SEED, iiifBase }));
    await renderImages(join(sourceDir, IMAGES_FILE), imageDir);
    iiif.use('/iiif', createIiifRouter({ imageDir, sourceDir, baseUrl: iiifBase }));
    iiif.use(errorHandler(memoryLogger('fatal').logger));
    const host = new URL(iiifBase).host;
    const generation = await createRecordGeneration(dataDir, { source: { kind: 'harvest', path: sourceDir }, baseUrl: TEST_BASE_URL, kinds: KIND_NAMES }, async (out) => ({
      details: { ...(await harvestExport(sourceDir, out, { baseUrl: TEST_BASE_URL, imageHosts: [host], colors: { cacheDir: join(ROOT, 'color-cache') } })) },
    }));
    return { sourceDir, imageDir, dataDir, generation, iiifBase };
  } finally {
    server.close();
  }
}

/** The demo's source records of one kind, parsed from the JSON Lines files (the tests' independent truth). */
export function sourceRecords<K extends keyof typeof SOURCE_FILES>(data: DemoData, kind: K): unknown[] {
  return readFileSync(join(data.sourceDir, SOURCE_FILES[kind]), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as unknown);
}

/** The demo objects as source records. */
export const sourceObjects = (data: DemoData): ObjectRecord[] => sourceRecords(data, 'objects') as ObjectRecord[];

export interface DemoApp {
  app: Express;
  ctx: AppContext;
  store: ServingStore;
  /** The SPARQL store (public quads only), when started with `sparql: true`. */
  sparqlStore?: ServingStore;
  data: DemoData;
  close(): Promise<void>;
}

export interface DemoAppOptions {
  testHooks?: boolean;
  /** Also start a SPARQL store on the public quads and mount /sparql. */
  sparql?: boolean;
  /**
   * The embedded stores as server.ts makes them (src/store/stores.ts): two workers that hold the whole
   * generation and share the work, each the other's standby, seen as the REST and the SPARQL store. The default
   * with `sparql`, so that /sparql is tested as it runs; `false` gives separate single workers (the SPARQL one
   * with the public part only), and without `sparql` the REST store is one worker.
   */
  shared?: boolean;
  /**
   * Whether a client's SPARQL query past 100 ms lowers its worker thread's priority, as in the service
   * (StoreManager.yieldClientQueries). Off by default here: on a machine that other work keeps busy (load 8 on two
   * cores), a lowered query of a second took minutes and ran into its deadline, in tests of what it answers. The
   * priority has its own test (test/store/embedded-standby.test.ts), which turns it on.
   */
  yieldClientQueries?: boolean;
  /**
   * The base URL the IIIF router names in its answers (info.json ids, manifests); the demo's harvest-time IIIF
   * server by default. A browser test that listens on a known origin gives that origin, so a viewer's tile
   * requests stay on it, as with `npm start` (whose images are harvested from BASE_URL itself).
   */
  iiifRouterBase?: string;
}

/**
 * The remote SPARQL server the endpoint tests run against in the remote pass (`test/remote/run.ts` starts
 * Virtuoso, writes the demo generation to it and sets these); unset: the embedded store.
 */
export const REMOTE_STORE_ENV = { STORE_URL: process.env.TEST_STORE_URL, STORE_USER: process.env.TEST_STORE_USER, STORE_PASSWORD: process.env.TEST_STORE_PASSWORD };
export const remoteStoreRun = (): boolean => process.env.TEST_STORE_URL !== undefined && process.env.TEST_STORE_URL !== '';
/** `it`, or `it.skip` in the remote pass, for tests of the embedded store's own workers (crash, restart). */
export const itEmbedded = (): jest.It => (remoteStoreRun() ? it.skip : it);

/**
 * A started REST store (public and non-public quads) on the demo generation: embedded, or remote in the remote
 * pass unless `embedded` is set (an oracle that must not depend on the server under test, objects-oracle.test.ts).
 */
export async function startDemoStore(options: { embedded?: boolean } = {}): Promise<ServingStore> {
  const data = await demoData();
  const remote = remoteStoreRun() && options.embedded !== true;
  const config = loadConfig({ BASE_URL: TEST_BASE_URL, DATA_DIR: data.dataDir, ...(remote ? (REMOTE_STORE_ENV as Record<string, string>) : {}) });
  const store = createStores(config).rest;
  await store.start(((await currentGeneration(data.dataDir)) ?? data.generation).dir);
  return store;
}

/**
 * The real app over a real store on the demo generation: embedded store workers, or in the remote pass the
 * remote store on the test Virtuoso. `env` adds settings (rate limit is off by default, the SPARQL deadline a minute).
 */
export async function startDemoApp(env: Record<string, string> = {}, options: DemoAppOptions = {}): Promise<DemoApp> {
  const data = await demoData();
  const remote = remoteStoreRun() ? (REMOTE_STORE_ENV as Record<string, string>) : {};
  // A SPARQL deadline of a minute unless the test sets one: a test of what a query answers must not get the 504
  // of a machine that other work keeps busy (clients' queries also run at a lower priority after 100 ms).
  const config = loadConfig({ BASE_URL: TEST_BASE_URL, DATA_DIR: data.dataDir, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'silent', SPARQL_TIMEOUT_MS: '60000', ...remote, ...env });
  const generation = (await currentGeneration(data.dataDir)) ?? data.generation;
  const stores = config.store !== undefined || (options.shared ?? options.sparql) ? createStores(config) : undefined;
  if (stores?.manager !== undefined) stores.manager.yieldClientQueries = options.yieldClientQueries ?? false;
  const store: ServingStore = stores?.rest ?? new StoreManager({ includeNonPublic: true, testHooks: options.testHooks ?? false });
  const sparqlStore = options.sparql ? (stores?.sparql ?? new StoreManager({ includeNonPublic: false, testHooks: options.testHooks ?? false })) : undefined;
  await Promise.all([store.start(generation.dir), sparqlStore?.start(generation.dir)]);
  // The shared embedded workers run clients' queries only while both are loaded (store-manager.ts, option
  // `share`): the tests of /sparql start from there, as a service does a few seconds after it is ready.
  if (sparqlStore !== undefined) await bothWorkersLoaded(sparqlStore);
  const ctx: AppContext = {
    config,
    iris: new Iris(config.baseUrl),
    store,
    logger: memoryLogger('fatal').logger,
    metrics: new Metrics(),
    queries: new QueryLibrary(),
    iiifBase: data.iiifBase, kinds: KIND_NAMES
  };
  // As server.ts mounts it: answering only for the objects public in the generation the REST store serves.
  const servedIiif = new ServedIiifAccess({ dataDir: data.dataDir, sourceDir: data.sourceDir });
  const iiifRouter = createIiifRouter({ imageDir: data.imageDir, sourceDir: data.sourceDir, baseUrl: options.iiifRouterBase ?? data.iiifBase, access: () => servedIiif.of(store.generation) });
  const app = createApp(ctx, { iiifRouter, ...(sparqlStore ? { sparqlStore } : {}) });
  // Served to tests as to a load balancer: once /readyz would say ready.
  await untilIndexesBuilt(ctx);
  const close = async (): Promise<void> => {
    // The SPARQL endpoint's parse worker thread too (a later app starts another).
    // Shared stores close their workers once both views are closed, the SPARQL view too when it is not mounted.
    await Promise.all([store.close(), (sparqlStore ?? stores?.sparql)?.close(), closeSharedParseWorker()]);
  };
  return { app, ctx, store, ...(sparqlStore ? { sparqlStore } : {}), data, close };
}

/** Resolves once a store with a standby worker (the shared embedded store) has it loaded; at once for other stores. */
export async function bothWorkersLoaded(store: ServingStore): Promise<void> {
  const standby = store as Partial<{ standbyReady(): boolean }>;
  if (standby.standbyReady === undefined || standby.standbyReady()) return;
  await new Promise<void>((resolve) => {
    const loaded = (): void => {
      store.off('standby', loaded);
      resolve();
    };
    store.on('standby', loaded);
    if (standby.standbyReady?.()) loaded();
  });
}

/** Re-export for tests that build collections in memory without the files. */
export type { GeneratedCollection };
