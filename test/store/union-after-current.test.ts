/**
 * The union graph loaded after the generation is current (src/store/remote/bulk-files.ts, publish.ts, stores.ts):
 * with bulk files written beside the generation, the REST store serves it as soon as its record graphs are in,
 * while /sparql's store keeps the generation before until the union graph's own files are loaded (`finish`);
 * then its default graph holds every public statement, the blank nodes the record graphs name among them. A
 * union that a killed command left pending is loaded again from the generation (`ensureUnion`), never twice
 * beside a live publisher. Real Virtuoso on Debian's virtuoso.ini; the expected counts are read off the
 * hand-written N-Quads.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../../src/config/config.js';
import { createGeneration, OWNER_FILE, type Generation } from '../../src/store/generations.js';
import { generationGraphs } from '../../src/store/remote/graph-view.js';
import { isPublished, UnionPendingError } from '../../src/store/remote/publish.js';
import type { RemoteServer } from '../../src/store/remote/remote-server.js';
import { createStores, ensureUnion, publication, remoteServer, unionPending, type Publication } from '../../src/store/stores.js';
import { describeWithVirtuoso, ISQL_BIN, startVirtuoso, type VirtuosoServer } from '../helpers/virtuoso.js';
import { KIND_NAMES } from '../../src/kinds/index.js';

const FILE = 'test/store/union-after-current.test.ts';
const BASE = 'http://localhost:3000';
const LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';
const VALUE = 'http://example.org/value';
const obj = (n: number): string => `${BASE}/v2/id/object/U${n}`;
const RECORDS = 30;

/** Per record a label (its own text per generation), a dimension on a blank node and its value; a shared concept label. */
function lines(title: string): { pub: string[]; nonPub: string[] } {
  const pub: string[] = [];
  for (let n = 0; n < RECORDS; n++) {
    const g = `<${obj(n)}>`;
    pub.push(`${g} <${LABEL}> "${title} ${n}"@nl ${g} .`);
    pub.push(`${g} <http://example.org/dimension> _:d${n} ${g} .`);
    pub.push(`_:d${n} <${VALUE}> "${n}.5"^^<http://www.w3.org/2001/XMLSchema#decimal> ${g} .`);
    pub.push(`<${BASE}/v2/id/concept/1> <${LABEL}> "stoel"@nl ${g} .`);
  }
  const secret = `<${BASE}/v2/id/object/S1>`;
  return { pub, nonPub: [`${secret} <${LABEL}> "Geheim"@nl ${secret} .`] };
}
/** Distinct statements of the union graph: per record its label, its dimension and the value; the concept label once. */
const UNION = RECORDS * 3 + 1;

