/**
 * The README's tour runs as written (issue 25): every command of its shell block, pasted into bash with `B`
 * set to a running demo app's origin, exits 0 and prints an answer; only the lines whose comment starts with a
 * 4xx status, and the keyed v1 path (the demo has no key), print an error body. The commands are read from README.md itself.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startDemoApp, type DemoApp } from '../helpers/demo.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
/** The tour's shell block: its command lines (comments and blank lines dropped). */
function tourCommands(): string[] {
  const section = README.slice(README.indexOf('## A tour of the API'));
  const block = section.slice(section.indexOf('```sh') + 5, section.indexOf('```', section.indexOf('```sh') + 5));
  return block.split('\n').filter((line) => line.trim() !== '' && !line.trim().startsWith('#'));
}

let demo: DemoApp;
let server: Server;
let server6: Server | undefined;
const TOUR_PORT = 3000;
let origin: string;
let dir: string;

beforeAll(async () => {
  demo = await startDemoApp({}, { sparql: true });
  // On the README's own origin, http://localhost:3000 (the demo's BASE_URL): the TREE client of the tour follows
  // the absolute links of the stream, which name it. On ::1 too where the machine has it, as `localhost` may
  // resolve there first.
  const listen = (host: string): Promise<Server> =>
    new Promise<Server>((resolve, reject) => {
      const s = demo.app.listen(TOUR_PORT, host, () => resolve(s));
      s.once('error', reject);
    });
  server = await listen('127.0.0.1').catch((err: Error) => {
    throw new Error(`the README tour runs on port ${TOUR_PORT}, its BASE_URL: ${err.message}`);
  });
  server6 = await listen('::1').catch(() => undefined);
  origin = `http://localhost:${TOUR_PORT}`;
  // Inside the checkout (its .scratch folder, ignored by git), as a reader runs the tour: `npx ldes-client` then
  // finds the client that npm ci installed, and never asks the registry.
  await mkdir(join(ROOT, '.scratch'), { recursive: true });
  dir = await mkdtemp(join(ROOT, '.scratch', 'readme-tour-'));
}, 600_000);
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await new Promise((resolve) => (server6 ? server6.close(resolve) : resolve(undefined)));
  await demo?.close();
  await rm(dir, { recursive: true, force: true });
});

it('runs every command of the README tour as written', async () => {
  const commands = tourCommands();
  expect(commands[0]).toBe('B=http://localhost:3000');
  expect(commands.length).toBeGreaterThan(40);
  const run = promisify(execFile);
  // The variables the tour sets, carried from line to line as a shell would (B, etag).
  let prelude = `B=${origin}; KEY=not-a-key; `;
  for (const command of commands.slice(1)) {
    if (/^[a-z]+=\$\(/.test(command)) {
      prelude += `${command}; `;
      continue;
    }
    const { stdout } = await run('bash', ['-c', prelude + command], { cwd: dir, maxBuffer: 64 * 1024 * 1024 }).catch((err: { code?: number; stdout?: string }) => {
      throw new Error(`${command}\nexited ${String(err.code)}: ${String(err.stdout).slice(0, 300)}`);
    });
    const error = /"error":/.test(stdout.slice(0, 300)) || /^HTTP\/1\.1 [45]\d\d/.test(stdout);
    // Lines whose comment starts with a 4xx status answer it; the keyed v1 path has no key in the demo.
    const expectsError = /#\s*4\d\d\b/.test(command) || command.includes('apiKey=$KEY');
    expect([command, error]).toEqual([command, expectsError]);
    if (!/-o \/dev\/null|-sO /.test(command)) expect([command, stdout.length > 0]).toEqual([command, true]);
  }
}, 180_000);
