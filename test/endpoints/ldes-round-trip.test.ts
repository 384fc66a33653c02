/**
 * The round trip of the event streams (docs/ldes-harvest.md, "From another deployment of this service"): a first
 * deployment harvests the source-mini export and serves its streams on a real port; a second one, with its own
 * BASE_URL and DATA_DIR, runs `harvest --ldes` (the real command, as its own process) on the four streams and
 * serves the same records: every record body of the first, its `/v2/id/` IRIs moved to the second's, equals the
 * second's. After a harvest of changes on the first, a second `harvest --ldes` reads only what is new and the two
 * agree again; the merged record redirects and the removed one is not served.
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../src/app.js';
import type { AppContext } from '../../src/engine/app-context.js';
import { loadConfig } from '../../src/config/config.js';
import { harvestExport } from '../../src/harvest/harvest.js';
import { SOURCE_FILES, type ObjectRecord } from '../../src/harvest/schema.js';
import { Metrics } from '../../src/http/metrics.js';
import { QueryLibrary } from '../../src/queries/library.js';
import { createGeneration, currentGeneration } from '../../src/store/generations.js';
import { StoreManager } from '../../src/store/store-manager.js';
import { Iris } from '../../src/vocab/iris.js';
import { KIND_NAMES } from '../../src/kinds/index.js';
import { copyFixture, removeCopy } from '../fixtures/source-mini/harvest-fixture.js';
import { handObject } from '../helpers/hand-export.js';
import { memoryLogger } from '../helpers/http-context.js';
import { untilIndexesBuilt } from '../helpers/ready-app.js';
import { demoData, sourceObjects } from '../helpers/demo.js';
import type { FollowedMember } from '../helpers/ldes-follow.js';
import { tempDir } from '../unit/store-fixtures.js';
import { commandLine } from '../helpers/commands.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const COLLECTIONS = KIND_NAMES.list.map((k) => k.collection);
/**
 * The arrays whose order the spec defines (docs/graph-model.md, "Order"): an object's images (canvas order) and
 * events. An exhibition's installation views carry no position: their order is the store's.
 */
const ORDERED: Readonly<Record<string, ReadonlySet<string>>> = { objects: new Set(['crm:P138i_has_representation', 'crm:P108i_was_produced_by', 'image']) };

/**
 * A record body with every array the spec leaves unordered sorted: RDF has no order, and the store answers a
 * graph's statements in an order that follows its terms, so the same graph under other IRIs may list them in
 * another order. Images and events keep theirs, which the records carry (position, event number).
 */
function canonical(value: unknown, ordered: ReadonlySet<string>, key = ''): unknown {
  if (Array.isArray(value)) {
    const items = value.map((v) => canonical(v, ordered));
    return ordered.has(key) ? items : items.sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : JSON.stringify(a) > JSON.stringify(b) ? 1 : 0));
  }
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, canonical(v, ordered, k)]));
  return value;
}

interface Deployment {
  base: string;
  dataDir: string;
  store?: StoreManager;
  app?: Express;
  server: Server;
  pages?: { pageSize: number; groupSize: number };
}

async function listen(d: Deployment): Promise<void> {
  d.server = createServer((req, res) => (d.app ? d.app(req, res) : res.writeHead(503).end()));
  await new Promise<void>((resolve) => d.server.listen(0, '127.0.0.1', resolve));
  d.base = `http://127.0.0.1:${(d.server.address() as AddressInfo).port}`;
}

/**
 * Serves the deployment's current generation (a new store each time, as a restart would); the streams' pages
 * small, so that a few records span many pages, unless `pages` says otherwise.
 */
async function serve(d: Deployment, pages: { pageSize: number; groupSize: number } = { pageSize: 4, groupSize: 2 }): Promise<void> {
  await d.store?.close();
  d.store = new StoreManager({ includeNonPublic: true });
  await d.store.start((await currentGeneration(d.dataDir))?.dir as string);
  const config = loadConfig({ BASE_URL: d.base, DATA_DIR: d.dataDir, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'silent' });
  const ctx: AppContext = { config, iris: new Iris(d.base), store: d.store, logger: memoryLogger('fatal').logger, metrics: new Metrics(), queries: new QueryLibrary(), kinds: KIND_NAMES };
  d.pages = pages;
  d.app = createApp(ctx, { streams: pages });
  await untilIndexesBuilt(ctx);
}

/** Harvests a source export into the first deployment, under its own base, and serves it. */
async function harvestInto(d: Deployment, source: string, pages?: Deployment['pages']): Promise<void> {
  await createGeneration(d.dataDir, { source: { kind: 'harvest', path: source }, baseUrl: d.base, kinds: KIND_NAMES }, async (out) => ({
    details: { ...(await harvestExport(source, out, { baseUrl: d.base, imageHosts: [], validateImages: false })) },
  }));
  await serve(d, pages);
}

