/**
 * Exact dumps (issue 28): no dump holds a statement twice in one graph, and the counts the service publishes
 * (VoID `void:triples` of the SPARQL service description, the manifest's quad counts) are the line counts of
 * the files. The demo generation is checked as harvested; a load of a file with duplicate quads is checked too.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import request from 'supertest';
import { KindDumps, kindDumpFile } from '../../src/sparql/kind-dumps.js';
import { dumpCurrent } from '../../src/store/dump.js';
import { generationFiles } from '../../src/store/generations.js';
import { loadNQuadsFile } from '../../src/store/load.js';
import { MUSEUM } from '../../src/vocab/namespaces.js';
import { sourceRecords, startDemoApp, TEST_BASE_URL, type DemoApp } from '../helpers/demo.js';
import { parseRdf } from './sparql-test-parsers.js';
import { KIND_NAMES } from '../../src/kinds/index.js';

const DUMP_KINDS = KIND_NAMES.names;

const lines = (gz: Buffer): string[] =>
  gunzipSync(gz)
    .toString('utf8')
    .split('\n')
    .filter((l) => l !== '');

/** The lines that occur more than once. */
const repeated = (all: readonly string[]): string[] => {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const line of all) (seen.has(line) ? twice : seen).add(line);
  return [...twice];
};

const VOID_TRIPLES = 'http://rdfs.org/ns/void#triples';
const RDFS_LABEL = '<http://www.w3.org/2000/01/rdf-schema#label>';

let demo: DemoApp;
let publicLines: string[];
let nonPublicLines: string[];
beforeAll(async () => {
  demo = await startDemoApp({}, { sparql: true });
  const files = generationFiles(demo.data.generation.dir);
  publicLines = lines(readFileSync(files.public));
  nonPublicLines = lines(readFileSync(files.nonPublic));
}, 600_000);
afterAll(() => demo.close());

describe('the demo generation', () => {
  it('holds no statement twice in its public or non-public file', () => {
    expect(publicLines.length).toBeGreaterThan(0);
    expect(repeated(publicLines)).toEqual([]);
    expect(repeated(nonPublicLines)).toEqual([]);
  });

  it('counts in its manifest exactly the lines of its files', () => {
    const { counts } = demo.data.generation.manifest;
    expect(counts.publicQuads).toBe(publicLines.length);
    expect(counts.nonPublicQuads).toBe(nonPublicLines.length);
  });

  it('labels the museum once in each exhibition graph held at the museum, whether or not it also organised it', () => {
    const exhibitions = sourceRecords(demo.data, 'exhibitions') as { pid: string; public: boolean; venue?: { uri: string }; curator?: unknown }[];
    const atMuseum = exhibitions.filter((e) => e.public && e.venue?.uri === MUSEUM.iri);
    // Both cases are in the demo: the museum as venue only, and as venue and organiser (the duplicated label).
    expect(atMuseum.some((e) => e.curator === undefined)).toBe(true);
    expect(atMuseum.some((e) => e.curator !== undefined)).toBe(true);
    for (const e of atMuseum) {
      const graph = `<${TEST_BASE_URL}/v2/id/exhibition/${e.pid}> .`;
      const labels = publicLines.filter((l) => l.startsWith(`<${MUSEUM.iri}> ${RDFS_LABEL} `) && l.endsWith(graph));
      expect([e.pid, labels.length]).toEqual([e.pid, 1]);
      const types = publicLines.filter((l) => l.startsWith(`<${MUSEUM.iri}> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> `) && l.endsWith(graph));
      // Venue (E53_Place), and organiser (E39_Actor) when no curator is named: no statement lost to the fix.
      expect([e.pid, types.length]).toEqual([e.pid, e.curator === undefined ? 2 : 1]);
    }
  });

  it('states void:triples in the SPARQL service description as the number of lines of the collection dump', async () => {
    const res = await request(demo.app).get('/sparql').set('Accept', 'text/turtle');
    expect(res.status).toBe(200);
    const counts = (await parseRdf(res.text, 'text/turtle')).filter((q) => q.predicate.value === VOID_TRIPLES);
    expect(counts.length).toBeGreaterThan(0);
    const dump = lines((await downloadDump('collection.nq.gz')).body as Buffer);
    for (const count of counts) expect(Number(count.object.value)).toBe(dump.length);
    expect(new Set(dump).size).toBe(dump.length);
  });

  it.each(DUMP_KINDS.map((kind) => [kind]))('serves the %s dump without a repeated line, with as many lines as its kind has in the collection dump', async (kind) => {
    const res = await downloadDump(`${kind}s.nq.gz`);
    expect(res.status).toBe(200);
    const dump = lines(res.body as Buffer);
    expect(dump.length).toBeGreaterThan(0);
    expect(repeated(dump)).toEqual([]);
    const graph = new RegExp(`<${TEST_BASE_URL}/v2/id/${kind}/[^/>]+> \\.$`);
    expect(dump.length).toBe(publicLines.filter((l) => graph.test(l)).length);
  });
});

