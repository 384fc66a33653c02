/**
 * The stored index answered from a generation's files, graph by graph (collection-index/by-graph.ts): which
 * queries qualify (graph-scope.ts, read off the parsed query), and that the answers equal those of the whole
 * generation loaded into one Oxigraph store, over the demo generation cut into many chunks. Files whose graphs are
 * not kept together are refused, and the stored index then asks a store.
 */
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import sparqljs from 'sparqljs';
import { answerByGraph, feedByGraph } from '../../src/collection-index/by-graph.js';
import { boundSelect } from '../../src/collection-index/build.js';
import { graphScope } from '../../src/collection-index/graph-scope.js';
import { StoredIndex } from '../../src/collection-index/stored-index.js';
import { writeGenerationIndex } from '../../src/engine/generation-index.js';
import { KINDS } from '../../src/kinds/index.js';
import { QueryLibrary } from '../../src/queries/library.js';
import { parseSelectJson } from '../../src/records/sparql-json.js';
import { STATUS_QUERY } from '../../src/records/status-index.js';
import { generationDir, MANIFEST_FILE, NONPUBLIC_FILE, PUBLIC_FILE, readGeneration, type Generation } from '../../src/store/generations.js';
import { StoreManager } from '../../src/store/store-manager.js';
import { Iris } from '../../src/vocab/iris.js';
import { demoData, TEST_BASE_URL } from '../helpers/demo.js';
import { tempDir } from './store-fixtures.js';

const NAMES = [...KINDS.flatMap((kind) => Object.values(kind.index.queries)), STATUS_QUERY];
const parser = new sparqljs.Parser();
const scopeOf = (text: string, params: string[] = ['admin']): ReturnType<typeof graphScope> => graphScope(parser.parse(text), params);
const PREFIX = 'PREFIX ex: <http://example.org/> ';

describe('the graph scope of a query', () => {
  it('is the admin graph or one record graph for every query the stored index holds', () => {
    const queries = new QueryLibrary();
    const scopes = Object.fromEntries(NAMES.map((name) => {
      const entry = queries.get(name);
      return [name, graphScope(entry.ast, entry.params.map((p) => p.name)).scope];
    }));
    expect(scopes[STATUS_QUERY]).toBe('admin');
    for (const name of NAMES.filter((n) => n !== STATUS_QUERY)) expect([name, scopes[name]]).toEqual([name, 'record']);
  });

  it.each([
    ['a pattern in the default graph', 'SELECT ?s WHERE { ?s ex:p ?o }', /default graph/],
    ['two graph variables', 'SELECT ?s WHERE { GRAPH ?a { ?s ex:p ?o } GRAPH ?b { ?o ex:q ?x } }', /several graph variables/],
    ['a graph bound only in an OPTIONAL', 'SELECT ?s WHERE { GRAPH ?admin { ?s ex:p ?o } OPTIONAL { GRAPH ?g { ?s ex:q ?x } } }', /unbound/],
    ['a graph bound in one branch of a UNION only', 'SELECT ?s WHERE { { GRAPH ?g { ?s ex:p ?o } } UNION { GRAPH ?admin { ?s ex:q ?o } } }', /unbound/],
    ['a graph named by an IRI', 'SELECT ?s WHERE { GRAPH ex:g { ?s ex:p ?o } }', /IRI/],
    ['an order', 'SELECT ?s WHERE { GRAPH ?g { ?s ex:p ?o } } ORDER BY ?s', /ordered/],
    ['a slice', 'SELECT ?s WHERE { GRAPH ?g { ?s ex:p ?o } } LIMIT 5', /sliced/],
    ['an aggregate', 'SELECT (COUNT(?s) AS ?n) WHERE { GRAPH ?g { ?s ex:p ?o } }', /grouped|projected/],
    ['a sub-query', 'SELECT ?s WHERE { GRAPH ?g { { SELECT ?s WHERE { ?s ex:p ?o } } } }', /query pattern/],
    ['a GRAPH inside a GRAPH', 'SELECT ?s WHERE { GRAPH ?g { ?s ex:p ?o GRAPH ?admin { ?s ex:q ?x } } }', /inside a GRAPH/],
    ['a graph named by another parameter', 'SELECT ?s WHERE { GRAPH ?other { ?s ex:p ?o } }', /parameter \?other/],
  ])('needs the whole generation with %s', (_name, query, reason) => {
    const scope = scopeOf(`${PREFIX}${query}`, ['admin', 'other']);
    expect(scope.scope).toBe('whole');
    expect(scope.scope === 'whole' && scope.reason).toMatch(reason);
  });

  it('lists the predicates a record-graph query can match, or any', () => {
    const record = scopeOf(`${PREFIX}SELECT DISTINCT ?s WHERE { GRAPH ?g { ?s a ex:T ; ex:p/(ex:q|^ex:r) ?o . OPTIONAL { ?s ex:opt ?x } FILTER EXISTS { ?s ex:e ?y } } FILTER NOT EXISTS { GRAPH ?admin { ?s ?state ?v } } }`);
    expect(record).toEqual({
      scope: 'record',
      variable: 'g',
      distinct: true,
      predicates: new Set(['http://www.w3.org/1999/02/22-rdf-syntax-ns#type', ...['p', 'q', 'r', 'opt', 'e'].map((p) => `http://example.org/${p}`)]),
    });
    expect(scopeOf(`${PREFIX}SELECT ?s WHERE { GRAPH ?g { ?s ?p ?o } }`)).toMatchObject({ scope: 'record', predicates: 'any' });
    expect(scopeOf(`${PREFIX}SELECT ?s WHERE { GRAPH ?g { ?s !ex:p ?o } }`)).toMatchObject({ scope: 'record', predicates: 'any' });
  });
});

