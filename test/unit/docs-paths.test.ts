/**
 * Every path the docs name exists: in README.md, docs/*.md and the kinds' READMEs, each code span that names a
 * file or folder of the repository (`src/…`, `test/…`, `queries/…`, …) and each relative link. A placeholder
 * (`src/kinds/<kind>/kind.ts`, `queries/<kind>/index-*.rq`) must match at least one path. The expected paths
 * are read off the docs; the file system answers.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ROOTS = ['src', 'test', 'docs', 'queries', 'frames', 'schemas', 'scripts', 'public', 'ontology', 'contexts', '.ci'];

/** The Markdown files whose paths are checked, relative to the repository. */
function markdownFiles(): string[] {
  const inDir = (dir: string): string[] => readdirSync(path.join(ROOT, dir)).filter((name) => name.endsWith('.md')).map((name) => path.posix.join(dir, name));
  const kinds = readdirSync(path.join(ROOT, 'src/kinds')).filter((name) => existsSync(path.join(ROOT, 'src/kinds', name, 'README.md')));
  return ['README.md', ...inDir('docs'), ...kinds.map((kind) => `src/kinds/${kind}/README.md`)];
}

/** A code span's path as the file system names it: `src/a.ts:12` → `src/a.ts`, `docs/x.md#part` → `docs/x.md`. */
function pathOfSpan(span: string): string | undefined {
  const token = span.trim().split(/\s+/)[0] ?? '';
  if (!ROOTS.some((root) => token.startsWith(`${root}/`))) return undefined;
  // A glob of file names (`{a,b}.ts`) or an expression (`src/x.ts(…)`) is not a path to check.
  if (/[{}()=]/.test(token)) return undefined;
  return token.replace(/#.*$/, '').replace(/(:\d+(-\d+)?)+$/, '').replace(/[.,;:]+$/, '');
}

/** The kinds (their folders, and their records' singular: `objects`, `object`): what `<kind>`, `<collection>` and `<resource>` stand for. */
const KINDS = readdirSync(path.join(ROOT, 'src/kinds'))
  .filter((name) => statSync(path.join(ROOT, 'src/kinds', name)).isDirectory() && existsSync(path.join(ROOT, 'src/kinds', name, 'kind.ts')))
  .flatMap((name) => [name, name.replace(/s$/, '')]);
const KIND_PLACEHOLDERS = new Set(['<kind>', '<collection>', '<resource>']);

/**
 * Whether `pattern` names an existing path: `<kind>` (and `<collection>`, `<resource>`) stands for a kind's name,
 * any other `<name>` and `*` for any characters within one path segment.
 */
function exists(pattern: string): boolean {
  if (!/[<*]/.test(pattern)) return existsSync(path.join(ROOT, pattern));
  const segments = pattern.replace(/\/$/, '').split('/');
  const matching = (dir: string, rest: string[]): boolean => {
    const [head, ...tail] = rest;
    if (head === undefined) return true;
    if (!/[<*]/.test(head)) return existsSync(path.join(ROOT, dir, head)) && matching(path.join(dir, head), tail);
    const piece = (part: string): string =>
      KIND_PLACEHOLDERS.has(part) ? `(${KINDS.join('|')})` : part.startsWith('<') || part === '*' ? '[^/]+' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
    const re = new RegExp(`^${head.split(/(<[^>]+>|\*)/).map(piece).join('')}$`);
    const full = path.join(ROOT, dir);
    if (!existsSync(full) || !statSync(full).isDirectory()) return false;
    return readdirSync(full).some((name) => re.test(name) && matching(path.join(dir, name), tail));
  };
  return matching('', segments);
}

/** Every path a Markdown file names, with its line: code spans that start at a root folder, and relative links. */
function namedPaths(file: string): { line: number; named: string; resolved: string }[] {
  const found: { line: number; named: string; resolved: string }[] = [];
  const lines = readFileSync(path.join(ROOT, file), 'utf8').split('\n');
  let fenced = false;
  lines.forEach((text, i) => {
    if (/^\s*```/.test(text)) fenced = !fenced;
    if (fenced) return;
    for (const [, span] of text.matchAll(/`([^`]+)`/g)) {
      const resolved = pathOfSpan(span as string);
      if (resolved !== undefined && resolved !== '') found.push({ line: i + 1, named: span as string, resolved });
    }
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target as string) || (target as string).startsWith('#')) continue;
      const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(file), (target as string).replace(/#.*$/, '')));
      found.push({ line: i + 1, named: target as string, resolved });
    }
  });
  return found;
}

describe('the docs', () => {
  const files = markdownFiles();

  it('are read from README.md, docs/ and every kind folder', () => {
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/architecture.md', 'src/kinds/objects/README.md']));
    // The check itself: a path that exists, one that does not, a placeholder either way.
    expect([exists('src/kinds/objects/kind.ts'), exists('src/kinds/objects/none.ts'), exists('src/kinds/<kind>/kind.ts'), exists('src/kinds/<kind>/none.ts')]).toEqual([true, false, true, false]);
    // `<kind>` is a kind's name, not any file: src/shaping/ holds record.ts, not a kind's.
    expect([exists('queries/<kind>/'), exists('src/shaping/<kind>.ts'), exists('src/shaping/<name>.ts')]).toEqual([true, false, true]);
    expect(pathOfSpan('src/store/remote/publish.ts:25-30')).toBe('src/store/remote/publish.ts');
    expect(pathOfSpan('docs/remote-store.md#generations-on-the-server')).toBe('docs/remote-store.md');
  });

  it('name only paths that exist', () => {
    const missing = files.flatMap((file) => namedPaths(file).filter((p) => !exists(p.resolved)).map((p) => `${file}:${p.line}: ${p.named}`));
    expect(missing).toEqual([]);
    expect(files.flatMap(namedPaths).length).toBeGreaterThan(200);
  });
});
