/**
 * A generation written record by record (src/store/record-files.ts): the same text as a streamed harvest, in
 * gzip members its record index lists; a harvest with the current generation as parent copies the members
 * whose records did not change and equals, once unzipped, a harvest of the same export from nothing; the change
 * snapshot made on the parent's equals the one read from the files.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { generateCollection } from '../../src/generator/collection.js';
import { writeCollection } from '../../src/generator/write.js';
import { harvestExport } from '../../src/harvest/harvest.js';
import { SOURCE_FILES, type ObjectRecord } from '../../src/harvest/schema.js';
import { createGeneration, createRecordGeneration, generationFiles, type Generation } from '../../src/store/generations.js';
import { readRecordIndex, type Part, type RecordChanges } from '../../src/store/record-files.js';
import { computeSnapshot, readSnapshot, snapshotDir, type Snapshot } from '../../src/changes/snapshot.js';
import { diffSnapshots } from '../../src/changes/diff.js';
import { readBlockChanges, readBlockHeaders, type BlockHeader } from '../../src/changes/log.js';
import { boundSelect } from '../../src/collection-index/build.js';
import { readRecordAnswers, type KeptRecordAnswers } from '../../src/collection-index/record-answers.js';
import { StoredIndex } from '../../src/collection-index/stored-index.js';
import { storedIndexStep, type StoredIndexReport } from '../../src/engine/generation-index.js';
import { KIND_NAMES, KINDS } from '../../src/kinds/index.js';
import { QueryLibrary } from '../../src/queries/library.js';
import { STATUS_QUERY } from '../../src/records/status-index.js';
import { Iris } from '../../src/vocab/iris.js';

const BASE = 'http://localhost:3000';
const COLLECTION = generateCollection({ objects: 150, seed: 46, iiifBase: 'http://iiif.test' });

let work: string;
let runs = 0;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'record-files-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** A fresh folder under the test's folder. */
const folder = (name: string): string => path.join(work, `${name}-${++runs}`);

/** Writes the collection with `objects` in place of the generated ones as a source export; returns its folder. */
async function exportOf(objects: readonly ObjectRecord[]): Promise<string> {
  const dir = folder('source');
  writeCollection(dir, { ...COLLECTION, objects: [] });
  await writeFile(path.join(dir, SOURCE_FILES.objects), objects.map((o) => `${JSON.stringify(o)}\n`).join(''));
  return dir;
}

const meta = (source: string) => ({ source: { kind: 'harvest' as const, path: source }, baseUrl: BASE, kinds: KIND_NAMES });
const harvestOptions = { baseUrl: BASE, imageHosts: [], validateImages: false };

/** A harvest of `source` into `dataDir`, record by record, on `parent` when given. */
const harvest = (dataDir: string, source: string, parent?: Generation): Promise<Generation> =>
  createRecordGeneration(dataDir, meta(source), async (out) => ({ details: { ...(await harvestExport(source, out, harvestOptions)) } }), { parent });

/**
 * The same harvest with the stored index step of the data commands (fed the text as it is written, or, on a parent
 * that kept its record answers, asking only the changed records); resolves with the generation and the step's report.
 */
async function indexedHarvest(dataDir: string, source: string, parent?: Generation): Promise<{ generation: Generation; report: StoredIndexReport }> {
  let report: StoredIndexReport | undefined;
  const step = storedIndexStep({
    baseUrl: BASE,
    kinds: KINDS,
    onDone: (outcome) => {
      if ('problem' in outcome) throw new Error(outcome.problem);
      report = outcome.report;
    },
  });
  const generation = await createRecordGeneration(dataDir, meta(source), async (out) => ({ details: { ...(await harvestExport(source, out, harvestOptions)) } }), {
    parent,
    derive: step,
    ...(step.tap ? { tap: step.tap } : {}),
  });
  return { generation, report: report as StoredIndexReport };
}

const LIBRARY = { queries: QueryLibrary.forKinds(KINDS), iris: new Iris(BASE) };
const INDEX_QUERIES = [...KINDS.flatMap((kind) => Object.values(kind.index.queries)), STATUS_QUERY];

