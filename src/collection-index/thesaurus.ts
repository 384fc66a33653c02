/**
 * The concept hierarchy of a generation: narrower links derived from every concept's skos:broader, the
 * recursive closure that the concept filters expand to (cycle-safe), and the label search of conceptSearch.
 */
export interface ThesaurusRows {
  /** `{concept, broader}` rows: one skos:broader link each. */
  broader: readonly Record<string, string>[];
  /** `{concept, label}` rows: the preferred labels of published concepts. */
  labels: readonly Record<string, string>[];
}

export class Thesaurus {
  private readonly narrower = new Map<string, string[]>();
  private readonly labels: { concept: string; label: string }[] = [];

  constructor(rows: ThesaurusRows) {
    for (const { concept, broader } of rows.broader) {
      if (!concept || !broader) continue;
      const list = this.narrower.get(broader);
      if (list) list.push(concept);
      else this.narrower.set(broader, [concept]);
    }
    for (const { concept, label } of rows.labels) {
      if (concept && label) this.labels.push({ concept, label: label.toLowerCase() });
    }
  }

  /** The concepts themselves and every concept below them, at any depth. */
  closure(concepts: Iterable<string>): Set<string> {
    const seen = new Set<string>();
    const queue = [...concepts];
    while (queue.length > 0) {
      const concept = queue.pop()!;
      if (seen.has(concept)) continue;
      seen.add(concept);
      for (const child of this.narrower.get(concept) ?? []) if (!seen.has(child)) queue.push(child);
    }
    return seen;
  }

  /** Published concepts with a preferred label (any language) that contains `text`, ignoring case. */
  search(text: string): Set<string> {
    const needle = text.toLowerCase();
    const found = new Set<string>();
    for (const { concept, label } of this.labels) if (label.includes(needle)) found.add(concept);
    return found;
  }

  /** Number of narrower links (for the build report). */
  get links(): number {
    let total = 0;
    for (const list of this.narrower.values()) total += list.length;
    return total;
  }
}
