/**
 * The journal of a followed stream (src/harvest/ldes/journal.ts), on files written here: the latest version of
 * each record found a line at a time, by place, across lines longer than a read's chunk and characters of more
 * than one byte; a last line a killed run left without its newline is not a member; compaction keeps the
 * latest versions, in the journal's order, and nothing else.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { appendMembers, compactJournal, JOURNAL, latestEntries, readMembers, repairJournal, type JournalMember } from '../../src/harvest/ldes/journal.js';
import { tempDir } from './store-fixtures.js';

const member = (record: number, time: string, size = 10): JournalMember => ({
  id: `https://museum.test/v/${record}/${time}`,
  page: 'https://museum.test/page',
  versionOf: `https://museum.test/r/${record}`,
  time,
  // Multi-byte characters: offsets are bytes, not characters.
  nquads: `<https://museum.test/r/${record}> <https://museum.test/p> "${'ő'.repeat(size)} ${time}" .\n`,
});

async function collect(entries: Parameters<typeof readMembers>[0]): Promise<JournalMember[]> {
  const out: JournalMember[] = [];
  for await (const m of readMembers(entries)) out.push(m);
  return out;
}

describe('the journal of a followed stream', () => {
  it('finds the latest version of each record by place, across long lines, and reads it back whole', async () => {
    const { dir, remove } = await tempDir('journal-');
    try {
      // Lines of 200 kB straddle the 64 kB chunks the file is read in.
      const written = [member(1, '2024-01-01T00:00:00.000Z', 100_000), member(2, '2024-01-01T00:00:00.000Z'), member(1, '2024-02-01T00:00:00.000Z', 100_000), member(2, '2023-12-01T00:00:00.000Z', 70_000)];
      await appendMembers(dir, written.slice(0, 2));
      await appendMembers(dir, written.slice(2));
      const latest = await latestEntries(dir);
      expect([...latest.keys()]).toEqual(['https://museum.test/r/1', 'https://museum.test/r/2']);
      expect(await collect(latest.values())).toEqual([written[1], written[2]]);
    } finally {
      await remove();
    }
  });

  it('takes a later line on a tie, and not a last line without its newline', async () => {
    const { dir, remove } = await tempDir('journal-');
    try {
      const a = member(1, '2024-01-01T00:00:00.000Z');
      const b = { ...member(1, '2024-01-01T00:00:00.000Z'), id: 'https://museum.test/v/1/again' };
      const torn = JSON.stringify(member(1, '2025-01-01T00:00:00.000Z')).slice(0, 40);
      await writeFile(path.join(dir, JOURNAL), `${JSON.stringify(a)}\n${JSON.stringify(b)}\n${torn}`);
      expect(await collect((await latestEntries(dir)).values())).toEqual([b]);
    } finally {
      await remove();
    }
  });

  it('cuts a torn last line off before the next run appends, so that the next line is whole', async () => {
    const { dir, remove } = await tempDir('journal-');
    try {
      const a = member(1, '2024-01-01T00:00:00.000Z');
      // A torn line longer than the 64 kB the repair reads back at a time.
      const torn = JSON.stringify(member(2, '2025-01-01T00:00:00.000Z', 100_000)).slice(0, 150_000);
      await writeFile(path.join(dir, JOURNAL), `${JSON.stringify(a)}\n${torn}`);
      await repairJournal(dir);
      const b = member(3, '2024-01-01T00:00:00.000Z');
      await appendMembers(dir, [b]);
      expect(await readFile(path.join(dir, JOURNAL), 'utf8')).toBe(`${JSON.stringify(a)}\n${JSON.stringify(b)}\n`);
      // Nothing to cut, and no journal yet: nothing changes.
      await repairJournal(dir);
      expect(await collect((await latestEntries(dir)).values())).toEqual([a, b]);
      await repairJournal(path.join(dir, 'none'));
    } finally {
      await remove();
    }
  });

  it('compacts to the latest versions, in the order of the journal', async () => {
    const { dir, remove } = await tempDir('journal-');
    try {
      const lines = [member(3, '2024-01-01T00:00:00.000Z'), member(1, '2024-01-01T00:00:00.000Z'), member(3, '2024-03-01T00:00:00.000Z'), member(2, '2024-01-01T00:00:00.000Z'), member(1, '2023-01-01T00:00:00.000Z')];
      await appendMembers(dir, lines);
      await compactJournal(dir);
      const text = await readFile(path.join(dir, JOURNAL), 'utf8');
      // Record 1's line comes before record 3's latest, which comes before record 2's: file order.
      expect(text).toBe([lines[1], lines[2], lines[3]].map((m) => `${JSON.stringify(m)}\n`).join(''));
    } finally {
      await remove();
    }
  });

  it('is empty when nothing was journalled', async () => {
    const { dir, remove } = await tempDir('journal-');
    try {
      expect((await latestEntries(dir)).size).toBe(0);
    } finally {
      await remove();
    }
  });
});
