/**
 * A data command sized to its input (src/cli/heap.ts): the heap an input wants, when the command runs itself
 * again with more, and that it then really runs with that limit and ends with its child's exit code.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bytesOfFolder, heapChosen, heapToRaise, heapWanted } from '../../src/cli/heap.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MIB = 2 ** 20;

describe('the heap a data command asks for', () => {
  it('is the input times its factor, plus 512 MiB', () => {
    expect(heapWanted(0, 4.5)).toBe(512);
    expect(heapWanted(1024 * MIB, 4.5)).toBe(4608 + 512);
  });

  it('sees a limit chosen on the command line or in NODE_OPTIONS, in either spelling', () => {
    expect(heapChosen(['--max-old-space-size=8192'], {})).toBe(true);
    expect(heapChosen([], { NODE_OPTIONS: '--enable-source-maps --max_old_space_size=2048' })).toBe(true);
    expect(heapChosen(['--enable-source-maps'], { NODE_OPTIONS: '--max-semi-space-size=64' })).toBe(false);
  });

  it('raises only past the current limit, never over a chosen one, never twice, and at most to 3/4 of the memory', () => {
    const machine = { limitMiB: 4144, totalMiB: 24_000, chosen: false, raised: false };
    expect(heapToRaise(4000, machine)).toBeUndefined();
    expect(heapToRaise(9000, machine)).toBe(9000);
    expect(heapToRaise(9000, { ...machine, chosen: true })).toBeUndefined();
    expect(heapToRaise(9000, { ...machine, raised: true })).toBeUndefined();
    expect(heapToRaise(30_000, machine)).toBe(18_000);
    // A small machine whose three quarters are below the current limit: nothing to gain.
    expect(heapToRaise(9000, { ...machine, totalMiB: 4000 })).toBeUndefined();
  });

  it('counts the bytes of the files in a folder, and 0 for a folder that is not there', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'heap-'));
    try {
      await writeFile(path.join(dir, 'objects.jsonl'), 'x'.repeat(1000));
      await writeFile(path.join(dir, 'agents.jsonl'), 'y'.repeat(24));
      expect(await bytesOfFolder(dir)).toBe(1024);
      expect(await bytesOfFolder(path.join(dir, 'missing'))).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('running again with a larger heap', () => {
  it('runs the same script with the limit, says so on stderr and exits with the child’s code', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'heap-'));
    try {
      // The script reports its own limit and exits with 3; in the first process it asks for 700 MiB.
      const script = path.join(dir, 'command.mts');
      await writeFile(
        script,
        [
          `import { getHeapStatistics } from 'node:v8';`,
          `import { rerunWithHeap } from ${JSON.stringify(path.join(ROOT, 'src/cli/heap.ts'))};`,
          `if (process.env.MUSEUM_LD_HEAP_RAISED !== '1') await rerunWithHeap('command', 700, 3 * 2 ** 30);`,
          `process.stdout.write(String(getHeapStatistics().heap_size_limit / 2 ** 20) + ' ' + process.argv.slice(2).join(' '));`,
          `process.exit(3);`,
        ].join('\n'),
      );
      const env = { ...process.env };
      delete env.NODE_OPTIONS;
      const child = spawn(process.execPath, ['--import', 'tsx', script, 'a', 'b'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
      const [code] = (await once(child, 'exit')) as [number];
      expect(code).toBe(3);
      const [limit, ...args] = out.split(' ');
      // V8 adds its young generation to the old space it was given.
      expect(Number(limit)).toBeGreaterThanOrEqual(700);
      expect(Number(limit)).toBeLessThan(800);
      expect(args).toEqual(['a', 'b']);
      expect(err).toMatch(/^command: 3\.00 GiB of input wants a heap of about 0\.7 GiB .*--max-old-space-size=700 /m);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
