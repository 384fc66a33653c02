/**
 * The data commands (`src/cli/<name>.ts`) as a test starts them: what `npm run <name>` runs, without npm's own
 * start-up. That is `node dist/cli/<name>.js` when dist/ was built from the sources as they are (on CI, where
 * `npm ci` builds it, always), and `tsx src/cli/<name>.ts` in a checkout edited since its last build, which
 * costs about two seconds more at every start (tsx compiles each module as it loads).
 */
import path from 'node:path';
import { distIsStale, ROOT } from '../../scripts/dist-freshness.mjs';

let compiled: boolean | undefined;

/** The program and arguments that run the data command `name` with `args`, from the repository's root. */
export function commandLine(name: string, args: readonly string[]): { file: string; args: string[] } {
  compiled ??= !distIsStale();
  return compiled ? { file: process.execPath, args: [path.join(ROOT, 'dist/cli', `${name}.js`), ...args] } : { file: path.join(ROOT, 'node_modules/.bin/tsx'), args: [path.join(ROOT, 'src/cli', `${name}.ts`), ...args] };
}
