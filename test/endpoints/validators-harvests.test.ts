/**
 * Validators that follow the body (issue 28), over a sequence of real harvests of the source-mini export:
 * remove an object shown in an exhibition, rename a concept used by an object, change an agent's name, change
 * nothing. After each harvest every record of every kind is asked for in every format, and so are the
 * collection pages and the indexes; for each answer the ETag changed if and only if its bytes changed, the
 * Last-Modified of a changed record moved past the step's start, and the change feed lists exactly the records
 * whose body changed (Update), left (Delete) or came (Create). The truth is the bytes the client receives, not
 * anything the service says about them.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../src/app.js';
import type { AppContext } from '../../src/engine/app-context.js';
import { loadConfig } from '../../src/config/config.js';
import { harvestExport } from '../../src/harvest/harvest.js';
import { SOURCE_FILES } from '../../src/harvest/schema.js';
import { Metrics } from '../../src/http/metrics.js';
import { QueryLibrary } from '../../src/queries/library.js';
import { createGeneration } from '../../src/store/generations.js';
import { StoreManager } from '../../src/store/store-manager.js';
import { Iris } from '../../src/vocab/iris.js';
import { copyFixture, removeCopy } from '../fixtures/source-mini/harvest-fixture.js';
import { HAND_BASE_URL } from '../helpers/hand-export.js';
import { memoryLogger } from '../helpers/http-context.js';
import { tempDir } from '../unit/store-fixtures.js';
import { KIND_NAMES } from '../../src/kinds/index.js';
import { untilIndexesBuilt } from '../helpers/ready-app.js';

const B = HAND_BASE_URL;
const KINDS = { objects: 'object', agents: 'agent', exhibitions: 'exhibition', concepts: 'concept' } as const;
type Kind = keyof typeof KINDS;
const pidField = (kind: Kind): string => (kind === 'objects' ? 'objectNumber' : 'pid');
/** Every format a record is served in (Accept header; undefined: none, JSON-LD). */
const FORMATS = [undefined, 'text/turtle', 'application/n-triples', 'application/n-quads', 'application/rdf+xml'] as const;
/** Collection pages and indexes, whose tags must follow their bytes too. */
const DOCUMENTS = [
  ...Object.keys(KINDS).flatMap((c) => [`/v2/id/${c}`, `/v2/id/${c}?fullRecord=true`]),
  '/v2/id/types',
  '/v2/id/materials',
  '/v2/id/nationalities',
  '/v2/id/roles',
  '/v2/id/production',
  '/v2/dcat',
];

interface Answer {
  status: number;
  body: string;
  etag?: string;
  lastModified?: string;
}
type Seen = Map<string, Answer>;

type SourceRecord = Record<string, unknown>;

