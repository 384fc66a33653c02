/**
 * The bulk loader's files (src/store/remote/bulk-files.ts), written by the tap on a generation's N-Quads streams
 * while it is made, and from a finished generation's files: the statements of every block are those of the
 * generation, each graph under its prefixed name, the public ones also in the union graph (those without a blank
 * node in the union graph's own files), nothing private in a
 * public file; however the writer cuts its text into chunks, the files are the same; a graph that comes back with
 * blank nodes is refused; a generation that fails leaves no folder. Expected quads are read off the hand-written
 * N-Quads with n3, not with the code under test.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { Parser, type Quad } from 'n3';
import { createGeneration } from '../../src/store/generations.js';
import { BulkFiles, namesBlankNode } from '../../src/store/remote/bulk-files.js';
import { generationGraphs } from '../../src/store/remote/graph-view.js';
import { KIND_NAMES } from '../../src/kinds/index.js';

const BASE = 'http://localhost:3000';
const LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';

/** Public lines: per record a label, a blank dimension node, a statement shared by all, one line twice; then the non-public ones. */
function lines(records: number): { pub: string[]; nonPub: string[] } {
  const pub: string[] = [];
  for (let n = 0; n < records; n++) {
    const g = `<${BASE}/v2/id/object/B${n}>`;
    pub.push(`${g} <${LABEL}> "Stoel ${n} \\u00e9\\"é"@nl ${g} .`);
    pub.push(`${g} <http://example.org/dimension> _:d${n} ${g} .`);
    pub.push(`_:d${n} <http://example.org/value> "${n}.5"^^<http://www.w3.org/2001/XMLSchema#decimal> ${g} .`);
    pub.push(`<${BASE}/v2/id/concept/1> <${LABEL}> "stoel"@nl ${g} .`);
    if (n % 3 === 0) pub.push(`${g} <${LABEL}> "Stoel ${n} \\u00e9\\"é"@nl ${g} .`);
  }
  const secret = `<${BASE}/v2/id/object/S1>`;
  const admin = `<${BASE}/graph/admin>`;
  const nonPub = [
    `${secret} <urn:x-museum-ld:admin:private> "true"^^<http://www.w3.org/2001/XMLSchema#boolean> ${admin} .`,
    `${secret} <${LABEL}> "Geheim"@nl ${secret} .`,
    `${secret} <http://example.org/dimension> _:d0 ${secret} .`,
    `_:d0 <http://example.org/value> "secret" ${secret} .`,
    // The admin graph comes back after another graph: a second block (no blank nodes).
    `<${BASE}/v2/id/object/S2> <urn:x-museum-ld:admin:state> "deleted" ${admin} .`,
  ];
  return { pub, nonPub };
}

/** Every statement of the gunzipped TriG files of `folder`, by file name prefix, as `s p o g` strings (blank nodes per file). */
async function fileQuads(folder: string): Promise<{ names: string[]; public: string[]; nonPublic: string[]; texts: Map<string, string> }> {
  const names = (await readdir(folder)).filter((name) => name.endsWith('.trig.gz')).sort();
  const out = { names, public: [] as string[], nonPublic: [] as string[], texts: new Map<string, string>() };
  for (const name of names) {
    const text = gunzipSync(await readFile(join(folder, name))).toString('utf8');
    out.texts.set(name, text);
    const quads = new Parser({ format: 'application/trig', blankNodePrefix: `${name}-` }).parse(text);
    // The union graph's own files count with the public ones: together they hold the public part.
    (name.startsWith('nonpublic-') ? out.nonPublic : out.public).push(...quads.map(show));
  }
  return out;
}

const show = (q: Quad): string => `${q.subject.id} ${q.predicate.id} ${q.object.id} ${q.graph.id}`;

/** The quads of N-Quads `text` under the server's names: record graphs prefixed, and for public ones the union copy. */
function expected(text: string, prefix: string, union: string | undefined, file: string): string[] {
  const quads = new Parser({ format: 'application/n-quads', blankNodePrefix: `${file}-` }).parse(text);
  const seen = new Set<string>();
  for (const q of quads) {
    seen.add(`${q.subject.id} ${q.predicate.id} ${q.object.id} ${prefix}${q.graph.value}`);
    if (union !== undefined) seen.add(`${q.subject.id} ${q.predicate.id} ${q.object.id} ${union}`);
  }
  return [...seen].sort();
}

