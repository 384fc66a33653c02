/**
 * GET /v2/changes over a sequence of real harvests of the source-mini export (add, change a title, remove, make
 * private, merge, roll back, re-add), with a restart and a load killed halfway in between. The expected
 * activities of every step are written out by hand.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../src/app.js';
import type { AppContext } from '../../src/engine/app-context.js';
import { loadConfig } from '../../src/config/config.js';
import { harvestExport } from '../../src/harvest/harvest.js';
import { SOURCE_FILES, type ObjectRecord } from '../../src/harvest/schema.js';
import { Metrics } from '../../src/http/metrics.js';
import { QueryLibrary } from '../../src/queries/library.js';
import { createGeneration, currentGeneration, setCurrent, type Generation } from '../../src/store/generations.js';
import { StoreManager } from '../../src/store/store-manager.js';
import { Iris } from '../../src/vocab/iris.js';
import { mirror } from '../../docs/examples/mirror.js';
import { copyFixture, removeCopy } from '../fixtures/source-mini/harvest-fixture.js';
import { HAND_BASE_URL, handObject } from '../helpers/hand-export.js';
import { memoryLogger } from '../helpers/http-context.js';
import { syntheticDataset, tempDir, writeNQuads } from '../unit/store-fixtures.js';
import { KIND_NAMES } from '../../src/kinds/index.js';
import { untilIndexesBuilt } from '../helpers/ready-app.js';
import { commandLine } from '../helpers/commands.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const B = HAND_BASE_URL;
const PAGE_SIZE = 4;
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);
const readSchema = async (name: string): Promise<object> => JSON.parse(await readFile(path.join(ROOT, 'schemas', name), 'utf8')) as object;

type Row = [string, string] | [string, string, string];
const obj = (pid: string): string => `${B}/v2/id/object/${pid}`;
const rec = (kind: string, pid: string): string => `${B}/v2/id/${kind}/${pid}`;

/**
 * The feed's context and each kind's activity type (docs/changes.md): the schema files leave the kinds open
 * for a deployment with more of them, so the four are checked here.
 */
const CRM = 'http://www.cidoc-crm.org/cidoc-crm/';
const TYPE_OF_KIND: Record<string, string> = { object: 'HumanMadeObject', agent: 'Actor', exhibition: 'Activity', concept: 'Type' };
const FEED_CONTEXT = [
  'http://iiif.io/api/discovery/1/context.json',
  {
    HumanMadeObject: `${CRM}E22_Human-Made_Object`,
    Actor: `${CRM}E39_Actor`,
    Activity: `${CRM}E7_Activity`,
    Type: `${CRM}E55_Type`,
    // The terms of the collection's seeAlso (the event streams): rdfs:seeAlso to a dcat:Dataset.
    seeAlso: { '@id': 'http://www.w3.org/2000/01/rdf-schema#seeAlso', '@type': '@id' },
    Dataset: 'http://www.w3.org/ns/dcat#Dataset',
    format: 'http://purl.org/dc/terms/format',
    profile: { '@id': 'http://purl.org/dc/terms/conformsTo', '@type': '@id' },
  },
];
const expectKindTypes = (ref: { id: string; type: string }): void => {
  const kind = new RegExp(`^${B}/v2/id/([a-z]+)/[^/]+$`).exec(ref.id)?.[1];
  expect([ref.id, ref.type]).toEqual([ref.id, TYPE_OF_KIND[kind ?? '']]);
};

interface FeedPageJson {
  '@context': unknown;
  id: string;
  next?: { id: string };
  orderedItems: { type: string; object: { id: string; type: string }; target?: { id: string; type: string }; endTime: string }[];
}

