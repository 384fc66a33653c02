/**
 * One meaning on both stores (issue 27): query shapes that hung Virtuoso or that it answered otherwise than
 * the embedded store, sent to /sparql on the demo generation. This file runs in both passes of `npm test`:
 * on the embedded store, and in the remote pass on Virtuoso, where after every query the server itself must
 * still answer a probe within a second, and a fuzz test compares the remote answers of generated query shapes
 * with those of an embedded store on the same generation. Expected values are read off the public N-Quads
 * file of the generation, not asked of a store.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { Parser } from 'n3';
import request from 'supertest';
import { MAX_ROWS_HEADER } from '../../src/endpoints/sparql-endpoint.js';
import { generationFiles } from '../../src/store/generations.js';
import { StoreManager } from '../../src/store/store-manager.js';
import { NS } from '../../src/vocab/namespaces.js';
import { remoteStoreRun, startDemoApp, TEST_BASE_URL, type DemoApp } from '../helpers/demo.js';

const CRM = NS.crm;
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const PREFIXES = `PREFIX crm: <${CRM}>\n`;

interface Json {
  head: { vars?: string[] };
  boolean?: boolean;
  results?: { bindings: Record<string, { type: string; value: string; datatype?: string; 'xml:lang'?: string }>[] };
}

/** The object graphs of the public file and the objects among them with a current location (on display). */
function publicObjects(demo: DemoApp): { objects: string[]; onDisplay: Set<string> } {
  const quads = new Parser({ format: 'application/n-quads' }).parse(gunzipSync(readFileSync(generationFiles(demo.data.generation.dir).public)).toString('utf8'));
  const objects = new Set<string>();
  const onDisplay = new Set<string>();
  for (const q of quads) {
    if (q.subject.value !== q.graph.value) continue;
    if (q.predicate.value === RDF_TYPE && q.object.value === `${CRM}E22_Human-Made_Object`) objects.add(q.subject.value);
    if (q.predicate.value === `${CRM}P55_has_current_location`) onDisplay.add(q.subject.value);
  }
  return { objects: [...objects].sort(), onDisplay };
}

/** True when the remote server itself (not the service) answers a trivial query within a second. */
async function serverAnswers(): Promise<boolean> {
  const url = process.env.TEST_STORE_URL;
  if (url === undefined || url === '') return true;
  try {
    const res = await fetch(url, { method: 'POST', body: new URLSearchParams({ query: 'ASK {}' }), signal: AbortSignal.timeout(1000) });
    await res.text();
    return res.ok;
  } catch {
    return false;
  }
}

const sparql = async (demo: DemoApp, query: string): Promise<{ status: number; json: Json; text: string; capped: boolean }> => {
  const res = await request(demo.app).post('/sparql').type('form').set('Accept', 'application/sparql-results+json').send({ query });
  const json = (res.status === 200 ? JSON.parse(res.text) : {}) as Json;
  return { status: res.status, json, text: res.text, capped: res.headers[MAX_ROWS_HEADER.toLowerCase()] !== undefined };
};

const column = (json: Json, name: string): string[] => (json.results?.bindings ?? []).map((row) => row[name]?.value ?? '');

