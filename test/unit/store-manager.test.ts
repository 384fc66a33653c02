import { once } from 'node:events';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { QueryDeadlineError, QueryError, StoreUnavailableError } from '../../src/store/errors.js';
import { generationFiles, type Generation } from '../../src/store/generations.js';
import { loadNQuadsFile } from '../../src/store/load.js';
import { StoreManager, type QueryOutcome } from '../../src/store/store-manager.js';
import { ADMIN_GRAPH, adminQuads, agentGraph, objectGraph, objectIri, tempDir, writeNQuads } from './store-fixtures.js';
import { KIND_NAMES } from '../../src/kinds/index.js';

const RDFS_LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';
const titleQuery = `SELECT ?title WHERE { GRAPH <${objectIri(1)}> { <${objectIri(1)}> <${RDFS_LABEL}> ?title } }`;

interface SelectJson {
  results: { bindings: Record<string, { value: string }>[] };
}
const values = (json: string, name: string): string[] =>
  (JSON.parse(json) as SelectJson).results.bindings.map((b) => b[name]?.value ?? '');

describe('StoreManager', () => {
  let dir: string;
  let remove: () => Promise<void>;
  /** Objects 1-3 titled "<prefix> n", object 3 private; agents 1-2. */
  let genA: Generation;
  let genB: Generation;
  let big: Generation;
  const managers: StoreManager[] = [];
  const manager = (includeNonPublic = false, onQuery?: (ms: number, kind: string, outcome: QueryOutcome) => void): StoreManager => {
    const m = new StoreManager({ includeNonPublic, testHooks: true, onQuery });
    managers.push(m);
    return m;
  };

  const generation = async (name: string, lines: string[]): Promise<Generation> => {
    const dataDir = path.join(dir, name);
    await mkdir(dataDir);
    return loadNQuadsFile(dataDir, await writeNQuads(path.join(dir, `${name}.nq`), lines), { kinds: KIND_NAMES });
  };
  const titled = (prefix: string): string[] => [
    ...objectGraph(1, `${prefix} 1`),
    ...objectGraph(2, `${prefix} 2`),
    ...objectGraph(3, `${prefix} 3`),
    ...agentGraph(1),
    ...agentGraph(2),
    ...adminQuads(objectIri(3), { private: true }),
  ];

  beforeAll(async () => {
    ({ dir, remove } = await tempDir('store-manager-'));
    genA = await generation('a', titled('A'));
    genB = await generation('b', titled('B'));
    const many: string[] = [];
    for (let n = 1; n <= 500; n++) many.push(...objectGraph(n));
    big = await generation('big', many);
  });
  afterEach(async () => {
    await Promise.all(managers.splice(0).map((m) => m.close()));
  });
  afterAll(() => remove());

  it('rejects queries at once with StoreUnavailableError before it has started', async () => {
    const store = manager();
    expect(store.ready()).toBe(false);
    expect(store.generation).toBeUndefined();
    const failure = store.query(titleQuery);
    await expect(failure).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(failure).rejects.toMatchObject({ retryAfterSeconds: expect.any(Number) });
  });

  it('answers SELECT and ASK with SPARQL JSON and CONSTRUCT with N-Quads from its worker', async () => {
    const store = manager();
    const manifest = await store.start(genA.dir);
    expect(manifest.id).toBe(genA.id);
    expect(store.ready()).toBe(true);
    expect(store.generation?.id).toBe(genA.id);

    expect(values(await store.query(titleQuery), 'title')).toEqual(['A 1']);
    expect(JSON.parse(await store.query(`ASK { GRAPH ?g { <${objectIri(2)}> ?p ?o } }`))).toMatchObject({ boolean: true });
    const constructed = await store.query(
      `CONSTRUCT { ?s ?p ?o } WHERE { GRAPH <${objectIri(1)}> { ?s ?p ?o } }`,
    );
    // The six statements of the object graph, blank node relabelled by the store.
    expect(constructed.trim().split('\n')).toHaveLength(6);
    expect(constructed).toContain(`<${objectIri(1)}> <${RDFS_LABEL}> "A 1" .`);
    const csv = await store.query('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }', { format: 'text/csv', unionDefaultGraph: true });
    // objects 1 and 2 (6 quads each) and agents 1 and 2 (2 each): object 3 is private.
    expect(csv.trim().split(/\r?\n/)).toEqual(['n', '16']);
  });

  it('holds the non-public quads only when asked to (the REST store), apart, read only by queries that ask for them', async () => {
    const sparql = manager(false);
    const rest = manager(true);
    await Promise.all([sparql.start(genA.dir), rest.start(genA.dir)]);
    const q = `SELECT DISTINCT ?g WHERE { GRAPH ?g { <${objectIri(3)}> ?p ?o } } ORDER BY ?g`;
    expect(values(await sparql.query(q), 'g')).toEqual([]);
    await expect(sparql.query(q, { nonPublic: true })).rejects.toThrow(/public part only/);
    // The public part holds nothing of the private object, whatever the query names.
    expect(values(await rest.query(q), 'g')).toEqual([]);
    expect(values(await rest.query(q, { unionDefaultGraph: true }), 'g')).toEqual([]);
    // The non-public part: its own graph and the admin graph that makes it private.
    expect(values(await rest.query(q, { nonPublic: true }), 'g')).toEqual([ADMIN_GRAPH, objectIri(3)]);
  });

  it('rejects a malformed query with QueryError and keeps serving', async () => {
    const store = manager();
    await store.start(genA.dir);
    await expect(store.query('SELEC ?x WHERE { ?x ?y ?z }')).rejects.toBeInstanceOf(QueryError);
    await expect(store.query(titleQuery, { format: 'application/n-quads' })).rejects.toBeInstanceOf(QueryError);
    await expect(store.query('INSERT DATA { <urn:a> <urn:b> <urn:c> }')).rejects.toBeInstanceOf(QueryError);
    expect(values(await store.query(titleQuery), 'title')).toEqual(['A 1']);
  });

  it('swaps generations while queries run, with no failed query, and answers from the new data after', async () => {
    const store = manager();
    await store.start(genA.dir);
    const answers: string[] = [];
    const failures: unknown[] = [];
    let swapped = false;
    let afterSwap = 0;
    // Four clients at once, so that queries are in flight on the old worker when the swap happens.
    const client = async (): Promise<void> => {
      while (!swapped || afterSwap < 40) {
        try {
          answers.push(...values(await store.query(titleQuery), 'title'));
        } catch (err) {
          failures.push(err);
        }
        if (swapped) afterSwap++;
      }
    };
    const loop = Promise.all([client(), client(), client(), client()]);
    const swapEvent = once(store, 'swap');
    await store.swap(genB.dir);
    swapped = true;
    await loop;

    expect(failures).toEqual([]);
    expect(answers[0]).toBe('A 1');
    expect(answers[answers.length - 1]).toBe('B 1');
    expect(new Set(answers)).toEqual(new Set(['A 1', 'B 1']));
    const [event] = (await swapEvent) as [{ from: { id: string }; to: { id: string } }];
    expect([event.from.id, event.to.id]).toEqual([genA.id, genB.id]);
    expect(store.generation?.id).toBe(genB.id);
  });

  it('keeps serving the old generation when a swap cannot load the new one', async () => {
    const store = manager();
    await store.start(genA.dir);
    await expect(store.swap(path.join(dir, 'nowhere'))).rejects.toThrow(/ENOENT/);
    // A folder whose manifest reads fine but whose gzip file was cut short fails inside the worker.
    const damaged = path.join(dir, 'damaged');
    await cp(genB.dir, damaged, { recursive: true });
    const file = generationFiles(damaged).public;
    const bytes = await readFile(file);
    await writeFile(file, bytes.subarray(0, bytes.length - 20));
    await expect(store.swap(damaged)).rejects.toThrow(`loading ${damaged} failed: ${file}: unexpected end of file`);
    expect(store.generation?.id).toBe(genA.id);
    expect(values(await store.query(titleQuery), 'title')).toEqual(['A 1']);
  });

  it('fails queries with StoreUnavailableError when its worker dies, then restarts it on the same generation', async () => {
    const store = manager();
    await store.start(genA.dir);
    const crash = once(store, 'crash');
    const restarted = once(store, 'restart');
    store.crashForTest();
    // Sent after the exit message, so the worker dies with this query in flight.
    const inFlight = store.query(titleQuery);
    await expect(inFlight).rejects.toBeInstanceOf(StoreUnavailableError);
    await crash;
    if (!store.ready()) await expect(store.query(titleQuery)).rejects.toBeInstanceOf(StoreUnavailableError);
    const [event] = (await restarted) as [{ generation: { id: string } }];
    expect(event.generation.id).toBe(genA.id);
    expect(store.ready()).toBe(true);
    expect(values(await store.query(titleQuery), 'title')).toEqual(['A 1']);
  });

  it('ends a query past its deadline with QueryDeadlineError, restarts the worker, and answers the next query', async () => {
    const seen: [string, QueryOutcome][] = [];
    const store = manager(false, (_ms, kind, outcome) => seen.push([kind, outcome]));
    await store.start(big.dir);
    const restarted = once(store, 'restart');
    // 3000 triples cubed: runs for hours unless ended.
    const runaway = 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }';
    const failure = store.query(runaway, { deadlineMs: 300, unionDefaultGraph: true, label: 'runaway' });
    await expect(failure).rejects.toBeInstanceOf(QueryDeadlineError);
    await restarted;
    const count = await store.query('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }', { unionDefaultGraph: true });
    expect(values(count, 'n')).toEqual([String(500 * 6)]);
    expect(seen).toEqual([
      ['runaway', 'deadline'],
      ['select', 'ok'],
    ]);
  });

  it('rejects every query with StoreUnavailableError once closed', async () => {
    const store = manager();
    await store.start(genA.dir);
    await store.close();
    expect(store.ready()).toBe(false);
    await expect(store.query(titleQuery)).rejects.toBeInstanceOf(StoreUnavailableError);
  });
});