/** A generation's record answers with their cells as the strings they stand for. */
function decodedRecordAnswers(answers: KeptRecordAnswers): unknown {
  const text = (cells: Uint32Array | undefined): (string | null)[] => [...(cells ?? [])].map((cell) => (cell === 0 ? null : (answers.strings[cell - 1] as string)));
  return {
    graphs: answers.graphs,
    digests: answers.digests,
    answers: answers.answers.map((a) => ({ key: a.key, vars: a.vars, distinct: a.distinct, counts: [...a.counts], cells: text(a.cells), kinds: text(a.kinds) })),
  };
}

/** Every answer of the stored index, and the record answers, of `a` equal those of `b`: row for row, in order. */
async function expectSameIndex(a: Generation, b: Generation): Promise<void> {
  const [x, y] = [await StoredIndex.read(a), await StoredIndex.read(b)];
  expect([x.problem, y.problem]).toEqual([undefined, undefined]);
  for (const name of INDEX_QUERIES) {
    const text = boundSelect(LIBRARY, name);
    expect([name, x.stored.get(text)]).toEqual([name, y.stored.get(text)]);
  }
  const [ra, rb] = [await readRecordAnswers(a.dir, a.id), await readRecordAnswers(b.dir, b.id)];
  if ('problem' in ra || 'problem' in rb) throw new Error(`record answers: ${JSON.stringify([ra, rb].map((r) => ('problem' in r ? r.problem : 'ok')))}`);
  expect(decodedRecordAnswers(ra)).toEqual(decodedRecordAnswers(rb));
}

/** The unzipped text of both files of a generation. */
async function texts(generation: Generation): Promise<Record<Part, string>> {
  const files = generationFiles(generation.dir);
  return { public: gunzipSync(await readFile(files.public)).toString('utf8'), nonPublic: gunzipSync(await readFile(files.nonPublic)).toString('utf8') };
}

/**
 * Each record's text in a generation, read from its unzipped files alone: a record graph's lines, and for the
 * non-public file the admin graph's lines about the record (which the harvest writes right after its graph).
 */
async function recordTexts(generation: Generation): Promise<Map<string, string>> {
  const admin = `<${BASE}/graph/admin>`;
  const records = new Map<string, string>();
  for (const [part, text] of Object.entries(await texts(generation))) {
    let current: string | undefined;
    for (const line of text.split('\n').filter((l) => l !== '')) {
      const graph = line.slice(line.lastIndexOf(' <', line.length - 3) + 2, line.length - 3);
      if (`<${graph}>` === admin) {
        const subject = line.slice(1, line.indexOf('>'));
        expect(subject).toBe(current);
      } else current = graph;
      const key = `${part} ${current}`;
      records.set(key, (records.get(key) ?? '') + line + '\n');
    }
  }
  return records;
}

/** How two generations' records compare, from their files alone. */
async function expectedChanges(before: Generation, after: Generation): Promise<Pick<RecordChanges, 'created' | 'updated' | 'removed' | 'unchanged'>> {
  const graphOf = (key: string): string => key.slice(key.indexOf(' ') + 1);
  const old = new Map([...(await recordTexts(before))].map(([k, t]) => [graphOf(k), k + t]));
  const now = new Map([...(await recordTexts(after))].map(([k, t]) => [graphOf(k), k + t]));
  const counts = { created: 0, updated: 0, removed: 0, unchanged: 0 };
  for (const [graph, text] of now) {
    const was = old.get(graph);
    if (was === undefined) counts.created += 1;
    else if (was === text) counts.unchanged += 1;
    else counts.updated += 1;
  }
  for (const graph of old.keys()) if (!now.has(graph)) counts.removed += 1;
  return counts;
}