describe('validators and the change feed follow the served bytes across harvests', () => {
  let source: string;
  let dataDir: string;
  let removeData: () => Promise<void>;
  const store = new StoreManager({ includeNonPublic: true });
  let app: Express;
  const records = {} as Record<Kind, SourceRecord[]>;

  const readSource = async (kind: Kind): Promise<SourceRecord[]> =>
    (await readFile(path.join(source, SOURCE_FILES[kind]), 'utf8'))
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as SourceRecord);
  const writeSource = async (): Promise<void> => {
    for (const kind of Object.keys(KINDS) as Kind[]) await writeFile(path.join(source, SOURCE_FILES[kind]), records[kind].map((r) => `${JSON.stringify(r)}\n`).join(''));
  };
  const edit = (kind: Kind, pid: string, change: (r: SourceRecord) => SourceRecord): void => {
    const i = records[kind].findIndex((r) => r[pidField(kind)] === pid);
    if (i < 0) throw new Error(`no ${kind} ${pid} in the fixture`);
    records[kind][i] = change(records[kind][i] as SourceRecord);
  };

  /** Every record URI named by the export as first harvested (public or not), as paths. */
  const recordPaths: string[] = [];

  const harvestAndServe = async (): Promise<void> => {
    await writeSource();
    const generation = await createGeneration(dataDir, { source: { kind: 'harvest', path: source }, baseUrl: B, kinds: KIND_NAMES }, async (out) => ({
      details: { ...(await harvestExport(source, out, { baseUrl: B, imageHosts: [], validateImages: false })) },
    }));
    if (store.generation === undefined) await store.start(generation.dir);
    else await store.swap(generation.dir);
  };

  /** Every record in every format, and every document, as the client sees them. */
  const look = async (): Promise<Seen> => {
    const seen: Seen = new Map();
    const ask = async (key: string, url: string, accept?: string): Promise<void> => {
      const req = request(app).get(url);
      const res = await (accept === undefined ? req : req.set('Accept', accept));
      seen.set(key, { status: res.status, body: res.text, etag: res.headers.etag as string | undefined, lastModified: res.headers['last-modified'] as string | undefined });
    };
    for (const url of recordPaths) for (const accept of FORMATS) await ask(`${url} ${accept ?? 'json-ld'}`, url, accept);
    for (const url of DOCUMENTS) await ask(url, url);
    return seen;
  };

  /** The activities added to the feed since `before` activities, as "Type iri". */
  const feedItems = async (): Promise<string[]> => {
    const items: string[] = [];
    for (let url: string | undefined = (await request(app).get('/v2/changes').expect(200)).body.first.id as string; url !== undefined; ) {
      const page = (await request(app).get(new URL(url).pathname).expect(200)).body as { next?: { id: string }; orderedItems: { type: string; object: { id: string } }[] };
      items.push(...page.orderedItems.map((a) => `${a.type} ${a.object.id}`));
      url = page.next?.id;
    }
    return items;
  };

  let previous: Seen;
  let feedBefore: string[];

  /** Runs `change` and a harvest, then checks every answer against the one before. Returns the changed record URIs. */
  const step = async (change: () => void): Promise<Set<string>> => {
    change();
    const started = Date.now();
    await harvestAndServe();
    const now = await look();
    const changedRecords = new Set<string>();
    const expectedFeed: string[] = [];
    for (const [key, after] of now) {
      const before = previous.get(key) as Answer;
      const same = before.status === after.status && before.body === after.body;
      // The tag changes exactly when the bytes do (statuses without a body have no tag).
      if (before.etag !== undefined && after.etag !== undefined) expect({ key, tagChanged: before.etag !== after.etag }).toEqual({ key, tagChanged: !same });
      const [url, format] = key.split(' ');
      if (format === undefined) continue;
      const iri = `${B}${url}`;
      if (before.status === 200 && after.status === 200 && !same) {
        changedRecords.add(iri);
        // Last-Modified moved to this step (HTTP dates count whole seconds).
        expect(Date.parse(after.lastModified as string)).toBeGreaterThanOrEqual(Math.floor(started / 1000) * 1000);
      }
      if (before.status === 200 && after.status === 200 && same) expect({ key, lastModified: after.lastModified }).toEqual({ key, lastModified: before.lastModified });
      if (format !== 'json-ld') continue;
      if (before.status === 200 && after.status !== 200) expectedFeed.push(`Delete ${iri}`);
      if (before.status !== 200 && after.status === 200) expectedFeed.push(`Create ${iri}`);
    }
    for (const iri of changedRecords) expectedFeed.push(`Update ${iri}`);
    const feed = await feedItems();
    expect(feed.slice(feedBefore.length).sort()).toEqual(expectedFeed.sort());
    previous = now;
    feedBefore = feed;
    return changedRecords;
  };

  beforeAll(async () => {
    source = await copyFixture();
    let dir: string;
    ({ dir, remove: removeData } = await tempDir('validators-'));
    dataDir = path.join(dir, 'data');
    for (const kind of Object.keys(KINDS) as Kind[]) {
      records[kind] = await readSource(kind);
      for (const r of records[kind]) recordPaths.push(`/v2/id/${KINDS[kind]}/${String(r[pidField(kind)])}`);
    }
    await harvestAndServe();
    const config = loadConfig({ BASE_URL: B, DATA_DIR: dataDir, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'silent' });
    const ctx: AppContext = { config, iris: new Iris(B), store, logger: memoryLogger('fatal').logger, metrics: new Metrics(), queries: new QueryLibrary(), kinds: KIND_NAMES };
    app = createApp(ctx);
    await untilIndexesBuilt(ctx);
    previous = await look();
    feedBefore = await feedItems();
  }, 120_000);

  afterAll(async () => {
    await store.close();
    await removeCopy(source);
    await removeData();
  });

  it('removing an object shown in an exhibition changes the exhibition and the set it belongs to', async () => {
    const changed = await step(() => {
      records.objects = records.objects.filter((o) => o.objectNumber !== '1990-0060_1-5');
    });
    // The exhibition that showed it, and the koepel record that listed it as a part.
    expect(changed).toContain(`${B}/v2/id/exhibition/TE_2020-001`);
    expect(changed).toContain(`${B}/v2/id/object/1990-0060_0-5`);
  }, 120_000);

  it('renaming a concept changes the concept and the objects that use it', async () => {
    const changed = await step(() => edit('concepts', '530000049', (c) => ({ ...c, labels: { ...(c.labels as object), nl: 'pepermolen' } })));
    expect(changed).toContain(`${B}/v2/id/concept/530000049`);
    expect(changed).toContain(`${B}/v2/id/object/1987-1105`);
  }, 120_000);

  it("changing an agent's name changes the agent and the records that name it", async () => {
    const changed = await step(() => edit('agents', 'DMG-A-03731', (a) => ({ ...a, name: 'Ettore Sottsass Jr.' })));
    expect(changed).toContain(`${B}/v2/id/agent/DMG-A-03731`);
    expect(changed.size).toBeGreaterThan(1);
  }, 120_000);

  it('changing nothing changes no tag and lists nothing', async () => {
    const changed = await step(() => undefined);
    expect([...changed]).toEqual([]);
  }, 120_000);
});
