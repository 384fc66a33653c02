/**
 * graphsOfFile (src/store/remote/publish.ts), which both write paths to a SPARQL server read: the canonical
 * lines the service writes are cut where their graph term starts, any other form is parsed in full, and both
 * give the same triples. Expected values are written out from the hand-made lines below.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { graphsOfFile, type GraphStatements } from '../../src/store/remote/graphs-of-file.js';

const G1 = '<http://x.test/v2/id/object/A>';
const G2 = '<http://x.test/v2/id/object/B>';
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'graphs-of-file-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function graphs(name: string, text: string): Promise<GraphStatements[]> {
  const file = join(dir, name);
  await writeFile(file, gzipSync(text));
  const out: GraphStatements[] = [];
  for await (const graph of graphsOfFile(file)) out.push(graph);
  return out;
}

describe('graphsOfFile', () => {
  it('gives each graph its triples once, the canonical lines and the hand-written ones alike', async () => {
    const text = [
      `<http://x.test/s> <http://x.test/p> "a <b> c"@nl ${G1} .`,
      `<http://x.test/s>\t<http://x.test/p>   <http://x.test/o>   ${G1}  .  # a comment`,
      `<http://x.test/s> <http://x.test/p> "a <b> c"@nl ${G1} .`,
      '# a comment line',
      '',
      `_:b1 <http://x.test/p> "1"^^<http://www.w3.org/2001/XMLSchema#integer> ${G2} .`,
    ].join('\n');
    expect(await graphs('mixed.nq.gz', text + '\n')).toEqual([
      {
        name: G1,
        triples: ['<http://x.test/s> <http://x.test/p> "a <b> c"@nl', '<http://x.test/s> <http://x.test/p> <http://x.test/o>'],
        blank: false,
      },
      { name: G2, triples: ['_:b1 <http://x.test/p> "1"^^<http://www.w3.org/2001/XMLSchema#integer>'], blank: true },
    ]);
  });

  it('names the file and line of a statement it cannot read', async () => {
    // (A canonical line is not checked again: the generation's files were checked when they were written.)
    await expect(graphs('bad.nq.gz', `<http://x.test/s> <http://x.test/p> "1" ${G1} .\n<http://x.test/s> <http://x.test/p> "x" ${G1}\n`)).rejects.toThrow(/bad\.nq\.gz:2: expected "\."/);
  });

  it('refuses a statement outside a named graph', async () => {
    await expect(graphs('default.nq.gz', '<http://x.test/s> <http://x.test/p> <http://x.test/o> .\n')).rejects.toThrow(/outside a named graph/);
  });

  it('refuses a graph with blank nodes whose statements are not together', async () => {
    const text = [`_:b <http://x.test/p> "1" ${G1} .`, `<http://x.test/s> <http://x.test/p> "2" ${G2} .`, `_:b <http://x.test/p> "3" ${G1} .`].join('\n');
    await expect(graphs('apart.nq.gz', text + '\n')).rejects.toThrow(/not together/);
  });
});