describe('a generation written record by record', () => {
  let source: string;
  let first: Generation;

  beforeAll(async () => {
    source = await exportOf(COLLECTION.objects);
    first = await harvest(folder('data'), source);
  }, 120_000);

  it('holds the text a streamed harvest writes', async () => {
    const streamed = await createGeneration(folder('data'), meta(source), async (out) => ({ details: { ...(await harvestExport(source, out, harvestOptions)) } }));
    expect(await texts(first)).toEqual(await texts(streamed));
    expect(first.manifest.counts).toEqual(streamed.manifest.counts);
  }, 120_000);

  it('is a series of gzip members, each the whole text of the records the record index lists for it', async () => {
    const index = await readRecordIndex(first.dir, first.id);
    expect(index).toBeDefined();
    const files = generationFiles(first.dir);
    const records = await recordTexts(first);
    let listed = 0;
    for (const part of ['public', 'nonPublic'] as const) {
      const bytes = await readFile(files[part]);
      const members = index?.[part] ?? [];
      expect(members.length).toBeGreaterThan(part === 'public' ? 10 : 0);
      let at = 0;
      for (const member of members) {
        expect(member.offset).toBe(at);
        at += member.length;
        const text = gunzipSync(bytes.subarray(member.offset, member.offset + member.length)).toString('utf8');
        expect(text).toBe(member.records.map(([graph]) => records.get(`${part} ${graph}`)).join(''));
        listed += member.records.length;
      }
      expect(at).toBe(bytes.length);
    }
    expect(listed).toBe(records.size);
  });

  it('copies every member, byte for byte, when the export has not changed', async () => {
    const again = await harvest(folder('data'), source, first);
    const [a, b] = [generationFiles(first.dir), generationFiles(again.dir)];
    // Compared as whole buffers: toEqual walks a Buffer element by element, minutes for these files.
    expect((await readFile(b.public)).equals(await readFile(a.public))).toBe(true);
    expect((await readFile(b.nonPublic)).equals(await readFile(a.nonPublic))).toBe(true);
    const changes = again.manifest.details?.changes as RecordChanges & { parent: string };
    expect(changes.parent).toBe(first.id);
    expect(changes).toMatchObject({ created: 0, updated: 0, removed: 0, unchanged: (await recordTexts(first)).size });
    expect(changes.written.members).toBe(0);
  }, 120_000);

  it('fails when a record is not N-Quads, or states something outside a named graph, naming the record', async () => {
    const dataDir = folder('data');
    const g = `${BASE}/v2/id/object/x`;
    const writeBad = (text: string) => createRecordGeneration(dataDir, meta(source), async (out) => out.record('public', g, text, 1));
    await expect(writeBad(`<${g}> <${BASE}/p> "unterminated <${g}> .\n`)).rejects.toThrow(`the public file: the record <${g}> has a line that is not N-Quads`);
    await expect(writeBad(`<${g}> <${BASE}/p> "x" .\n`)).rejects.toThrow(`the public file: the record <${g}> states something outside a named graph`);
    // Nothing was left behind: no generation, no staging folder with files.
    expect(await readdir(path.join(dataDir, 'generations')).catch(() => [])).toEqual([]);
    expect(await readdir(path.join(dataDir, 'staging')).catch(() => [])).toEqual([]);
  });

  it('refuses a parent without a record index', async () => {
    const dataDir = folder('data');
    const streamed = await createGeneration(dataDir, meta(source), async (out) => ({ details: { ...(await harvestExport(source, out, harvestOptions)) } }));
    await expect(harvest(dataDir, source, streamed)).rejects.toThrow(/has no record index/);
  }, 120_000);
});

/** Object numbers no other record names (so that an export without them is still whole). */
function unreferenced(objects: readonly ObjectRecord[]): string[] {
  const named = new Set<string>(COLLECTION.exhibitions.flatMap((e) => e.objects));
  for (const o of objects) {
    if (o.partOfSet !== undefined) named.add(o.partOfSet);
    if ('into' in o.state) named.add(o.state.into);
  }
  return objects.map((o) => o.objectNumber).filter((n) => !named.has(n));
}

type Edit =
  | { kind: 'retitle'; at: number; title: string }
  | { kind: 'remove'; at: number }
  | { kind: 'add'; at: number }
  | { kind: 'private'; at: number }
  | { kind: 'merge'; at: number; into: number }
  | { kind: 'modified'; at: number };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('retitle' as const), at: fc.nat(), title: fc.string({ minLength: 1, maxLength: 20 }) }),
  fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('add' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('private' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('merge' as const), at: fc.nat(), into: fc.nat() }),
  fc.record({ kind: fc.constant('modified' as const), at: fc.nat() }),
);

