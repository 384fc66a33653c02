import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { currentGeneration, generationFiles, listGenerations } from '../../src/store/generations.js';
import { agentGraph, objectGraph, syntheticDataset, tempDir, writeNQuads } from './store-fixtures.js';
import { copyFixture, startImageServer } from '../fixtures/source-mini/harvest-fixture.js';
import { commandLine } from '../helpers/commands.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Starts the data command `name` with `args` (test/helpers/commands.ts) in its own process group, so that
 * SIGKILL reaches every process of it (tsx's node child, a heap re-exec), with DATA_DIR set.
 */
function start(name: string, args: string[], dataDir: string, env: Record<string, string> = {}) {
  const command = commandLine(name, args);
  const child = spawn(command.file, command.args, {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, BASE_URL: 'http://localhost:3000', NODE_OPTIONS: '', ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<Run>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return { child, done };
}

const run = (name: string, args: string[], dataDir: string, env: Record<string, string> = {}): Promise<Run> => start(name, args, dataDir, env).done;

describe('data commands', () => {
  let dir: string;
  let dataDir: string;
  let remove: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, remove } = await tempDir('cli-'));
    dataDir = path.join(dir, 'data');
  });
  afterEach(() => remove());

  it('load makes a file the current generation, and a bad line exits 1 naming file:line without changing it', async () => {
    const good = await writeNQuads(path.join(dir, 'good.nq'), [...objectGraph(1), ...agentGraph(1)]);
    const first = await run('load', [good], dataDir);
    expect(first.code).toBe(0);
    // Progress goes to stderr, as plain lines when stderr is not a terminal.
    expect(first.stderr).toMatch(/^load: split, .*8 quads$/m);
    const current = await currentGeneration(dataDir);
    expect(first.stdout).toContain(`generation ${current?.id} is current`);
    expect(current?.manifest.counts.publicQuads).toBe(8);

    const bad = await writeNQuads(path.join(dir, 'bad.nq'), [...objectGraph(2), '<http://museum.test/s> <relative> "x" .']);
    const failed = await run('load', [bad], dataDir);
    expect(failed.code).toBe(1);
    expect(failed.stderr.trim().split('\n').at(-1)).toBe(`${bad}:7: predicate IRI is not absolute at column 24`);
    expect((await currentGeneration(dataDir))?.id).toBe(current?.id);
    expect((await listGenerations(dataDir)).map((g) => g.id)).toEqual([current?.id]);
  });

  it('a load killed halfway leaves the previous generation current, and a later load succeeds', async () => {
    const first = await run('load', [await writeNQuads(path.join(dir, 'small.nq'), objectGraph(1))], dataDir);
    expect(first.code).toBe(0);
    const before = await currentGeneration(dataDir);

    const big = await writeNQuads(path.join(dir, 'big.nq'), syntheticDataset(40_000).lines);
    const { child, done } = start('load', [big], dataDir);
    const staging = path.join(dataDir, 'staging');
    // Wait until the killed load has written compressed output into its staging folder.
    let written = false;
    while (!written && child.exitCode === null) {
      for (const name of await readdir(staging).catch(() => [] as string[])) {
        const size = await stat(path.join(staging, name, 'public.nq.gz')).then((s) => s.size, () => 0);
        written ||= size > 0;
      }
      if (!written) await sleep(10);
    }
    expect(written).toBe(true);
    process.kill(-(child.pid as number), 'SIGKILL');
    const killed = await done;
    expect(killed.code).toBeNull();

    const [leftover] = await readdir(staging);
    expect(leftover).toBeDefined();
    // SIGKILL is delivered asynchronously: wait until the load process is really gone (or a zombie).
    const { pid } = JSON.parse(await readFile(path.join(staging, leftover as string, '.owner.json'), 'utf8')) as { pid: number };
    while (await readFile(`/proc/${pid}/stat`, 'utf8').then((s) => !/\) [ZX] /.test(s), () => false)) await sleep(10);
    expect((await currentGeneration(dataDir))?.id).toBe(before?.id);
    expect((await listGenerations(dataDir)).map((g) => [g.id, g.current])).toEqual([[before?.id, true]]);

    const again = await run('load', [await writeNQuads(path.join(dir, 'next.nq'), objectGraph(2))], dataDir);
    expect(again.code).toBe(0);
    const after = await currentGeneration(dataDir);
    expect(after?.id).not.toBe(before?.id);
    expect(after?.manifest.counts.publicQuads).toBe(6);
    // The dead load's staging folder was cleaned up by the next writer.
    expect(await readdir(staging)).toEqual([]);
  });

  it('dump writes the public quads, and generations lists, rolls back and prunes', async () => {
    for (const n of [1, 2, 3]) {
      expect((await run('load', [await writeNQuads(path.join(dir, `in${n}.nq.gz`), objectGraph(n))], dataDir)).code).toBe(0);
    }
    const ids = (await listGenerations(dataDir)).map((g) => g.id);
    expect(ids).toHaveLength(3);

    const dumped = await run('dump', [path.join(dir, 'out.nq.gz')], dataDir);
    expect(dumped.code).toBe(0);
    const newest = await currentGeneration(dataDir);
    expect(await readFile(path.join(dir, 'out.nq.gz'))).toEqual(await readFile(generationFiles(newest?.dir as string).public));
    expect(gunzipSync(await readFile(path.join(dir, 'out.nq.gz'))).toString()).toBe(`${objectGraph(3).join('\n')}\n`);

    const listed = await run('generations', [], dataDir);
    expect(listed.code).toBe(0);
    const rows = listed.stdout.split('\n').filter((l) => l !== '');
    expect(rows.map((l) => l.slice(0, 2 + (ids[0] as string).length))).toEqual([
      `  ${ids[0]}`,
      `  ${ids[1]}`,
      `* ${ids[2]}`,
    ]);

    const rolledBack = await run('generations', ['--rollback', ids[0] as string], dataDir);
    expect(rolledBack.code).toBe(0);
    expect((await currentGeneration(dataDir))?.id).toBe(ids[0]);

    const pruned = await run('generations', ['--prune', '1'], dataDir);
    expect(pruned.code).toBe(0);
    expect(pruned.stdout).toBe(`removed ${ids[1]}\n`);
    expect((await listGenerations(dataDir)).map((g) => g.id)).toEqual([ids[0], ids[2]]);
    expect(existsSync(path.join(dataDir, 'generations', ids[1] as string))).toBe(false);

    const unknown = await run('generations', ['--rollback', '2020-01-01T00-00-00-000Z-abcdef'], dataDir);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('has no manifest.json');
  }, 120_000);

  it('harvest makes a source export the current generation, and a bad line exits 1 naming file:line', async () => {
    const source = path.join(dir, 'export');
    await cp(path.join(ROOT, 'test/fixtures/source-mini'), source, { recursive: true, filter: (f) => !f.endsWith('.ts') });
    const first = await run('harvest', [source, '--no-image-check'], dataDir);
    expect(first.code).toBe(0);
    const current = await currentGeneration(dataDir);
    expect(current?.manifest.source).toEqual({ kind: 'harvest', path: source });
    expect(current?.manifest.baseUrl).toBe('http://localhost:3000');
    // 9 objects, 5 agents, 3 exhibitions, 7 concepts in the export, each a graph in one of the two files.
    const counts = current?.manifest.counts;
    const total = (kind: 'object' | 'agent' | 'exhibition' | 'concept'): number =>
      (counts?.publicRecords[kind] ?? 0) + (counts?.nonPublicRecords[kind] ?? 0);
    expect([total('object'), total('agent'), total('exhibition'), total('concept')]).toEqual([9, 5, 3, 7]);

    const objects = path.join(source, 'objects.jsonl');
    const lines = (await readFile(objects, 'utf8')).split('\n');
    lines[2] = '{"objectNumber": ';
    await writeFile(objects, lines.join('\n'));
    const failed = await run('harvest', [source, '--no-image-check'], dataDir);
    expect(failed.code).toBe(1);
    expect(failed.stderr.trim().split('\n').at(-1)).toMatch(new RegExp(`^${objects.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3: `));
    expect((await listGenerations(dataDir)).map((g) => g.id)).toEqual([current?.id]);
  });

  it('harvest on the current generation keeps what did not change, images included; --full writes and asks everything again', async () => {
    const images = await startImageServer();
    const source = await copyFixture(images.origin);
    try {
      const env = { IMAGE_HOSTS: new URL(images.origin).host };
      const heads = (): number => images.requests.filter((r) => r.startsWith('HEAD ')).length;
      const first = await run('harvest', [source], dataDir, env);
      expect(first.code).toBe(0);
      const asked = heads();
      expect(asked).toBeGreaterThan(0);
      const one = await currentGeneration(dataDir);

      // The same export again: every record kept, no image asked about again, the same files.
      const again = await run('harvest', [source], dataDir, env);
      expect(again.code).toBe(0);
      expect(heads()).toBe(asked);
      const two = await currentGeneration(dataDir);
      expect(two?.id).not.toBe(one?.id);
      expect(again.stdout).toMatch(new RegExp(`records +0 created, 0 updated, 0 removed, 24 unchanged since ${one?.id}`));
      for (const part of ['public', 'nonPublic'] as const) {
        const [a, b] = [await readFile(generationFiles(one?.dir as string)[part]), await readFile(generationFiles(two?.dir as string)[part])];
        expect(b.equals(a)).toBe(true);
      }

      // One object retitled: one record updated (and any that carry its title), the rest kept.
      const objects = path.join(source, 'objects.jsonl');
      const lines = (await readFile(objects, 'utf8')).split('\n');
      const o = JSON.parse(lines[0] as string) as { titles: Record<string, string> };
      o.titles.nl = 'Een nieuwe titel';
      lines[0] = JSON.stringify(o);
      await writeFile(objects, lines.join('\n'));
      const changed = await run('harvest', [source], dataDir, env);
      expect(changed.code).toBe(0);
      expect(changed.stdout).toMatch(/records +0 created, [1-9]\d* updated, 0 removed, \d+ unchanged/);
      expect(heads()).toBe(asked);

      // --full: every record written, every image asked about again.
      const full = await run('harvest', [source, '--full'], dataDir, env);
      expect(full.code).toBe(0);
      expect(full.stdout).not.toContain('unchanged since');
      expect(heads()).toBe(2 * asked);
    } finally {
      await images.close();
      await rm(source, { recursive: true, force: true });
    }
  }, 120_000);

  it('harvest --changes applies an export of changes to the current generation, as a harvest of the whole changed export would', async () => {
    const source = await copyFixture();
    const changes = path.join(dir, 'changes');
    const whole = path.join(dir, 'whole');
    try {
      // Without a kept export there is nothing to apply changes to.
      const none = await run('harvest', ['--changes', changes, '--no-image-check'], dataDir);
      expect(none.code).toBe(1);
      expect(none.stderr).toContain('there is no current generation to apply changes to');
      expect((await run('harvest', [source, '--no-image-check'], dataDir)).code).toBe(0);
      const before = await currentGeneration(dataDir);

      // The changes: the first object retitled, the last object deleted (nothing names it), one new object.
      const lines = (await readFile(path.join(source, 'objects.jsonl'), 'utf8')).split('\n').filter((l) => l !== '');
      const first = JSON.parse(lines[0] as string) as { objectNumber: string; titles: Record<string, string> };
      first.titles.nl = 'Gewijzigd';
      const added = { ...(JSON.parse(lines[1] as string) as Record<string, unknown>), objectNumber: 'NIEUW-1', state: { kind: 'current' }, partOfSet: undefined, sameAs: [] };
      const last = JSON.parse(lines.at(-1) as string) as { objectNumber: string };
      await mkdir(changes);
      await writeFile(path.join(changes, 'objects.jsonl'), `${JSON.stringify(first)}\n${JSON.stringify(added)}\n`);
      await writeFile(path.join(changes, 'deletions.jsonl'), `${JSON.stringify({ collection: 'objects', id: last.objectNumber })}\n`);
      // The same as a whole export, harvested from nothing elsewhere.
      await cp(source, whole, { recursive: true });
      await writeFile(path.join(whole, 'objects.jsonl'), [JSON.stringify(first), ...lines.slice(1, -1), JSON.stringify(added)].map((l) => `${l}\n`).join(''));
      const otherData = path.join(dir, 'other-data');
      expect((await run('harvest', [whole, '--no-image-check'], otherData)).code).toBe(0);

      const applied = await run('harvest', ['--changes', changes, '--no-image-check'], dataDir);
      expect(applied.code).toBe(0);
      expect(applied.stderr).toContain(`harvest: 1 records changed, 1 added, 1 deleted in the export of ${before?.id}`);
      expect(applied.stdout).toMatch(/records +1 created, [1-9]\d* updated, 1 removed/);
      // The stored index asked the records of the members the changes touched, and took the others' from the parent's.
      expect(applied.stderr).toMatch(/harvest: record answers kept for the next harvest, [\d.]+ [kM]?B in [\d.]+ s, [1-9][\d,]* records asked \([1-9]\d* members\), [\d,]+ from the parent's/);
      const [mine, theirs] = [await currentGeneration(dataDir), await currentGeneration(otherData)];
      expect(mine?.manifest.counts).toEqual(theirs?.manifest.counts);
      for (const part of ['public', 'nonPublic'] as const) {
        const text = async (g: typeof mine) => gunzipSync(await readFile(generationFiles(g?.dir as string)[part])).toString('utf8');
        expect(await text(mine)).toBe(await text(theirs));
      }

      // A bad line of an export of changes is named where it is; nothing changes.
      await writeFile(path.join(changes, 'objects.jsonl'), `${JSON.stringify({ ...first, titles: 7 })}\n`);
      await rm(path.join(changes, 'deletions.jsonl'));
      const bad = await run('harvest', ['--changes', changes, '--no-image-check'], dataDir);
      expect(bad.code).toBe(1);
      expect(bad.stderr.trim().split('\n').at(-1)).toMatch(new RegExp(`^${path.join(changes, 'objects.jsonl').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:1: `));
      expect((await currentGeneration(dataDir))?.id).toBe(mine?.id);
    } finally {
      await rm(source, { recursive: true, force: true });
    }
  }, 120_000);

  it('exits 2 with the usage text on a wrong command line', async () => {
    const wrong = await run('load', [], dataDir);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('usage: npm run load');
  });
});