describeWithVirtuoso(FILE)('the union graph, loaded once the generation is current', () => {
  let virtuoso: VirtuosoServer;
  let dataDir: string;
  let config: Config;
  let server: RemoteServer;

  const count = async (where: string): Promise<number> =>
    Number((JSON.parse((await server.query(`SELECT (COUNT(*) AS ?n) WHERE { ${where} }`, 'application/sparql-results+json')).body) as { results: { bindings: { n: { value: string } }[] } }).results.bindings[0]?.n.value);

  /** A generation made and published as the data commands do: bulk files beside it, the union graph left for `finish`. */
  async function made(title: string): Promise<{ generation: Generation; publishing: Publication }> {
    const publishing = publication(config, undefined, {}, { fileStatements: 40 });
    const generation = await createGeneration(
      dataDir,
      { source: { kind: 'load', path: 'test' }, baseUrl: BASE, kinds: KIND_NAMES },
      async (out) => {
        const { pub, nonPub } = lines(title);
        out.public.end(`${pub.join('\n')}\n`);
        out.nonPublic.end(`${nonPub.join('\n')}\n`);
      },
      { ...(publishing.tap ? { tap: publishing.tap } : {}), ...(publishing.derive ? { derive: publishing.derive } : {}), makeCurrent: false },
    );
    return { generation, publishing };
  }

  beforeAll(async () => {
    virtuoso = await startVirtuoso({ debianIni: true });
    dataDir = await mkdtemp(join(tmpdir(), 'union-after-'));
    config = loadConfig({
      DATA_DIR: dataDir,
      STORE_URL: virtuoso.sparqlUrl,
      STORE_USER: virtuoso.user,
      STORE_PASSWORD: virtuoso.password,
      STORE_BULK_DIR: virtuoso.loadDir,
      STORE_ISQL: `127.0.0.1:${virtuoso.isqlPort}`,
      STORE_ISQL_BIN: ISQL_BIN as string,
    });
    server = remoteServer(config) as RemoteServer;
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await virtuoso?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('serves REST from the record graphs at once, and /sparql from the generation before until the union graph is whole', async () => {
    const first = await made('Stoel');
    expect(await first.publishing.finish()).toBeDefined();
    const stores = createStores(config);
    try {
      await stores.rest.start(first.generation.dir);
      await stores.sparql.start(first.generation.dir);
      const second = await made('Tafel');
      const graphs = generationGraphs(second.generation.id);
      expect(await unionPending(server, second.generation.dir)).toBe(true);
      // The REST store swaps: its record graphs are in.
      expect((await stores.rest.swap(second.generation.dir)).id).toBe(second.generation.id);
      // /sparql's store refuses, and keeps serving the first generation's default graph.
      await expect(stores.sparql.swap(second.generation.dir)).rejects.toBeInstanceOf(UnionPendingError);
      expect(stores.sparql.generation?.id).toBe(first.generation.id);
      const labels = async (): Promise<string[]> => {
        const answer = await stores.sparql.query(`SELECT ?l WHERE { <${obj(3)}> <${LABEL}> ?l }`, { unionDefaultGraph: true });
        return (JSON.parse(answer) as { results: { bindings: { l: { value: string } }[] } }).results.bindings.map((b) => b.l.value);
      };
      expect(await labels()).toEqual(['Stoel 3']);
      // Meanwhile the union graph holds the copies that name a blank node, loaded with their record graphs.
      expect(await count(`GRAPH <${graphs.unionGraph}> { ?s ?p ?o }`)).toBe(RECORDS * 2);

      const union = await second.publishing.finish();
      expect(union).toMatchObject({ statements: RECORDS * 2, rowsAdded: RECORDS + 1 });
      expect(await unionPending(server, second.generation.dir)).toBe(false);
      expect((await stores.sparql.swap(second.generation.dir)).id).toBe(second.generation.id);
      expect(await labels()).toEqual(['Tafel 3']);
      expect(await count(`GRAPH <${graphs.unionGraph}> { ?s ?p ?o }`)).toBe(UNION);
      // A blank node of a record graph is the same node in the union graph (both loaded from one file).
      expect(await count(`GRAPH <${graphs.publicPrefix}${obj(0)}> { ?x <http://example.org/dimension> ?b } GRAPH <${graphs.unionGraph}> { ?b <${VALUE}> ?v }`)).toBe(1);
      expect(await count(`GRAPH <${graphs.unionGraph}> { ?s ?p "Geheim"@nl }`)).toBe(0);
    } finally {
      await Promise.all([stores.rest.close(), stores.sparql.close()]);
    }
  }, 120_000);

  it('loads again the union graph a killed command left pending, and leaves it to a live one', async () => {
    const { generation } = await made('Kast');
    const graphs = generationGraphs(generation.id);
    // The publisher is alive (this process owns the bulk folder): nothing to do.
    expect(await ensureUnion(config, generation.dir)).toBeUndefined();
    expect(await isPublished(server, generation.id, 'public', true)).toBe(false);
    // The publisher dies: its folder stays, owned by a process that is gone.
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    await writeFile(join(virtuoso.loadDir, generation.id, OWNER_FILE), JSON.stringify({ pid: gone, host: (await import('node:os')).hostname() }));
    const loaded = await ensureUnion(config, generation.dir);
    expect(loaded).toMatchObject({ generation: generation.id, statements: RECORDS * 2, rowsAdded: RECORDS + 1 });
    expect(await isPublished(server, generation.id, 'public', true)).toBe(true);
    expect(await count(`GRAPH <${graphs.unionGraph}> { ?s ?p ?o }`)).toBe(UNION);
    // Whole now: nothing more to do.
    expect(await ensureUnion(config, generation.dir)).toBeUndefined();
  }, 120_000);
});
