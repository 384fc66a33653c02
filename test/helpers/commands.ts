/**
 * The service and its data commands as a test starts them: what `npm start` and `npm run <name>` run, without
 * npm's own start-up. That is `node dist/<module>.js` when dist/ was built from the sources as they are (on CI,
 * where `npm ci` builds it, always), and `node --import <tsx> src/<module>.ts` in a checkout edited since its
 * last build, which costs about two seconds more at every start (tsx compiles each module as it loads).
 */
import path from 'node:path';
import { distIsStale, ROOT } from '../../scripts/dist-freshness.mjs';

const TSX_LOADER = path.join(ROOT, 'node_modules/tsx/dist/loader.mjs');

let compiled: boolean | undefined;

/** The program and arguments that run `module` (`server`, `cli/load`, …: a path under src/ without its extension) with `args`. */
export function entryLine(module: string, args: readonly string[] = []): { file: string; args: string[] } {
  compiled ??= !distIsStale();
  const entry = compiled ? [path.join(ROOT, 'dist', `${module}.js`)] : ['--import', TSX_LOADER, path.join(ROOT, 'src', `${module}.ts`)];
  return { file: process.execPath, args: [...entry, ...args] };
}

/** The program and arguments that run the data command `name` (src/cli/<name>.ts) with `args`. */
export const commandLine = (name: string, args: readonly string[]): { file: string; args: string[] } => entryLine(`cli/${name}`, args);

/** The program and arguments that run the service (src/server.ts). */
export const serviceLine = (): { file: string; args: string[] } => entryLine('server');
