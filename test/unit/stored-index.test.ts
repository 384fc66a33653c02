/**
 * Start-up from stored work (docs/architecture.md): the stored index of a generation holds the SELECT answers its
 * derived structures are built from. On a copy of the demo generation: structures built from the stored index
 * equal those rebuilt from the store, kind by kind; and the app, whatever the state of the file (valid, missing,
 * stale, damaged, truncated, unwritable), answers its collections and records exactly as with a rebuild.
 */
import { copyFile, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import request from 'supertest';
import { createApp } from '../../src/app.js';
import type { AppContext } from '../../src/engine/app-context.js';
import { buildCollectionIndex } from '../../src/collection-index/build.js';
import { NotStoredError, StoredIndex, storedIndexFile, storedSelect } from '../../src/collection-index/stored-index.js';
import { parseTextQuery } from '../../src/collection-index/text/query-parser.js';
import { loadConfig } from '../../src/config/config.js';
import { parseCollectionQuery } from '../../src/endpoints/collection-params.js';
import { writeGenerationIndex } from '../../src/engine/generation-index.js';
import { Metrics } from '../../src/http/metrics.js';
import { KIND_NAMES, KINDS } from '../../src/kinds/index.js';
import { QueryLibrary } from '../../src/queries/library.js';
import { STATUS_QUERY } from '../../src/records/status-index.js';
import { generationDir, MANIFEST_FILE, newGenerationId, NONPUBLIC_FILE, PUBLIC_FILE, readGeneration, type Generation } from '../../src/store/generations.js';
import { StoreManager } from '../../src/store/store-manager.js';
import { Iris } from '../../src/vocab/iris.js';
import { demoData, TEST_BASE_URL } from '../helpers/demo.js';
import { memoryLogger } from '../helpers/http-context.js';
import { tempDir } from './store-fixtures.js';


/** Requests of every kind: filters, text, sorts in both directions, deep pages. */
const QUERIES: Record<string, Record<string, string>[]> = {
  objects: [
    {},
    { q: 'vaas' },
    { q: 'stoel', language: 'FRA' },
    { q: '"opaalglas"' },
    { type: 'stoel', dateFrom: '1950', sortBy: 'dateBegin' },
    { onDisplay: 'true', koepels: 'exclude', sortOrder: 'desc' },
    { hasImages: 'true', sortBy: 'modified', sortOrder: 'desc' },
    { date: '1950/1959' },
    { modifiedSince: '2000-01-01', sortBy: 'titleNL' },
  ],
  agents: [{}, { q: 'meubelfabriek' }, { role: 'designer', hasBio: 'true' }, { sortBy: 'name', sortOrder: 'desc' }, { type: 'organisation', language: 'ENG' }],
  exhibitions: [{}, { q: 'design' }, { language: 'ENG', sortBy: 'title' }, { sortBy: 'modified', sortOrder: 'desc' }],
  concepts: [{}, { q: 'stoel', language: 'FRA' }, { sortBy: 'label' }, { q: 'glas' }],
};
const TEXTS = ['vaas', 'stoel -glas', '"arthur vanhoutte"', 'design OR meubel', 'zzzz'];
/** Labels of the queries a stored index answers (the status query asked directly is labelled with its form). */
const INDEX_QUERIES = new Set([...KINDS.flatMap((kind) => Object.values(kind.index.queries)), STATUS_QUERY, 'SELECT']);

/** A copy of the demo generation (its quads and manifest only) as the current generation of a fresh DATA_DIR. */
async function copyOfDemo(): Promise<{ dataDir: string; generation: Generation; remove: () => Promise<void> }> {
  const demo = await demoData();
  const { dir, remove } = await tempDir('stored-index-');
  const dataDir = path.join(dir, 'data');
  const target = generationDir(dataDir, demo.generation.id);
  await mkdir(target, { recursive: true });
  for (const file of [PUBLIC_FILE, NONPUBLIC_FILE, MANIFEST_FILE]) await copyFile(path.join(demo.generation.dir, file), path.join(target, file));
  await writeFile(path.join(dataDir, 'current'), `${demo.generation.id}\n`);
  return { dataDir, generation: await readGeneration(dataDir, demo.generation.id), remove };
}

/**
 * A table with the parts that follow the order of the answer rows put in one order: the objects' date spans (a
 * list of spans) and the thesaurus's lists (labels, narrower concepts). A store gives rows in its own order
 * (Oxigraph's hashes, Virtuoso's), the stored index record by record; what these parts answer (filters, concept
 * search) does not depend on it, and is compared through the table's answers below.
 */
function canonicalTable(table: object): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...table };
  const spans = copy.spans as { object: Uint32Array; begin: Float64Array; end: Float64Array } | undefined;
  if (spans) copy.spans = [...spans.object].map((object, i) => [object, spans.begin[i], spans.end[i]]).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  const thesaurus = copy.thesaurus as { labels: unknown[]; narrower: Map<string, string[]> } | undefined;
  if (thesaurus) {
    copy.thesaurus = {
      labels: thesaurus.labels.map((l) => JSON.stringify(l)).sort(),
      narrower: [...thesaurus.narrower].map(([concept, list]) => [concept, [...list].sort()]).sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    };
  }
  return copy;
}

