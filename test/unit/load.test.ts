import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { Parser, type Quad } from 'n3';
import { isomorphic } from 'rdf-isomorphic';
import { dumpCurrent, dumpKind } from '../../src/store/dump.js';
import { NQuadsSyntaxError } from '../../src/store/errors.js';
import { currentGeneration, generationFiles, listGenerations } from '../../src/store/generations.js';
import { loadNQuadsFile } from '../../src/store/load.js';
import {
  ADMIN_GRAPH,
  adminQuads,
  agentGraph,
  agentIri,
  BASE,
  objectGraph,
  objectIri,
  syntheticDataset,
  tempDir,
  writeNQuads,
} from './store-fixtures.js';
import { KIND_NAMES } from '../../src/kinds/index.js';

const parse = (text: string): Quad[] => new Parser({ format: 'application/n-quads' }).parse(text);
const gunzipText = async (file: string): Promise<string> => gunzipSync(await readFile(file)).toString('utf8');
const linesOf = (text: string): string[] => text.split('\n').filter((l) => l !== '');

describe('loading an N-Quads file', () => {
  let dir: string;
  let dataDir: string;
  let remove: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, remove } = await tempDir('load-'));
    dataDir = path.join(dir, 'data');
  });
  afterEach(() => remove());

  describe('splitting public from non-public quads', () => {
    it('sends the admin graph and every record it hides to the non-public file', async () => {
      const lines = [
        ...objectGraph(1),
        ...objectGraph(2),
        ...objectGraph(3),
        ...objectGraph(4),
        ...objectGraph(5),
        ...agentGraph(1),
        // object 1 stays public: current and not private
        ...adminQuads(objectIri(1), { state: 'current', private: false, healthy: true }),
        ...adminQuads(objectIri(2), { state: 'merged', resolvesTo: objectIri(1) }),
        ...adminQuads(objectIri(3), { private: true }),
        ...adminQuads(objectIri(4), { healthy: false }),
        ...adminQuads(agentIri(1), { state: 'removed' }),
      ];
      const file = await writeNQuads(path.join(dir, 'in.nq'), lines);
      const generation = await loadNQuadsFile(dataDir, file, { kinds: KIND_NAMES });

      const files = generationFiles(generation.dir);
      const publicLines = linesOf(await gunzipText(files.public));
      const nonPublicLines = linesOf(await gunzipText(files.nonPublic));
      expect(publicLines).toEqual([...objectGraph(1), ...objectGraph(5)]);
      const admin = lines.filter((l) => l.endsWith(`<${ADMIN_GRAPH}> .`));
      expect(nonPublicLines).toEqual([...objectGraph(2), ...objectGraph(3), ...objectGraph(4), ...agentGraph(1), ...admin]);
      expect(generation.manifest.counts).toEqual({
        publicQuads: 12,
        nonPublicQuads: 18 + 2 + admin.length,
        graphs: 7,
        publicRecords: { object: 2, agent: 0, exhibition: 0, concept: 0 },
        nonPublicRecords: { object: 3, agent: 1, exhibition: 0, concept: 0 },
      });
      expect((await currentGeneration(dataDir))?.id).toBe(generation.id);
    });

    it('reads gzip input the same as plain input', async () => {
      const { lines } = syntheticDataset(30);
      const plain = await loadNQuadsFile(dataDir, await writeNQuads(path.join(dir, 'in.nq'), lines), { kinds: KIND_NAMES });
      const gzip = await loadNQuadsFile(dataDir, await writeNQuads(path.join(dir, 'in.nq.gz'), lines), { kinds: KIND_NAMES });
      expect(gzip.manifest.counts).toEqual(plain.manifest.counts);
      expect(gzip.manifest.checksums).toEqual(plain.manifest.checksums);
    });

    it('writes statements in canonical form: single spaces, no comments, no blank lines', async () => {
      const o = `<${objectIri(1)}>`;
      const text = `# header\n\n${o}\t<http://a.test/p>   "x"   ${o}.   # note\r\n${o} <http://a.test/q> _:b .\n`;
      await writeFile(path.join(dir, 'in.nq'), text);
      const generation = await loadNQuadsFile(dataDir, path.join(dir, 'in.nq'), { kinds: KIND_NAMES });
      expect(await gunzipText(generationFiles(generation.dir).public)).toBe(
        `${o} <http://a.test/p> "x" ${o} .\n${o} <http://a.test/q> _:b .\n`,
      );
    });
  });

  describe('base URL', () => {
    it('is inferred from the record graph IRIs', async () => {
      const file = await writeNQuads(path.join(dir, 'in.nq'), [...agentGraph(1), ...objectGraph(1)]);
      expect((await loadNQuadsFile(dataDir, file, { fallbackBaseUrl: 'http://other.test', kinds: KIND_NAMES })).manifest.baseUrl).toBe(BASE);
    });

    it('comes from the option when one is given', async () => {
      const file = await writeNQuads(path.join(dir, 'in.nq'), objectGraph(1));
      const generation = await loadNQuadsFile(dataDir, file, { baseUrl: 'https://data.example.org', kinds: KIND_NAMES });
      expect(generation.manifest.baseUrl).toBe('https://data.example.org');
      expect(generation.manifest.details).toMatchObject({ baseUrlFrom: 'option' });
    });

    it('falls back to the given default when no graph names a record', async () => {
      const file = await writeNQuads(path.join(dir, 'in.nq'), ['<http://a.test/s> <http://a.test/p> "o" .']);
      const generation = await loadNQuadsFile(dataDir, file, { fallbackBaseUrl: 'http://fallback.test', kinds: KIND_NAMES });
      expect(generation.manifest.baseUrl).toBe('http://fallback.test');
    });
  });

  describe('bad input', () => {
    it('names file, line and reason, and leaves the current generation untouched', async () => {
      const before = await loadNQuadsFile(dataDir, await writeNQuads(path.join(dir, 'good.nq'), objectGraph(1)), { kinds: KIND_NAMES });
      const lines = [...objectGraph(2), '<http://museum.test/s> <http://museum.test/p> "unterminated .', ...objectGraph(3)];
      const bad = await writeNQuads(path.join(dir, 'bad.nq.gz'), lines);
      const failure = loadNQuadsFile(dataDir, bad, { kinds: KIND_NAMES });
      await expect(failure).rejects.toBeInstanceOf(NQuadsSyntaxError);
      await expect(failure).rejects.toThrow(`${bad}:7: object literal is unterminated or has an invalid escape at column 47`);
      expect((await currentGeneration(dataDir))?.id).toBe(before.id);
      expect((await listGenerations(dataDir)).map((g) => g.id)).toEqual([before.id]);
      expect(await readdir(path.join(dataDir, 'staging'))).toEqual([]);
    });

    it('names the line of bytes that are not UTF-8', async () => {
      const good = Buffer.from(`${objectGraph(1).join('\n')}\n`);
      const bad = Buffer.concat([good, Buffer.from('<http://a.test/s> <http://a.test/p> "'), Buffer.from([0xc3, 0x28]), Buffer.from('" .\n')]);
      await writeFile(path.join(dir, 'bad.nq'), bad);
      await expect(loadNQuadsFile(dataDir, path.join(dir, 'bad.nq'), { kinds: KIND_NAMES })).rejects.toThrow(`${path.join(dir, 'bad.nq')}:7: the text is not valid UTF-8`);
    });

    it('refuses a truncated gzip file', async () => {
      const gz = gzipSync(`${syntheticDataset(50).lines.join('\n')}\n`);
      await writeFile(path.join(dir, 'cut.nq.gz'), gz.subarray(0, gz.length - 100));
      await expect(loadNQuadsFile(dataDir, path.join(dir, 'cut.nq.gz'), { kinds: KIND_NAMES })).rejects.toThrow(/gzip data is corrupt or truncated/);
      expect(await listGenerations(dataDir)).toEqual([]);
    });

    it('refuses a file that does not exist', async () => {
      await expect(loadNQuadsFile(dataDir, path.join(dir, 'missing.nq'), { kinds: KIND_NAMES })).rejects.toThrow(/ENOENT/);
    });
  });

  describe('dump', () => {
    it('gives back the public quads; loading the dump and dumping again gives an isomorphic dataset', async () => {
      const { lines, hiddenObjects } = syntheticDataset(40);
      // Relabelled blank nodes and extra spacing make the input differ from the dump as text.
      const input = lines.map((l) => l.replace(/_:title(\d+)/g, '_:t$1x').replace(/ \.$/, '  .'));
      await loadNQuadsFile(dataDir, await writeNQuads(path.join(dir, 'in.nq'), input), { kinds: KIND_NAMES });
      await dumpCurrent(dataDir, path.join(dir, 'dump1.nq.gz'));

      const hidden = new Set(hiddenObjects.map((n) => `<${objectIri(n)}> .`));
      const expectedPublic = lines.filter((l) => !l.endsWith(`<${ADMIN_GRAPH}> .`) && ![...hidden].some((h) => l.endsWith(h)));
      expect(expectedPublic).toHaveLength(40 * 6 - hiddenObjects.length * 6 + 20 * 2);
      const dump1 = await gunzipText(path.join(dir, 'dump1.nq.gz'));
      expect(isomorphic(parse(dump1), parse(expectedPublic.join('\n')))).toBe(true);

      const dataDir2 = path.join(dir, 'data2');
      await loadNQuadsFile(dataDir2, path.join(dir, 'dump1.nq.gz'), { kinds: KIND_NAMES });
      await dumpCurrent(dataDir2, path.join(dir, 'dump2.nq'));
      const dump2 = await readFile(path.join(dir, 'dump2.nq'), 'utf8');
      expect(isomorphic(parse(dump2), parse(dump1))).toBe(true);
    });

    it('copies the stored gzip file byte for byte for a .gz target', async () => {
      const generation = await loadNQuadsFile(dataDir, await writeNQuads(path.join(dir, 'in.nq'), syntheticDataset(10).lines), { kinds: KIND_NAMES });
      await dumpCurrent(dataDir, path.join(dir, 'out.nq.gz'));
      expect(await readFile(path.join(dir, 'out.nq.gz'))).toEqual(await readFile(generationFiles(generation.dir).public));
    });

    it('dumps the record graphs of one kind', async () => {
      const lines = [...objectGraph(1), ...agentGraph(1), ...objectGraph(2), ...agentGraph(2)];
      await loadNQuadsFile(dataDir, await writeNQuads(path.join(dir, 'in.nq'), lines), { kinds: KIND_NAMES });
      await dumpKind(dataDir, 'agent', path.join(dir, 'agents.nq'));
      expect(linesOf(await readFile(path.join(dir, 'agents.nq'), 'utf8'))).toEqual([...agentGraph(1), ...agentGraph(2)]);
      await dumpKind(dataDir, 'object', path.join(dir, 'objects.nq.gz'));
      expect(linesOf(await gunzipText(path.join(dir, 'objects.nq.gz')))).toEqual([...objectGraph(1), ...objectGraph(2)]);
    });

    it('fails without a generation and leaves no partial output file', async () => {
      await expect(dumpCurrent(dataDir, path.join(dir, 'out.nq'))).rejects.toThrow(/no generation/);
      expect(await readdir(dir)).toEqual([]);
    });
  });
});