/** Rows in a canonical order, to compare answers as multisets. */
const sorted = (rows: readonly Readonly<Record<string, string>>[]): string[] => rows.map((row) => JSON.stringify(Object.entries(row).sort())).sort();

describe('answers by graph over the demo generation', () => {
  let dir: string;
  let remove: () => Promise<void>;
  let generation: Generation;
  let store: StoreManager;
  /** The answers of the first test, which the later ones compare with. */
  let reference: Awaited<ReturnType<typeof answerByGraph>> | undefined;
  const queries = new QueryLibrary();
  const iris = new Iris(TEST_BASE_URL);

  beforeAll(async () => {
    ({ dir, remove } = await tempDir('by-graph-'));
    const demo = await demoData();
    const dataDir = path.join(dir, 'data');
    const target = generationDir(dataDir, demo.generation.id);
    await mkdir(target, { recursive: true });
    for (const file of [PUBLIC_FILE, NONPUBLIC_FILE, MANIFEST_FILE]) await copyFile(path.join(demo.generation.dir, file), path.join(target, file));
    generation = await readGeneration(dataDir, demo.generation.id);
    store = new StoreManager({ includeNonPublic: true });
    await store.start(generation.dir);
  }, 600_000);
  afterAll(async () => {
    await store?.close();
    await remove?.();
  });

  it('equals the answers of the store (each query over the part of the generation it reads), query by query, across many small chunks', async () => {
    const answered = await answerByGraph({ queries, iris }, generation.dir, NAMES, { chunkQuads: 3_000 });
    if ('refused' in answered) throw new Error(answered.refused);
    reference = answered;
    expect(answered.left).toEqual([]);
    expect(answered.chunks).toBeGreaterThan(20);
    // The record-scoped queries read the public part: only its file is cut into chunks.
    expect(answered.quads).toBe(generation.manifest.counts.publicQuads);
    expect((await adminLines(generation)).length).toBeGreaterThan(0);
    for (const { name, text, rows } of answered.answers) {
      const whole = parseSelectJson(await store.query(boundSelect({ queries, iris }, name), { format: 'application/sparql-results+json', nonPublic: queries.get(name).nonPublic }));
      expect(text).toBe(boundSelect({ queries, iris }, name));
      expect([name, rows.length]).toEqual([name, whole.length]);
      expect(sorted(rows)).toEqual(sorted(whole));
    }
  }, 120_000);

  it('gives the same rows whatever the number of workers', async () => {
    const one = reference ?? (await answerByGraph({ queries, iris }, generation.dir, NAMES, { chunkQuads: 3_000 }));
    const three = await answerByGraph({ queries, iris }, generation.dir, NAMES, { chunkQuads: 3_000, workers: 3 });
    if ('refused' in one || 'refused' in three) throw new Error('refused');
    expect(three.workers).toBe(3);
    expect(three.loaded).toBe(one.loaded);
    expect(one.workers).not.toBe(3);
    // Row for row: rows come record by record, in file order, and in a canonical order within a record
    // (record-answers.ts), whatever store asked them.
    expect(three.answers.map((a) => [a.name, a.rows])).toEqual(one.answers.map((a) => [a.name, a.rows]));
  }, 120_000);

  it("gives the same rows fed the generation's text as it is written, in chunks of any size, as from its files", async () => {
    const one = reference ?? (await answerByGraph({ queries, iris }, generation.dir, NAMES, { chunkQuads: 3_000 }));
    if ('refused' in one) throw new Error(one.refused);
    const text = {
      public: gunzipSync(await readFile(path.join(generation.dir, PUBLIC_FILE))).toString('utf8'),
      nonPublic: gunzipSync(await readFile(path.join(generation.dir, NONPUBLIC_FILE))).toString('utf8'),
    };
    // Chunks cut anywhere (inside a line, inside a term), both parts interleaved as
    // the harvest writes them; a seeded walk, so a failure repeats.
    let seed = 7;
    const next = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const feed = feedByGraph({ queries, iris }, NAMES, { chunkQuads: 3_000 });
    const at = { public: 0, nonPublic: 0 };
    while (at.public < text.public.length || at.nonPublic < text.nonPublic.length) {
      for (const part of ['public', 'nonPublic'] as const) {
        const size = Math.floor(next() * 40_000) + 1;
        const chunk = text[part].slice(at[part], at[part] + size);
        at[part] += chunk.length;
        if (chunk !== '') await feed.tap[part](chunk);
      }
    }
    await feed.tap.end();
    const fed = await feed.answers;
    if ('refused' in fed) throw new Error(fed.refused);
    expect(fed.quads).toBe(one.quads);
    expect(fed.chunks).toBe(one.chunks);
    expect(fed.loaded).toBe(one.loaded);
    expect(fed.answers.map((a) => [a.name, a.text, a.rows])).toEqual(one.answers.map((a) => [a.name, a.text, a.rows]));
  }, 120_000);

  it('is refused when fed graphs that are not kept together, and stops its workers when aborted', async () => {
    const lines = gunzipSync(await readFile(path.join(generation.dir, PUBLIC_FILE))).toString('utf8').split('\n').filter((l) => l !== '');
    const feed = feedByGraph({ queries, iris }, NAMES, { chunkQuads: 3_000 });
    // The first graph's first line again at the end: that graph comes back after others.
    await feed.tap.public(`${lines.join('\n')}\n${lines[0]}\n`);
    await feed.tap.end();
    expect(await feed.answers).toEqual({ refused: expect.stringMatching(/are not together/) });
    const aborted = feedByGraph({ queries, iris }, NAMES);
    await aborted.tap.public(`${lines.slice(0, 100).join('\n')}\n`);
    await aborted.tap.abort();
    await expect(aborted.answers).rejects.toThrow(/exited/);
    // Fed after the abort: nothing is sent, nothing waits.
    await aborted.tap.public(`${lines[0]}\n`);
  }, 120_000);

  it('refuses files whose graphs are not kept together, and the stored index then asks a store, with the same answers', async () => {
    const { dir: other, remove: removeOther } = await tempDir('by-graph-split-');
    try {
      const dataDir = path.join(other, 'data');
      const target = generationDir(dataDir, generation.id);
      await mkdir(target, { recursive: true });
      await copyFile(path.join(generation.dir, NONPUBLIC_FILE), path.join(target, NONPUBLIC_FILE));
      // The first statement moves to the end of the file: its graph is then in two places.
      const lines = gunzipSync(await readFile(path.join(generation.dir, PUBLIC_FILE))).toString('utf8').trimEnd().split('\n');
      const moved = gzipSync(`${[...lines.slice(1), lines[0]].join('\n')}\n`);
      await writeFile(path.join(target, PUBLIC_FILE), moved);
      const { manifest } = generation;
      const checksums = { ...manifest.checksums, public: createHash('sha256').update(moved).digest('hex') };
      await writeFile(path.join(target, MANIFEST_FILE), JSON.stringify({ ...manifest, checksums, bytes: { ...manifest.bytes, public: moved.length } }));
      const split = await readGeneration(dataDir, generation.id);

      const answered = await answerByGraph({ queries, iris }, split.dir, NAMES);
      expect(answered).toEqual({ refused: expect.stringMatching(/^the statements of graph <.+> are not together in the generation's files$/) });

      // While a publication still loads the generation, the store is asked only once the servers hold it: a
      // publication that failed fails the stored index instead of a query on a server without the generation.
      const failed = Promise.reject(new Error('the publication failed'));
      failed.catch(() => undefined);
      await expect(writeGenerationIndex(split, { baseUrl: TEST_BASE_URL, kinds: KINDS, storeHolds: failed })).rejects.toThrow('the publication failed');
      const report = await writeGenerationIndex(split, { baseUrl: TEST_BASE_URL, kinds: KINDS, storeHolds: Promise.resolve() });
      expect(report.from).toEqual({ files: 0, store: NAMES.length });
      expect(report.refused).toMatch(/not together/);
      const byGraph = reference ?? (await answerByGraph({ queries, iris }, generation.dir, NAMES));
      if ('refused' in byGraph) throw new Error(byGraph.refused);
      const { stored } = await StoredIndex.read(split);
      for (const { text, name, rows } of byGraph.answers) expect([name, sorted(stored.get(text) ?? [])]).toEqual([name, sorted(rows)]);
    } finally {
      await removeOther();
    }
  }, 120_000);

  it('refuses a query that matches in the admin graph itself', async () => {
    const { dir: queriesDir, remove: removeQueries } = await tempDir('by-graph-queries-');
    try {
      await mkdir(path.join(queriesDir, 'x'));
      await writeFile(path.join(queriesDir, 'x', 'any.rq'), '#+ summary: every subject of every graph\n#+ param: admin - iri - the admin graph\nSELECT ?s WHERE { GRAPH ?g { ?s ?p ?o } }\n');
      const answered = await answerByGraph({ queries: new QueryLibrary(queriesDir), iris }, generation.dir, ['x/any']);
      expect(answered).toEqual({ refused: 'x/any matches in the admin graph itself' });
    } finally {
      await removeQueries();
    }
  });
});

async function adminLines(generation: Generation): Promise<string[]> {
  const text = gunzipSync(await readFile(path.join(generation.dir, NONPUBLIC_FILE))).toString('utf8');
  return text.split('\n').filter((line) => line.endsWith(` <${new Iris(TEST_BASE_URL).adminGraph}> .`));
}
