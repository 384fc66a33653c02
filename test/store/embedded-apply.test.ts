/**
 * A swap to a generation written on the served one (docs/incremental.md): the two shared workers apply the change
 * in turn instead of loading the generation, and then answer exactly as workers that loaded it; a change that
 * cannot be applied falls back to loading.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateCollection } from '../../src/generator/collection.js';
import { writeCollection } from '../../src/generator/write.js';
import { harvestExport } from '../../src/harvest/harvest.js';
import { SOURCE_FILES, type ObjectRecord } from '../../src/harvest/schema.js';
import { KIND_NAMES } from '../../src/kinds/index.js';
import { createRecordGeneration, type Generation } from '../../src/store/generations.js';
import { RECORD_INDEX_FILE } from '../../src/store/record-files.js';
import { StoreManager } from '../../src/store/store-manager.js';
import type { GenerationManifest } from '../../src/store/types.js';

const BASE = 'http://localhost:3000';
const COLLECTION = generateCollection({ objects: 150, seed: 47, iiifBase: 'http://iiif.test' });
/** Every statement without blank nodes, in both parts: what a store holds, comparable across stores. */
const ALL = 'SELECT ?s ?p ?o ?g WHERE { GRAPH ?g { ?s ?p ?o } FILTER(!isBlank(?s) && !isBlank(?o)) } ORDER BY ?g ?s ?p ?o';
/** Statements per graph, blank nodes included. */
const PER_GRAPH = 'SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g ORDER BY ?g';

let work: string;
let runs = 0;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'embedded-apply-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

async function harvest(dataDir: string, objects: readonly ObjectRecord[], parent?: Generation): Promise<Generation> {
  const source = path.join(work, `source-${++runs}`);
  writeCollection(source, { ...COLLECTION, objects: [] });
  await writeFile(path.join(source, SOURCE_FILES.objects), objects.map((o) => `${JSON.stringify(o)}\n`).join(''));
  return createRecordGeneration(
    dataDir,
    { source: { kind: 'harvest', path: source }, baseUrl: BASE, kinds: KIND_NAMES },
    async (out) => ({ details: { ...(await harvestExport(source, out, { baseUrl: BASE, imageHosts: [], validateImages: false })) } }),
    { parent },
  );
}

const sharedManager = (): StoreManager => new StoreManager({ includeNonPublic: true, standby: true, share: true });

/** Resolves once the manager's standby has loaded (or applied a change and stands by). */
const standing = (manager: StoreManager): Promise<void> =>
  manager.standbyReady() ? Promise.resolve() : new Promise((resolve) => manager.once('standby', () => resolve()));

/** What a manager's stores answer to the comparison queries, on both parts, asked `times` times at once. */
async function contents(manager: StoreManager, times = 1): Promise<string[]> {
  const ask = (sparql: string, nonPublic: boolean) => manager.query(sparql, { nonPublic, format: 'application/sparql-results+json' });
  const answers = await Promise.all(
    Array.from({ length: times }, () => Promise.all([ask(ALL, false), ask(ALL, true), ask(PER_GRAPH, false), ask(PER_GRAPH, true)])),
  );
  return answers.map((a) => a.join('\n'));
}

/** The objects with a few edits: two retitled, one made private, one gone (one that nothing names), one new. */
function edited(objects: readonly ObjectRecord[]): ObjectRecord[] {
  const named = new Set<string>(COLLECTION.exhibitions.flatMap((e) => e.objects));
  for (const o of objects) {
    if (o.partOfSet !== undefined) named.add(o.partOfSet);
    if ('into' in o.state) named.add(o.state.into);
  }
  const gone = objects.find((o) => !named.has(o.objectNumber) && o.public)?.objectNumber;
  const [a, b, c] = objects.filter((o) => o.public && o.objectNumber !== gone).map((o) => o.objectNumber);
  const next = objects
    .filter((o) => o.objectNumber !== gone)
    .map((o) => (o.objectNumber === a || o.objectNumber === b ? { ...o, titles: { ...o.titles, nl: `${o.objectNumber} herzien` } } : o.objectNumber === c ? { ...o, public: false } : o));
  return [...next, { ...(objects[0] as ObjectRecord), objectNumber: 'NIEUW-1', state: { kind: 'current' }, partOfSet: undefined, sameAs: [] }];
}