/** `npm run harvest -- --ldes …` of the first's four streams into the second; its standard error. */
async function harvestSecond(first: Deployment, second: Deployment): Promise<string> {
  const command = commandLine('harvest', [...COLLECTIONS.flatMap((c) => ['--ldes', `${first.base}/v2/streams/${c}`]), '--pages-per-second', '1000', '--no-index']);
  const { stderr } = await promisify(execFile)(command.file, command.args, {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: second.dataDir, BASE_URL: second.base, LOG_LEVEL: 'warn', NODE_OPTIONS: '' },
    maxBuffer: 16 << 20,
  });
  await serve(second, first.pages);
  return stderr;
}

/**
 * The records the first serves equal the second's, the first's `/v2/id/` IRIs moved to the second's: every one,
 * or those `pick` keeps (by collection and position in the listing). Every collection counts the same.
 */
async function expectSameRecords(first: Deployment, second: Deployment, pick: (collection: string, i: number, iri: string) => boolean = () => true): Promise<number> {
  let compared = 0;
  for (const collection of COLLECTIONS) {
    const listed: string[] = [];
    // Every page of the listing, by its hydra:next links.
    for (let next: string | undefined = `/v2/id/${collection}?itemsPerPage=100`; next !== undefined; ) {
      const body = (await request(first.app as Express).get(next).expect(200)).body as { 'hydra:member': { '@id': string }[]; 'hydra:view'?: { 'hydra:next'?: string } };
      listed.push(...body['hydra:member'].map((m) => m['@id']));
      const link = body['hydra:view']?.['hydra:next'];
      next = link === undefined ? undefined : new URL(link, first.base).pathname + new URL(link, first.base).search;
    }
    const total = (await request(second.app as Express).get(`/v2/id/${collection}`).expect(200)).body['hydra:totalItems'] as number;
    expect([collection, total]).toEqual([collection, listed.length]);
    for (const [i, iri] of listed.entries()) {
      if (!pick(collection, i, iri)) continue;
      const pathname = new URL(iri).pathname;
      const mine = (await request(first.app as Express).get(pathname).expect(200)).text;
      const theirs = (await request(second.app as Express).get(pathname).expect(200)).text;
      const ordered = ORDERED[collection] ?? new Set<string>();
      expect(canonical(JSON.parse(theirs), ordered)).toEqual(canonical(JSON.parse(mine.split(`${first.base}/v2/id/`).join(`${second.base}/v2/id/`)), ordered));
      compared++;
    }
  }
  return compared;
}

async function closeDeployments(...deployments: Deployment[]): Promise<void> {
  for (const d of deployments) {
    await new Promise((resolve) => d.server?.close(resolve));
    await d.store?.close();
  }
}

describe('harvest --ldes: a second deployment mirrors a first from its event streams', () => {
  let source: string;
  let removeWork: () => Promise<void>;
  let work: string;
  let objects: ObjectRecord[];
  const first = {} as Deployment;
  const second = {} as Deployment;

  const harvestFirst = async (): Promise<void> => {
    await writeFile(path.join(source, SOURCE_FILES.objects), objects.map((o) => `${JSON.stringify(o)}\n`).join(''));
    await harvestInto(first, source);
  };

  beforeAll(async () => {
    source = await copyFixture();
    ({ dir: work, remove: removeWork } = await tempDir('ldes-round-trip-'));
    first.dataDir = path.join(work, 'first');
    second.dataDir = path.join(work, 'second');
    await listen(first);
    await listen(second);
    objects = (await readFile(path.join(source, SOURCE_FILES.objects), 'utf8'))
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as ObjectRecord);
    objects.push(handObject('X-1', { title: 'Extra' }));
    await harvestFirst();
  }, 60_000);

  afterAll(async () => {
    await closeDeployments(first, second);
    await removeCopy(source);
    await removeWork();
  });

  it('serves the same records after one harvest of the streams', async () => {
    const log = await harvestSecond(first, second);
    expect(log).toMatch(/records and 0 tombstones of http:\/\/127\.0\.0\.1:\d+/);
    expect(await expectSameRecords(first, second)).toBeGreaterThan(15);
    // Images stay where the first deployment serves them.
    const object = (await request(second.app as Express).get('/v2/id/object/1987-1105').expect(200)).text;
    expect(object).not.toContain(`${first.base}/v2/id/`);
  }, 120_000);

  it('after changes on the first, reads only what is new and agrees again', async () => {
    objects = objects.map((o) => (o.objectNumber === '2004-0050' ? { ...o, titles: { nl: 'Stoel zonder naam' } } : o));
    objects = objects.map((o) => (o.objectNumber === 'TUP-0073' ? { ...o, state: { kind: 'removed' } } : o));
    objects = objects.map((o) => (o.objectNumber === 'X-1' ? { ...o, state: { kind: 'merged', into: '1987-1105' } } : o));
    await harvestFirst();
    const log = await harvestSecond(first, second);
    // The objects stream: its view, its last group and the pages that changed; nothing complete is read again.
    // Read again: the stream, its view, the groups and the page that were not complete (the stream's last), then
    // the new ones; so at most its last page's 4 positions besides the 3 changes, and a complete page never.
    const objectsLine = log.split('\n').find((l) => l.includes('/v2/streams/objects:')) as string;
    const [, pagesRead, membersRead, complete] = (/([\d,]+) pages read, ([\d,]+) members; ([\d,]+) pages complete/.exec(objectsLine) ?? []).map(Number);
    expect(pagesRead).toBeLessThanOrEqual(6);
    expect(membersRead).toBeGreaterThanOrEqual(3);
    expect(membersRead).toBeLessThanOrEqual(3 + 4);
    expect(complete).toBeGreaterThan(0);
    expect(log).toMatch(/2 tombstones/);
    await expectSameRecords(first, second);
    await request(second.app as Express).get('/v2/id/object/X-1').expect(301).expect('Location', `${second.base}/v2/id/object/1987-1105`);
    await request(second.app as Express).get('/v2/id/object/TUP-0073').expect(404);
    const updated = (await request(second.app as Express).get('/v2/id/object/2004-0050').expect(200)).text;
    expect(updated).toContain('Stoel zonder naam');
  }, 120_000);
});

