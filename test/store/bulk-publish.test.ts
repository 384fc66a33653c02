/**
 * Publication through Virtuoso's bulk loader (src/store/remote/bulk-load.ts) on Debian's own virtuoso.ini, what
 * an operator starts from, with only its paths and ports moved and the test's folder added to DirsAllowed:
 * every statement once in its prefixed graph, the public ones also in the union graph, blank nodes of the
 * public and the non-public file kept apart, several files loaded by several loaders, nothing left behind in
 * the folder or the server's load list, a folder the server may not read refused with the setting to change,
 * and the settings (STORE_BULK_DIR, STORE_ISQL) choosing this path for `npm start` and the data commands. The
 * data are hand-written N-Quads, so every expected count is read off them.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/config.js';
import { createGeneration, type Generation } from '../../src/store/generations.js';
import { BulkLoader } from '../../src/store/remote/bulk-load.js';
import { generationGraphs } from '../../src/store/remote/graph-view.js';
import { Isql } from '../../src/store/remote/isql.js';
import { dropGenerations, hasEntry, isPublished, PublicationInterruptedError, publishGeneration, type PublishReport } from '../../src/store/remote/publish.js';
import { RemoteServer } from '../../src/store/remote/remote-server.js';
import { createStores, ensurePublished, publication, remoteServer } from '../../src/store/stores.js';
import type { RemoteStore } from '../../src/store/remote/remote-store.js';
import { startHangingProxy } from '../helpers/tcp-proxy.js';
import { describeWithVirtuoso, freePort, ISQL_BIN, startVirtuoso, type VirtuosoServer } from '../helpers/virtuoso.js';
import { KIND_NAMES } from '../../src/kinds/index.js';

const FILE = 'test/store/bulk-publish.test.ts';
const BASE = 'http://localhost:3000';
const LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';
const obj = (n: number): string => `${BASE}/v2/id/object/B${n}`;
/** Public record graphs of the generation: enough for several files at {@link FILE_STATEMENTS}. */
const RECORDS = 120;
const FILE_STATEMENTS = 100;

/** The generation's files: per record graph a label, a dimension on a blank node, and one statement twice. */
function files(): { pub: string[]; nonPub: string[] } {
  const pub: string[] = [];
  for (let n = 0; n < RECORDS; n++) {
    const g = `<${obj(n)}>`;
    pub.push(`${g} <${LABEL}> "Stoel ${n} \\u00e9\\"é"@nl ${g} .`);
    pub.push(`${g} <http://example.org/dimension> _:d${n} ${g} .`);
    pub.push(`_:d${n} <http://example.org/value> "${n}.5"^^<http://www.w3.org/2001/XMLSchema#decimal> ${g} .`);
    // The same statement in every graph: once per graph on the server, once in the union graph.
    pub.push(`<${BASE}/v2/id/concept/1> <${LABEL}> "stoel"@nl ${g} .`);
    if (n % 10 === 0) pub.push(`${g} <${LABEL}> "Stoel ${n} \\u00e9\\"é"@nl ${g} .`);
  }
  // The non-public file names a blank node with the label of a public one: two different nodes.
  const secret = `<${BASE}/v2/id/object/S1>`;
  const nonPub = [`${secret} <${LABEL}> "Geheim"@nl ${secret} .`, `${secret} <http://example.org/dimension> _:d0 ${secret} .`, `_:d0 <http://example.org/value> "secret" ${secret} .`];
  return { pub, nonPub };
}

const distinctPublic = (): number => RECORDS * 4;
const DISTINCT_NON_PUBLIC = 3;

const json = (body: string): { results: { bindings: Record<string, { value: string }>[] } } => JSON.parse(body) as never;

/**
 * The writer account of docs/operations.md (step 1 of "A large collection"): its name, password, and the `exec=`
 * text of each `isql-vt … dba "$DBA_PASSWORD" exec="…"` line, as the operator's shell passes it on.
 */