describe('a swap to a generation written on the served one', () => {
  it('applies the change to both workers in turn, which then answer as workers that loaded it', async () => {
    const dataDir = path.join(work, 'data-apply');
    const first = await harvest(dataDir, COLLECTION.objects);
    const second = await harvest(dataDir, edited(COLLECTION.objects), first);
    const changes = second.manifest.details?.changes as { updated: number; created: number; removed: number };
    expect(changes.created).toBe(1);
    expect(changes.removed).toBe(1);

    const reference = sharedManager();
    const manager = sharedManager();
    try {
      await reference.start(second.dir);
      const expected = (await contents(reference))[0] as string;
      await manager.start(first.dir);
      await standing(manager);
      const before = (await contents(manager))[0];
      expect(before).not.toBe(expected);

      const swaps: { to: GenerationManifest; change?: { records: number } }[] = [];
      manager.on('swap', (event: { to: GenerationManifest; change?: { records: number } }) => swaps.push(event));
      const standby = standing(manager);
      await manager.swap(second.dir);
      expect(swaps).toHaveLength(1);
      expect(swaps[0]?.to.id).toBe(second.id);
      // Applied, not loaded: the records taken out and put in, a few, not the collection.
      expect(swaps[0]?.change?.records).toBeGreaterThanOrEqual(changes.created + changes.updated + changes.removed);
      expect(swaps[0]?.change?.records).toBeLessThan(2 * (changes.created + changes.updated + changes.removed) + 1);
      expect(manager.generation?.id).toBe(second.id);
      expect((await contents(manager))[0]).toBe(expected);
      // The old worker applies the same change and stands by: both answer alike.
      await standby;
      expect(manager.clientReady()).toBe(true);
      for (const answer of await contents(manager, 4)) expect(answer).toBe(expected);
    } finally {
      await Promise.all([manager.close(), reference.close()]);
    }
  }, 180_000);

  it('applies the change when the swap comes while the standby still loads the served generation', async () => {
    const dataDir = path.join(work, 'data-early');
    const first = await harvest(dataDir, COLLECTION.objects);
    const second = await harvest(dataDir, edited(COLLECTION.objects), first);
    const manager = sharedManager();
    try {
      await manager.start(first.dir);
      // Right after the start the standby is loading the served generation: not yet sharing.
      expect(manager.standbyReady()).toBe(false);
      const swaps: { change?: { records: number } }[] = [];
      manager.on('swap', (event: { change?: { records: number } }) => swaps.push(event));
      await manager.swap(second.dir);
      expect(swaps).toHaveLength(1);
      expect(swaps[0]?.change?.records).toBeGreaterThan(0);
      expect(manager.generation?.id).toBe(second.id);
    } finally {
      await manager.close();
    }
  }, 180_000);

  it('loads the generation when the change cannot be applied', async () => {
    const dataDir = path.join(work, 'data-fallback');
    const first = await harvest(dataDir, COLLECTION.objects);
    const second = await harvest(dataDir, edited(COLLECTION.objects), first);
    // Without its record index the change is unknown to the workers.
    await rm(path.join(second.dir, RECORD_INDEX_FILE));
    const reference = sharedManager();
    const manager = sharedManager();
    try {
      await reference.start(second.dir);
      const expected = (await contents(reference))[0] as string;
      await manager.start(first.dir);
      await standing(manager);
      const swaps: { change?: unknown }[] = [];
      manager.on('swap', (event: { change?: unknown }) => swaps.push(event));
      await manager.swap(second.dir);
      expect(swaps).toHaveLength(1);
      expect(swaps[0]?.change).toBeUndefined();
      expect(manager.generation?.id).toBe(second.id);
      expect((await contents(manager))[0]).toBe(expected);
      await standing(manager);
      for (const answer of await contents(manager, 4)) expect(answer).toBe(expected);
    } finally {
      await Promise.all([manager.close(), reference.close()]);
    }
  }, 180_000);
});