describe('bulk files', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'bulk-files-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('holds every statement of the generation under the server names, the public ones also in the union graph, nothing private in a public file', async () => {
    const { pub, nonPub } = lines(40);
    const graphs = generationGraphs('g-test');
    const files = await BulkFiles.create({ dir: root, fileStatements: 50 }, 'g-test', graphs);
    const tap = files.tap();
    await tap.public(`${pub.join('\n')}\n`);
    await tap.nonPublic(`${nonPub.join('\n')}\n`);
    await tap.end();
    const written = await fileQuads(files.folder);
    // Blank nodes are per file in TriG; a graph's statements and its union copy are in one file, so names line up
    // once each file's prefix is taken off the labels (checked whole below by the graph of each node).
    const unlabel = (quad: string): string => quad.replace(/_:[^ ]*?-(?=[a-z]+\d)/g, '_:');
    expect([...new Set(written.public.map(unlabel))].sort()).toEqual(expected(pub.join('\n'), graphs.publicPrefix, graphs.unionGraph, 'x').map(unlabel));
    expect([...new Set(written.nonPublic.map(unlabel))].sort()).toEqual(expected(nonPub.join('\n'), graphs.nonPublicPrefix, undefined, 'x').map(unlabel));
    expect(written.public.join('\n')).not.toContain('Geheim');
    // The union graph's own files hold its statements without a blank node, the public files the rest.
    const unionFiles = written.names.filter((name) => name.startsWith('union-'));
    expect(unionFiles.length).toBeGreaterThan(0);
    for (const name of unionFiles) {
      expect(written.texts.get(name)).not.toContain('_:');
      expect([...(written.texts.get(name) as string).matchAll(/^<([^>]+)> \{$/gm)].map((m) => m[1])).toEqual(expect.arrayContaining([graphs.unionGraph]));
    }
    const unionInUnionFiles = written.public.filter((q) => q.endsWith(` ${graphs.unionGraph}`) && !q.includes('_:'));
    expect(unionInUnionFiles.length).toBe(files.unionFileStatements);
    // Several public files at 50 statements each (a graph and its union copy: 8 to 10 statements), one graph never cut.
    expect(written.names.filter((name) => name.startsWith('public-')).length).toBeGreaterThan(4);
    for (const [name, text] of written.texts) {
      for (const block of text.split(/\n}\n/).filter((b) => b.includes('_:d'))) {
        const label = /_:d\d+/.exec(block)?.[0] as string;
        // Every block naming a dimension node holds the statement about its value: no blank node left without its statements.
        expect({ name, has: block.includes(`${label} <http://example.org/value>`) }).toEqual({ name, has: true });
      }
    }
    // Counts: distinct statements within each block (the repeated label once), graphs as blocks.
    expect(files.countsOf('public')).toEqual({ graphs: 40, quads: 40 * 4 });
    expect(files.countsOf('nonPublic')).toEqual({ graphs: 3, quads: 5 });
    expect(files.files.map((file) => file.name).sort()).toEqual(written.names);
  });

  it('writes the same files however the writer cuts its text into chunks, and the same as from the finished generation', async () => {
    const { pub, nonPub } = lines(12);
    const text = { public: `${pub.join('\n')}\n`, nonPublic: `${nonPub.join('\n')}\n` };
    const graphs = generationGraphs('g-chunks');
    const texts = async (folder: string): Promise<Map<string, string>> => (await fileQuads(folder)).texts;
    const whole = await BulkFiles.create({ dir: join(root, 'whole'), fileStatements: 30 }, 'g-chunks', graphs);
    const wholeTap = whole.tap();
    await wholeTap.public(text.public);
    await wholeTap.nonPublic(text.nonPublic);
    await wholeTap.end();
    const reference = await texts(whole.folder);

    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 400 }), { minLength: 1, maxLength: 30 }), async (cuts) => {
        const dir = await mkdtemp(join(root, 'cut-'));
        const files = await BulkFiles.create({ dir, fileStatements: 30 }, 'g-chunks', graphs);
        const tap = files.tap();
        for (const part of ['public', 'nonPublic'] as const) {
          let at = 0;
          for (let i = 0; at < text[part].length; i++) {
            const size = cuts[i % cuts.length] as number;
            await tap[part](text[part].slice(at, at + size));
            at += size;
          }
        }
        await tap.end();
        expect(await texts(files.folder)).toEqual(reference);
      }),
      { numRuns: 25 },
    );

    // The same files from the finished generation's files (what a generation made without STORE_URL gets).
    const generation = await createGeneration(join(root, 'data'), { source: { kind: 'load', path: 'test' }, baseUrl: BASE, kinds: KIND_NAMES }, async (out) => {
      out.public.end(text.public);
      out.nonPublic.end(text.nonPublic);
    });
    const fromFiles = await BulkFiles.create({ dir: join(root, 'after'), fileStatements: 30 }, 'g-chunks', graphs);
    await fromFiles.fromGeneration(generation.dir);
    expect(await texts(fromFiles.folder)).toEqual(reference);
  });

  it('writes the files in the same pass as the generation (CreateOptions.tap), and removes them when the generation fails', async () => {
    const { pub, nonPub } = lines(5);
    let files: BulkFiles | undefined;
    const tap = async (id: string) => {
      files = await BulkFiles.create({ dir: join(root, 'bulk') }, id, generationGraphs(id));
      return files.tap();
    };
    const meta = { source: { kind: 'load', path: 'test' }, baseUrl: BASE, kinds: KIND_NAMES } as const;
    let seenAtDerive: string[] = [];
    const made = await createGeneration(
      join(root, 'data'),
      meta,
      async (out) => {
        out.public.write(`${pub.slice(0, 7).join('\n')}\n`);
        out.public.end(`${pub.slice(7).join('\n')}\n`);
        out.nonPublic.end(`${nonPub.join('\n')}\n`);
      },
      { tap, derive: async () => void (seenAtDerive = await readdir(files!.folder)) },
    );
    // Every file is finished before the generation is checked and derived from.
    expect(seenAtDerive).toEqual(['.owner.json', 'nonpublic-00001.trig.gz', 'public-00001.trig.gz', 'union-00001.trig.gz']);
    expect(files?.id).toBe(made.id);
    expect(files?.countsOf('public').quads).toBe(5 * 4);

    await expect(
      createGeneration(
        join(root, 'data'),
        meta,
        async (out) => {
          out.public.write(`${pub.join('\n')}\n`);
          throw new Error('the source export has a bad line');
        },
        { tap },
      ),
    ).rejects.toThrow('bad line');
    expect(await readdir(join(root, 'bulk')).then((names) => names.filter((name) => name !== made.id))).toEqual([]);
  });

  it('refuses a graph that comes back with blank nodes after another graph, naming it', async () => {
    const g = (n: number): string => `<${BASE}/v2/id/object/B${n}>`;
    const files = await BulkFiles.create({ dir: root }, 'g-scattered', generationGraphs('g-scattered'));
    const tap = files.tap();
    const text = [`_:a <${LABEL}> "x" ${g(1)} .`, `${g(2)} <${LABEL}> "y" ${g(2)} .`, `_:a <${LABEL}> "z" ${g(1)} .`, ''].join('\n');
    await expect(tap.public(text).then(() => tap.end())).rejects.toThrow(`the statements of graph ${g(1)} are not together and name blank nodes`);
  });

  it('tells a statement that names a blank node from one whose literal only holds the text', () => {
    expect(namesBlankNode('_:b1 <http://example.org/p> "x"')).toBe(true);
    expect(namesBlankNode('<http://example.org/s> <http://example.org/p> _:b1')).toBe(true);
    expect(namesBlankNode('<http://example.org/s> <http://example.org/p> "_:b1 is not a node"')).toBe(false);
    expect(namesBlankNode('<http://example.org/s> <http://example.org/p> <http://example.org/_:o>')).toBe(false);
  });
});
