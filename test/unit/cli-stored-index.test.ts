/**
 * The data commands write the stored index of the generation they make (docs/operations.md, "How a generation is
 * made"), unless told not to; either way the generation is made.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StoredIndex } from '../../src/collection-index/stored-index.js';
import { currentGeneration } from '../../src/store/generations.js';
import { agentGraph, objectGraph, tempDir, writeNQuads } from './store-fixtures.js';
import { commandLine } from '../helpers/commands.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Runs the data command `name` with `args` and DATA_DIR set; resolves with its exit code and stderr. */
function run(name: string, args: string[], dataDir: string): Promise<{ code: number | null; stderr: string }> {
  const command = commandLine(name, args);
  const child = spawn(command.file, command.args, {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, BASE_URL: 'http://museum.test', NODE_OPTIONS: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

describe('the stored index of the data commands', () => {
  let dir: string;
  let remove: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, remove } = await tempDir('cli-stored-index-'));
  });
  afterEach(() => remove());

  it('load writes it into the new generation, and --no-index leaves it to the server', async () => {
    const file = await writeNQuads(path.join(dir, 'in.nq'), [...objectGraph(1), ...objectGraph(2), ...agentGraph(1)]);
    const dataDir = path.join(dir, 'data');

    const withIndex = await run('load', [file], dataDir);
    expect(withIndex.code).toBe(0);
    expect(withIndex.stderr).toMatch(/^load: stored index written, \d+ answers, /m);
    const first = await currentGeneration(dataDir);
    const read = await StoredIndex.read(first!);
    expect(read.problem).toBeUndefined();
    expect(read.stored.size).toBeGreaterThan(0);

    const without = await run('load', ['--no-index', file], dataDir);
    expect(without.code).toBe(0);
    expect(without.stderr).not.toMatch(/stored index/);
    const second = await currentGeneration(dataDir);
    expect(second?.id).not.toBe(first?.id);
    expect((await StoredIndex.read(second!)).problem).toBe('missing');
  });
});