async function documentedWriter(): Promise<{ user: string; password: string; execs: string[] }> {
  const docs = await readFile('docs/operations.md', 'utf8');
  const execs = [...docs.matchAll(/^isql-vt 127\.0\.0\.1:1111 dba "\$DBA_PASSWORD" exec="(.*)"$/gm)].map((m) => (m[1] as string).replace(/\\"/g, '"'));
  const account = /USER_CREATE \('([^']+)', '([^']+)'\)/.exec(execs.join(' '));
  if (account === null || execs.length < 2) throw new Error('docs/operations.md no longer creates the writer account and its grants in isql-vt exec= lines');
  return { user: account[1] as string, password: account[2] as string, execs };
}

/** Runs `isql-vt <address> dba dba exec=<text>` as the documentation does; rejects on any `*** Error`. */
const isqlExec = (address: string, text: string): Promise<void> =>
  new Promise((resolve, reject) => {
    execFile(ISQL_BIN as string, [address, 'dba', 'dba', `exec=${text}`], (err, _out, stderr) => {
      if (err || stderr.includes('*** Error')) reject(new Error(`isql-vt exec="${text}" failed: ${err?.message ?? ''} ${stderr}`));
      else resolve();
    });
  });

describeWithVirtuoso(FILE)("bulk publication on Debian's virtuoso.ini", () => {
  let virtuoso: VirtuosoServer;
  let dataDir: string;
  let server: RemoteServer;
  let isql: Isql;
  let generation: Generation;

  const count = async (where: string): Promise<number> =>
    Number(json((await server.query(`SELECT (COUNT(*) AS ?n) WHERE { ${where} }`, 'application/sparql-results+json')).body).results.bindings[0]?.n?.value);

  /** The settings of the data commands with STORE_BULK_DIR and STORE_ISQL on the test's server. */
  const bulkSettings = (): Record<string, string> => ({
    DATA_DIR: dataDir,
    STORE_URL: virtuoso.sparqlUrl,
    STORE_USER: virtuoso.user,
    STORE_PASSWORD: virtuoso.password,
    STORE_BULK_DIR: virtuoso.loadDir,
    STORE_ISQL: `127.0.0.1:${virtuoso.isqlPort}`,
    STORE_ISQL_BIN: ISQL_BIN as string,
  });

  const makeGeneration = (): Promise<Generation> =>
    createGeneration(dataDir, { source: { kind: 'load', path: 'test' }, baseUrl: BASE, kinds: KIND_NAMES }, async (out) => {
      const { pub, nonPub } = files();
      out.public.end(`${pub.join('\n')}\n`);
      out.nonPublic.end(`${nonPub.join('\n')}\n`);
    });

  beforeAll(async () => {
    virtuoso = await startVirtuoso({ debianIni: true });
    dataDir = await mkdtemp(join(tmpdir(), 'bulk-publish-'));
    server = remoteServer(loadConfig({ STORE_URL: virtuoso.sparqlUrl, STORE_USER: virtuoso.user, STORE_PASSWORD: virtuoso.password })) as RemoteServer;
    isql = new Isql({ address: `127.0.0.1:${virtuoso.isqlPort}`, user: virtuoso.user, password: virtuoso.password, bin: ISQL_BIN as string });
    generation = await makeGeneration();
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await virtuoso?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('writes every statement once under its graph, the public ones also in the union graph, and leaves nothing behind', async () => {
    const bulk = new BulkLoader({ dir: virtuoso.loadDir, isql, loaders: 2, fileStatements: FILE_STATEMENTS });
    const report = await publishGeneration(server, generation.dir, generation.manifest, { bulk });
    expect(report.quads).toBe(distinctPublic() + DISTINCT_NON_PUBLIC);
    expect(report.graphs).toBe(RECORDS + 1);
    // Two lines per public statement, a new file at least every FILE_STATEMENTS lines, the non-public file apart.
    expect(report.bulk?.files).toBeGreaterThanOrEqual(Math.floor((2 * distinctPublic()) / FILE_STATEMENTS) + 1);
    // Nothing else wrote meanwhile: the rows the server gained were the check.
    expect(report.bulk?.check).toBe('rows');
    expect(await isPublished(server, generation.id)).toBe(true);

    const graphs = generationGraphs(generation.id);
    expect(await count(`GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), "${graphs.publicPrefix}"))`)).toBe(distinctPublic());
    expect(await count(`GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), "${graphs.nonPublicPrefix}"))`)).toBe(DISTINCT_NON_PUBLIC);
    // The union graph is a set: the shared concept label once, the rest of each record's statements once.
    expect(await count(`GRAPH <${graphs.unionGraph}> { ?s ?p ?o }`)).toBe(RECORDS * 3 + 1);
    // Escapes and non-ASCII letters as written.
    const label = json((await server.query(`SELECT ?l WHERE { GRAPH <${graphs.publicPrefix}${obj(7)}> { <${obj(7)}> <${LABEL}> ?l } }`, 'application/sparql-results+json')).body);
    expect(label.results.bindings.map((b) => b.l?.value)).toEqual(['Stoel 7 é"é']);
    // A blank node of a record graph is the same node in the union graph.
    expect(await count(`GRAPH <${graphs.publicPrefix}${obj(0)}> { ?x <http://example.org/dimension> ?b } GRAPH <${graphs.unionGraph}> { ?b <http://example.org/value> ?v }`)).toBe(1);
    // The public and the non-public _:d0 are two nodes.
    expect(await count(`GRAPH <${graphs.publicPrefix}${obj(0)}> { ?x <http://example.org/dimension> ?b } GRAPH ?any { ?b <http://example.org/value> "secret" }`)).toBe(0);

    expect(await readdir(virtuoso.loadDir)).toEqual([]);
    expect((await isql.run([`select count(*) from DB.DBA.LOAD_LIST where ll_file like '${virtuoso.loadDir}/%';`])).trim()).toBe('0');
  });

  it.each([['the bulk loader', true], ['the Graph Store Protocol', false]] as const)(
    'writes the public part only for the public SPARQL endpoint’s own server (%s), which is then published for that view and not for REST',
    async (_name, viaBulk) => {
      const part = await makeGeneration();
      const bulk = viaBulk ? new BulkLoader({ dir: virtuoso.loadDir, isql, loaders: 2, fileStatements: FILE_STATEMENTS }) : undefined;
      const report = await publishGeneration(server, part.dir, part.manifest, { publicOnly: true, ...(bulk ? { bulk } : {}) });
      expect(report.quads).toBe(distinctPublic());
      if (viaBulk) expect(report.bulk?.check).toBe('rows');
      const graphs = generationGraphs(part.id);
      expect(await count(`GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), "${graphs.publicPrefix}"))`)).toBe(distinctPublic());
      expect(await count(`GRAPH <${graphs.unionGraph}> { ?s ?p ?o }`)).toBe(RECORDS * 3 + 1);
      // Nothing private on that server: no non-public graph, and the secret label nowhere.
      expect(await count(`GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), "${graphs.nonPublicPrefix}"))`)).toBe(0);
      expect(await count(`GRAPH ?g { ?s ?p "Geheim"@nl } FILTER(STRSTARTS(STR(?g), "${graphs.prefix}") || ?g = <${graphs.unionGraph}>)`)).toBe(0);
      expect(await isPublished(server, part.id, 'public')).toBe(true);
      expect(await isPublished(server, part.id)).toBe(false);
      // The REST API's store on that server writes the whole generation there first.
      const config = loadConfig({ STORE_URL: virtuoso.sparqlUrl, STORE_USER: virtuoso.user, STORE_PASSWORD: virtuoso.password, DATA_DIR: dataDir });
      const written = await ensurePublished(config, part.dir);
      expect(written?.quads).toBe(distinctPublic() + DISTINCT_NON_PUBLIC);
      expect(await isPublished(server, part.id)).toBe(true);
      expect(await count(`GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), "${graphs.nonPublicPrefix}"))`)).toBe(DISTINCT_NON_PUBLIC);
      await dropGenerations(server, [part.id]);
    },
    60_000,
  );

  it('counts the generation graph by graph when another writer changed the server during the load, and drops it over the SQL port', async () => {
    const second = await makeGeneration();
    const other = 'urn:x-test:another-writer';
    // Another writer: once every file is loaded, just before the checkpoint, three statements land elsewhere.
    const sql = isql;
    const withWriter = new (class extends Isql {
      override async run(statements: readonly string[], timeoutMs?: number): Promise<string> {
        if (statements[0] === 'checkpoint;') await server.update(`INSERT DATA { GRAPH <${other}> { <urn:x:a> <urn:x:b> 1, 2, 3 } }`);
        return sql.run(statements, timeoutMs);
      }
    })({ address: '', user: '', password: '' });
    const bulk = new BulkLoader({ dir: virtuoso.loadDir, isql: withWriter, loaders: 2, fileStatements: FILE_STATEMENTS });
    const report = await publishGeneration(server, second.dir, second.manifest, { bulk });
    expect(await count(`GRAPH <${other}> { ?s ?p ?o }`)).toBe(3);
    expect(report.bulk?.check).toBe('graphs');
    expect(await isPublished(server, second.id)).toBe(true);

    const graphs = generationGraphs(second.id);
    await dropGenerations(server, [second.id], bulk);
    expect(await count(`GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), "${graphs.prefix}"))`)).toBe(0);
    expect(await count(`GRAPH <${graphs.unionGraph}> { ?s ?p ?o }`)).toBe(0);
    expect(await isPublished(server, second.id)).toBe(false);
    // The first generation and the other writer's graph are untouched.
    expect(await isPublished(server, generation.id)).toBe(true);
    expect(await count(`GRAPH <${generationGraphs(generation.id).unionGraph}> { ?s ?p ?o }`)).toBe(RECORDS * 3 + 1);
    expect(await count(`GRAPH <${other}> { ?s ?p ?o }`)).toBe(3);
    await server.update(`DROP SILENT GRAPH <${other}>`);
  });

  it('starts a publication that died half-way from nothing, and asks no list of graphs for a new id', async () => {
    const third = await makeGeneration();
    const graphs = generationGraphs(third.id);
    // What a publication killed after its first file leaves: the entry "loading" and some of its graphs.
    await server.update(`INSERT DATA { GRAPH <urn:x-museum-ld:generations> { <${graphs.marker}> <urn:x-museum-ld:state> "loading" } }`);
    await server.update(`INSERT DATA { GRAPH <${graphs.publicPrefix}${obj(0)}> { <${obj(0)}> <${LABEL}> "half-way" } GRAPH <${graphs.unionGraph}> { <${obj(0)}> <${LABEL}> "half-way" } }`);
    const bulk = new BulkLoader({ dir: virtuoso.loadDir, isql, loaders: 2, fileStatements: FILE_STATEMENTS });
    const report = await publishGeneration(server, third.dir, third.manifest, { bulk });
    expect(report.quads).toBe(distinctPublic() + DISTINCT_NON_PUBLIC);
    expect(await count(`GRAPH ?g { <${obj(0)}> <${LABEL}> "half-way" }`)).toBe(0);
    expect(await count(`GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), "${graphs.publicPrefix}"))`)).toBe(distinctPublic());
    expect(await isPublished(server, third.id)).toBe(true);
    // A new id has no entry, so none of its graphs can exist: the publication skips the drop and its scan of the
    // server's graphs (which ran past MaxQueryExecutionTime beside 1,000,000 objects). A server that refused
    // every query scanning the list of graphs would still publish it.
    const fourth = await makeGeneration();
    const seen: string[] = [];
    const watching = new Proxy(server, {
      get(target, prop, receiver) {
        if (prop === 'query') {
          return (...args: Parameters<RemoteServer['query']>) => {
            seen.push(args[0]);
            return target.query(...args);
          };
        }
        return Reflect.get(target, prop, receiver) as unknown;
      },
    });
    await publishGeneration(watching, fourth.dir, fourth.manifest, { bulk });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter((text) => text.includes('SELECT DISTINCT ?g'))).toEqual([]);
    await dropGenerations(server, [third.id, fourth.id], bulk);
    expect(await count(`GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), "${graphs.prefix}"))`)).toBe(0);
  });

  it('serves the bulk-written generation through the store, ASK included', async () => {
    const config = loadConfig({ BASE_URL: BASE, DATA_DIR: dataDir, STORE_URL: virtuoso.sparqlUrl, STORE_USER: virtuoso.user, STORE_PASSWORD: virtuoso.password });
    const { rest, sparql } = createStores(config);
    try {
      await (rest as RemoteStore).start(generation.dir);
      await (sparql as RemoteStore).start(generation.dir);
      const record = await rest.query(`CONSTRUCT { ?s ?p ?o } WHERE { GRAPH <${obj(3)}> { ?s ?p ?o } }`);
      expect(record.trim().split('\n')).toHaveLength(4);
      expect(JSON.parse(await sparql.query(`ASK { GRAPH <${BASE}/v2/id/object/S1> { ?s ?p ?o } }`))).toMatchObject({ boolean: false });
      expect(JSON.parse(await sparql.query(`ASK { <${obj(3)}> <${LABEL}> ?l }`, { unionDefaultGraph: true }))).toMatchObject({ boolean: true });
    } finally {
      await Promise.all([rest.close(), sparql.close()]);
    }
  });

  it('refuses a folder the server may not read, names the setting, and leaves the generation incomplete', async () => {
    // The server is told the folder is at a path outside its DirsAllowed, wherever the checkout is: Virtuoso
    // lets ld_dir read any path that starts with /tmp (/tmp2 too) whatever DirsAllowed says, and the test's
    // Virtuoso is under /tmp, so a real folder beside the checkout is refused only when the checkout is not.
    const outside = await mkdtemp(join(tmpdir(), 'bulk-outside-'));
    try {
      const second = await makeGeneration();
      const bulk = new BulkLoader({ dir: outside, serverDir: `/museum-bulk-not-allowed-${process.pid}`, isql });
      await expect(publishGeneration(server, second.dir, second.manifest, { bulk })).rejects.toThrow(/DirsAllowed/);
      expect(await isPublished(server, second.id)).toBe(false);
      expect(await readdir(outside)).toEqual([]);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('is what STORE_BULK_DIR with STORE_ISQL chooses for the data commands and npm start', async () => {
    const third = await makeGeneration();
    const config = loadConfig(bulkSettings());
    const report = await ensurePublished(config, third.dir);
    expect(report?.bulk?.files).toBeGreaterThan(0);
    expect(report?.quads).toBe(distinctPublic() + DISTINCT_NON_PUBLIC);
    expect(await isPublished(server, third.id)).toBe(true);
  });
  it('writes the bulk files in the generation’s own pass, once for both servers, which load them side by side as they are written', async () => {
    // The public SPARQL endpoint's own server (SPARQL_STORE_URL), reading the same bulk folder.
    const apart = await startVirtuoso({ dirsAllowed: [virtuoso.loadDir] });
    const apartServer = new RemoteServer({ queryUrl: apart.sparqlUrl });
    try {
      const config = loadConfig({
        ...bulkSettings(),
        SPARQL_STORE_URL: apart.sparqlUrl,
        SPARQL_STORE_ISQL: `127.0.0.1:${apart.isqlPort}`,
      });
      const reports: { role: string; report: PublishReport }[] = [];
      let after = 0;
      // What `after` (the stored index) sees of the servers once they say they hold the generation.
      let heldWhenSaid: boolean[] = [];
      const publishing = publication(
        config,
        async (staged, serversHold) => {
          after++;
          await serversHold;
          heldWhenSaid = [await isPublished(server, staged.id), await isPublished(apartServer, staged.id, 'public')];
        },
        { onDone: (report, role) => reports.push({ role, report }) },
      );
      const tap = publishing.tap as NonNullable<typeof publishing.tap>;
      let filesWhenWritten: string[] = [];
      const made = await createGeneration(
        dataDir,
        { source: { kind: 'load', path: 'test' }, baseUrl: BASE, kinds: KIND_NAMES },
        async (out) => {
          const { pub, nonPub } = files();
          out.public.end(`${pub.join('\n')}\n`);
          out.nonPublic.end(`${nonPub.join('\n')}\n`);
        },
        {
          // What the folder holds once the generation's two files are written, before its check and publication.
          tap: async (id) => {
            const seeing = await tap(id);
            return { ...seeing, end: async () => void (await seeing.end(), (filesWhenWritten = await readdir(join(virtuoso.loadDir, id)))) };
          },
          ...(publishing.derive ? { derive: publishing.derive } : {}),
        },
      );
      expect(filesWhenWritten.some((name) => name.startsWith('public-'))).toBe(true);
      expect(filesWhenWritten.some((name) => name.startsWith('nonpublic-'))).toBe(true);
      expect(filesWhenWritten.some((name) => name.startsWith('union-'))).toBe(true);
      // Both servers loaded the record graphs' files as they were written beside the generation, and marked it
      // complete after its check; the union graph's own files wait.
      expect(reports.map(({ role }) => role).sort()).toEqual(['rest', 'sparql']);
      const recordFiles = (prefixes: string[]): number => filesWhenWritten.filter((name) => prefixes.some((p) => name.startsWith(p))).length;
      for (const { role, report } of reports) expect([report.bulk?.files, report.bulk?.check]).toEqual([recordFiles(role === 'rest' ? ['public-', 'nonpublic-'] : ['public-']), 'rows']);
      expect(Object.fromEntries(reports.map(({ role, report }) => [role, report.quads]))).toEqual({ rest: distinctPublic() + DISTINCT_NON_PUBLIC, sparql: distinctPublic() });
      const graphs = generationGraphs(made.id);
      expect(await isPublished(server, made.id)).toBe(true);
      expect(await count(`GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), "${graphs.nonPublicPrefix}"))`)).toBe(DISTINCT_NON_PUBLIC);
      const apartCount = async (where: string): Promise<number> =>
        Number(json((await apartServer.query(`SELECT (COUNT(*) AS ?n) WHERE { ${where} }`, 'application/sparql-results+json')).body).results.bindings[0]?.n?.value);
      // Before `finish`: the union graph holds the copies that name a blank node (two per record), loaded with
      // their record graphs, and /sparql's server does not serve the generation yet.
      expect(await apartCount(`GRAPH <${graphs.unionGraph}> { ?s ?p ?o }`)).toBe(RECORDS * 2);
      expect([await isPublished(apartServer, made.id, 'public'), await isPublished(apartServer, made.id, 'public', true)]).toEqual([true, false]);
      const union = await publishing.finish();
      expect(union?.statements).toBe(RECORDS * 2);
      expect(union?.rowsAdded).toBe(RECORDS + 1);
      // The public server: the public part only, nothing private, its union graph whole; the REST server never
      // loads the union graph's own files (it does not serve /sparql).
      expect([await isPublished(apartServer, made.id, 'public'), await isPublished(apartServer, made.id, 'public', true), await isPublished(apartServer, made.id)]).toEqual([true, true, false]);
      expect(await apartCount(`GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), "${graphs.publicPrefix}"))`)).toBe(distinctPublic());
      expect(await apartCount(`GRAPH <${graphs.unionGraph}> { ?s ?p ?o }`)).toBe(RECORDS * 3 + 1);
      expect(await apartCount(`GRAPH ?g { ?s ?p "Geheim"@nl }`)).toBe(0);
      expect(await count(`GRAPH <${graphs.unionGraph}> { ?s ?p ?o }`)).toBe(RECORDS * 2);
      // The stored index (after) ran once, beside the loads, told when both servers held the generation; the folder
      // and both load lists are empty again.
      expect(after).toBe(1);
      expect(heldWhenSaid).toEqual([true, true]);
      expect(await readdir(virtuoso.loadDir)).toEqual([]);
      for (const port of [virtuoso.isqlPort, apart.isqlPort]) {
        const sql = new Isql({ address: `127.0.0.1:${port}`, user: 'dba', password: 'dba', bin: ISQL_BIN as string });
        expect((await sql.run([`select count(*) from DB.DBA.LOAD_LIST where ll_file like '${virtuoso.loadDir}/%';`])).trim()).toBe('0');
      }
      await dropGenerations(server, [made.id]);
    } finally {
      await apartServer.close();
      await apart.stop();
    }
  }, 120_000);

  it('drops from the server what a generation that failed after its first bulk files had loaded, and leaves no files', async () => {
    const config = loadConfig(bulkSettings());
    const publishing = publication(config, undefined, {}, { fileStatements: FILE_STATEMENTS });
    let id = '';
    const failing = createGeneration(
      dataDir,
      { source: { kind: 'load', path: 'test' }, baseUrl: BASE, kinds: KIND_NAMES },
      async (out) => {
        const { pub } = files();
        out.public.write(`${pub.join('\n')}\n`);
        // The first files are loaded before the source's bad line is met.
        for (let waited = 0; (await count(`GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), "${generationGraphs(id).publicPrefix}"))`)) === 0; waited += 100) {
          if (waited > 20_000) throw new Error('nothing was loaded in 20 s');
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        throw new Error('objects.jsonl:7: a bad line');
      },
      { tap: async (made) => ((id = made), (publishing.tap as NonNullable<typeof publishing.tap>)(made)), ...(publishing.derive ? { derive: publishing.derive } : {}) },
    );
    await expect(failing).rejects.toThrow('objects.jsonl:7: a bad line');
    const graphs = generationGraphs(id);
    expect(await count(`GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), "${graphs.prefix}"))`)).toBe(0);
    expect(await count(`GRAPH <${graphs.unionGraph}> { ?s ?p ?o }`)).toBe(0);
    expect(await hasEntry(server, graphs.marker)).toBe(false);
    expect(await readdir(virtuoso.loadDir)).toEqual([]);
    expect((await isql.run([`select count(*) from DB.DBA.LOAD_LIST where ll_file like '${virtuoso.loadDir}/%';`])).trim()).toBe('0');
  }, 60_000);

  it('publishes and drops through the bulk loader as the writer account with exactly the grants of docs/operations.md', async () => {
    const writer = await documentedWriter();
    for (const text of writer.execs) await isqlExec(`127.0.0.1:${virtuoso.isqlPort}`, text);
    const asWriter = remoteServer(loadConfig({ STORE_URL: virtuoso.sparqlUrl, STORE_USER: writer.user, STORE_PASSWORD: writer.password })) as RemoteServer;
    const writerIsql = new Isql({ address: `127.0.0.1:${virtuoso.isqlPort}`, user: writer.user, password: writer.password, bin: ISQL_BIN as string });
    try {
      const own = await makeGeneration();
      const bulk = new BulkLoader({ dir: virtuoso.loadDir, isql: writerIsql, loaders: 2, fileStatements: FILE_STATEMENTS });
      const report = await publishGeneration(asWriter, own.dir, own.manifest, { bulk });
      expect(report.quads).toBe(distinctPublic() + DISTINCT_NON_PUBLIC);
      expect(await isPublished(server, own.id)).toBe(true);
      expect(await count(`GRAPH <${generationGraphs(own.id).unionGraph}> { ?s ?p ?o }`)).toBe(RECORDS * 3 + 1);
      await dropGenerations(asWriter, [own.id], bulk);
      expect(await isPublished(server, own.id)).toBe(false);
      // Not a DBA: the grants are what let it through.
      await expect(writerIsql.run(['select count(*) from DB.DBA.SYS_USERS;'])).rejects.toThrow(/permission|SQ\d+/i);
    } finally {
      await asWriter.close();
    }
  });

  it('says the connection was lost and how to go on when the server goes away mid-load, and the next load clears the rows it left', async () => {
    const interrupted = await makeGeneration();
    // The SQL port behind a proxy that closes, with every connection through it, once the first file is registered:
    // from the service's side, the server stopped in the middle of the load.
    const proxy = await startHangingProxy(virtuoso.isqlPort);
    const throughProxy = new Isql({ address: `127.0.0.1:${proxy.port}`, user: virtuoso.user, password: virtuoso.password, bin: ISQL_BIN as string });
    const dying = new (class extends Isql {
      override async run(statements: readonly string[], timeoutMs?: number): Promise<string> {
        const out = await throughProxy.run(statements, timeoutMs);
        if (statements[0]?.startsWith('ld_dir(')) await proxy.close();
        return out;
      }
    })({ address: '', user: '', password: '' });
    const bulk = new BulkLoader({ dir: virtuoso.loadDir, isql: dying, loaders: 2, fileStatements: FILE_STATEMENTS });
    const failure = await publishGeneration(server, interrupted.dir, interrupted.manifest, { bulk }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(PublicationInterruptedError);
    expect((failure as Error).message).toMatch(/connection to the SPARQL server was lost while generation \S+ was being written to it \(CL0\d\d/);
    expect((failure as Error).message).toMatch(/current generation is untouched.*restart.*run the same command again/);
    expect(await isPublished(server, interrupted.id)).toBe(false);
    // The rows of the load it could not remove, its folder gone; and another writer's load in progress (its folder there).
    const listedUnder = async (folder: string): Promise<number> => Number((await isql.run([`select count(*) from DB.DBA.LOAD_LIST where ll_file like '${virtuoso.loadDir}/${folder}/%';`])).trim());
    expect(await listedUnder(interrupted.id)).toBeGreaterThan(0);
    await mkdir(join(virtuoso.loadDir, 'other-writer'));
    await writeFile(join(virtuoso.loadDir, 'other-writer', 'part-00001.trig.gz'), '');
    await isql.run([`insert into DB.DBA.LOAD_LIST (ll_file, ll_graph, ll_state) values ('${virtuoso.loadDir}/gone/part-00001.trig.gz', 'urn:x-museum-ld:empty', 1);`]);
    await isql.run([`insert into DB.DBA.LOAD_LIST (ll_file, ll_graph, ll_state) values ('${virtuoso.loadDir}/other-writer/part-00001.trig.gz', 'urn:x-museum-ld:empty', 2);`]);
    try {
      const next = await makeGeneration();
      const report = await publishGeneration(server, next.dir, next.manifest, { bulk: new BulkLoader({ dir: virtuoso.loadDir, isql, loaders: 2, fileStatements: FILE_STATEMENTS }) });
      expect(report.quads).toBe(distinctPublic() + DISTINCT_NON_PUBLIC);
      expect(await isPublished(server, next.id)).toBe(true);
      expect(await listedUnder(interrupted.id)).toBe(0);
      expect(await listedUnder('gone')).toBe(0);
      expect(await listedUnder('other-writer')).toBe(1);
      // The interrupted generation is dropped like any other that never became current.
      await dropGenerations(server, [interrupted.id, next.id], new BulkLoader({ dir: virtuoso.loadDir, isql }));
      expect(await count(`GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), "${generationGraphs(interrupted.id).prefix}"))`)).toBe(0);
    } finally {
      await isql.run([`delete from DB.DBA.LOAD_LIST where ll_file like '${virtuoso.loadDir}/other-writer/%';`]);
      await rm(join(virtuoso.loadDir, 'other-writer'), { recursive: true, force: true });
    }
  });

  it('says the connection was lost when the SPARQL server does not take the connection at all', async () => {
    const port = await freePort();
    const gone = new RemoteServer({ queryUrl: `http://127.0.0.1:${port}/sparql`, user: virtuoso.user, password: virtuoso.password });
    try {
      const own = await makeGeneration();
      await expect(publishGeneration(gone, own.dir, own.manifest)).rejects.toThrow(/connection to the SPARQL server was lost .*\(ECONNREFUSED\).*run the same command again/);
    } finally {
      await gone.close();
    }
  });
});
