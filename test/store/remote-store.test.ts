/**
 * The remote store on a real Virtuoso (Debian's virtuoso-opensource, started on free ports in a temporary
 * folder): generations written under their own graph names and switched atomically, a failed publication
 * that leaves the served generation alone, old generations dropped, public-only for the SPARQL view against
 * hostile queries, and each known quirk of the server (docs/virtuoso-notes.md) handled: rows cut at
 * ResultSetMaxRows, POST of application/sparql-query, xsd:gYear forms and order, system graphs in the default
 * graph. The data are hand-written N-Quads, so every expected answer is read off this file.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/config.js';
import { QueryLibrary } from '../../src/queries/library.js';
import { QueryError } from '../../src/store/errors.js';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createGeneration, listGenerations, type Generation } from '../../src/store/generations.js';
import { generationGraphs } from '../../src/store/remote/graph-view.js';
import { isPublished, publishedGenerations } from '../../src/store/remote/publish.js';
import { RemoteStore } from '../../src/store/remote/remote-store.js';
import { createStores, dropRemoteGenerations, ensurePublished, indexingStore, publishStep, remoteServer } from '../../src/store/stores.js';
import { storedIndexStep } from '../../src/engine/generation-index.js';
import { storedIndexFile } from '../../src/collection-index/stored-index.js';
import { describeWithVirtuoso, startVirtuoso, type VirtuosoServer } from '../helpers/virtuoso.js';
import { KIND_NAMES, KINDS } from '../../src/kinds/index.js';
import { commandLine } from '../helpers/commands.js';

const FILE = 'test/store/remote-store.test.ts';
const run = promisify(execFile);
const BASE = 'http://localhost:3000';
const XSD = 'http://www.w3.org/2001/XMLSchema#';
const LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';
const YEAR = 'http://example.org/year';
const ADMIN = `${BASE}/graph/admin`;
const obj = (pid: string): string => `${BASE}/v2/id/object/${pid}`;
/** Rows above the server's limit in the test (ResultSetMaxRows = 50). */
const ROW_LIMIT = 50;

interface Version {
  title: string;
  years: string[];
  /** Write A1's statements in two runs, the second with a blank node: publication fails after B2 is written. */
  split?: boolean;
}

/** N-Quads of a generation: two public objects (one with years and a blank node), one private object, the admin graph. */
function quads(v: Version): { pub: string; nonPub: string } {
  const a = obj('A1');
  const lines = [
    `<${a}> <${LABEL}> "${v.title}"@nl <${a}> .`,
    `<${a}> <http://example.org/dimension> _:d1 <${a}> .`,
    `_:d1 <http://example.org/value> "42.5"^^<${XSD}decimal> <${a}> .`,
    ...v.years.map((y, i) => `<${a}> <${YEAR}> _:y${i} <${a}> .\n_:y${i} <${YEAR}> "${y}"^^<${XSD}gYear> <${a}> .`),
    `<${obj('B2')}> <${LABEL}> "Tweede"@nl <${obj('B2')}> .`,
    // Enough rows to pass the server's row limit.
    ...Array.from({ length: ROW_LIMIT + 10 }, (_, i) => `<${obj('B2')}> <http://example.org/n> "${i}"^^<${XSD}integer> <${obj('B2')}> .`),
  ];
  const nonPub = [
    `<${obj('P9')}> <${LABEL}> "Geheim"@nl <${obj('P9')}> .`,
    `<${obj('P9')}> <urn:x-museum-ld:admin#private> "true"^^<${XSD}boolean> <${ADMIN}> .`,
  ];
  if (v.split) lines.push(`<${a}> <http://example.org/again> _:late <${a}> .`);
  return { pub: `${lines.join('\n')}\n`, nonPub: `${nonPub.join('\n')}\n` };
}

const json = (body: string): { results: { bindings: Record<string, { value: string; type: string; datatype?: string }>[] }; boolean?: boolean } =>
  JSON.parse(body) as never;
const values = (body: string, name: string): string[] => json(body).results.bindings.map((b) => b[name]?.value ?? '');

