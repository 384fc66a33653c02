/**
 * The embedded store at its limit (issue 13): a generation whose manifest counts more quads than one WebAssembly
 * heap holds is refused at once, before any worker starts, with a message naming the limit and STORE_URL; by
 * StoreManager.start and swap (the old generation keeps serving) and by the stored index step of the data commands.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { storedIndexStep } from '../../src/engine/generation-index.js';
import {
  checkFitsEmbeddedStore,
  EMBEDDED_MAX_QUADS,
  embeddedQuadLimit,
  GenerationTooLargeError,
  MAX_QUADS_ENV,
} from '../../src/store/embedded-limit.js';
import { generationFiles, type Generation } from '../../src/store/generations.js';
import { loadNQuadsFile } from '../../src/store/load.js';
import { StoreManager } from '../../src/store/store-manager.js';
import type { GenerationManifest } from '../../src/store/types.js';
import { adminQuads, objectGraph, objectIri, tempDir, writeNQuads } from './store-fixtures.js';
import { KIND_NAMES, KINDS } from '../../src/kinds/index.js';

const MESSAGE = /too large for the embedded store: 14\.5M quads \(100,000 records, 100,000 of them objects\) against a limit of 13\.0M quads in one WebAssembly heap \(about 76k objects of 171 quads each\)\. .*set STORE_URL/;

describe('the embedded store limit', () => {
  let dir: string;
  let remove: () => Promise<void>;
  let small: Generation;
  /** The small generation's files under a manifest that claims 100k objects (14.5M quads). */
  let huge: Generation;
  const managers: StoreManager[] = [];
  const manager = (includeNonPublic: boolean, maxQuads?: number): StoreManager => {
    const m = new StoreManager({ includeNonPublic, ...(maxQuads === undefined ? {} : { maxQuads }) });
    managers.push(m);
    return m;
  };

  const claiming = (manifest: GenerationManifest, publicQuads: number, nonPublicQuads: number, objects: number): GenerationManifest => ({
    ...manifest,
    counts: {
      ...manifest.counts,
      publicQuads,
      nonPublicQuads,
      publicRecords: { object: objects, agent: 0, exhibition: 0, concept: 0 },
      nonPublicRecords: { object: 0, agent: 0, exhibition: 0, concept: 0 },
    },
  });

  beforeAll(async () => {
    ({ dir, remove } = await tempDir('store-limit-'));
    const lines = [...objectGraph(1, 'Small 1'), ...objectGraph(2), ...adminQuads(objectIri(2), { private: true })];
    await mkdir(path.join(dir, 'data'));
    small = await loadNQuadsFile(path.join(dir, 'data'), await writeNQuads(path.join(dir, 'small.nq'), lines), { makeCurrent: false, kinds: KIND_NAMES });
    const hugeDir = path.join(dir, 'huge');
    await mkdir(hugeDir);
    for (const name of ['public', 'nonPublic'] as const) {
      await writeFile(generationFiles(hugeDir)[name], await readFile(generationFiles(small.dir)[name]));
    }
    const manifest = claiming(small.manifest, 14_500_000, 0, 100_000);
    await writeFile(generationFiles(hugeDir).manifest, JSON.stringify(manifest));
    huge = { id: manifest.id, dir: hugeDir, manifest };
  });
  afterEach(async () => {
    await Promise.all(managers.splice(0).map((m) => m.close()));
  });
  afterAll(() => remove());

  it('is a named constant of 13M quads, about 76k objects of the generator shape', () => {
    expect(EMBEDDED_MAX_QUADS).toBe(13_000_000);
    expect(embeddedQuadLimit({})).toBe(EMBEDDED_MAX_QUADS);
    expect(embeddedQuadLimit({ [MAX_QUADS_ENV]: '20_000_000' })).toBe(20_000_000);
    expect(() => embeddedQuadLimit({ [MAX_QUADS_ENV]: 'lots' })).toThrow('EMBEDDED_MAX_QUADS must be a positive whole number of quads, not "lots"');
  });

  it('refuses to start on a generation too large for one heap, at once and with the limit and STORE_URL', async () => {
    const store = manager(false);
    const loading: unknown[] = [];
    store.on('loading', (event) => loading.push(event));
    const started = performance.now();
    const failure = store.start(huge.dir);
    await expect(failure).rejects.toBeInstanceOf(GenerationTooLargeError);
    await expect(failure).rejects.toThrow(MESSAGE);
    expect(performance.now() - started).toBeLessThan(1000);
    // No worker was started.
    expect(loading).toEqual([]);
    expect(store.ready()).toBe(false);
  });

  it('counts the non-public quads for the REST store only', () => {
    const manifest = claiming(small.manifest, 12_000_000, 2_000_000, 80_000);
    expect(checkFitsEmbeddedStore(manifest, false)).toBe(12_000_000);
    expect(() => checkFitsEmbeddedStore(manifest, true)).toThrow(/14\.0M quads .* against a limit of 13\.0M quads/);
    expect(checkFitsEmbeddedStore(manifest, true, 15_000_000)).toBe(14_000_000);
  });

  it('refuses a swap to a generation too large at once, and keeps serving the old one', async () => {
    const store = manager(true);
    await store.start(small.dir);
    const started = performance.now();
    await expect(store.swap(huge.dir)).rejects.toThrow(MESSAGE);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(store.generation?.id).toBe(small.id);
    const answer = await store.query(`ASK { GRAPH <${objectIri(1)}> { ?s ?p "Small 1" } }`);
    expect(JSON.parse(answer)).toMatchObject({ boolean: true });
  });

  it('takes a lower or higher limit as an option', async () => {
    await expect(manager(true, 5).start(small.dir)).rejects.toThrow(/against a limit of 5 quads in one WebAssembly heap \(about 0 objects/);
    expect((await manager(false, 15_000_000).start(huge.dir)).id).toBe(huge.id);
  });

  it('lets harvest and load write the stored index all the same, from the files, without loading the generation', async () => {
    const outcomes: unknown[] = [];
    await storedIndexStep({ baseUrl: 'http://museum.test', kinds: KINDS, onDone: (outcome) => outcomes.push(outcome) })(huge);
    expect(outcomes).toEqual([{ report: expect.objectContaining({ from: { files: expect.any(Number), store: 0 } }) }]);
  });
});
