// Compiles src/ into dist/ (tsconfig.build.json), which `npm start` and the data commands run with plain node.
// `npm run build` (and `npm ci`, through `prepare`) always builds; before `npm start` and the data commands it
// builds only when dist/ is missing or older than a source file, so the README's two commands keep working
// after an edit. On a fresh clone that check only compares file times: a few milliseconds.
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtAt, distIsStale, ROOT as root, STAMP } from './dist-freshness.mjs';

const force = process.argv.includes('--force');
if (force || distIsStale()) {
  if (!force) process.stderr.write(builtAt() === 0 ? 'building dist/ (no build yet)\n' : 'src/ changed since the last build: rebuilding dist/\n');
  // A clean folder: no module of a deleted source file survives in dist/.
  rmSync(join(root, 'dist'), { recursive: true, force: true });
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);
  writeFileSync(STAMP, '');
}