describeWithVirtuoso(FILE)('the remote store on Virtuoso', () => {
  let virtuoso: VirtuosoServer;
  let dataDir: string;
  let config: ReturnType<typeof loadConfig>;
  let rest: RemoteStore;
  let sparql: RemoteStore;
  let first: Generation;

  const makeGeneration = (v: Version, options: { publish?: boolean; current?: boolean } = {}): Promise<Generation> =>
    createGeneration(
      dataDir,
      { source: { kind: 'load', path: 'test' }, baseUrl: BASE, kinds: KIND_NAMES },
      async (out) => {
        const { pub, nonPub } = quads(v);
        out.public.end(pub);
        out.nonPublic.end(nonPub);
      },
      { makeCurrent: options.current ?? true, ...(options.publish === false ? {} : { derive: publishStep(config, undefined) }) },
    );

  beforeAll(async () => {
    virtuoso = await startVirtuoso({ resultSetMaxRows: ROW_LIMIT, maxSortedTopRows: ROW_LIMIT });
    dataDir = await mkdtemp(join(tmpdir(), 'remote-store-'));
    config = loadConfig({
      BASE_URL: BASE,
      DATA_DIR: dataDir,
      STORE_URL: virtuoso.sparqlUrl,
      STORE_USER: virtuoso.user,
      STORE_PASSWORD: virtuoso.password,
      STORE_ROW_LIMIT: String(ROW_LIMIT),
    });
    first = await makeGeneration({ title: 'Eerste', years: ['1900', '-0500', '12000', '0044', '-12000', '2024'] });
    const stores = createStores(config);
    rest = stores.rest as RemoteStore;
    sparql = stores.sparql as RemoteStore;
    await rest.start(first.dir);
    await sparql.start(first.dir);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([rest?.close(), sparql?.close()]);
    await virtuoso?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('serves a record graph under its own name, blank nodes and datatypes intact', async () => {
    // Virtuoso separates the terms with tabs: the same N-Triples.
    const body = (await rest.query(`CONSTRUCT { ?s ?p ?o } WHERE { GRAPH <${obj('A1')}> { ?s ?p ?o } }`)).replace(/\t/g, ' ');
    expect(body).toContain(`<${obj('A1')}> <${LABEL}> "Eerste"@nl .`);
    expect(body).toMatch(/"42\.5"\^\^<http:\/\/www\.w3\.org\/2001\/XMLSchema#decimal>/);
    // 3 triples of the object and its dimension, plus 2 per year.
    expect(body.trim().split('\n')).toHaveLength(3 + 2 * 6);
    expect(body).not.toContain('urn:x-museum-ld:g:');
  });

  it('gives the REST view the non-public graphs, and the SPARQL view none of them', async () => {
    const ask = `ASK { GRAPH <${obj('P9')}> { ?s ?p ?o } }`;
    expect(json(await rest.query(ask)).boolean).toBe(true);
    expect(json(await sparql.query(ask)).boolean).toBe(false);
    // With the union default graph in FROM, Virtuoso's own ASK says true for any graph; the store asks otherwise.
    expect(json(await sparql.query(ask, { unionDefaultGraph: true })).boolean).toBe(false);
    expect(json(await sparql.query(`ASK { GRAPH <${obj('A1')}> { ?s ?p ?o } }`, { unionDefaultGraph: true })).boolean).toBe(true);
  });

  it('keeps FILTER NOT EXISTS on the admin graph exact in the full view (a record the admin graph names yields nothing)', async () => {
    const record = (pid: string): string =>
      `CONSTRUCT { ?s ?p ?o } WHERE { VALUES (?record ?admin) { (<${obj(pid)}> <${ADMIN}>) } FILTER NOT EXISTS { GRAPH ?admin { ?record ?state ?value } } GRAPH ?record { ?s ?p ?o } }`;
    expect((await rest.query(record('P9'))).trim()).toBe('');
    expect((await rest.query(record('A1'))).trim().split('\n')).toHaveLength(3 + 2 * 6);
    // The same for the library's record query as the REST store sends it.
    const library = new QueryLibrary();
    expect((await rest.query(library.bound('records/record', { record: obj('P9'), admin: ADMIN }))).trim()).toBe('');
    expect((await rest.query(library.bound('records/record', { record: obj('A1'), admin: ADMIN }))).trim().split('\n')).toHaveLength(3 + 2 * 6);
  });

  it('lists only the served generation\'s public graphs, by their own names, for GRAPH ?g', async () => {
    const body = await sparql.query('SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } } ORDER BY ?g', { unionDefaultGraph: true });
    expect(values(body, 'g')).toEqual([obj('A1'), obj('B2')]);
    const all = await rest.query('SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } } ORDER BY ?g');
    expect(values(all, 'g')).toEqual([ADMIN, obj('A1'), obj('B2'), obj('P9')].sort());
  });

  it('keeps the server\'s system graphs out of the default graph', async () => {
    // The union default graph holds the public triples only: 3 + 2 * 6 of A1, 1 + 60 of B2.
    const body = await sparql.query('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }', { unionDefaultGraph: true });
    expect(Number(values(body, 'n')[0])).toBe(15 + 1 + ROW_LIMIT + 10);
    // Virtuoso's own graphs exist and are reachable without the store.
    const raw = await fetch(`${virtuoso.sparqlUrl}?query=${encodeURIComponent('ASK { GRAPH <http://www.openlinksw.com/schemas/virtrdf#> { ?s ?p ?o } }')}`, {
      headers: { accept: 'application/sparql-results+json' },
    });
    expect(((await raw.json()) as { boolean: boolean }).boolean).toBe(true);
    const named = await sparql.query('ASK { GRAPH <http://www.openlinksw.com/schemas/virtrdf#> { ?s ?p ?o } }', { unionDefaultGraph: true });
    expect(json(named).boolean).toBe(false);
    // Without the union, the REST store's default graph is empty, as the embedded store's is.
    expect(Number(values(await rest.query('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }'), 'n')[0])).toBe(0);
  });

  it('refuses every way of naming a non-public or prefixed graph in the SPARQL view', async () => {
    const { nonPublicPrefix, publicPrefix } = generationGraphs(first.id);
    const hostile = [
      `SELECT * WHERE { GRAPH <${ADMIN}> { ?s ?p ?o } }`,
      `SELECT * FROM NAMED <${obj('P9')}> WHERE { GRAPH ?g { ?s ?p ?o } }`,
      `SELECT * FROM <${obj('P9')}> WHERE { ?s ?p ?o }`,
      `SELECT * WHERE { GRAPH <${nonPublicPrefix}${obj('P9')}> { ?s ?p ?o } }`,
      `SELECT * WHERE { VALUES ?g { <${nonPublicPrefix}${obj('P9')}> <${obj('P9')}> } GRAPH ?g { ?s ?p ?o } }`,
      `SELECT * WHERE { GRAPH ?g { ?s ?p ?o } FILTER(CONTAINS(STR(?g), "P9") || CONTAINS(STR(?o), "Geheim")) }`,
      `SELECT * WHERE { ?s ?p ?o FILTER(CONTAINS(STR(?o), "Geheim")) }`,
      `SELECT * WHERE { { SELECT ?g ?o WHERE { GRAPH ?g { ?s ?p ?o } } } FILTER(?o = "Geheim"@nl) }`,
      `SELECT * WHERE { GRAPH <${publicPrefix}${obj('A1')}> { ?s ?p ?o } }`,
      `SELECT ?x ?s ?p ?o WHERE { VALUES ?x { <${obj('P9')}> } { GRAPH ?x { ?s ?p ?o } } UNION { GRAPH ?g { ?x ?p ?o } } UNION { GRAPH ?g { ?s ?p ?x } } }`,
    ];
    for (const query of hostile) {
      const body = await sparql.query(query, { unionDefaultGraph: true });
      expect({ query, rows: json(body).results.bindings.filter((b) => JSON.stringify(b).includes('P9') || JSON.stringify(b).includes('Geheim') || JSON.stringify(b).includes('urn:x-museum-ld')) }).toEqual({ query, rows: [] });
    }
  });

  it('describes from the view\'s default graph only, and honours FROM and FROM NAMED', async () => {
    expect((await sparql.query(`DESCRIBE <${obj('P9')}>`, { unionDefaultGraph: true })).trim()).toBe('');
    expect((await sparql.query(`DESCRIBE <${ADMIN}>`, { unionDefaultGraph: true })).trim()).toBe('');
    const described = await sparql.query(`DESCRIBE <${obj('A1')}>`, { unionDefaultGraph: true });
    expect(described.trim().split('\n')).toHaveLength(1 + 6 + 1);
    const from = await sparql.query(`SELECT (COUNT(*) AS ?n) FROM <${obj('A1')}> WHERE { ?s ?p ?o }`);
    expect(Number(values(from, 'n')[0])).toBe(15);
    // FROM alone: no named graphs; FROM NAMED alone: an empty default graph.
    expect(json(await sparql.query(`ASK FROM <${obj('A1')}> WHERE { GRAPH ?g { ?s ?p ?o } }`)).boolean).toBe(false);
    expect(json(await sparql.query(`ASK FROM NAMED <${obj('A1')}> WHERE { ?s ?p ?o }`)).boolean).toBe(false);
    expect(values(await sparql.query(`SELECT DISTINCT ?g FROM NAMED <${obj('A1')}> FROM NAMED <${obj('P9')}> WHERE { GRAPH ?g { ?s ?p ?o } }`), 'g')).toEqual([obj('A1')]);
  });

  it('refuses the server\'s own functions (bif:, sql:) with a query error', async () => {
    await expect(sparql.query('SELECT (<bif:sprintf>("%s", "x") AS ?x) WHERE {}', { unionDefaultGraph: true })).rejects.toBeInstanceOf(QueryError);
    await expect(sparql.query('SELECT (<sql:DB.DBA.USER_CREATE>("x", "y") AS ?x) WHERE {}', { unionDefaultGraph: true })).rejects.toBeInstanceOf(QueryError);
    // XSD casts are functions too, and allowed.
    const cast = await sparql.query('SELECT (<http://www.w3.org/2001/XMLSchema#integer>("7") AS ?x) WHERE {}', { unionDefaultGraph: true });
    expect(values(cast, 'x')).toEqual(['7']);
  });

  it('answers booleans as xsd:boolean, stored ones and those of EXISTS (Virtuoso writes 1 and 0)', async () => {
    const stored = json(await rest.query(`SELECT ?v WHERE { GRAPH <${ADMIN}> { ?s <urn:x-museum-ld:admin#private> ?v } }`)).results.bindings[0]?.v;
    expect(stored).toEqual({ type: 'literal', value: 'true', datatype: `${XSD}boolean` });
    const bound = await rest.query(`SELECT ?pid ?private WHERE { VALUES ?pid { <${obj('P9')}> <${obj('A1')}> } BIND(EXISTS { GRAPH <${ADMIN}> { ?pid ?p ?o } } AS ?private) } ORDER BY ?pid`);
    expect(json(bound).results.bindings.map((b) => [b.pid?.value, b.private?.value, b.private?.datatype])).toEqual([
      [obj('A1'), 'false', `${XSD}boolean`],
      [obj('P9'), 'true', `${XSD}boolean`],
    ]);
  });

  it('writes xsd:gYear in its XSD form and orders years by their number', async () => {
    const body = await rest.query(`SELECT ?y WHERE { GRAPH <${obj('A1')}> { ?b <${YEAR}> ?y FILTER(isLiteral(?y)) } } ORDER BY ?y`);
    expect(values(body, 'y')).toEqual(['-12000', '-0500', '0044', '1900', '2024', '12000']);
    const tsv = await rest.query(`SELECT ?y WHERE { GRAPH <${obj('A1')}> { ?b <${YEAR}> ?y FILTER(isLiteral(?y)) } } ORDER BY DESC(?y)`, { format: 'text/tab-separated-values' });
    expect(tsv.trim().split('\n').slice(1)).toEqual(['12000', '2024', '1900', '0044', '-0500', '-12000'].map((y) => `"${y}"^^<${XSD}gYear>`));
    const nt = await rest.query(`CONSTRUCT { ?b <${YEAR}> ?y } WHERE { GRAPH <${obj('A1')}> { ?b <${YEAR}> ?y FILTER(isLiteral(?y)) } }`);
    expect(nt).toContain(`"-0500"^^<${XSD}gYear>`);
    expect(nt).not.toContain(`"-500"^^`);
  });

  it("reads a SELECT of the service's own past the server's row limit in pages, and refuses a client's answer the server cut", async () => {
    const all = `SELECT ?o WHERE { GRAPH <${obj('B2')}> { ?s <http://example.org/n> ?o } }`;
    // The REST store's queries are the service's own (index builds): paged, the sort inside and the slices outside,
    // which the server's MaxSortedTopRows (also 50 here) allows.
    const paged = values(await rest.query(all), 'o').map(Number);
    expect(paged.sort((a, b) => a - b)).toEqual(Array.from({ length: ROW_LIMIT + 10 }, (_, i) => i));
    const tsv = await rest.query(`SELECT ?o (STR(?o) AS ?text) WHERE { GRAPH <${obj('B2')}> { ?s <http://example.org/n> ?o } } ORDER BY DESC(?o)`, { format: 'text/tab-separated-values' });
    expect(tsv.trim().split('\n')).toHaveLength(1 + ROW_LIMIT + 10);
    expect(tsv.split('\n')[1]).toMatch(/^"59"/);
    // The SPARQL endpoint's store (a client's query) says the answer was cut.
    await expect(sparql.query(all)).rejects.toThrow(/larger than the SPARQL server delivers/);
    expect(values(await rest.query(`${all} LIMIT ${ROW_LIMIT}`), 'o')).toHaveLength(ROW_LIMIT);
    expect(values(await rest.query(`${all} LIMIT 20`), 'o')).toHaveLength(20);
    // A CONSTRUCT is cut at the limit + 1 triples without a word from Virtuoso; the store says so.
    await expect(rest.query(`CONSTRUCT { ?s ?p ?o } WHERE { GRAPH <${obj('B2')}> { ?s ?p ?o } }`)).rejects.toThrow(/larger than the SPARQL server delivers/);
  });

  it('answers over form-encoded POST, where a POST of application/sparql-query gets no answer from Virtuoso', async () => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 2000);
    const direct = fetch(virtuoso.sparqlUrl, { method: 'POST', headers: { 'content-type': 'application/sparql-query', accept: 'application/sparql-results+json' }, body: 'ASK {}', signal: controller.signal });
    await expect(direct).rejects.toThrow();
    clearTimeout(timer);
    expect(json(await rest.query('ASK {}')).boolean).toBe(true);
  });

  it('switches generations atomically: every answer during a switch is wholly the old or the new', async () => {
    const second = await makeGeneration({ title: 'Nieuw', years: ['1950'] }, { current: false });
    expect(await isPublished(remoteServer(config)!, second.id)).toBe(true);
    // The old generation still serves while the new one is on the server.
    const title = async (): Promise<string[]> => values(await rest.query(`SELECT ?t WHERE { GRAPH <${obj('A1')}> { <${obj('A1')}> <${LABEL}> ?t } }`), 't');
    expect(await title()).toEqual(['Eerste']);
    const seen: string[][] = [];
    let running = true;
    const reader = (async () => {
      while (running) seen.push(await title());
    })();
    await rest.swap(second.dir);
    await sparql.swap(second.dir);
    await new Promise((resolve) => setTimeout(resolve, 50));
    running = false;
    await reader;
    expect(seen.every((t) => (t.length === 1 && t[0] === 'Eerste') || (t.length === 1 && t[0] === 'Nieuw'))).toBe(true);
    expect(await title()).toEqual(['Nieuw']);
    // The old generation's graphs are out of reach by any name.
    const old = `SELECT * WHERE { GRAPH <${generationGraphs(first.id).publicPrefix}${obj('A1')}> { ?s ?p ?o } }`;
    expect(json(await sparql.query(old, { unionDefaultGraph: true })).results.bindings).toEqual([]);
    // Dropping it leaves the served one whole.
    expect(await dropRemoteGenerations(config, [second.id])).toEqual([first.id]);
    expect((await publishedGenerations(remoteServer(config)!)).map((g) => g.id)).toEqual([second.id]);
    const left = await fetch(`${virtuoso.sparqlUrl}?query=${encodeURIComponent(`ASK { GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), "${generationGraphs(first.id).prefix}")) }`)}`, {
      headers: { accept: 'application/sparql-results+json' },
    });
    expect(((await left.json()) as { boolean: boolean }).boolean).toBe(false);
    expect(await title()).toEqual(['Nieuw']);
    first = second;
  }, 120_000);

  it('writes the stored index of a generation being made from its files while the server takes the generation', async () => {
    let outcome: unknown;
    const step = storedIndexStep({ baseUrl: BASE, kinds: KINDS, openStore: indexingStore(config), onDone: (o) => (outcome = o) });
    const made = await createGeneration(
      dataDir,
      { source: { kind: 'load', path: 'test' }, baseUrl: BASE, kinds: KIND_NAMES },
      async (out) => {
        const { pub, nonPub } = quads({ title: 'Met index', years: [] });
        out.public.end(pub);
        out.nonPublic.end(nonPub);
      },
      { makeCurrent: false, derive: publishStep(config, step) },
    );
    expect(outcome).toEqual({ report: expect.objectContaining({ answers: expect.any(Number), from: { files: expect.any(Number), store: 0 } }) });
    expect(existsSync(storedIndexFile(made.dir))).toBe(true);
    expect(await isPublished(remoteServer(config)!, made.id)).toBe(true);
    await dropRemoteGenerations(config, [rest.generation!.id]);
  }, 60_000);

  it('fails the generation when its publication fails, before the stored index starts', async () => {
    let outcome: unknown;
    const step = storedIndexStep({ baseUrl: BASE, kinds: KINDS, openStore: indexingStore(config), onDone: (o) => (outcome = o) });
    const before = await readdir(join(dataDir, 'generations'));
    await expect(
      createGeneration(
        dataDir,
        { source: { kind: 'load', path: 'test' }, baseUrl: BASE, kinds: KIND_NAMES },
        async (out) => {
          const { pub, nonPub } = quads({ title: 'Kapot', years: [], split: true });
          out.public.end(pub);
          out.nonPublic.end(nonPub);
        },
        { makeCurrent: false, derive: publishStep(config, step) },
      ),
    ).rejects.toThrow(/not together and it has blank nodes/);
    // The stored index runs once the server holds the generation: it never started; nothing of it is kept.
    expect(outcome).toBeUndefined();
    expect(await readdir(join(dataDir, 'generations'))).toEqual(before);
    expect(await readdir(join(dataDir, 'staging'))).toEqual([]);
    await dropRemoteGenerations(config, [rest.generation!.id]);
  }, 60_000);

  it('leaves the served generation untouched when a publication fails half-way, and never serves the failed one', async () => {
    const served = rest.generation?.id;
    const unpublished = await makeGeneration({ title: 'Kapot', years: [], split: true }, { publish: false, current: false });
    // A1 and B2 are written, then A1 comes back with a blank node: the publication stops there.
    await expect(ensurePublished(config, unpublished.dir)).rejects.toThrow(/not together and it has blank nodes/);
    const written = await fetch(`${virtuoso.sparqlUrl}?query=${encodeURIComponent(`ASK { GRAPH <${generationGraphs(unpublished.id).publicPrefix}${obj('A1')}> { ?s ?p ?o } }`)}`, {
      headers: { accept: 'application/sparql-results+json' },
    });
    expect(((await written.json()) as { boolean: boolean }).boolean).toBe(true);
    expect(await isPublished(remoteServer(config)!, unpublished.id)).toBe(false);
    await expect(rest.swap(unpublished.dir)).rejects.toThrow(/not complete on the SPARQL server/);
    expect(rest.generation?.id).toBe(served);
    expect(values(await rest.query(`SELECT ?t WHERE { GRAPH <${obj('A1')}> { <${obj('A1')}> <${LABEL}> ?t } }`), 't')).toEqual(['Nieuw']);
    // Its leftovers are dropped with the generations nobody keeps.
    expect(await dropRemoteGenerations(config, [served!])).toEqual([unpublished.id]);
  }, 60_000);

  it('drops from the server what `generations --prune` removes from the data folder, so no pruned generation stays listed as complete', async () => {
    // Two newer generations beside the current one: pruning to one keeps the newest and the current one.
    const pruned = await makeGeneration({ title: 'Ouder', years: [] }, { current: false });
    const newest = await makeGeneration({ title: 'Nieuwst', years: [] }, { current: false });
    const published = async (): Promise<string[]> => (await publishedGenerations(remoteServer(config)!)).map((g) => g.id).sort();
    const before = await published();
    expect(before).toEqual(expect.arrayContaining([pruned.id, newest.id]));
    const env = { ...process.env, DATA_DIR: dataDir, BASE_URL: BASE, STORE_URL: virtuoso.sparqlUrl, STORE_USER: virtuoso.user, STORE_PASSWORD: virtuoso.password };
    const command = commandLine('generations', ['--prune', '1']);
    const { stdout } = await run(command.file, command.args, { env });
    expect(stdout).toContain(`removed ${pruned.id}`);
    expect(stdout).toContain(`dropped ${pruned.id} from the SPARQL server`);
    const kept = new Set((await listGenerations(dataDir)).map((g) => g.id));
    expect(kept.has(newest.id)).toBe(true);
    expect(await published()).toEqual(before.filter((id) => kept.has(id)));
  }, 60_000);
});
