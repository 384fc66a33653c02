/**
 * Bad lines (DESIGN.md "Harvest"): invalid JSON, schema failures and dangling references stop the
 * harvest with SourceLineError naming the file, the 1-based line and a readable reason.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SourceLineError } from '../../src/harvest/harvest.js';
import { copyFixture, fixtureRecord, harvestToText, removeCopy, replaceLine } from '../fixtures/source-mini/harvest-fixture.js';

/** Harvests a copy of the fixture after `edit`, and returns the error it throws. */
async function failure(edit: (dir: string) => Promise<void>): Promise<SourceLineError> {
  const dir = await copyFixture();
  try {
    await edit(dir);
    await harvestToText(dir, { validateImages: false });
  } catch (error) {
    if (error instanceof SourceLineError) return error;
    throw error;
  } finally {
    await removeCopy(dir);
  }
  throw new Error('the harvest did not fail');
}

/** The fixture record on `line` of `file` with `change` applied, as one JSON line. */
async function changed(file: string, line: number, change: (r: Record<string, unknown>) => void): Promise<string> {
  const record = await fixtureRecord(file, line);
  change(record);
  return JSON.stringify(record);
}

describe('Bad source lines', () => {
  it('rejects invalid JSON in concepts.jsonl with its line', async () => {
    const error = await failure((dir) => replaceLine(dir, 'concepts.jsonl', 3, '{"pid": "530000101",'));
    expect([error.file, error.line]).toEqual(['concepts.jsonl', 3]);
    expect(error.reason).toMatch(/^invalid JSON: /);
    expect(error.message).toBe(`concepts.jsonl:3: ${error.reason}`);
  });

  it('names the first schema issue with its path in agents.jsonl', async () => {
    const line = await changed('agents.jsonl', 4, (r) => (r.birth = { year: '1900' }));
    const error = await failure((dir) => replaceLine(dir, 'agents.jsonl', 4, line));
    expect([error.file, error.line]).toEqual(['agents.jsonl', 4]);
    expect(error.reason).toMatch(/^birth\.year: .*number/);
  });

  it('rejects an exhibition whose curator is an unknown agent', async () => {
    const line = await changed('exhibitions.jsonl', 2, (r) => (r.curator = { label: 'X', agent: 'DMG-A-99999' }));
    const error = await failure((dir) => replaceLine(dir, 'exhibitions.jsonl', 2, line));
    expect(error.message).toBe('exhibitions.jsonl:2: curator.agent: unknown agent DMG-A-99999');
  });

  it('rejects a merged object that points at an unknown object number', async () => {
    const line = await changed('objects.jsonl', 6, (r) => (r.state = { kind: 'merged', into: '1987-9999' }));
    const error = await failure((dir) => replaceLine(dir, 'objects.jsonl', 6, line));
    expect(error.message).toBe('objects.jsonl:6: state.into: unknown object number 1987-9999');
  });

  it('rejects an object that names an unknown concept', async () => {
    const line = await changed('objects.jsonl', 8, (r) => (r.types = ['530000101', '123']));
    const error = await failure((dir) => replaceLine(dir, 'objects.jsonl', 8, line));
    expect(error.message).toBe('objects.jsonl:8: types[1]: unknown concept 123');
  });

  it('rejects an object that names an unknown agent', async () => {
    const line = await changed('objects.jsonl', 9, (r) => (r.creations = [{ agent: 'DMG-A-99999' }]));
    const error = await failure((dir) => replaceLine(dir, 'objects.jsonl', 9, line));
    expect(error.message).toBe('objects.jsonl:9: creations[0].agent: unknown agent DMG-A-99999');
  });

  it('rejects a set member whose koepelrecord is not in the export', async () => {
    const line = await changed('objects.jsonl', 3, (r) => (r.partOfSet = '1990-0060_0-9'));
    const error = await failure((dir) => replaceLine(dir, 'objects.jsonl', 3, line));
    expect(error.message).toBe('objects.jsonl:3: partOfSet: unknown object number 1990-0060_0-9');
  });

  it('rejects a record missing a required field', async () => {
    const line = await changed('objects.jsonl', 9, (r) => delete r.healthy);
    const error = await failure((dir) => replaceLine(dir, 'objects.jsonl', 9, line));
    expect([error.file, error.line]).toEqual(['objects.jsonl', 9]);
    expect(error.reason).toMatch(/^healthy: /);
  });

  it('rejects a second record with the same object number and names the first line', async () => {
    const line = await changed('objects.jsonl', 2, (r) => (r.objectNumber = '1987-1105'));
    const error = await failure((dir) => replaceLine(dir, 'objects.jsonl', 2, line));
    expect(error.message).toBe('objects.jsonl:2: duplicate object number 1987-1105 (first on line 1)');
  });

  it('rejects a relation to an unknown agent and a broader term that is not in the thesaurus', async () => {
    const agent = await changed('agents.jsonl', 3, (r) => (r.relations = [{ type: 'sibling_of', agent: 'DMG-A-99999' }]));
    const agentError = await failure((dir) => replaceLine(dir, 'agents.jsonl', 3, agent));
    expect(agentError.message).toBe('agents.jsonl:3: relations[0].agent: unknown agent DMG-A-99999');
    const concept = await changed('concepts.jsonl', 4, (r) => (r.broader = ['999']));
    const conceptError = await failure((dir) => replaceLine(dir, 'concepts.jsonl', 4, concept));
    expect(conceptError.message).toBe('concepts.jsonl:4: broader[0]: unknown concept 999');
  });

  it('rejects an exhibition that closes before it opens', async () => {
    const line = await changed('exhibitions.jsonl', 1, (r) => (r.end = '2019-01-01'));
    const error = await failure((dir) => replaceLine(dir, 'exhibitions.jsonl', 1, line));
    expect([error.file, error.line]).toEqual(['exhibitions.jsonl', 1]);
  });

  it('counts blank lines and CRLF line ends when naming a line', async () => {
    const error = await failure(async (dir) => {
      const path = join(dir, 'objects.jsonl');
      const lines = (await readFile(path, 'utf8')).trimEnd().split('\n');
      lines.splice(2, 0, '', '   ');
      lines[6] = '{not json';
      await writeFile(path, lines.join('\r\n') + '\r\n');
    });
    expect([error.file, error.line]).toEqual(['objects.jsonl', 7]);
  });
});
