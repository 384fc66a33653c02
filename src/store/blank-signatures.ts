/**
 * Blank nodes named by what they say rather than by their labels: a harvest numbers blank nodes across the
 * whole export (one added record renames those of every later one) and each store labels them its own way, so
 * a record's graph is compared, digested and written out by these signatures instead.
 */

/** A statement as three terms in N-Triples syntax (`<iri>`, `_:label`, `"literal"…`). */
export type TermTriple = readonly [string, string, string];

/**
 * The signature of each blank node: its outgoing statements two levels deep, sorted, with the blank nodes
 * inside replaced by their own signatures (one level less). Any other term is its own signature.
 */
export function blankSignatures(triples: readonly TermTriple[]): (term: string) => string {
  const out = new Map<string, [string, string][]>();
  for (const [s, p, o] of triples) {
    if (!s.startsWith('_:')) continue;
    let list = out.get(s);
    if (!list) out.set(s, (list = []));
    list.push([p, o]);
  }
  const level = (previous: (b: string) => string): ((b: string) => string) => {
    const sigs = new Map<string, string>();
    for (const [b, list] of out) sigs.set(b, `[${list.map(([p, o]) => `${p} ${o.startsWith('_:') ? previous(o) : o}`).sort().join(';')}]`);
    return (b) => sigs.get(b) ?? '[]';
  };
  const sig = level(level(() => '_'));
  return (term) => (term.startsWith('_:') ? sig(term) : term);
}

/** True when a statement names a blank node. */
export const hasBlankNode = (triples: readonly TermTriple[]): boolean => triples.some(([s, , o]) => s.startsWith('_:') || o.startsWith('_:'));
