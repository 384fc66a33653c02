/**
 * The query an item of a text query gives MiniSearch, and its evaluation into accumulators as MiniSearch's own
 * search evaluates it (text-index.ts): the same matches and scores, in reused typed arrays.
 */
import type { AccumulatorPool, Accumulator } from './hits.js';
import type { PhraseTables } from './phrase-tables.js';
import type { TermScorer } from './term-scorer.js';

/** Query-time state of a text index: made on first use and kept beside the index (a WeakMap), not in it. */
export interface QueryState {
  /** Records of the index (what `find` is asked with). */
  size: number;
  scorer: TermScorer;
  phrases: PhraseTables;
  pool: AccumulatorPool;
}

/** The query an item gives MiniSearch: a term in some fields, or the OR / AND of subqueries. */
export type QueryNode = { op: 'or' | 'and'; children: QueryNode[] } | { term: string; fields: readonly string[] };

/**
 * Evaluates a QueryNode as MiniSearch's executeQuery does (a term: its fields one after the other; OR and AND:
 * the first child's result, then each next child's result combined into it) into accumulators. A child's
 * result is made apart and then combined, except where that gives the same additions: into an empty target,
 * or a term found in one field only.
 */
export class NodeEvaluator {
  constructor(
    private readonly state: QueryState,
    /** Accumulators of as many mask words as the item's terms need. */
    private readonly pool: AccumulatorPool,
    /** The number of a term in the query item (its bit in the masks); undefined: membership only. */
    private readonly termOf: ((term: string) => number) | undefined,
  ) {}

  /** Makes `target` (empty) the result of `node`. */
  build(node: QueryNode, target: Accumulator): void {
    if ('term' in node) {
      const lists = this.state.scorer.postings(node.term, node.fields);
      if (lists.length === 0) return;
      const term = this.termOf?.(node.term);
      for (const list of lists) this.state.scorer.addTo(target, list, term);
      return;
    }
    const scored = this.termOf !== undefined;
    if (node.op === 'or') {
      for (const child of node.children) this.orInto(child, target);
      return;
    }
    const [first, ...rest] = node.children;
    if (first === undefined) return;
    this.build(first, target);
    for (const child of rest) {
      if (target.count === 0) return;
      this.apart(child, (result) => target.and(result, scored));
    }
  }

  /** target OR node, as MiniSearch's OR of two results. */
  private orInto(node: QueryNode, target: Accumulator): void {
    if (target.count === 0) return this.build(node, target);
    if ('term' in node) {
      const lists = this.state.scorer.postings(node.term, node.fields);
      if (lists.length === 0) return;
      if (lists.length === 1) {
        // One field: the term's result is that field's postings, so adding them is the OR.
        this.state.scorer.addTo(target, lists[0]!, this.termOf?.(node.term));
        return;
      }
    }
    this.apart(node, (result) => target.or(result, this.termOf !== undefined));
  }

  /** Evaluates `node` into an accumulator of its own and hands it to `use`. */
  private apart(node: QueryNode, use: (result: Accumulator) => void): void {
    this.pool.with((result) => {
      this.build(node, result);
      use(result);
    });
  }
}

/** The distinct terms of a query node, numbered in the order they first appear. */
export function termNumbers(node: QueryNode, numbers = new Map<string, number>()): Map<string, number> {
  if ('term' in node) {
    if (!numbers.has(node.term)) numbers.set(node.term, numbers.size);
  } else for (const child of node.children) termNumbers(child, numbers);
  return numbers;
}
