/**
 * The fixed form of a record's graph for its RDF answers (src/records/canonical-graph.ts, URDNA2015): the same
 * graph gives the same statements and digest whatever the order of the answer and the labels of its blank
 * nodes, and any change of a statement changes the digest.
 */
import fc from 'fast-check';
import { Writer } from 'n3';
import { canonicalGraph, type CanonicalGraph } from '../../src/records/canonical-graph.js';

const R = 'http://example.org/v2/id/object/1';
const P = (n: string): string => `<http://example.org/p/${n}>`;

/** A record graph with blank nodes two levels deep, its blank nodes labelled by `label`. */
const graph = (label: (n: number) => string, title = 'Stoel'): string[] => [
  `<${R}> ${P('identifiedBy')} _:${label(1)} .`,
  `_:${label(1)} ${P('content')} "${title}"@nl .`,
  `_:${label(1)} ${P('type')} _:${label(2)} .`,
  `_:${label(2)} ${P('label')} "title" .`,
  `<${R}> ${P('dimension')} _:${label(3)} .`,
  `_:${label(3)} ${P('value')} "12.5"^^<http://www.w3.org/2001/XMLSchema#decimal> .`,
  `<${R}> ${P('generatedAt')} "2024-01-01T00:00:00Z"^^<http://www.w3.org/2001/XMLSchema#dateTime> .`,
];

const text = (quads: CanonicalGraph['quads']): string => new Writer({ format: 'N-Triples' }).quadsToString(quads);

describe('canonicalGraph', () => {
  it('gives the same statements and digest for any order and any blank node labels', async () => {
    const reference = await canonicalGraph(graph((n) => `b${n}`).join('\n'));
    await fc.assert(
      fc.asyncProperty(fc.shuffledSubarray(graph((n) => `b${n}`).map((_, i) => i), { minLength: 7, maxLength: 7 }), fc.integer({ min: 0, max: 1_000_000 }), async (order, offset) => {
        const lines = graph((n) => `x${n + offset}`);
        const shuffled = order.map((i) => lines[i]).join('\n');
        const canonical = await canonicalGraph(shuffled);
        expect(canonical.digest).toBe(reference.digest);
        expect(text(canonical.quads)).toBe(text(reference.quads));
      }),
    );
  });

  it('labels blank nodes c14n0, c14n1, … and keeps every statement once', async () => {
    const canonical = await canonicalGraph([...graph((n) => `b${n}`), graph((n) => `b${n}`)[0]].join('\n'));
    expect(canonical.quads).toHaveLength(7);
    expect(new Set(canonical.quads.flatMap((q) => [q.subject, q.object]).filter((t) => t.termType === 'BlankNode').map((t) => t.value))).toEqual(new Set(['c14n0', 'c14n1', 'c14n2']));
  });

  it('changes the digest when a literal deep in a blank node changes', async () => {
    expect((await canonicalGraph(graph((n) => `b${n}`, 'Tafel').join('\n'))).digest).not.toBe((await canonicalGraph(graph((n) => `b${n}`).join('\n'))).digest);
  });
});
