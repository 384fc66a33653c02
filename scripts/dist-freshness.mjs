// Whether dist/ was built from the sources as they are: its stamp (dist/.built, written after a build) is newer
// than every file under src/ and both tsconfig files. Shared by build-if-stale.mjs and the tests that start the
// data commands (test/helpers/commands.ts). It compares file times only: a few milliseconds.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const STAMP = join(ROOT, 'dist/.built');

/** The newest modification time of the files under `dir` (0 for none). */
function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) latest = Math.max(latest, statSync(join(entry.parentPath ?? entry.path, entry.name)).mtimeMs);
  }
  return latest;
}

/** When dist/ was last built (0 when it never was). */
export function builtAt() {
  try {
    return statSync(STAMP).mtimeMs;
  } catch {
    return 0;
  }
}

/** True when dist/ is missing or older than a source file. */
export function distIsStale() {
  const sources = Math.max(newest(join(ROOT, 'src')), statSync(join(ROOT, 'tsconfig.json')).mtimeMs, statSync(join(ROOT, 'tsconfig.build.json')).mtimeMs);
  return builtAt() < sources;
}
