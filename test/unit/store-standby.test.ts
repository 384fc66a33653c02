/**
 * StoreManager's standby worker (option `standby`, the SPARQL store; issue 13): a second worker loaded on the
 * served generation takes over at once when the serving worker dies at a query's deadline or crashes, a new
 * standby loads behind it, a swap brings a standby on the new generation, and close ends every worker.
 */
import { once } from 'node:events';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { QueryDeadlineError } from '../../src/store/errors.js';
import type { Generation } from '../../src/store/generations.js';
import { loadNQuadsFile } from '../../src/store/load.js';
import { StoreManager } from '../../src/store/store-manager.js';
import { objectGraph, objectIri, tempDir, writeNQuads } from './store-fixtures.js';
import { KIND_NAMES } from '../../src/kinds/index.js';

const RDFS_LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';
const titleQuery = `SELECT ?title WHERE { GRAPH <${objectIri(1)}> { <${objectIri(1)}> <${RDFS_LABEL}> ?title } }`;
// 3000 triples cubed: runs for hours unless ended.
const RUNAWAY = 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }';
const title = (json: string): string | undefined =>
  (JSON.parse(json) as { results: { bindings: { title?: { value: string } }[] } }).results.bindings[0]?.title?.value;

describe('StoreManager with a standby worker', () => {
  let dir: string;
  let remove: () => Promise<void>;
  /** 500 objects titled "<prefix> n": enough for a runaway query to pass a short deadline. */
  let genA: Generation;
  let genB: Generation;
  const managers: StoreManager[] = [];
  const manager = (standby = true): StoreManager => {
    const m = new StoreManager({ includeNonPublic: false, standby, testHooks: true });
    managers.push(m);
    return m;
  };
  const generation = async (name: string): Promise<Generation> => {
    const lines: string[] = [];
    for (let n = 1; n <= 500; n++) lines.push(...objectGraph(n, `${name} ${n}`));
    const dataDir = path.join(dir, name);
    await mkdir(dataDir);
    return loadNQuadsFile(dataDir, await writeNQuads(path.join(dir, `${name}.nq`), lines), { kinds: KIND_NAMES });
  };
  const untilStandby = async (store: StoreManager): Promise<void> => {
    if (!store.standbyReady()) await once(store, 'standby');
    expect(store.standbyReady()).toBe(true);
  };

  beforeAll(async () => {
    ({ dir, remove } = await tempDir('store-standby-'));
    genA = await generation('A');
    genB = await generation('B');
  });
  afterEach(async () => {
    await Promise.all(managers.splice(0).map((m) => m.close()));
  });
  afterAll(() => remove());

  it('serves from the standby at once after a query past its deadline, and loads a new standby behind it', async () => {
    const store = manager();
    await store.start(genA.dir);
    await untilStandby(store);
    const restarts: { standby: boolean }[] = [];
    store.on('restart', (event: { standby: boolean }) => restarts.push(event));

    await expect(store.query(RUNAWAY, { deadlineMs: 300, unionDefaultGraph: true })).rejects.toBeInstanceOf(QueryDeadlineError);
    // No reload in between: the very next query is answered.
    expect(store.ready()).toBe(true);
    const started = performance.now();
    expect(title(await store.query(titleQuery))).toBe('A 1');
    expect(performance.now() - started).toBeLessThan(1000);
    expect(restarts).toEqual([expect.objectContaining({ standby: true, generation: expect.objectContaining({ id: genA.id }) })]);
    expect(store.standbyReady()).toBe(false);

    // The new standby takes over the next time.
    await untilStandby(store);
    await expect(store.query(RUNAWAY, { deadlineMs: 300, unionDefaultGraph: true })).rejects.toBeInstanceOf(QueryDeadlineError);
    expect(title(await store.query(titleQuery))).toBe('A 1');
    expect(restarts).toHaveLength(2);
    expect(restarts[1]?.standby).toBe(true);
  });

  it('answers a query that waited behind the runaway on the worker that took over', async () => {
    const store = manager();
    await store.start(genA.dir);
    await untilStandby(store);
    const runaway = store.query(RUNAWAY, { deadlineMs: 300, unionDefaultGraph: true });
    // Sent after the runaway to the same worker, it waits there until that worker is ended.
    const queued = store.query(titleQuery, { deadlineMs: 5000 });
    await expect(runaway).rejects.toBeInstanceOf(QueryDeadlineError);
    expect(title(await queued)).toBe('A 1');
  });

  it('takes over from a crashed worker too', async () => {
    const store = manager();
    await store.start(genA.dir);
    await untilStandby(store);
    const crash = once(store, 'crash');
    const restart = once(store, 'restart');
    store.crashForTest();
    await crash;
    const [event] = (await restart) as [{ standby: boolean }];
    expect(event.standby).toBe(true);
    expect(title(await store.query(titleQuery))).toBe('A 1');
  });

  it('restarts on the standby still loading when the serving worker dies before it is ready', async () => {
    const store = manager();
    await store.start(genA.dir);
    // At once: the standby has only begun to load.
    expect(store.standbyReady()).toBe(false);
    const restart = once(store, 'restart');
    await expect(store.query(RUNAWAY, { deadlineMs: 50, unionDefaultGraph: true })).rejects.toBeInstanceOf(QueryDeadlineError);
    await restart;
    expect(title(await store.query(titleQuery))).toBe('A 1');
    // And a standby loads behind the restarted worker.
    await untilStandby(store);
  });

  it('swaps to a new generation and keeps a standby on it', async () => {
    const store = manager();
    await store.start(genA.dir);
    await untilStandby(store);
    await store.swap(genB.dir);
    expect(title(await store.query(titleQuery))).toBe('B 1');
    await untilStandby(store);
    // The standby that takes over serves the new generation, not the old one.
    await expect(store.query(RUNAWAY, { deadlineMs: 300, unionDefaultGraph: true })).rejects.toBeInstanceOf(QueryDeadlineError);
    expect(title(await store.query(titleQuery))).toBe('B 1');
    expect(store.generation?.id).toBe(genB.id);
  });

  it('keeps the standby and the old generation when a swap fails', async () => {
    const store = manager();
    await store.start(genA.dir);
    await untilStandby(store);
    await expect(store.swap(path.join(dir, 'nowhere'))).rejects.toThrow(/ENOENT/);
    expect(store.standbyReady()).toBe(true);
    expect(title(await store.query(titleQuery))).toBe('A 1');
  });

  it('keeps one worker without the option: a deadline reloads it', async () => {
    const store = manager(false);
    await store.start(genA.dir);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(store.standbyReady()).toBe(false);
    const restart = once(store, 'restart');
    await expect(store.query(RUNAWAY, { deadlineMs: 300, unionDefaultGraph: true })).rejects.toBeInstanceOf(QueryDeadlineError);
    const [event] = (await restart) as [{ standby: boolean }];
    expect(event.standby).toBe(false);
    expect(title(await store.query(titleQuery))).toBe('A 1');
  });

  it('ends the standby with the store', async () => {
    const store = manager();
    await store.start(genA.dir);
    await untilStandby(store);
    await store.close();
    expect(store.standbyReady()).toBe(false);
    expect(store.ready()).toBe(false);
  });
});
