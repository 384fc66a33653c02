import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { ChangeFeed, type Activity } from '../../src/changes/feed.js';
import { computeSnapshot, graphDigest } from '../../src/changes/snapshot.js';
import type { GenerationManifest } from '../../src/store/types.js';
import { committedBlocks, readBlockHeaders } from '../../src/changes/log.js';
import { recordSwitch } from '../../src/changes/record-switch.js';
import { loadNQuadsFile } from '../../src/store/load.js';
import { currentGeneration, generationFiles, readGeneration, setCurrent, type Generation } from '../../src/store/generations.js';
import { adminQuads, agentGraph, agentIri, BASE, objectGraph, objectIri, syntheticDataset, tempDir, writeNQuads } from './store-fixtures.js';
import { KIND_NAMES } from '../../src/kinds/index.js';
import { commandLine } from '../helpers/commands.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Every activity of the feed, page by page, as [type, record, target?]. */
async function feedItems(dataDir: string, servedId: string | undefined, pageSize = 3): Promise<string[][]> {
  const feed = new ChangeFeed(dataDir, 'http://museum.test/v2/changes', KIND_NAMES, pageSize);
  const out: string[][] = [];
  for (let n = 1; n <= (await feed.pageCount(servedId)); n++) {
    const page = await feed.page(servedId, n);
    for (const a of page?.orderedItems ?? []) out.push(row(a));
  }
  return out;
}

const row = (a: Activity): string[] => (a.target ? [a.type, a.object.id, a.target.id] : [a.type, a.object.id]);

describe('graph digests', () => {
  const quads = (lines: string[]): [string, string, string][] =>
    lines.map((l) => {
      const [s, p, ...rest] = l.split(' ');
      return [s as string, p as string, rest.slice(0, -2).join(' ')];
    });

  it('do not depend on quad order or blank node labels', () => {
    const graph = objectGraph(1);
    const relabelled = graph.map((l) => l.replaceAll('_:title1', '_:b9071')).reverse();
    expect(graphDigest(quads(relabelled))).toBe(graphDigest(quads(graph)));
  });

  it('change with a literal, and with facts moved between blank nodes', () => {
    expect(graphDigest(quads(objectGraph(1, 'Other')))).not.toBe(graphDigest(quads(objectGraph(1))));
    const two = ['_:a <p> "x"', '_:a <lang> "nl"', '_:b <p> "y"', '_:b <lang> "en"', '<s> <t> _:a', '<s> <t> _:b'].map((l) => `${l} <g> .`);
    const swapped = ['_:a <p> "x"', '_:a <lang> "en"', '_:b <p> "y"', '_:b <lang> "nl"', '<s> <t> _:a', '<s> <t> _:b'].map((l) => `${l} <g> .`);
    expect(graphDigest(quads(swapped))).not.toBe(graphDigest(quads(two)));
  });
});

describe('snapshots', () => {
  it('read statements in any graph form alike, and leave the default graph and other graphs out', async () => {
    const { dir, remove } = await tempDir('changes-snapshot-');
    try {
      const g = `<${objectIri(1)}>`;
      const canonical = [`${g} <http://p> "a <q> b" ${g} .`, `${g} <http://p> "1"^^<http://dt> ${g} .`, `_:x <http://p> "y z"@en ${g} .`, `${g} <http://p> _:x ${g} .`];
      const spaced = [`${g}  <http://p>   "a <q> b"  ${g} . # comment`, `${g} <http://p> "1"^^<http://dt>\t${g} .`, `_:other <http://p> "y z"@en ${g}.`, `${g}  <http://p> _:other  ${g} .`];
      const noise = ['<http://x> <http://p> "d <q>"^^<http://dt> .', '<http://x> <http://p> <http://y> .', `<http://x> <http://p> "k" <${BASE}/graph/admin> .`, ''];
      const files = async (name: string, lines: string[]) => {
        const pub = await writeNQuads(path.join(dir, `${name}.nq`), lines);
        const empty = await writeNQuads(path.join(dir, `${name}-np.nq`), []);
        const counts = { publicRecords: KIND_NAMES.zeroCounts(), nonPublicRecords: KIND_NAMES.zeroCounts() };
        return computeSnapshot({ public: pub, nonPublic: empty }, { id: name, baseUrl: BASE, counts } as GenerationManifest);
      };
      const a = await files('a', canonical);
      const b = await files('b', [...noise, ...spaced]);
      expect([...a.records.keys()]).toEqual([objectIri(1)]);
      expect(b.records).toEqual(a.records);
    } finally {
      await remove();
    }
  });
});