/** The objects after one edit; edits that would break the export (a removed object someone names) are skipped. */
function apply(objects: ObjectRecord[], e: Edit, serial: number): ObjectRecord[] {
  const pick = <T>(list: readonly T[], at: number): T | undefined => list[at % Math.max(1, list.length)];
  const free = unreferenced(objects);
  switch (e.kind) {
    case 'retitle': {
      const n = pick(objects, e.at)?.objectNumber;
      return objects.map((o) => (o.objectNumber === n ? { ...o, titles: { ...o.titles, nl: e.title } } : o));
    }
    case 'modified': {
      const n = pick(objects, e.at)?.objectNumber;
      return objects.map((o) => (o.objectNumber === n ? { ...o, modified: '2026-11-29', harvestedAt: '2026-11-29T03:00:00Z' } : o));
    }
    case 'remove': {
      const n = pick(free, e.at);
      return objects.filter((o) => o.objectNumber !== n);
    }
    case 'add': {
      const model = pick(objects, e.at) as ObjectRecord;
      const added: ObjectRecord = { ...model, objectNumber: `NEW-${serial}`, state: { kind: 'current' }, partOfSet: undefined, sameAs: [] };
      const copy = [...objects];
      copy.splice(e.at % (objects.length + 1), 0, added);
      return copy;
    }
    case 'private': {
      const n = pick(objects, e.at)?.objectNumber;
      return objects.map((o) => (o.objectNumber === n ? { ...o, public: false } : o));
    }
    case 'merge': {
      const n = pick(free, e.at);
      const into = pick(objects.filter((o) => o.objectNumber !== n && o.state.kind === 'current'), e.into)?.objectNumber;
      if (n === undefined || into === undefined) return objects;
      return objects.map((o) => (o.objectNumber === n ? { ...o, state: { kind: 'merged', into } } : o));
    }
  }
}

describe('a harvest on the current generation', () => {
  it('asks the stored index queries of the members a change touches, and takes every other record from the parent', async () => {
    const dataDir = folder('data');
    const { generation: parent } = await indexedHarvest(dataDir, await exportOf(COLLECTION.objects));
    const objects = apply(COLLECTION.objects, { kind: 'retitle', at: 7, title: 'Een andere titel' }, 1);
    const source = await exportOf(objects);
    const { generation: incremental, report } = await indexedHarvest(dataDir, source, parent);
    const { generation: full, report: fullReport } = await indexedHarvest(folder('data'), source);
    await expectSameIndex(incremental, full);
    const records = report.records as { asked: number; kept: number; members: number };
    const publicMembers = (await readRecordIndex(incremental.dir, incremental.id))?.public.length ?? 0;
    // The retitled object, and the records that carry its title, in a few of the public file's members.
    expect(records.members).toBeGreaterThan(0);
    expect(records.members).toBeLessThan(publicMembers / 2);
    expect(records.kept).toBeGreaterThan(4 * records.asked);
    // A harvest from nothing asks every record, while it writes them.
    expect(fullReport.records).not.toHaveProperty('asked');
  }, 120_000);

  it('equals, unzipped, a harvest of the same export from nothing, after any sequence of edits', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(edit, { maxLength: 6 }), { minLength: 1, maxLength: 3 }), async (rounds) => {
        const dataDir = folder('data');
        let objects = COLLECTION.objects;
        let parent = (await indexedHarvest(dataDir, await exportOf(objects))).generation;
        let serial = 0;
        for (const edits of rounds) {
          for (const e of edits) objects = apply(objects, e, ++serial);
          const source = await exportOf(objects);
          const { generation: incremental, report } = await indexedHarvest(dataDir, source, parent);
          const { generation: full } = await indexedHarvest(folder('data'), source);
          expect(await texts(incremental)).toEqual(await texts(full));
          // The stored index: the changed records asked, the others' rows the parent's; every answer as from nothing.
          await expectSameIndex(incremental, full);
          const records = report.records as { asked: number; kept: number; parentProblem?: string };
          expect(records.parentProblem).toBeUndefined();
          const publicRecords = (await readRecordIndex(incremental.dir, incremental.id))?.public.reduce((n, m) => n + m.records.length, 0);
          expect(records.asked + records.kept).toBe(publicRecords);
          if (edits.length === 0) expect(records.asked).toBe(0);
          expect(incremental.manifest.counts).toEqual(full.manifest.counts);
          const changes = incremental.manifest.details?.changes as RecordChanges;
          expect(changes).toMatchObject(await expectedChanges(parent, full));
          // The change log's snapshot, made on the parent's at the switch, is the one read from the whole files.
          const snapshot = await readSnapshot(dataDir, incremental.id);
          expect(snapshot).toEqual(await computeSnapshot(generationFiles(incremental.dir), incremental.manifest));
          // What was not touched is copied: a changed record breaks at most one member in each of its two parts, and each break is written anew in at most two.
          const changed = changes.created + changes.updated + changes.removed;
          expect(changes.written.members).toBeLessThanOrEqual(4 * changed + 2);
          parent = incremental;
        }
      }),
      { numRuns: 6 },
    );
  }, 600_000);
});