/**
 * The same on the 1,000-object demo (test/helpers/demo.ts), with the streams' own page size (100): every
 * collection counts the same, and the records compared are every twentieth of each listing, every koepelrecord
 * and set member, and the objects the specification's edge cases name (merged, renumbered, withdrawn, removed).
 */
describe('harvest --ldes: the 1,000-object demo mirrored', () => {
  let removeWork: () => Promise<void>;
  let objects: ObjectRecord[];
  const first = {} as Deployment;
  const second = {} as Deployment;

  beforeAll(async () => {
    const data = await demoData();
    objects = sourceObjects(data);
    let work: string;
    ({ dir: work, remove: removeWork } = await tempDir('ldes-round-trip-demo-'));
    first.dataDir = path.join(work, 'first');
    second.dataDir = path.join(work, 'second');
    await listen(first);
    await listen(second);
    await harvestInto(first, data.sourceDir, { pageSize: 100, groupSize: 100 });
  }, 180_000);

  afterAll(async () => {
    await closeDeployments(first, second);
    await removeWork();
  });

  it('serves the same collections and records', async () => {
    const log = await harvestSecond(first, second);
    expect(log).toMatch(/records and 0 tombstones of http:\/\/127\.0\.0\.1:\d+/);
    const inSets = new Set(objects.flatMap((o) => (o.partOfSet === undefined ? [] : [o.partOfSet, o.objectNumber])));
    expect(inSets.size).toBeGreaterThan(2);
    const compared = await expectSameRecords(first, second, (collection, i, iri) => i % 20 === 0 || (collection === 'objects' && inSets.has(decodeURIComponent(iri.split('/').at(-1) as string))));
    expect(compared).toBeGreaterThan(inSets.size);
    // Records that redirect since the first deployment's first harvest were never versions in its streams: the
    // mirror does not know them (docs/ldes-harvest.md). A record merged later arrives as a tombstone and
    // redirects on both (the source-mini round trip above).
    const redirecting = objects.filter((x) => x.public && x.healthy && 'into' in x.state);
    expect(redirecting.length).toBeGreaterThan(0);
    for (const o of redirecting) {
      const into = (o.state as { into: string }).into;
      await request(first.app as Express).get(`/v2/id/object/${o.objectNumber}`).expect(301).expect('Location', `${first.base}/v2/id/object/${into}`);
      await request(second.app as Express).get(`/v2/id/object/${o.objectNumber}`).expect(404);
    }
  }, 300_000);

  it("is replicated by the TREE community's client: every kind's stream, one member per record listed", async () => {
    const urls = COLLECTIONS.map((c) => `${first.base}/v2/streams/${c}`);
    const { stdout } = await promisify(execFile)(path.join(ROOT, 'node_modules/.bin/tsx'), ['test/helpers/ldes-follow.ts', path.join(first.dataDir, '..', 'client'), ...urls], {
      cwd: ROOT,
      env: { ...process.env, NODE_OPTIONS: '' },
      maxBuffer: 256 << 20,
    });
    const { streams } = JSON.parse(stdout) as { streams: Record<string, FollowedMember[]> };
    for (const collection of COLLECTIONS) {
      const total = (await request(first.app as Express).get(`/v2/id/${collection}`).expect(200)).body['hydra:totalItems'] as number;
      const members = streams[`${first.base}/v2/streams/${collection}`] ?? [];
      // One harvest, no deletion yet: a version per record listed, each of a record of that collection.
      expect([collection, members.length]).toEqual([collection, total]);
      expect(new Set(members.map((m) => m.isVersionOf)).size).toBe(total);
      expect(members.every((m) => m.isVersionOf?.startsWith(`${first.base}/v2/id/`))).toBe(true);
    }
  }, 300_000);
});
