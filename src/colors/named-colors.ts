/**
 * Nearest named colour by CIEDE2000 (culori's `differenceCiede2000`) over the community list of the
 * `color-name-list` package (about 32k names), through a k-d tree over Lab (D65).
 *
 * The search is exact: it returns the same name as a scan of every name. Each tree node keeps the tight Lab
 * box of its names; a node is skipped only when `ciede2000LowerBound` (a proven lower bound of ΔE00 from
 * the query to anything in the box) exceeds the best ΔE00 found so far. Ties are broken by position in
 * the package's list (the earlier name wins), in the tree and in the scan alike.
 */
import { colornames } from 'color-name-list';
import { differenceCiede2000, type Lab65 } from 'culori';
import { hexToLab, type Lab } from './color-space.js';
import { boundQuery, ciede2000LowerBound, type BoundQuery, type LabBox } from './ciede2000-bound.js';

/** A name and its colour as the list gives it. */
export interface ColorName {
  name: string;
  hex: string;
}

/** The nearest name of a colour. */
export interface NameMatch {
  name: string;
  /** The named colour's own value, `#rrggbb`. */
  hex: string;
  /** ΔE00 from the queried colour to the named colour. */
  deltaE: number;
  /** Position in the list (the tie-break). */
  index: number;
}

/** Names per leaf: small enough that leaves are cheap to scan, large enough to keep the tree shallow. */
const LEAF_SIZE = 8;

const ciede2000 = differenceCiede2000();

interface Node extends LabBox {
  /** Range [start, end) of `order` under this node. */
  start: number;
  end: number;
  left: Node | undefined;
  right: Node | undefined;
}

/** An immutable list of named colours with exact nearest-name search. */
export class NamedColorIndex {
  readonly size: number;
  private readonly names: readonly ColorName[];
  private readonly labs: Lab65[];
  /** List positions, permuted so that each node's names are contiguous. */
  private readonly order: Int32Array;
  private readonly root: Node;

  constructor(list: readonly ColorName[]) {
    if (list.length === 0) throw new Error('NamedColorIndex needs at least one name');
    this.names = list;
    this.size = list.length;
    this.labs = list.map(({ hex }) => ({ mode: 'lab65', ...hexToLab(hex) }));
    this.order = Int32Array.from(list.keys());
    this.root = this.build(0, list.length);
  }

  /** The name nearest to `lab` by ΔE00 (exact; ties go to the earlier name in the list). */
  nearest(lab: Lab): NameMatch {
    const query: Lab65 = { mode: 'lab65', l: lab.l, a: lab.a, b: lab.b };
    const bound = boundQuery(lab);
    const best = { deltaE: Infinity, index: -1 };
    this.search(this.root, 0, query, bound, best);
    return this.match(best);
  }

  /** The same answer as `nearest`, by computing ΔE00 to every name (the reference the tree is tested on). */
  nearestByScan(lab: Lab): NameMatch {
    const query: Lab65 = { mode: 'lab65', l: lab.l, a: lab.a, b: lab.b };
    const best = { deltaE: Infinity, index: -1 };
    for (let i = 0; i < this.labs.length; i++) {
      const d = ciede2000(query, this.labs[i] as Lab65);
      if (d < best.deltaE) {
        best.deltaE = d;
        best.index = i;
      }
    }
    return this.match(best);
  }

  private match({ deltaE, index }: { deltaE: number; index: number }): NameMatch {
    const entry = this.names[index] as ColorName;
    return { name: entry.name, hex: entry.hex, deltaE, index };
  }

  private search(node: Node, lowerBound: number, query: Lab65, bound: BoundQuery, best: { deltaE: number; index: number }): void {
    // Equal bounds are still searched: an equally near name earlier in the list must win.
    if (lowerBound > best.deltaE) return;
    if (!node.left || !node.right) {
      for (let k = node.start; k < node.end; k++) {
        const i = this.order[k] as number;
        const d = ciede2000(query, this.labs[i] as Lab65);
        if (d < best.deltaE || (d === best.deltaE && i < best.index)) {
          best.deltaE = d;
          best.index = i;
        }
      }
      return;
    }
    const lb = ciede2000LowerBound(bound, node.left);
    const rb = ciede2000LowerBound(bound, node.right);
    if (lb <= rb) {
      this.search(node.left, lb, query, bound, best);
      this.search(node.right, rb, query, bound, best);
    } else {
      this.search(node.right, rb, query, bound, best);
      this.search(node.left, lb, query, bound, best);
    }
  }

  /** Builds the subtree over order[start, end): tight box, split at the median of its widest axis. */
  private build(start: number, end: number): Node {
    const node: Node = {
      start,
      end,
      left: undefined,
      right: undefined,
      lMin: Infinity,
      lMax: -Infinity,
      aMin: Infinity,
      aMax: -Infinity,
      bMin: Infinity,
      bMax: -Infinity,
    };
    for (let k = start; k < end; k++) {
      const c = this.labs[this.order[k] as number] as Lab65;
      node.lMin = Math.min(node.lMin, c.l);
      node.lMax = Math.max(node.lMax, c.l);
      node.aMin = Math.min(node.aMin, c.a);
      node.aMax = Math.max(node.aMax, c.a);
      node.bMin = Math.min(node.bMin, c.b);
      node.bMax = Math.max(node.bMax, c.b);
    }
    if (end - start <= LEAF_SIZE) return node;
    const spans = [node.lMax - node.lMin, node.aMax - node.aMin, node.bMax - node.bMin] as const;
    const axis = spans[0] >= spans[1] && spans[0] >= spans[2] ? 'l' : spans[1] >= spans[2] ? 'a' : 'b';
    const slice = Array.from(this.order.subarray(start, end));
    slice.sort((x, y) => (this.labs[x] as Lab65)[axis] - (this.labs[y] as Lab65)[axis] || x - y);
    this.order.set(slice, start);
    const mid = start + Math.floor((end - start) / 2);
    node.left = this.build(start, mid);
    node.right = this.build(mid, end);
    return node;
  }
}

let shared: NamedColorIndex | undefined;

/** The index over `color-name-list`, built on first use (about 0.1 s) and kept for the process. */
export function namedColors(): NamedColorIndex {
  shared ??= new NamedColorIndex(colornames);
  return shared;
}

/** The nearest `color-name-list` name of a Lab colour. */
export function nearestColorName(lab: Lab): NameMatch {
  return namedColors().nearest(lab);
}
