/**
 * The boundaries of src/ as its imports draw them: no runtime import cycle (type-only imports vanish when
 * compiled and are not counted), the engine imports no kind, and only the named files import oxigraph or
 * jsonld. Read off the source text, so a new import that crosses a boundary fails here with its file.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

/** The files allowed to import each guarded package (paths under src/). */
const ALLOWED: Record<string, readonly string[]> = {
  oxigraph: ['store/store-worker.ts', 'collection-index/by-graph-worker.ts'],
  jsonld: ['shaping/jsonld.ts', 'records/canonical-graph.ts', 'store/remote/results.ts'],
};

function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : name.endsWith('.ts') ? [full] : [];
  });
}

interface Import {
  specifier: string;
  /** Only types are imported: nothing of it is left at run time. */
  typeOnly: boolean;
}

/** The imports and re-exports of a TypeScript file (static, side-effect and dynamic `import('…')` with a literal). */
function importsOf(text: string): Import[] {
  const found: Import[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s+(type\s+)?([^;'"]*?)\s+from\s+'([^']+)'/gms)) {
    const clause = m[2] as string;
    const named = /^\{([^}]*)\}$/.exec(clause.trim());
    const allTypes = named !== null && (named[1] as string).split(',').map((s) => s.trim()).filter(Boolean).every((s) => s.startsWith('type '));
    found.push({ specifier: m[3] as string, typeOnly: m[1] !== undefined || allTypes });
  }
  for (const m of text.matchAll(/^\s*import\s+'([^']+)'/gm)) found.push({ specifier: m[1] as string, typeOnly: false });
  for (const m of text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)) found.push({ specifier: m[1] as string, typeOnly: false });
  return found;
}

/** The strongly connected groups of more than one node (Tarjan), each sorted. */
function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    for (let w = stack.pop(); w !== undefined; w = w === v ? undefined : stack.pop()) {
      onStack.delete(w);
      group.push(w);
    }
    if (group.length > 1) cycles.push(group.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

describe('the boundaries of src/', () => {
  const files = sourceFiles();
  const imports = new Map(files.map((file) => [path.relative(SRC, file).split(path.sep).join('/'), importsOf(readFileSync(file, 'utf8'))]));
  const local = (from: string, specifier: string): string => path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier.replace(/\.js$/, '.ts')));

  it('reads the imports it guards, and tells a cycle when there is one', () => {
    expect(files.length).toBeGreaterThan(300);
    expect(importsOf("import type { A } from './a.js';\nimport { type B, c } from './b.js';\nimport { type D } from './d.js';\nconst e = await import('./e.js');")).toEqual([
      { specifier: './a.js', typeOnly: true },
      { specifier: './b.js', typeOnly: false },
      { specifier: './d.js', typeOnly: true },
      { specifier: './e.js', typeOnly: false },
    ]);
    expect(cyclesOf(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]))).toEqual([['a', 'b', 'c']]);
    expect(cyclesOf(new Map([['a', ['b']], ['b', []]]))).toEqual([]);
  });

  it('has no runtime import cycle', () => {
    const graph = new Map([...imports].map(([file, list]) => [file, list.filter((i) => !i.typeOnly && i.specifier.startsWith('.')).map((i) => local(file, i.specifier))]));
    expect(cyclesOf(graph)).toEqual([]);
  });

  it('keeps the engine free of any kind', () => {
    const crossing = [...imports].filter(([file]) => file.startsWith('engine/')).flatMap(([file, list]) => list.filter((i) => i.specifier.startsWith('.') && local(file, i.specifier).startsWith('kinds/')).map((i) => `${file}: ${i.specifier}`));
    expect(crossing).toEqual([]);
  });

  it.each(Object.entries(ALLOWED))('lets only the named files import %s', (pkg, allowed) => {
    const importers = [...imports].filter(([, list]) => list.some((i) => i.specifier === pkg || i.specifier.startsWith(`${pkg}/`))).map(([file]) => file);
    expect(importers.sort()).toEqual([...allowed].sort());
  });
});