describe('the change snapshot at the switch', () => {
  /** A harvest into `dataDir` that notes whether the snapshot of its generation was stored when `current` moved. */
  async function switched(dataDir: string, source: string): Promise<{ generation: Generation; storedAtMove: boolean }> {
    let storedAtMove: boolean | undefined;
    let id = '';
    const generation = await createRecordGeneration(
      dataDir,
      meta(source),
      async (out) => {
        const report = await harvestExport(source, out, harvestOptions);
        return { details: { ...report } };
      },
      {
        derive: async (staged) => void (id = staged.id),
        onCurrent: () => void (storedAtMove = existsSync(path.join(snapshotDir(dataDir), `${id}.json`))),
      },
    );
    expect(storedAtMove).toBeDefined();
    return { generation, storedAtMove: storedAtMove as boolean };
  }
  const fromFiles = (g: Generation): Promise<Snapshot> => computeSnapshot(generationFiles(g.dir), g.manifest);
  const lastBlock = async (dataDir: string): Promise<unknown[]> => {
    const header = (await readBlockHeaders(dataDir)).at(-1) as BlockHeader;
    return readBlockChanges(dataDir, header);
  };
  let edited: ObjectRecord[] = COLLECTION.objects;
  for (const [e, serial] of [
    [{ kind: 'retitle', at: 3, title: 'Een andere titel' }, 1],
    [{ kind: 'remove', at: 11 }, 2],
    [{ kind: 'private', at: 20 }, 3],
    [{ kind: 'merge', at: 30, into: 4 }, 4],
    [{ kind: 'add', at: 40 }, 5],
  ] as const) edited = apply(edited, e, serial);

  it('logs a first harvest as every public record created, moves current, then stores the snapshot the files give', async () => {
    const dataDir = folder('data');
    const { generation, storedAtMove } = await switched(dataDir, await exportOf(COLLECTION.objects));
    // Nothing to compare with: the digests are read once `current` names the generation.
    expect(storedAtMove).toBe(false);
    const snapshot = await fromFiles(generation);
    expect(await readSnapshot(dataDir, generation.id)).toEqual(snapshot);
    expect(await lastBlock(dataDir)).toEqual(diffSnapshots(undefined, snapshot));
    expect(snapshot.records.size).toBeGreaterThan(COLLECTION.objects.length);
  }, 120_000);

  it('makes the snapshot of a harvest from nothing on the current generation record index before current moves', async () => {
    const dataDir = folder('data');
    const first = (await switched(dataDir, await exportOf(COLLECTION.objects))).generation;
    // No parent (`--full`): the records whose text is the current generation's take its digests.
    const { generation, storedAtMove } = await switched(dataDir, await exportOf(edited));
    expect(generation.manifest.details?.changes).toBeUndefined();
    expect(storedAtMove).toBe(true);
    expect(await readSnapshot(dataDir, generation.id)).toEqual(await fromFiles(generation));
    const changes = diffSnapshots(await fromFiles(first), await fromFiles(generation));
    expect(await lastBlock(dataDir)).toEqual(changes);
    expect(changes.map((c) => c.type)).toEqual(expect.arrayContaining(['Create', 'Update', 'Delete']));
  }, 120_000);

  it('reads the digests the diff needs from a generation without a record index, and stores the whole snapshot after the move', async () => {
    const dataDir = folder('data');
    // A generation written as a stream (as `npm run load` writes one): no record index to build on.
    const dump = (await harvest(folder('data'), await exportOf(COLLECTION.objects))).dir;
    const base = await createGeneration(dataDir, meta('dump'), async (out) => {
      for (const [part, stream] of [['public', out.public], ['nonPublic', out.nonPublic]] as const) {
        stream.end(gunzipSync(await readFile(generationFiles(dump)[part])));
      }
    });
    expect(await readRecordIndex(base.dir, base.id)).toBeUndefined();
    const { generation, storedAtMove } = await switched(dataDir, await exportOf(edited));
    expect(storedAtMove).toBe(false);
    expect(await readSnapshot(dataDir, generation.id)).toEqual(await fromFiles(generation));
    expect(await lastBlock(dataDir)).toEqual(diffSnapshots(await fromFiles(base), await fromFiles(generation)));
  }, 120_000);
});