describe('SPARQL: one meaning on both stores, and no query that hangs the server', () => {
  let demo: DemoApp;
  let objects: string[];
  let onDisplay: Set<string>;
  beforeAll(async () => {
    demo = await startDemoApp({}, { sparql: true });
    ({ objects, onDisplay } = publicObjects(demo));
  }, 600_000);
  afterAll(() => demo.close());
  afterEach(async () => {
    expect(await serverAnswers()).toBe(true);
  });

  it('answers EXISTS bound as a value beside a VALUES (the query that hung Virtuoso) with every object and its display flag', async () => {
    const { status, json } = await sparql(
      demo,
      `${PREFIXES}SELECT ?o ?d WHERE { VALUES ?x { 1 } GRAPH ?o { ?o a crm:E22_Human-Made_Object . BIND(EXISTS { ?o crm:P55_has_current_location ?l } AS ?d) } }`,
    );
    expect(status).toBe(200);
    expect(column(json, 'o').sort()).toEqual(objects);
    const flagged = (json.results?.bindings ?? []).filter((row) => row.d?.value === 'true').map((row) => row.o?.value);
    expect(new Set(flagged)).toEqual(onDisplay);
    expect(onDisplay.size).toBeGreaterThan(0);
  });

  it('sees the graph variable inside an EXISTS within its GRAPH, as a value and as a filter, and a BIND removes no row (issue 44)', async () => {
    // ?g is bound by the GRAPH alone (the group does not match it): on Virtuoso this shape answered no rows.
    const valued = await sparql(demo, `${PREFIXES}SELECT ?g ?s ?d WHERE { GRAPH ?g { ?s a crm:E22_Human-Made_Object BIND(EXISTS { ?g crm:P55_has_current_location ?l } AS ?d) } }`);
    expect(valued.status).toBe(200);
    const rows = valued.json.results?.bindings ?? [];
    expect(rows.filter((row) => row.s?.value === row.g?.value).map((row) => row.g?.value).sort()).toEqual(objects);
    for (const row of rows) expect(row.d?.value).toBe(String(onDisplay.has(row.g?.value ?? '')));
    const filtered = await sparql(demo, `${PREFIXES}SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s a crm:E22_Human-Made_Object FILTER EXISTS { ?g crm:P55_has_current_location ?l } } }`);
    expect(new Set(column(filtered.json, 'g'))).toEqual(onDisplay);
    // The issue's own query: every statement of every graph, each with a flag.
    const any = await sparql(demo, 'SELECT * { GRAPH ?o { ?s ?p ?v BIND(EXISTS { ?s ?p ?o } AS ?f) } } LIMIT 2');
    expect(any.status).toBe(200);
    expect(column(any.json, 'f')).toHaveLength(2);
  });

  it('answers EXISTS as a projected value and as a sort key the same way', async () => {
    const { status, json } = await sparql(
      demo,
      `${PREFIXES}SELECT ?o (EXISTS { GRAPH ?o { ?o crm:P55_has_current_location ?l } } AS ?d) WHERE { VALUES ?x { 1 } GRAPH ?o { ?o a crm:E22_Human-Made_Object } } ORDER BY DESC(EXISTS { GRAPH ?o { ?o crm:P55_has_current_location ?l } }) ?o`,
    );
    expect(status).toBe(200);
    const flags = column(json, 'd');
    // Sorted by the flag, descending: every on-display object first.
    expect(flags.slice(0, onDisplay.size).every((f) => f === 'true')).toBe(true);
    expect(flags.slice(onDisplay.size).every((f) => f === 'false')).toBe(true);
  });

  it('answers false for EXISTS and GRAPH of a graph that does not exist, true for one that does', async () => {
    const ask = async (query: string): Promise<boolean | undefined> => (await sparql(demo, query)).json.boolean;
    const some = objects[0] as string;
    expect(await ask('ASK { FILTER EXISTS { GRAPH <urn:nope> { ?s ?p ?o } } }')).toBe(false);
    expect(await ask('ASK { FILTER NOT EXISTS { GRAPH <urn:nope> { ?s ?p ?o } } }')).toBe(true);
    expect(await ask('ASK { GRAPH <urn:nope> {} }')).toBe(false);
    expect(await ask(`ASK { GRAPH <${some}> {} }`)).toBe(true);
    expect(await ask(`ASK { FILTER EXISTS { GRAPH <${some}> { ?s ?p ?o } } }`)).toBe(true);
    expect(await ask(`ASK { FILTER NOT EXISTS { GRAPH <${some}> { ?s ?p ?o } } }`)).toBe(false);
  });

  it('removes with MINUS over GRAPH ?g exactly the objects the MINUS pattern matches', async () => {
    const { status, json } = await sparql(
      demo,
      `${PREFIXES}SELECT ?g WHERE { GRAPH ?g { ?g a crm:E22_Human-Made_Object } MINUS { GRAPH ?g { ?g crm:P55_has_current_location ?l } } }`,
    );
    expect(status).toBe(200);
    expect(column(json, 'g').sort()).toEqual(objects.filter((o) => !onDisplay.has(o)));
  });

  it('keeps SELECT * to the variables of the query, with the graph names of the data model', async () => {
    const { json } = await sparql(demo, `${PREFIXES}SELECT * WHERE { GRAPH ?g { ?s a crm:E22_Human-Made_Object } } LIMIT 5`);
    expect([...(json.head.vars ?? [])].sort()).toEqual(['g', 's']);
    for (const row of json.results?.bindings ?? []) expect(Object.keys(row).sort()).toEqual(['g', 's']);
    expect(column(json, 'g').length).toBe(5);
    for (const g of column(json, 'g')) expect(g).toMatch(new RegExp(`^${TEST_BASE_URL}/v2/id/[a-z]+/`));
  });

  it('keeps SELECT * to the variables of the query when a MINUS shares a variable that may be unbound', async () => {
    // On the remote store this MINUS becomes an OPTIONAL sub-select of renamed variables, which `*` must not list.
    const { status, json } = await sparql(
      demo,
      `${PREFIXES}SELECT * WHERE { GRAPH ?g { ?g a crm:E22_Human-Made_Object OPTIONAL { ?g crm:P55_has_current_location ?l } } MINUS { GRAPH ?g { ?g crm:P55_has_current_location ?l } } }`,
    );
    expect(status).toBe(200);
    expect([...(json.head.vars ?? [])].sort()).toEqual(['g', 'l']);
    for (const row of json.results?.bindings ?? []) expect(Object.keys(row)).toEqual(['g']);
    expect(column(json, 'g').sort()).toEqual(objects.filter((o) => !onDisplay.has(o)));
  });

  it.each([
    'SELECT * WHERE { ?s ?p ?o FILTER(<http://www.w3.org/2001/XMLSchema#../../bif:exec>(?o)) } LIMIT 1',
    'SELECT * WHERE { GRAPH ?g { ?s ?p ?o } FILTER(<http://www.openlinksw.com/schemas/bif#sprintf>("%s", ?o)) } LIMIT 1',
    'SELECT ?n WHERE { { SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } } } ORDER BY (?n + <urn:nope>)',
    'SELECT ?g WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g HAVING (EXISTS { GRAPH ?g { ?s ?p ?o } })',
  ])('never shows the server graph names, the rewrite or the server error text: %s', async (query) => {
    const { status, text } = await sparql(demo, query);
    expect(status).toBeLessThan(500);
    expect(text).not.toMatch(/urn:x-museum-ld|_mld\d|SP0\d\d/);
  });

  it('stays within every shape a grammar of VALUES, GRAPH, EXISTS, OPTIONAL, MINUS, UNION and subqueries makes, and means the same on both stores', async () => {
    // In the remote pass, an embedded store on the same generation is the reference for every answer.
    const reference = remoteStoreRun() ? new StoreManager({ includeNonPublic: false }) : undefined;
    await reference?.start(demo.data.generation.dir);
    try {
      const sample = objects.slice(0, 40);
      const someObjects = fc.subarray(sample, { minLength: 1, maxLength: 4 }).map((os) => os.map((o) => `<${o}>`).join(' '));
      const predicate = fc.constantFrom('crm:P55_has_current_location', 'crm:P46i_forms_part_of', 'crm:P106_is_composed_of', 'crm:P108i_was_produced_by');
      const graph = fc.constantFrom('?o', '?g', '<urn:nope>', `<${sample[0]}>`);
      const leaf = fc.oneof(
        fc.tuple(predicate, fc.constantFrom('?l', '?m')).map(([p, v]) => `?o ${p} ${v} .`),
        fc.constant('?o a crm:E22_Human-Made_Object .'),
      );
      const values = fc.oneof(fc.constant(''), fc.constant('VALUES ?x { 1 } '), someObjects.map((os) => `VALUES ?o { ${os} } `));
      const { tree } = fc.letrec<{ tree: string }>((tie) => ({
        tree: fc.oneof(
          { depthSize: 'small', withCrossShrink: true },
          leaf,
          fc.tuple(values, tie('tree')).map(([v, t]) => `${v}${t}`),
          fc.tuple(graph, tie('tree')).map(([g, t]) => `GRAPH ${g} { ${t} }`),
          fc.tuple(tie('tree'), tie('tree')).map(([a, b]) => `${a} OPTIONAL { ${b} }`),
          fc.tuple(tie('tree'), tie('tree')).map(([a, b]) => `${a} MINUS { ${b} }`),
          fc.tuple(tie('tree'), tie('tree')).map(([a, b]) => `{ ${a} } UNION { ${b} }`),
          fc.tuple(tie('tree'), fc.boolean(), tie('tree')).map(([a, not, b]) => `${a} FILTER(${not ? 'NOT ' : ''}EXISTS { ${b} })`),
          fc.tuple(tie('tree'), fc.boolean(), tie('tree')).map(([a, not, b]) => `${a} BIND(${not ? 'NOT ' : ''}EXISTS { ${b} } AS ?d)`),
          tie('tree').map((t) => `{ SELECT * WHERE { ${t} } }`),
          fc.constant('{}'),
        ),
      }));
      const query = fc.tuple(values, tree, values).map(([before, body, after]) => `${PREFIXES}SELECT DISTINCT * WHERE { ${before}GRAPH ?o { ?o a crm:E22_Human-Made_Object } ${body} } ${after.replace(/ $/, '')}`);

      await fc.assert(
        fc.asyncProperty(query, async (text) => {
          const remote = await sparql(demo, text);
          if (process.env.FUZZ_LOG) (await import('node:fs')).appendFileSync(process.env.FUZZ_LOG, `${remote.status}\t${text.replace(/\n/g, ' ')}\n`);
          expect(await serverAnswers()).toBe(true);
          // The refusals the remote store may give where the embedded store answers (docs/remote-store.md): an
          // EXISTS as a value it cannot lift or that would end the server, and a shape the server's compiler fails on
          // (Virtuoso's SP031). FUZZ_RUNS, FUZZ_SEED and FUZZ_LOG (a file of every query and status) explore further.
          if (remote.status === 400) {
            // Any other 400 only for a query the embedded store refuses too (a variable bound twice, say): in the
            // embedded pass the store under test is that store.
            const documented = /EXISTS used as a value|the SPARQL server cannot evaluate a construct/.test(remote.text);
            if (!documented && reference !== undefined) await expect(reference.query(text, { unionDefaultGraph: true })).rejects.toThrow();
          }
          // A query the server estimates or finds too costly ends at the deadline (504), as on the embedded store.
          else if (remote.status !== 504) expect(remote.status).toBe(200);
          if (reference === undefined || remote.status !== 200 || remote.capped) return;
          const embedded = JSON.parse(await reference.query(text, { unionDefaultGraph: true })) as Json;
          const rows = (json: Json): string[] => (json.results?.bindings ?? []).map((row) => JSON.stringify(Object.entries(row).map(([k, v]) => [k, v.value]).sort())).sort();
          expect(rows(remote.json)).toEqual(rows(embedded));
        }),
        { numRuns: Number(process.env.FUZZ_RUNS ?? 100), seed: Number(process.env.FUZZ_SEED ?? 27), interruptAfterTimeLimit: 120_000 },
      );
    } finally {
      await reference?.close();
    }
  }, 300_000);
});