describe('a load of a file with duplicate quads', () => {
  it('writes each statement of a graph once: the generation, its dump and its kind dumps, and counts them so', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'exact-load-'));
    try {
      // Two record graphs of each kind from the demo, and a non-public record's admin quads.
      const graphs = DUMP_KINDS.flatMap((kind) => {
        const prefix = `<${TEST_BASE_URL}/v2/id/${kind}/`;
        const names = [...new Set(publicLines.filter((l) => l.includes(prefix)).map((l) => l.slice(l.lastIndexOf(' <') + 1, -2)))];
        return names.filter((g) => g.startsWith(prefix)).slice(0, 2);
      });
      const runs = graphs.map((g) => publicLines.filter((l) => l.endsWith(` ${g} .`)));
      const admin = nonPublicLines.filter((l) => l.endsWith(`<${TEST_BASE_URL}/graph/admin> .`)).slice(0, 3);
      const defaultGraph = `<${MUSEUM.iri}> ${RDFS_LABEL} "${MUSEUM.name}" .`;
      const unique = [...runs.flat(), ...admin, defaultGraph];
      // Duplicates within each run: a line repeated at once, the first line again at the end of its run.
      const input = [
        ...runs.flatMap((run) => [...run.flatMap((l, i) => (i % 3 === 0 ? [l, l] : [l])), run[0] as string]),
        ...admin.flatMap((l) => [l, l]),
        defaultGraph,
        `<${MUSEUM.iri}>   ${RDFS_LABEL} "${MUSEUM.name}"  .`,
      ];
      const added = input.length - unique.length;
      expect(added).toBeGreaterThan(0);
      const file = path.join(dir, 'duplicates.nq');
      await writeFile(file, `${input.join('\n')}\n`);

      const dataDir = path.join(dir, 'data');
      const generation = await loadNQuadsFile(dataDir, file, { baseUrl: TEST_BASE_URL, kinds: KIND_NAMES });
      const files = generationFiles(generation.dir);
      const pub = lines(readFileSync(files.public));
      const nonPub = lines(readFileSync(files.nonPublic));
      expect(repeated(pub)).toEqual([]);
      expect(repeated(nonPub)).toEqual([]);
      expect([...pub, ...nonPub].sort()).toEqual([...unique].sort());
      expect(generation.manifest.counts.publicQuads).toBe(pub.length);
      expect(generation.manifest.counts.nonPublicQuads).toBe(nonPub.length);
      expect(generation.manifest.details).toMatchObject({ inputQuads: input.length, duplicateQuads: added, scatteredRuns: 0 });

      const dumped = path.join(dir, 'dump.nq.gz');
      await dumpCurrent(dataDir, dumped);
      const dump = lines(readFileSync(dumped));
      expect(repeated(dump)).toEqual([]);
      expect(dump.length).toBe(generation.manifest.counts.publicQuads);

      await new KindDumps(dataDir).ensure(generation);
      for (const kind of DUMP_KINDS) {
        const kindLines = lines(readFileSync(kindDumpFile(dataDir, generation.id, kind)));
        expect(repeated(kindLines)).toEqual([]);
        const prefix = `<${TEST_BASE_URL}/v2/id/${kind}/`;
        expect(kindLines.sort()).toEqual(runs.flat().filter((l) => l.slice(l.lastIndexOf(' <') + 1).startsWith(prefix)).sort());
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/** A dump as downloaded; a kind dump still being written (503 with Retry-After on a busy machine) is asked again. */
async function downloadDump(name: string): Promise<request.Response> {
  for (let attempt = 0; ; attempt++) {
    const res = await request(demo.app).get(`/v2/dumps/${name}`).buffer(true).parse(binary);
    if (res.status !== 503 || attempt === 30) return res;
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

/** supertest collects a binary body as a Buffer with this parser. */
function binary(res: request.Response, done: (err: Error | null, body: Buffer) => void): void {
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
}