describe('GET /v2/changes (IIIF Change Discovery) across harvests', () => {
  let source: string;
  let dataDir: string;
  let removeData: () => Promise<void>;
  let store: StoreManager;
  let app: Express;
  let objects: ObjectRecord[];
  let validateCollection: ReturnType<typeof ajv.compile>;
  let validatePage: ReturnType<typeof ajv.compile>;
  /** The expected feed so far, and the time window of each step's activities. */
  const expected: { rows: Row[]; after: number; before: number }[] = [];

  const serve = async (): Promise<void> => {
    const config = loadConfig({ BASE_URL: B, DATA_DIR: dataDir, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'silent' });
    const ctx: AppContext = { config, iris: new Iris(B), store, logger: memoryLogger('fatal').logger, metrics: new Metrics(), queries: new QueryLibrary(), kinds: KIND_NAMES };
    app = createApp(ctx, { changes: { pageSize: PAGE_SIZE } });
    await untilIndexesBuilt(ctx);
  };

  const writeObjects = async (): Promise<void> => {
    await writeFile(path.join(source, SOURCE_FILES.objects), objects.map((o) => `${JSON.stringify(o)}\n`).join(''));
  };

  /** Harvests the export as it stands into a new current generation (served once the test swaps the store to it). */
  const harvest = async (rows: Row[]): Promise<Generation> => {
    await writeObjects();
    const after = Date.now();
    const generation = await createGeneration(dataDir, { source: { kind: 'harvest', path: source }, baseUrl: B, kinds: KIND_NAMES }, async (out) => ({
      details: { ...(await harvestExport(source, out, { baseUrl: B, imageHosts: [], validateImages: false })) },
    }));
    expected.push({ rows, after, before: Date.now() });
    return generation;
  };

  const setObject = (pid: string, change: Partial<ObjectRecord>): void => {
    objects = objects.map((o) => (o.objectNumber === pid ? { ...o, ...change } : o));
  };

  /** Every page from the first, following `next`, each validated; checks the caching of every page. */
  const readFeed = async (): Promise<FeedPageJson['orderedItems']> => {
    const collection = await request(app).get('/v2/changes').expect(200);
    expect(validateCollection(collection.body)).toBe(true);
    expect(collection.body['@context']).toEqual(FEED_CONTEXT);
    expect(collection.headers['cache-control']).toBe('public, no-cache');
    const items: FeedPageJson['orderedItems'] = [];
    let url: string | undefined = collection.body.first.id;
    let pages = 0;
    while (url !== undefined) {
      const res = await request(app).get(new URL(url).pathname).expect(200);
      expect(res.headers['content-type']).toBe('application/ld+json; profile="https://www.w3.org/ns/activitystreams"; charset=utf-8');
      expect(validatePage(res.body)).toBe(true);
      const page = res.body as FeedPageJson;
      expect(page['@context']).toEqual(FEED_CONTEXT);
      for (const activity of page.orderedItems) [activity.object, ...(activity.target ? [activity.target] : [])].forEach(expectKindTypes);
      const etag = res.headers.etag as string;
      expect(etag).toMatch(/^"[^"]+"$/);
      await request(app).get(new URL(url).pathname).set('If-None-Match', etag).expect(304);
      if (page.next) {
        expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(page.orderedItems).toHaveLength(PAGE_SIZE);
      } else {
        expect(res.headers['cache-control']).toBe('public, no-cache');
        expect(url).toBe(collection.body.last.id);
      }
      items.push(...page.orderedItems);
      pages++;
      url = page.next?.id;
    }
    expect(collection.body.totalItems).toBe(items.length);
    expect(pages).toBe(Math.max(1, Math.ceil(items.length / PAGE_SIZE)));
    return items;
  };

  /** The feed equals the expected steps, in order, each activity timed within its step. */
  const expectFeed = async (steps = expected.length): Promise<void> => {
    const items = await readFeed();
    const shown = expected.slice(0, steps);
    expect(items.map((a) => (a.target ? [a.type, a.object.id, a.target.id] : [a.type, a.object.id]))).toEqual(shown.flatMap((s) => s.rows));
    let i = 0;
    for (const step of shown) {
      for (const _ of step.rows) {
        const t = Date.parse(items[i++]?.endTime ?? '');
        expect(t).toBeGreaterThanOrEqual(step.after);
        expect(t).toBeLessThanOrEqual(step.before);
      }
    }
    const text = JSON.stringify(items);
    for (const hidden of [obj('1990-0060_2-5'), obj('0935'), obj('1482'), obj('3057'), rec('agent', 'DMG-A-00700'), rec('exhibition', 'TE_2003-010'), rec('concept', '530000999')]) {
      expect(text).not.toContain(`"${hidden}"`);
    }
  };

  /** Runs the example mirror (docs/examples/mirror.ts) against the app, listening; returns what it holds. */
  const runMirror = async (dir: string): Promise<{ applied: number; records: string[] }> => {
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const result = await mirror(B, dir, (url) => url.replace(B, origin));
      for (const [uri, file] of result.records) expect((JSON.parse(await readFile(file, 'utf8')) as { '@id': string })['@id']).toBe(uri);
      return { applied: result.applied, records: [...result.records.keys()].sort() };
    } finally {
      server.close();
    }
  };

  beforeAll(async () => {
    validateCollection = ajv.compile(await readSchema('changes-collection.schema.json'));
    validatePage = ajv.compile(await readSchema('changes-page.schema.json'));
    source = await copyFixture();
    let dir: string;
    ({ dir, remove: removeData } = await tempDir('changes-feed-'));
    dataDir = path.join(dir, 'data');
    objects = (await readFile(path.join(source, SOURCE_FILES.objects), 'utf8'))
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as ObjectRecord);
  });

  afterAll(async () => {
    await store?.close();
    await removeCopy(source);
    await removeData();
  });

  it('follows every step of a harvest history, a restart, a rollback and a killed load', async () => {
    // 1. First harvest of a fresh folder: the fixture without TUP-0073, with an extra object X-1.
    const tup = objects.find((o) => o.objectNumber === 'TUP-0073') as ObjectRecord;
    objects = [...objects.filter((o) => o !== tup), handObject('X-1', { title: 'Extra' })];
    await writeObjects();
    store = new StoreManager({ includeNonPublic: true });
    const after = Date.now();
    const g1 = await createGeneration(dataDir, { source: { kind: 'harvest', path: source }, baseUrl: B, kinds: KIND_NAMES }, async (out) => ({
      details: { ...(await harvestExport(source, out, { baseUrl: B, imageHosts: [], validateImages: false })) },
    }));
    expected.push({
      after,
      before: Date.now(),
      // One Create per public record, by IRI: private, unhealthy, merged and removed records are absent.
      rows: [
        ['Create', rec('agent', 'DMG-A-00162')],
        ['Create', rec('agent', 'DMG-A-00523')],
        ['Create', rec('agent', 'DMG-A-00600')],
        ['Create', rec('agent', 'DMG-A-03731')],
        ['Create', rec('concept', '530000049')],
        ['Create', rec('concept', '530000060')],
        ['Create', rec('concept', '530000100')],
        ['Create', rec('concept', '530000101')],
        ['Create', rec('concept', '530006321')],
        ['Create', rec('concept', '530008405')],
        ['Create', rec('exhibition', 'TE_1993-009')],
        ['Create', rec('exhibition', 'TE_2020-001')],
        ['Create', obj('1987-1105')],
        ['Create', obj('1990-0060_0-5')],
        ['Create', obj('1990-0060_1-5')],
        ['Create', obj('2004-0050')],
        ['Create', obj('X-1')],
      ],
    });
    await store.start(g1.dir);
    await serve();
    await expectFeed();
    const firstPage = await request(app).get('/v2/changes/page/1');

    // 2. Add; 3. change a title. A change is listed only once the service serves its generation.
    objects.push(tup);
    await harvest([['Create', obj('TUP-0073')]]);
    setObject('2004-0050', { titles: { nl: 'Stoel zonder naam' } });
    const g3 = await harvest([['Update', obj('2004-0050')]]);
    await expectFeed(1);
    await store.swap(g3.dir);
    await expectFeed();

    // Restart: a new store and app over the same folder; the feed is read back from disk.
    await store.close();
    store = new StoreManager({ includeNonPublic: true });
    await store.start((await currentGeneration(dataDir))?.dir as string);
    await serve();
    await expectFeed();
    // A complete page never changes.
    const again = await request(app).get('/v2/changes/page/1');
    expect(again.headers.etag).toBe(firstPage.headers.etag);
    expect(again.text).toBe(firstPage.text);

    // 4. Remove; 5. make private; 6. merge. The records keep answering 410, 404 and 301.
    setObject('TUP-0073', { state: { kind: 'removed' } });
    await harvest([['Delete', obj('TUP-0073')]]);
    setObject('2004-0050', { public: false });
    const g5 = await harvest([['Delete', obj('2004-0050')]]);
    setObject('X-1', { state: { kind: 'merged', into: '1987-1105' } });
    const g6 = await harvest([['Delete', obj('X-1'), obj('1987-1105')]]);
    await store.swap(g6.dir);
    await expectFeed();
    await request(app).get('/v2/id/object/TUP-0073').expect(410);
    await request(app).get('/v2/id/object/2004-0050').expect(404);
    await request(app).get('/v2/id/object/X-1').expect(301).expect('Location', obj('1987-1105'));
    // A harvester's mirror, from page 1: exactly the public records (those of step 1 less the two deleted).
    const mirrorDir = path.join(path.dirname(dataDir), 'mirror');
    const publicAtStep1 = (expected[0]?.rows ?? []).map((r) => r[1]);
    const mirrored = await runMirror(mirrorDir);
    expect(mirrored.records).toEqual(publicAtStep1.filter((uri) => uri !== obj('2004-0050') && uri !== obj('X-1')).sort());
    expect(mirrored.applied).toBe(expected.flatMap((st) => st.rows).length);

    // 7. Roll back to the generation before the merge: the merge is undone by a Create.
    const rolledAt = Date.now();
    await setCurrent(dataDir, g5.id);
    expected.push({ rows: [['Create', obj('X-1')]], after: rolledAt, before: Date.now() });

    // 8. Re-add: the next harvest's export (made from the rolled-back one) brings both records back.
    setObject('X-1', { state: { kind: 'current' } });
    setObject('TUP-0073', { state: { kind: 'current' } });
    setObject('2004-0050', { public: true });
    await harvest([
      ['Create', obj('2004-0050')],
      ['Create', obj('TUP-0073')],
    ]);

    // A load killed halfway (SIGKILL while it writes its generation) adds nothing.
    const big = await writeNQuads(path.join(path.dirname(dataDir), 'big.nq'), syntheticDataset(20_000).lines);
    const command = commandLine('load', [big]);
    const child = spawn(command.file, command.args, {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, BASE_URL: B, NODE_OPTIONS: '' },
      detached: true,
      stdio: 'ignore',
    });
    const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
    const staging = path.join(dataDir, 'staging');
    let written = false;
    while (!written && child.exitCode === null) {
      for (const name of await readdir(staging).catch(() => [] as string[])) {
        written ||= (await stat(path.join(staging, name, 'public.nq.gz')).then((s) => s.size, () => 0)) > 0;
      }
      if (!written) await sleep(5);
    }
    expect(written).toBe(true);
    process.kill(-(child.pid as number), 'SIGKILL');
    await exited;

    // 9. The next harvest after the kill: one title changed.
    setObject('TUP-0073', { titles: { en: 'Micro+ Pitcher 1.5 l' } });
    const g9 = await harvest([['Update', obj('TUP-0073')]]);
    await store.swap(g9.dir);
    await expectFeed();
    await request(app).get('/v2/id/object/X-1').expect(200);
    // The mirror resumes where it stopped and applies only what came since.
    const resumed = await runMirror(mirrorDir);
    expect(resumed.records).toEqual([...publicAtStep1, obj('TUP-0073')].sort());
    expect(resumed.applied).toBe(expected.slice(6).flatMap((st) => st.rows).length);
  }, 60_000);

  it('answers 404 for a page that does not exist', async () => {
    await request(app).get('/v2/changes/page/0').expect(404);
    await request(app).get('/v2/changes/page/99').expect(404);
    await request(app).get('/v2/changes/page/x').expect(404);
  });
});