describe('the change log across generations', () => {
  let dir: string;
  let dataDir: string;
  let remove: () => Promise<void>;
  let n = 0;
  beforeEach(async () => {
    ({ dir, remove } = await tempDir('changes-'));
    dataDir = path.join(dir, 'data');
  });
  afterEach(() => remove());

  const load = async (lines: string[]): Promise<Generation> => loadNQuadsFile(dataDir, await writeNQuads(path.join(dir, `in${++n}.nq`), lines), { kinds: KIND_NAMES });

  it('starts a fresh folder with one Create per public record, then logs updates, deletes with reasons, and rollbacks', async () => {
    const g1 = await load([...objectGraph(1), ...objectGraph(2), ...objectGraph(3), ...agentGraph(1)]);
    expect(await feedItems(dataDir, g1.id)).toEqual([
      ['Create', agentIri(1)],
      ['Create', objectIri(1)],
      ['Create', objectIri(2)],
      ['Create', objectIri(3)],
    ]);
    const g2 = await load([
      ...objectGraph(1),
      ...objectGraph(2, 'A new title'),
      ...objectGraph(3),
      ...objectGraph(4),
      ...adminQuads(objectIri(3), { state: 'merged', resolvesTo: objectIri(1) }),
      ...adminQuads(agentIri(1), { state: 'current', private: true }),
      ...agentGraph(1),
    ]);
    const second = [
      ['Create', objectIri(4)],
      ['Update', objectIri(2)],
      ['Delete', agentIri(1)],
      ['Delete', objectIri(3), objectIri(1)],
    ];
    expect((await feedItems(dataDir, g2.id)).slice(4)).toEqual(second);
    // Nothing changed: an empty block, no activity.
    const g3 = await load([...objectGraph(1), ...objectGraph(2, 'A new title'), ...objectGraph(4)]);
    expect((await feedItems(dataDir, g3.id)).slice(8)).toEqual([]);
    await setCurrent(dataDir, g1.id);
    expect((await feedItems(dataDir, g1.id)).slice(8)).toEqual([
      ['Create', agentIri(1)],
      ['Create', objectIri(3)],
      ['Update', objectIri(2)],
      ['Delete', objectIri(4)],
    ]);
    const headers = await readBlockHeaders(dataDir);
    expect(headers.map((h) => [h.from, h.to, h.count])).toEqual([
      [null, g1.id, 4],
      [g1.id, g2.id, 4],
      [g2.id, g3.id, 0],
      [g3.id, g1.id, 4],
    ]);
  });

  it('never serves a block whose switch did not happen, and the next switch starts from what is current', async () => {
    const g1 = await load([...objectGraph(1)]);
    const g2 = await load([...objectGraph(1), ...objectGraph(2)]);
    const g3 = await loadNQuadsFile(dataDir, await writeNQuads(path.join(dir, 'x.nq'), [...objectGraph(3)]), { makeCurrent: false, kinds: KIND_NAMES });
    // A writer that dies after writing its block, before `current` moves.
    await expect(
      recordSwitch(dataDir, g3, {
        readCurrent: () => currentGeneration(dataDir),
        files: generationFiles,
        move: () => Promise.reject(new Error('killed')),
      }),
    ).rejects.toThrow('killed');
    expect((await currentGeneration(dataDir))?.id).toBe(g2.id);
    expect((await readBlockHeaders(dataDir)).map((h) => h.to)).toEqual([g1.id, g2.id, g3.id]);
    expect(await feedItems(dataDir, g2.id)).toEqual([['Create', objectIri(1)], ['Create', objectIri(2)]]);

    await setCurrent(dataDir, g1.id);
    const headers = await readBlockHeaders(dataDir);
    expect(committedBlocks(headers, g1.id).map((h) => h.to)).toEqual([g1.id, g2.id, g1.id]);
    expect(await feedItems(dataDir, g1.id)).toEqual([['Create', objectIri(1)], ['Create', objectIri(2)], ['Delete', objectIri(2)]]);
  });

  it('logs a rollback made with `npm run generations -- --rollback`, and says what it logged', async () => {
    const g1 = await load([...objectGraph(1), ...objectGraph(2)]);
    await load([...objectGraph(2, 'Renamed'), ...objectGraph(3)]);
    const command = commandLine('generations', ['--rollback', g1.id]);
    const child = spawn(command.file, command.args, {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, BASE_URL: BASE, NODE_OPTIONS: '' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    const [code] = (await once(child, 'close')) as [number];
    expect(code).toBe(0);
    expect(stdout).toBe(`generation ${g1.id} is current\nchange log: 1 created, 1 updated, 1 deleted\n`);
    expect((await feedItems(dataDir, g1.id)).slice(5)).toEqual([['Create', objectIri(1)], ['Update', objectIri(2)], ['Delete', objectIri(3)]]);
  }, 30_000);

  it('catches up a folder whose generations are older than the log, and recomputes lost snapshots alike', async () => {
    const g1 = await load([...objectGraph(1), ...objectGraph(2)]);
    await rm(path.join(dataDir, 'changes'), { recursive: true });
    const g2 = await load([...objectGraph(2), ...objectGraph(3)]);
    expect(await feedItems(dataDir, g2.id)).toEqual([
      ['Create', objectIri(1)],
      ['Create', objectIri(2)],
      ['Create', objectIri(3)],
      ['Delete', objectIri(1)],
    ]);
    await rm(path.join(dataDir, 'changes', 'snapshots'), { recursive: true });
    await setCurrent(dataDir, g1.id);
    expect((await feedItems(dataDir, g1.id)).slice(4)).toEqual([['Create', objectIri(1)], ['Delete', objectIri(3)]]);
  });

  it('a load killed while it holds the log leaves the feed whole, and the next load takes the lock over', async () => {
    const g1 = await load([...objectGraph(1)]);
    const big = await writeNQuads(path.join(dir, 'big.nq'), syntheticDataset(20_000).lines);
    const command = commandLine('load', [big]);
    const child = spawn(command.file, command.args, {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, BASE_URL: 'http://museum.test', NODE_OPTIONS: '' },
      detached: true,
      stdio: 'ignore',
    });
    const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
    const lock = path.join(dataDir, 'changes', 'lock');
    while (!existsSync(lock) && child.exitCode === null) await sleep(5);
    expect(child.exitCode).toBeNull();
    process.kill(-(child.pid as number), 'SIGKILL');
    await exited;
    // The kill may land between the lock's creation and the write of its owner's pid (an empty file).
    const owner = await readFile(lock, 'utf8').catch(() => '');
    const { pid } = (owner.trim() === '' ? { pid: 0 } : JSON.parse(owner)) as { pid: number };
    while (pid > 0 && (await readFile(`/proc/${pid}/stat`, 'utf8').then((s) => !/\) [ZX] /.test(s), () => false))) await sleep(10);
    expect((await currentGeneration(dataDir))?.id).toBe(g1.id);
    expect(await feedItems(dataDir, g1.id)).toEqual([['Create', objectIri(1)]]);

    const g3 = await load([...objectGraph(1), ...objectGraph(2)]);
    expect(await feedItems(dataDir, g3.id)).toEqual([['Create', objectIri(1)], ['Create', objectIri(2)]]);
    expect(existsSync(lock)).toBe(false);
    expect((await readdir(path.join(dataDir, 'changes', 'log'))).filter((f) => f.startsWith('.tmp'))).toEqual([]);
    expect((await readGeneration(dataDir, g3.id)).id).toBe(g3.id);
  }, 60_000);
});
