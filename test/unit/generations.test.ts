import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { NQuadsSyntaxError } from '../../src/store/errors.js';
import {
  cleanStaging,
  createGeneration,
  currentGeneration,
  generationFiles,
  isGenerationId,
  listGenerations,
  newGenerationId,
  pruneGenerations,
  readGeneration,
  setCurrent,
  verifyGeneration,
  watchCurrent,
  type Generation,
  type GenerationOutput,
} from '../../src/store/generations.js';
import { adminQuads, agentGraph, BASE, objectGraph, objectIri, tempDir } from './store-fixtures.js';
import { KIND_NAMES } from '../../src/kinds/index.js';

const write = (lines: { public: string[]; nonPublic: string[] }) => async (out: GenerationOutput) => {
  out.public.write(lines.public.map((l) => `${l}\n`).join(''));
  out.nonPublic.write(lines.nonPublic.map((l) => `${l}\n`).join(''));
};

const make = (dataDir: string, publicLines: string[], nonPublic: string[] = []) =>
  createGeneration(dataDir, { source: { kind: 'load', path: 'test.nq' }, baseUrl: BASE, kinds: KIND_NAMES }, write({ public: publicLines, nonPublic }));

const currentPointer = (dataDir: string): Promise<string> => readFile(path.join(dataDir, 'current'), 'utf8').then((s) => s.trim());

