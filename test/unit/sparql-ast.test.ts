/**
 * The AST walk and depth of src/queries/sparql-ast.ts: the walk visits parents before children, depth first in
 * property order, `false` leaves a node's children out and `true` stops it (the order written out below by
 * recursion, as the specification of the walk); neither overflows the call stack however deep the tree.
 */
import fc from 'fast-check';
import { astDepth, walkAst } from '../../src/queries/sparql-ast.js';

type Verdict = boolean | undefined;

/** The specified order, written as the plain recursion it is. */
function specifiedWalk(node: unknown, visit: (n: Readonly<Record<string, unknown>>) => Verdict): boolean {
  if (Array.isArray(node)) {
    for (const item of node) if (specifiedWalk(item, visit)) return true;
    return false;
  }
  if (typeof node !== 'object' || node === null) return false;
  const verdict = visit(node as Record<string, unknown>);
  if (verdict === true) return true;
  if (verdict === false) return false;
  for (const value of Object.values(node)) if (specifiedWalk(value, visit)) return true;
  return false;
}

/** Trees of objects (each with an id and a verdict its visitor returns), arrays, strings and numbers. */
const trees = fc.letrec<{ tree: unknown }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string({ maxLength: 2 }),
    fc.integer(),
    fc.constant(null),
    fc.array(tie('tree'), { maxLength: 4 }),
    fc.record({
      id: fc.integer(),
      verdict: fc.constantFrom<Verdict>(undefined, undefined, undefined, false, true),
      a: tie('tree'),
      b: tie('tree'),
    }),
  ),
}));

/** A chain `depth` objects deep, as a long operator chain parses (`{ args: [{ args: [ … ] }] }`). */
function chain(depth: number): unknown {
  let node: unknown = { type: 'variable' };
  for (let i = 1; i < depth; i++) node = { type: 'operation', args: [node] };
  return node;
}

describe('the walk over a parsed query', () => {
  it('visits the nodes in the specified order, skipping and stopping where the visitor says', () => {
    fc.assert(
      fc.property(trees.tree, (tree) => {
        const seen: unknown[] = [];
        const expected: unknown[] = [];
        const visitor = (into: unknown[]) => (n: Readonly<Record<string, unknown>>) => {
          into.push(n.id ?? n);
          return n.verdict as Verdict;
        };
        expect(walkAst(tree, visitor(seen))).toBe(specifiedWalk(tree, visitor(expected)));
        expect(seen).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('walks a tree 100,000 levels deep without overflowing the call stack', () => {
    let visited = 0;
    expect(walkAst(chain(100_000), () => void visited++)).toBe(false);
    expect(visited).toBe(100_000);
    expect(walkAst(chain(100_000), (n) => n.type === 'variable' || undefined)).toBe(true);
  });
});

describe('the depth of a parsed query', () => {
  it('counts objects, not the arrays between them', () => {
    expect(astDepth({ where: [{ type: 'group', patterns: [{ type: 'bgp', triples: [] }] }] })).toBe(3);
    expect(astDepth([[[{}]]])).toBe(1);
    expect(astDepth('text')).toBe(0);
  });

  it('measures a tree 100,000 levels deep, or stops once past the depth asked about', () => {
    expect(astDepth(chain(100_000))).toBe(100_000);
    expect(astDepth(chain(100_000), 256)).toBe(257);
  });
});