const noStore = {
  query: (): Promise<string> => Promise.reject(new Error('the store must not be asked')),
  generation: undefined,
  ready: () => false,
};

describe('the stored index of a generation', () => {
  let copy: Awaited<ReturnType<typeof copyOfDemo>>;
  let store: StoreManager;
  const queries = new QueryLibrary();
  const iris = new Iris(TEST_BASE_URL);

  beforeAll(async () => {
    copy = await copyOfDemo();
    store = new StoreManager({ includeNonPublic: true });
    await store.start(copy.generation.dir);
  }, 600_000);
  afterAll(async () => {
    await store?.close();
    await copy?.remove();
  });

  it('is missing until written, then holds the answer of every index query and of the record statuses', async () => {
    expect((await StoredIndex.read(copy.generation)).problem).toBe('missing');
    const report = await writeGenerationIndex(copy.generation, { baseUrl: TEST_BASE_URL, kinds: KINDS });
    const queryCount = KINDS.reduce((n, kind) => n + Object.keys(kind.index.queries).length, 0) + 1;
    expect(report.answers).toBe(queryCount);
    const { stored, problem } = await StoredIndex.read(copy.generation);
    expect(problem).toBeUndefined();
    expect(stored.size).toBe(queryCount);
    expect(stored.changed).toBe(false);
  });

  it.each(KINDS.map((kind) => [kind.collection, kind] as const))('builds the %s index exactly as the store does, without asking it, giving the event loop turns', async (_name, kind) => {
    const { stored } = await StoredIndex.read(copy.generation);
    const rebuilt = await buildCollectionIndex({ store, queries, iris }, kind.index, copy.generation.id);
    const deps = { store: noStore, queries, iris };
    // Turns of the event loop while it builds (a replica serves meanwhile): at least one a sort order.
    let turns = 0;
    let building = true;
    const count = (): void => {
      turns++;
      if (building) setImmediate(count);
    };
    setImmediate(count);
    const fromFile = await buildCollectionIndex(deps, kind.index, copy.generation.id, storedSelect(deps, stored, { fromStore: false })).finally(() => {
      building = false;
    });
    expect(turns).toBeGreaterThanOrEqual(Object.keys(fromFile.sorts).length);

    expect(canonicalTable(fromFile.table)).toEqual(canonicalTable(rebuilt.table));
    expect(fromFile.sorts).toEqual(rebuilt.sorts);
    for (const text of TEXTS) expect(fromFile.text.find(parseTextQuery(text), fromFile.table.size)).toEqual(rebuilt.text.find(parseTextQuery(text), rebuilt.table.size));
    for (const params of QUERIES[kind.collection]!) {
      const query = parseCollectionQuery(params, kind.index);
      for (const offset of [0, 7, rebuilt.table.size - 3]) {
        const slice = { filters: query.filters, text: query.text, sort: query.sort, offset, limit: 25 };
        expect(fromFile.select(slice)).toEqual(rebuilt.select(slice));
      }
    }
  });

  it.each([
    ['another format version', /^stale: format version 99, not 1$/, (bytes: Buffer) => Buffer.from(bytes.toString('latin1').replace('"version":1,', '"version":99,'), 'latin1')],
    ['another generation', /^stale: written for generation x$/, (bytes: Buffer) => Buffer.from(bytes.toString('latin1').replace(/"generation":"[^"]+"/, '"generation":"x"'), 'latin1')],
    ['not a stored index', /^corrupt: not a stored index$/, () => Buffer.from('{"format":"something else"}\n')],
    ['without a header line', /^corrupt: no header line$/, () => Buffer.alloc(100)],
    ['empty', /^corrupt: no header line$/, () => Buffer.alloc(0)],
  ])('is ignored when the file is %s', async (_name, problem, damage) => {
    const { dir, remove } = await tempDir('stored-index-file-');
    try {
      const good = await readFile(storedIndexFile(copy.generation.dir));
      await writeFile(storedIndexFile(dir), damage(good));
      const { stored, problem: found } = await StoredIndex.read({ dir, manifest: copy.generation.manifest });
      expect(found).toMatch(problem);
      expect(stored.size).toBe(0);
    } finally {
      await remove();
    }
  });

  it('answers a query it does not hold from the store (and keeps the answer), or refuses when it must not ask', async () => {
    const { stored } = await StoredIndex.read(copy.generation);
    const deps = { store, queries, iris: new Iris('http://other.test') };
    await expect(storedSelect(deps, stored, { fromStore: false })(STATUS_QUERY)).rejects.toBeInstanceOf(NotStoredError);
    const counts = { stored: 0, asked: 0 };
    const rows = await storedSelect(deps, stored, { fromStore: true }, counts)(STATUS_QUERY);
    // Another base URL binds another admin graph, where nothing is stated.
    expect(rows).toEqual([]);
    expect(counts).toEqual({ stored: 0, asked: 1 });
    expect(stored.changed).toBe(true);
  });

  it('writes what it read as it was, beside an answer added since, and reads both back', async () => {
    const { dir, remove } = await tempDir('stored-index-added-');
    try {
      await copyFile(storedIndexFile(copy.generation.dir), storedIndexFile(dir));
      const generation = { dir, manifest: copy.generation.manifest };
      const { stored } = await StoredIndex.read(generation);
      const deps = { store: noStore, queries, iris };
      const statuses = await storedSelect(deps, stored, { fromStore: false })(STATUS_QUERY);
      expect(statuses.length).toBeGreaterThan(0);
      // Values already held (a status row's) and new ones, a row without one variable, and a non-ASCII value.
      const first = statuses[0] as Record<string, string>;
      const added: Record<string, string>[] = [{ ...first }, { x: 'één', y: first[Object.keys(first)[0] as string] as string }, { y: 'only y' }];
      stored.add('SELECT ?x ?y WHERE {}', 'test/added', added);
      const before = stored.size;
      await stored.write();
      const { stored: again, problem } = await StoredIndex.read(generation);
      expect(problem).toBeUndefined();
      expect(again.size).toBe(before);
      expect(again.get('SELECT ?x ?y WHERE {}')).toEqual(added);
      expect(await storedSelect(deps, again, { fromStore: false })(STATUS_QUERY)).toEqual(statuses);
    } finally {
      await remove();
    }
  });
});

describe('the app on a generation with a stored index in any state', () => {
  /** Collection, record and index requests whose answers must not depend on the stored index. */
  const PATHS = [
    ...Object.entries(QUERIES).flatMap(([collection, list]) =>
      list.map((params) => `/v2/id/${collection}?${new URLSearchParams({ ...params, itemsPerPage: '7' }).toString()}`),
    ),
    '/v2/id/objects?page=30&itemsPerPage=20',
    '/v2/id/object/1482',
    '/v2/id/object/2000-0001',
    '/v2/id/object/2000-0004',
    '/v2/id/object/2000-0006',
    '/v2/id/types',
    '/v2/id/nationalities',
    '/v2/id/production?bucket=25&yearFrom=1900',
  ];

  let copy: Awaited<ReturnType<typeof copyOfDemo>>;
  let reference: { status: number; body: string }[];

  beforeAll(async () => {
    copy = await copyOfDemo();
  }, 600_000);
  afterAll(() => copy?.remove());

  /**
   * Starts the app as the server does (the app first, then the store, so the store's `loading` event is seen),
   * waits until everything derived is built, and returns its answers, the store queries it asked, and its logs.
   */
  async function serve(): Promise<{ answers: { status: number; body: string }[]; asked: string[]; allAsked: string[]; logs: Record<string, unknown>[] }> {
    const asked: string[] = [];
    const store = new StoreManager({ includeNonPublic: true, onQuery: (_ms, label) => asked.push(label) });
    const { logger, lines } = memoryLogger('info');
    const config = loadConfig({ BASE_URL: TEST_BASE_URL, DATA_DIR: copy.dataDir, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'silent' });
    const ctx: AppContext = { config, iris: new Iris(TEST_BASE_URL), store, logger, metrics: new Metrics(), queries: new QueryLibrary(), kinds: KIND_NAMES };
    const app = createApp(ctx);
    try {
      await store.start(copy.generation.dir);
      // The warm-up ends with the stored index written or left as it is; either way a line says so.
      const settled = (): boolean =>
        lines.filter((line) => line.msg === 'collection index built').length === KINDS.length &&
        (lines.some((line) => /^stored index (written|not written)/.test(String(line.msg))) || asked.length === 0);
      for (let waited = 0; !settled() && waited < 60_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
      const indexQueries = asked.length;
      const answers = [];
      for (const url of PATHS) {
        const res = await request(app).get(url);
        answers.push({ status: res.status, body: res.text });
      }
      return { answers, asked: asked.slice(0, indexQueries), allAsked: asked, logs: lines };
    } finally {
      await store.close();
    }
  }

  const file = (): string => storedIndexFile(copy.generation.dir);

  it('rebuilds from the store when the file is missing, and writes it', async () => {
    const first = await serve();
    expect(first.asked.length).toBeGreaterThan(0);
    expect(first.logs.some((line) => line.msg === 'stored index written')).toBe(true);
    expect((await StoredIndex.read(copy.generation)).problem).toBeUndefined();
    reference = first.answers;
    const expected = new Map([['/v2/id/object/2000-0001', 301], ['/v2/id/object/2000-0004', 410], ['/v2/id/object/2000-0006', 404]]);
    expect(reference.map(({ status }) => status)).toEqual(PATHS.map((url) => expected.get(url) ?? 200));
  });

  it('builds everything from a valid file while the store loads, and asks the store nothing for it', async () => {
    const { answers, asked, allAsked, logs } = await serve();
    expect(asked).toEqual([]);
    // Nor later: the first record requests take the statuses from the stored index too.
    expect(allAsked.filter((label) => INDEX_QUERIES.has(label))).toEqual([]);
    const built = logs.filter((line) => line.msg === 'collection index built');
    expect(built.map((line) => line.ahead)).toEqual(KINDS.map(() => true));
    expect(logs.some((line) => line.msg === 'stored index written')).toBe(false);
    expect(answers).toEqual(reference);
  });

  const damages: [string, RegExp, (bytes: Buffer) => Buffer][] = [
    ['of other quads (other checksums)', /^stale: written for other quads/, (bytes) => Buffer.from(bytes.toString('latin1').replace(/"public":"[0-9a-f]{4}/, '"public":"0000'), 'latin1')],
    ['damaged', /^corrupt: the payload checksum differs$/, (bytes) => Buffer.concat([bytes.subarray(0, bytes.length - 40), Buffer.from(bytes.subarray(bytes.length - 40).map((b) => b ^ 0xff))])],
    ['truncated', /^truncated/, (bytes) => bytes.subarray(0, Math.floor(bytes.length * 0.6))],
  ];

  it.each(damages)('tells a file %s from a good one', async (_name, problem, damage) => {
    const good = await readFile(file());
    try {
      await writeFile(file(), damage(good));
      const { stored, problem: found } = await StoredIndex.read(copy.generation);
      expect(found).toMatch(problem);
      expect(stored.size).toBe(0);
    } finally {
      await writeFile(file(), good);
    }
  });

  // Whatever the problem (the cases above), the app takes the same path: it ignores the file and rebuilds.
  it('ignores a damaged file, rebuilds with the same answers and writes it again', async () => {
    const [, problem, damage] = damages[1]!;
    const good = await readFile(file());
    await writeFile(file(), damage(good));
    expect((await StoredIndex.read(copy.generation)).problem).toMatch(problem);
    const { answers, asked, logs } = await serve();
    expect(logs.find((line) => line.msg === 'stored index ignored; the derived structures are built from the store')?.problem).toMatch(problem);
    expect(asked.length).toBeGreaterThan(0);
    expect(answers).toEqual(reference);
    expect((await StoredIndex.read(copy.generation)).problem).toBeUndefined();
  });

  it('serves the same answers when the file can be neither read nor written', async () => {
    const { rm } = await import('node:fs/promises');
    await rm(file());
    // A directory where the file should be: reading fails, and so does renaming the new file over it.
    await mkdir(path.join(file(), 'blocker'), { recursive: true });
    const { answers, logs } = await serve();
    expect(logs.some((line) => line.msg === 'stored index not written; the next start builds from the store again')).toBe(true);
    expect(answers).toEqual(reference);
    expect((await stat(file())).isDirectory()).toBe(true);
    await rm(file(), { recursive: true });
  });

  it('builds the indexes of the generation it swaps to from that generation\'s stored index, while it loads', async () => {
    // A second generation: the same quads under a new id, with its own stored index.
    const id = newGenerationId();
    const next = generationDir(copy.dataDir, id);
    await mkdir(next, { recursive: true });
    for (const name of [PUBLIC_FILE, NONPUBLIC_FILE]) await copyFile(path.join(copy.generation.dir, name), path.join(next, name));
    await writeFile(path.join(next, MANIFEST_FILE), JSON.stringify({ ...copy.generation.manifest, id }));
    const second = await readGeneration(copy.dataDir, id);
    await writeGenerationIndex(second, { baseUrl: TEST_BASE_URL, kinds: KINDS });
    await writeGenerationIndex(copy.generation, { baseUrl: TEST_BASE_URL, kinds: KINDS });

    const asked: string[] = [];
    const store = new StoreManager({ includeNonPublic: true, onQuery: (_ms, label) => asked.push(label) });
    const { logger, lines } = memoryLogger('info');
    const config = loadConfig({ BASE_URL: TEST_BASE_URL, DATA_DIR: copy.dataDir, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'silent' });
    const app = createApp({ config, iris: new Iris(TEST_BASE_URL), store, logger, metrics: new Metrics(), queries: new QueryLibrary(), kinds: KIND_NAMES });
    try {
      await store.start(copy.generation.dir);
      await store.swap(second.dir);
      const builtFor = (generation: string): Record<string, unknown>[] =>
        lines.filter((line) => line.msg === 'collection index built' && line.generation === generation);
      for (let waited = 0; builtFor(id).length < KINDS.length && waited < 60_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(builtFor(id).map((line) => line.ahead)).toEqual(KINDS.map(() => true));
      expect(asked.filter((label) => INDEX_QUERIES.has(label))).toEqual([]);
      for (const [i, url] of PATHS.entries()) {
        const res = await request(app).get(url);
        expect({ url, status: res.status, body: res.text.replaceAll(id, copy.generation.id) }).toEqual({ url, ...reference[i] });
      }
    } finally {
      await store.close();
    }
  }, 180_000);
});