describe('store generations', () => {
  let dataDir: string;
  let remove: () => Promise<void>;
  beforeEach(async () => {
    ({ dir: dataDir, remove } = await tempDir('generations-'));
  });
  afterEach(() => remove());

  describe('ids', () => {
    it('sort by creation time and are safe as folder names', () => {
      const a = newGenerationId(new Date('2026-11-23T05:30:00.123Z'));
      const b = newGenerationId(new Date('2026-11-23T05:30:00.124Z'));
      expect(a).toMatch(/^2026-11-23T05-30-00-123Z-[0-9a-f]{6}$/);
      expect([b, a].sort()).toEqual([a, b]);
      expect(isGenerationId(a)).toBe(true);
      expect(isGenerationId('../etc')).toBe(false);
    });
  });

  describe('createGeneration', () => {
    it('writes both gzip files, a manifest with counts and checksums, and makes the generation current', async () => {
      const publicLines = [...objectGraph(1), ...objectGraph(2), ...agentGraph(1)];
      const nonPublic = [...objectGraph(3), ...adminQuads(objectIri(3), { state: 'withdrawn' })];
      const generation = await make(dataDir, publicLines, nonPublic);
      const files = generationFiles(generation.dir);

      expect(gunzipSync(await readFile(files.public)).toString()).toBe(publicLines.map((l) => `${l}\n`).join(''));
      expect(gunzipSync(await readFile(files.nonPublic)).toString()).toBe(nonPublic.map((l) => `${l}\n`).join(''));
      const manifest = JSON.parse(await readFile(files.manifest, 'utf8'));
      expect(manifest).toMatchObject({
        formatVersion: 1,
        id: generation.id,
        source: { kind: 'load', path: 'test.nq' },
        baseUrl: BASE,
        counts: {
          publicQuads: 6 + 6 + 2,
          nonPublicQuads: 6 + 1,
          // object 1, object 2, agent 1, object 3 and the admin graph
          graphs: 5,
          publicRecords: { object: 2, agent: 1, exhibition: 0, concept: 0 },
          nonPublicRecords: { object: 1, agent: 0, exhibition: 0, concept: 0 },
        },
      });
      const sha = async (f: string) => createHash('sha256').update(await readFile(f)).digest('hex');
      expect(manifest.checksums).toEqual({ public: await sha(files.public), nonPublic: await sha(files.nonPublic) });
      expect(await currentPointer(dataDir)).toBe(generation.id);
      expect(await readdir(path.join(dataDir, 'staging'))).toEqual([]);
    });

    it('removes the staging folder and leaves current alone when the writer fails', async () => {
      const first = await make(dataDir, objectGraph(1));
      await expect(
        createGeneration(dataDir, { source: { kind: 'harvest', path: 'x' }, baseUrl: BASE, kinds: KIND_NAMES }, async (out) => {
          out.public.write(`${objectGraph(2).join('\n')}\n`);
          throw new Error('objects.jsonl:7: bad record');
        }),
      ).rejects.toThrow('objects.jsonl:7: bad record');
      expect(await currentPointer(dataDir)).toBe(first.id);
      expect((await listGenerations(dataDir)).map((e) => e.id)).toEqual([first.id]);
      expect(await readdir(path.join(dataDir, 'staging'))).toEqual([]);
    });

    it('refuses output that is not N-Quads, naming the line, and publishes nothing', async () => {
      const first = await make(dataDir, objectGraph(1));
      const bad = [...objectGraph(2), '<http://museum.test/x> <http://museum.test/p> .'];
      const failure = make(dataDir, bad);
      await expect(failure).rejects.toBeInstanceOf(NQuadsSyntaxError);
      await expect(failure).rejects.toMatchObject({ line: 7 });
      expect(await currentPointer(dataDir)).toBe(first.id);
      expect((await listGenerations(dataDir)).map((e) => e.id)).toEqual([first.id]);
    });

    it('refuses a generation whose base URL nobody knows', async () => {
      await expect(
        createGeneration(dataDir, { source: { kind: 'load', path: 'x' }, kinds: KIND_NAMES }, write({ public: objectGraph(1), nonPublic: [] })),
      ).rejects.toThrow(/base URL/);
      expect(await listGenerations(dataDir)).toEqual([]);
    });

    it('keeps the previous generation current when asked not to switch', async () => {
      const first = await make(dataDir, objectGraph(1));
      const second = await createGeneration(
        dataDir,
        { source: { kind: 'load', path: 'x' }, baseUrl: BASE, kinds: KIND_NAMES },
        write({ public: objectGraph(2), nonPublic: [] }),
        { makeCurrent: false },
      );
      expect((await currentGeneration(dataDir))?.id).toBe(first.id);
      expect((await listGenerations(dataDir)).map((e) => e.id)).toEqual([first.id, second.id]);
    });
  });

  describe('currentGeneration', () => {
    it('is undefined in an empty data folder', async () => {
      expect(await currentGeneration(dataDir)).toBeUndefined();
    });

    it('takes the newest readable generation when the pointer is missing', async () => {
      await make(dataDir, objectGraph(1));
      const second = await make(dataDir, objectGraph(2));
      await rm(path.join(dataDir, 'current'));
      expect((await currentGeneration(dataDir))?.id).toBe(second.id);
    });

    it('takes the newest readable generation when the pointed one is damaged', async () => {
      const first = await make(dataDir, objectGraph(1));
      const second = await make(dataDir, objectGraph(2));
      await writeFile(generationFiles(second.dir).public, 'truncated');
      expect((await currentGeneration(dataDir))?.id).toBe(first.id);
      const entries = await listGenerations(dataDir);
      expect(entries.map((e) => [e.id, e.current])).toEqual([
        [first.id, true],
        [second.id, false],
      ]);
      expect(entries[1]?.problem).toMatch(/public\.nq\.gz has 9 bytes/);
    });
  });

  describe('rollback', () => {
    it('makes an older generation current again', async () => {
      const first = await make(dataDir, objectGraph(1));
      await make(dataDir, objectGraph(2));
      await setCurrent(dataDir, first.id);
      expect(await currentPointer(dataDir)).toBe(first.id);
      expect((await currentGeneration(dataDir))?.id).toBe(first.id);
    });

    it('refuses an id that is not a readable generation', async () => {
      const first = await make(dataDir, objectGraph(1));
      await expect(setCurrent(dataDir, '2020-01-01T00-00-00-000Z-abcdef')).rejects.toThrow(/no manifest/);
      await expect(setCurrent(dataDir, '../../etc')).rejects.toThrow(/not a generation id/);
      expect(await currentPointer(dataDir)).toBe(first.id);
    });
  });

  describe('watchCurrent', () => {
    it('reports the new current generation after a rollback', async () => {
      const first = await make(dataDir, objectGraph(1));
      await make(dataDir, objectGraph(2));
      const seen = new Promise<Generation | undefined>((resolve) => {
        const stop = watchCurrent(
          dataDir,
          (generation) => {
            stop();
            resolve(generation);
          },
          20,
        );
      });
      // The watcher compares against the pointer it first saw, so the change must come after its first poll.
      await new Promise((r) => setTimeout(r, 100));
      await setCurrent(dataDir, first.id);
      expect((await seen)?.id).toBe(first.id);
    });
  });

  describe('prune', () => {
    it('keeps the newest K generations and the current one, and removes the rest', async () => {
      const ids: string[] = [];
      for (let n = 1; n <= 5; n++) ids.push((await make(dataDir, objectGraph(n))).id);
      await setCurrent(dataDir, ids[0] as string);
      const removed = await pruneGenerations(dataDir, 2);
      expect(removed).toEqual([ids[1], ids[2]]);
      expect((await listGenerations(dataDir)).map((e) => e.id)).toEqual([ids[0], ids[3], ids[4]]);
      expect(await currentPointer(dataDir)).toBe(ids[0]);
    });

    it('removes unreadable generation folders', async () => {
      const good = await make(dataDir, objectGraph(1));
      const broken = path.join(dataDir, 'generations', '2020-01-01T00-00-00-000Z-abcdef');
      await mkdir(broken);
      expect(await pruneGenerations(dataDir, 3)).toEqual(['2020-01-01T00-00-00-000Z-abcdef']);
      expect((await listGenerations(dataDir)).map((e) => e.id)).toEqual([good.id]);
    });
  });

  describe('staging', () => {
    it('removes folders of writers that are gone and keeps those of live writers', async () => {
      const dead = path.join(dataDir, 'staging', 'dead');
      const live = path.join(dataDir, 'staging', 'live');
      await mkdir(dead, { recursive: true });
      await mkdir(live, { recursive: true });
      const { hostname } = await import('node:os');
      // Process ids wrap far below 2^31 - 1 on Linux, so this one is not alive.
      await writeFile(path.join(dead, '.owner.json'), JSON.stringify({ pid: 2 ** 31 - 1, host: hostname() }));
      await writeFile(path.join(live, '.owner.json'), JSON.stringify({ pid: process.pid, host: hostname() }));
      expect(await cleanStaging(dataDir)).toEqual(['dead']);
      expect(existsSync(live)).toBe(true);
    });
  });

  describe('verifyGeneration', () => {
    it('passes on an intact generation and names a file whose bytes changed', async () => {
      const generation = await make(dataDir, objectGraph(1), objectGraph(2));
      await expect(verifyGeneration(generation)).resolves.toBeUndefined();
      const file = generationFiles(generation.dir).nonPublic;
      const bytes = await readFile(file);
      // The gzip trailer holds CRC and length; changing the stored mtime keeps the data readable.
      bytes[4] = (bytes[4] as number) ^ 0xff;
      await writeFile(file, bytes);
      const reread = await readGeneration(dataDir, generation.id);
      await expect(verifyGeneration(reread)).rejects.toThrow('nonpublic.nq.gz checksum differs');
    });
  });
});
