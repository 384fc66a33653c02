/**
 * GET /v2/streams/{collection} (LDES, docs/changes.md "The event streams") over real harvests of the source-mini
 * export, served on a real HTTP server and followed by the TREE community's client (ldes-client, pinned), which
 * runs as its own process (test/helpers/ldes-follow.ts). Expected members come from the collections'
 * `hydra:totalItems` and from the changes written out by hand; a member's statements are held against the
 * record's own N-Quads, which the record endpoint answers by another query.
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import type { Express } from 'express';
import { JsonLdParser } from 'jsonld-streaming-parser';
import { DataFactory, Parser, type Quad } from 'n3';
import { isomorphic } from 'rdf-isomorphic';
import request from 'supertest';
import { createApp } from '../../src/app.js';
import type { AppContext } from '../../src/engine/app-context.js';
import { loadConfig } from '../../src/config/config.js';
import { harvestExport } from '../../src/harvest/harvest.js';
import { SOURCE_FILES, type ObjectRecord } from '../../src/harvest/schema.js';
import { Metrics } from '../../src/http/metrics.js';
import { QueryLibrary } from '../../src/queries/library.js';
import { createGeneration, type Generation } from '../../src/store/generations.js';
import { StoreManager } from '../../src/store/store-manager.js';
import { Iris } from '../../src/vocab/iris.js';
import { KIND_NAMES } from '../../src/kinds/index.js';
import { copyFixture, removeCopy } from '../fixtures/source-mini/harvest-fixture.js';
import { handObject } from '../helpers/hand-export.js';
import { memoryLogger } from '../helpers/http-context.js';
import { untilIndexesBuilt } from '../helpers/ready-app.js';
import { tempDir } from '../unit/store-fixtures.js';
import type { FollowedMember } from '../helpers/ldes-follow.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PAGE_SIZE = 3;
const GROUP_SIZE = 2;
const VERSION_OF = 'http://purl.org/dc/terms/isVersionOf';
const GENERATED_AT = 'http://www.w3.org/ns/prov#generatedAtTime';
const AS_DELETE = 'https://www.w3.org/ns/activitystreams#Delete';
const REPLACED_BY = 'http://purl.org/dc/terms/isReplacedBy';
const COLLECTIONS = KIND_NAMES.list.map((k) => k.collection);

const parse = (text: string, format: string): Quad[] => new Parser({ format, blankNodePrefix: '' }).parse(text);
const inDefaultGraph = (quads: readonly Quad[]): Quad[] => quads.map((q) => DataFactory.quad(q.subject, q.predicate, q.object));

describe('GET /v2/streams (LDES) across harvests, followed by the TREE client', () => {
  let source: string;
  let dataDir: string;
  let work: string;
  let removeData: () => Promise<void>;
  let store: StoreManager;
  let app: Express;
  let server: Server;
  /** The server's origin, which is also the deployment's BASE_URL: the client follows the IRIs it reads. */
  let B: string;
  let objects: ObjectRecord[];
  const harvestTimes: { after: number; before: number }[] = [];

  const obj = (pid: string): string => `${B}/v2/id/object/${pid}`;

  const harvest = async (): Promise<Generation> => {
    await writeFile(path.join(source, SOURCE_FILES.objects), objects.map((o) => `${JSON.stringify(o)}\n`).join(''));
    const after = Date.now();
    const generation = await createGeneration(dataDir, { source: { kind: 'harvest', path: source }, baseUrl: B, kinds: KIND_NAMES }, async (out) => ({
      details: { ...(await harvestExport(source, out, { baseUrl: B, imageHosts: [], validateImages: false })) },
    }));
    harvestTimes.push({ after, before: Date.now() });
    return generation;
  };

  const serve = async (): Promise<void> => {
    const config = loadConfig({ BASE_URL: B, DATA_DIR: dataDir, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'silent' });
    const ctx: AppContext = { config, iris: new Iris(B), store, logger: memoryLogger('fatal').logger, metrics: new Metrics(), queries: new QueryLibrary(), kinds: KIND_NAMES };
    app = createApp(ctx, { streams: { pageSize: PAGE_SIZE, groupSize: GROUP_SIZE } });
    await untilIndexesBuilt(ctx);
  };

  /** Every kind's stream through the TREE client, its state kept under `state` (the same folder: only new members). */
  const follow = async (state: string): Promise<Record<string, FollowedMember[]>> => {
    const urls = COLLECTIONS.map((c) => `${B}/v2/streams/${c}`);
    const { stdout } = await promisify(execFile)(path.join(ROOT, 'node_modules/.bin/tsx'), ['test/helpers/ldes-follow.ts', path.join(work, state), ...urls], {
      cwd: ROOT,
      env: { ...process.env, NODE_OPTIONS: '' },
      maxBuffer: 64 << 20,
    });
    const { streams } = JSON.parse(stdout) as { streams: Record<string, FollowedMember[]> };
    return Object.fromEntries(COLLECTIONS.map((c) => [c, streams[`${B}/v2/streams/${c}`] ?? []]));
  };

  const totalItems = async (collection: string): Promise<number> => (await request(app).get(`/v2/id/${collection}`).expect(200)).body['hydra:totalItems'] as number;

  /** The statements of a version member that are the record's: those of the member's own named graph. */
  const recordStatements = (member: FollowedMember): Quad[] => inDefaultGraph(parse(member.nquads, 'application/n-quads').filter((q) => q.graph.value === member.id));

  beforeAll(async () => {
    source = await copyFixture();
    let dir: string;
    ({ dir, remove: removeData } = await tempDir('event-streams-'));
    work = dir;
    dataDir = path.join(dir, 'data');
    objects = (await readFile(path.join(source, SOURCE_FILES.objects), 'utf8'))
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as ObjectRecord);
    server = createServer((req, res) => app(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    B = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // The first harvest: the fixture and an extra object that a later harvest merges.
    objects.push(handObject('X-1', { title: 'Extra' }));
    const g1 = await harvest();
    store = new StoreManager({ includeNonPublic: true });
    await store.start(g1.dir);
    await serve();
  }, 60_000);

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await store?.close();
    await removeCopy(source);
    await removeData();
  });

  it('replicates every kind: one version member per public record, with the record graph as served', async () => {
    const followed = await follow('state');
    for (const collection of COLLECTIONS) {
      const members = followed[collection] ?? [];
      expect([collection, members.length]).toEqual([collection, await totalItems(collection)]);
      expect(new Set(members.map((m) => m.id)).size).toBe(members.length);
      for (const m of members) {
        expect(m.isVersionOf).toMatch(new RegExp(`^${B}/v2/id/${KIND_NAMES.ofCollection(collection)?.kind}/[^/]+$`));
        expect(Date.parse(m.timestamp ?? '')).toBeGreaterThanOrEqual(harvestTimes[0]!.after);
        expect(m.type).not.toBe(AS_DELETE);
      }
    }
    // Merged, removed, private and unhealthy records are no members (the fixture's hidden records).
    const versionsOf = new Set(Object.values(followed).flatMap((ms) => ms.map((m) => m.isVersionOf)));
    for (const hidden of ['1990-0060_2-5', '0935', '1482', '3057']) expect(versionsOf.has(obj(hidden))).toBe(false);
    expect(versionsOf.has(obj('X-1'))).toBe(true);
    // A member's own named graph is the record's graph, statement for statement (blank nodes aside).
    for (const pid of ['1987-1105', '1990-0060_0-5', 'X-1']) {
      const member = followed.objects?.find((m) => m.isVersionOf === obj(pid)) as FollowedMember;
      const record = parse((await request(app).get(`/v2/id/object/${pid}?format=nq`).expect(200)).text, 'application/n-quads');
      expect(record.length).toBeGreaterThan(10);
      expect(isomorphic(recordStatements(member), inDefaultGraph(record))).toBe(true);
    }
  }, 120_000);

  it('after a re-harvest, the client reads only the new members: versions and tombstones', async () => {
    objects = objects.map((o) => (o.objectNumber === '2004-0050' ? { ...o, titles: { nl: 'Stoel zonder naam' } } : o));
    objects = objects.map((o) => (o.objectNumber === 'TUP-0073' ? { ...o, state: { kind: 'removed' } } : o));
    objects = objects.map((o) => (o.objectNumber === 'X-1' ? { ...o, state: { kind: 'merged', into: '1987-1105' } } : o));
    const g2 = await harvest();
    await store.swap(g2.dir);
    const { after, before } = harvestTimes[1]!;

    const followed = await follow('state');
    for (const collection of COLLECTIONS.filter((c) => c !== 'objects')) expect([collection, followed[collection]]).toEqual([collection, []]);
    const fresh = followed.objects ?? [];
    expect(fresh.map((m) => [m.isVersionOf, m.type ?? null]).sort()).toEqual([
      [obj('2004-0050'), null],
      [obj('TUP-0073'), AS_DELETE],
      [obj('X-1'), AS_DELETE],
    ]);
    for (const m of fresh) {
      const t = Date.parse(m.timestamp ?? '');
      expect(t).toBeGreaterThanOrEqual(after);
      expect(t).toBeLessThanOrEqual(before);
    }
    const merged = parse(fresh.find((m) => m.isVersionOf === obj('X-1'))!.nquads, 'application/n-quads');
    expect(merged.filter((q) => q.predicate.value === REPLACED_BY).map((q) => q.object.value)).toEqual([obj('1987-1105')]);
    const updated = recordStatements(fresh.find((m) => m.isVersionOf === obj('2004-0050'))!);
    expect(updated.some((q) => q.object.value === 'Stoel zonder naam')).toBe(true);

    // A client that starts now: the latest version of every record, and a tombstone per deleted record.
    const again = await follow('fresh-state');
    for (const collection of COLLECTIONS) {
      const deleted = collection === 'objects' ? 2 : 0;
      expect([collection, again[collection]?.length]).toEqual([collection, (await totalItems(collection)) + deleted]);
    }
    expect(again.objects?.filter((m) => m.isVersionOf === obj('2004-0050')).map((m) => m.id)).toEqual([fresh.find((m) => m.isVersionOf === obj('2004-0050'))!.id]);
  }, 120_000);

  it('pages: immutable but the last, 304 on a match, the syntaxes, 404 for what is not there', async () => {
    const stream = await request(app).get('/v2/streams/objects').set('Accept', 'text/turtle').expect(200);
    expect(stream.headers['cache-control']).toBe('public, no-cache');
    const described = parse(stream.text, 'text/turtle');
    const about = (p: string): string[] => described.filter((q) => q.subject.value === `${B}/v2/streams/objects` && q.predicate.value === p).map((q) => q.object.value);
    expect(about('https://w3id.org/ldes#timestampPath')).toEqual([GENERATED_AT]);
    expect(about('https://w3id.org/ldes#versionOfPath')).toEqual([VERSION_OF]);
    expect(about('https://w3id.org/tree#view')).toEqual([`${B}/v2/streams/objects/view`]);

    /** A node of the tree in TriG, checked for its caching and a 304; its statements and the nodes it links. */
    const node = async (url: string, complete: boolean): Promise<{ quads: Quad[]; links: string[] }> => {
      const res = await request(app).get(new URL(url).pathname).set('Accept', 'application/trig').expect(200);
      expect(res.headers['content-type']).toBe('application/trig; charset=utf-8');
      expect([url, res.headers['cache-control']]).toEqual([url, complete ? 'public, max-age=31536000, immutable' : 'public, no-cache']);
      await request(app).get(new URL(url).pathname).set('Accept', 'application/trig').set('If-None-Match', res.headers.etag as string).expect(304);
      const quads = parse(res.text, 'application/trig');
      return { quads, links: quads.filter((q) => q.predicate.value === 'https://w3id.org/tree#node').map((q) => q.object.value) };
    };
    const view = await node(`${B}/v2/streams/objects/view`, false);
    expect(view.quads.some((q) => q.predicate.value === 'https://w3id.org/ldes#retentionPolicy')).toBe(true);
    const pages: string[] = [];
    for (const [g, group] of view.links.entries()) {
      expect(group).toBe(`${B}/v2/streams/objects/groups/${g + 1}`);
      pages.push(...(await node(group, g < view.links.length - 1)).links);
    }
    let members = 0;
    for (const [i, page] of pages.entries()) {
      expect(page).toBe(`${B}/v2/streams/objects/pages/${i + 1}`);
      members += (await node(page, i < pages.length - 1)).quads.filter((q) => q.predicate.value === 'https://w3id.org/tree#member').length;
    }
    const n = pages.length;
    // Positions: one Create per object public after the first harvest (those public now, TUP-0073 and X-1),
    // then the second harvest's three changes. Members: less the three versions those changes superseded.
    const now = await totalItems('objects');
    expect(n).toBe(Math.ceil((now + 2 + 3) / PAGE_SIZE));
    expect(members).toBe(now + 2);

    // The same page in every syntax holds the same statements; Turtle and N-Triples without the named graphs.
    const nq = parse((await request(app).get('/v2/streams/objects/pages/1').set('Accept', 'application/n-quads').expect(200)).text, 'application/n-quads');
    expect(nq.some((q) => q.graph.termType === 'NamedNode')).toBe(true);
    const json = await request(app).get('/v2/streams/objects/pages/1').expect(200);
    expect(json.headers['content-type']).toBe('application/ld+json; charset=utf-8');
    // Read by another JSON-LD parser than any the service uses (jsonld.js would also rewrite xsd:double forms).
    const fromJson = await new Promise<Quad[]>((resolve, reject) => {
      const quads: Quad[] = [];
      const parser = new JsonLdParser();
      parser.on('data', (q: Quad) => quads.push(q)).on('error', reject).on('end', () => resolve(quads));
      parser.end(json.text);
    });
    expect(isomorphic(fromJson, nq)).toBe(true);
    const nt = parse((await request(app).get('/v2/streams/objects/pages/1').set('Accept', 'application/n-triples').expect(200)).text, 'application/n-triples');
    expect(isomorphic(nt, inDefaultGraph(nq))).toBe(true);

    await request(app).get('/v2/streams/nothing').expect(404);
    await request(app).get('/v2/streams/objects/pages/0').expect(404);
    await request(app).get(`/v2/streams/objects/pages/${n + 1}`).expect(404);
    await request(app).get(`/v2/streams/objects/groups/${view.links.length + 1}`).expect(404);
    await request(app).get('/v2/streams/objects/pages/x').expect(404);
  }, 60_000);
});
