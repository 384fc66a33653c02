/**
 * An export of changes applied to the kept export (src/harvest/kept-export.ts): changed records replace theirs
 * in place, deleted ones leave, new ones come at the end, and every line of the result knows its origin; a wrong
 * export of changes is refused at its file and line.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ChangesLineError, DELETIONS_FILE, mergeChanges } from '../../src/harvest/kept-export.js';

let work: string;
let runs = 0;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'kept-export-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const jsonl = (...records: object[]): string => records.map((r) => `${JSON.stringify(r)}\n`).join('');
const object = (objectNumber: string, title: string) => ({ objectNumber, title });
const concept = (pid: string, label: string) => ({ pid, label });

/** A kept export and an export of changes, as folders; the merge's folder. */
async function folders(base: Record<string, string>, changes: Record<string, string>): Promise<{ base: string; changes: string; out: string }> {
  const root = path.join(work, `case-${++runs}`);
  const dirs = { base: path.join(root, 'base'), changes: path.join(root, 'changes'), out: path.join(root, 'out') };
  for (const [dir, files] of [
    [dirs.base, base],
    [dirs.changes, changes],
  ] as const) {
    await mkdir(dir, { recursive: true });
    for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  }
  return dirs;
}

describe('an export of changes applied to the kept export', () => {
  it('replaces changed records in place, leaves deleted ones out, adds new ones at the end, and knows where each line came from', async () => {
    const dirs = await folders(
      {
        'objects.jsonl': jsonl(object('A-1', 'a'), object('A-2', 'b'), object('A-3', 'c'), object('A-4', 'd')),
        'concepts.jsonl': jsonl(concept('1', 'stoel')),
        'agents.jsonl': '',
        'exhibitions.jsonl': '',
      },
      {
        'objects.jsonl': jsonl(object('A-9', 'new'), object('A-3', 'C')),
        [DELETIONS_FILE]: jsonl({ collection: 'objects', id: 'A-2' }),
      },
    );
    const merged = await mergeChanges(dirs.base, dirs.changes, dirs.out);
    expect(merged.counts).toEqual({ replaced: 1, added: 1, deleted: 1 });
    expect(await readFile(path.join(dirs.out, 'objects.jsonl'), 'utf8')).toBe(jsonl(object('A-1', 'a'), object('A-3', 'C'), object('A-4', 'd'), object('A-9', 'new')));
    expect(await readFile(path.join(dirs.out, 'concepts.jsonl'), 'utf8')).toBe(jsonl(concept('1', 'stoel')));
    expect(merged.origin('objects.jsonl', 1)).toEqual({ path: path.join(dirs.base, 'objects.jsonl'), line: 1 });
    expect(merged.origin('objects.jsonl', 2)).toEqual({ path: path.join(dirs.changes, 'objects.jsonl'), line: 2 });
    expect(merged.origin('objects.jsonl', 3)).toEqual({ path: path.join(dirs.base, 'objects.jsonl'), line: 4 });
    expect(merged.origin('objects.jsonl', 4)).toEqual({ path: path.join(dirs.changes, 'objects.jsonl'), line: 1 });
  });

  it.each([
    ['a record changed twice', { 'objects.jsonl': jsonl(object('A-1', 'x'), object('A-1', 'y')) }, 'objects.jsonl', 2, 'A-1 is changed twice (first on line 1)'],
    ['a line that is not JSON', { 'objects.jsonl': '{"objectNumber": \n' }, 'objects.jsonl', 1, 'not JSON'],
    ['a record without its id', { 'objects.jsonl': jsonl({ title: 'x' }) }, 'objects.jsonl', 1, 'a record without its id'],
    ['a deletion of no record', { [DELETIONS_FILE]: jsonl({ collection: 'objects', id: 'A-7' }) }, DELETIONS_FILE, 1, 'no record A-7 in objects.jsonl to delete'],
    ['a deletion of an unknown collection', { [DELETIONS_FILE]: jsonl({ collection: 'books', id: 'A-1' }) }, DELETIONS_FILE, 1, '"collection" must be one of concepts, agents, exhibitions, objects'],
    [
      'a record changed and deleted',
      { 'objects.jsonl': jsonl(object('A-1', 'x')), [DELETIONS_FILE]: jsonl({ collection: 'objects', id: 'A-1' }) },
      'objects.jsonl',
      1,
      `A-1 is changed and deleted (${DELETIONS_FILE}:1)`,
    ],
  ])('refuses %s, at its file and line', async (_what, changes, file, line, reason) => {
    const dirs = await folders({ 'objects.jsonl': jsonl(object('A-1', 'a')) }, changes);
    const failure = await mergeChanges(dirs.base, dirs.changes, dirs.out).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(ChangesLineError);
    expect(failure).toMatchObject({ file: path.join(dirs.changes, file), line, reason });
  });
});
