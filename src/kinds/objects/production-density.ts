/**
 * Production density over time (spec, "Production-density record"; `/v2/id/production`). The rule, applied
 * to the published objects a request selects:
 *   - an object's years are the union of the years covered by its production and creation time-spans (the
 *     spans the objects collection's `date` filter matches one by one); undated objects are left out;
 *   - each object has weight 1 spread evenly over its years as recorded: a year carries 1 / (its year count),
 *     whether or not the axis shows the other years, and only years on the axis are counted;
 *   - a bucket's `object_count` is the number of objects with a year in the bucket (so it equals the
 *     `date=<first>/<last>` filter's total), `exact_count` the objects whose only year lies in it.
 * The spec's example (1500/1900 on an axis from 1700 "contributes the visible fifth") disagrees with its own
 * rule, which gives 201/401, about one half; the rule is what is computed (docs/indexes.md).
 *
 * A population (all objects, those on display, a text query's matches) is prepared once into per-year prefix
 * sums and sorted span ends, so a request costs O(buckets × log n) whatever the bucket size and axis.
 */

/** The years a density axis can show: the real service's bounds (yearFrom ≥ 1, yearTo ≤ 2100). */
export const FIRST_AXIS_YEAR = 1;
export const LAST_AXIS_YEAR = 2100;

/** Every listed object's years, as merged intervals (CSR layout: object `id` owns intervals offsets[id] … offsets[id+1]-1). */
export interface ObjectYears {
  readonly offsets: Uint32Array;
  readonly begin: Float64Array;
  readonly end: Float64Array;
  /** Number of distinct years per object (0: undated). */
  readonly years: Float64Array;
}

/** Merges each object's time-spans (`object[i]` spans `begin[i]`…`end[i]`, in any order) into disjoint intervals. */
export function objectYears(size: number, spans: { readonly object: ArrayLike<number>; readonly begin: ArrayLike<number>; readonly end: ArrayLike<number> }): ObjectYears {
  const order = Array.from({ length: spans.object.length }, (_, i) => i).sort(
    (a, b) => spans.object[a]! - spans.object[b]! || Math.min(spans.begin[a]!, spans.end[a]!) - Math.min(spans.begin[b]!, spans.end[b]!),
  );
  const offsets = new Uint32Array(size + 1);
  const begin: number[] = [];
  const end: number[] = [];
  const years = new Float64Array(size);
  let next = 0;
  for (let id = 0; id < size; id++) {
    offsets[id] = begin.length;
    while (next < order.length && spans.object[order[next]!]! === id) {
      const i = order[next++]!;
      // A span recorded backwards still covers the years between its ends.
      const from = Math.min(spans.begin[i]!, spans.end[i]!);
      const to = Math.max(spans.begin[i]!, spans.end[i]!);
      const last = begin.length - 1;
      if (last >= offsets[id]! && from <= end[last]! + 1) end[last] = Math.max(end[last]!, to);
      else {
        begin.push(from);
        end.push(to);
      }
    }
    for (let k = offsets[id]!; k < begin.length; k++) years[id]! += end[k]! - begin[k]! + 1;
  }
  offsets[size] = begin.length;
  return { offsets, begin: Float64Array.from(begin), end: Float64Array.from(end), years };
}

/** The prepared sums of one set of objects. */
export class DensityPopulation {
  /** weightUpTo[y - FIRST_AXIS_YEAR + 1]: the weight of the axis years up to and including y. */
  private readonly weightUpTo: Float64Array;
  /** exactUpTo[…]: single-year objects dated up to and including y. */
  private readonly exactUpTo: Float64Array;
  /** Envelope (first to last year) of every dated object, sorted. */
  private readonly firstYears: Float64Array;
  private readonly lastYears: Float64Array;
  /** Gaps between an object's intervals (years it does not cover inside its envelope), by first year. */
  private readonly gapFrom: Float64Array;
  private readonly gapTo: Float64Array;

  /** Prepares the objects `ids` (ascending or not) of `years`. */
  constructor(years: ObjectYears, ids: Iterable<number>) {
    const length = LAST_AXIS_YEAR - FIRST_AXIS_YEAR + 2;
    const weight = new Float64Array(length + 1);
    const exact = new Float64Array(length);
    const first: number[] = [];
    const last: number[] = [];
    const gaps: [number, number][] = [];
    for (const id of ids) {
      const count = years.years[id]!;
      if (count === 0) continue;
      const from = years.offsets[id]!;
      const to = years.offsets[id + 1]!;
      first.push(years.begin[from]!);
      last.push(years.end[to - 1]!);
      if (count === 1) {
        const year = years.begin[from]!;
        if (year >= FIRST_AXIS_YEAR && year <= LAST_AXIS_YEAR) exact[year - FIRST_AXIS_YEAR + 1]! += 1;
      }
      for (let k = from; k < to; k++) {
        if (k > from) gaps.push([years.end[k - 1]! + 1, years.begin[k]! - 1]);
        const a = Math.max(years.begin[k]!, FIRST_AXIS_YEAR);
        const b = Math.min(years.end[k]!, LAST_AXIS_YEAR);
        if (a > b) continue;
        // Difference array: +w from year a, -w after year b.
        weight[a - FIRST_AXIS_YEAR + 1]! += 1 / count;
        weight[b - FIRST_AXIS_YEAR + 2]! -= 1 / count;
      }
    }
    // Per-year weight, then the running sum of it.
    this.weightUpTo = new Float64Array(length);
    let perYear = 0;
    let sum = 0;
    for (let i = 1; i < length; i++) {
      perYear += weight[i]!;
      sum += perYear;
      this.weightUpTo[i] = sum;
    }
    for (let i = 1; i < length; i++) exact[i]! += exact[i - 1]!;
    this.exactUpTo = exact;
    this.firstYears = Float64Array.from(first).sort();
    this.lastYears = Float64Array.from(last).sort();
    gaps.sort((x, y) => x[0] - y[0]);
    this.gapFrom = Float64Array.from(gaps, (gap) => gap[0]);
    this.gapTo = Float64Array.from(gaps, (gap) => gap[1]);
  }

  /** Dated objects in the population. */
  get size(): number {
    return this.firstYears.length;
  }

  /** Weight of the years `from`…`to` (inside the axis bounds). */
  weight(from: number, to: number): number {
    return this.weightUpTo[to - FIRST_AXIS_YEAR + 1]! - this.weightUpTo[from - FIRST_AXIS_YEAR]!;
  }

  /** Objects dated to one single year within `from`…`to`. */
  exact(from: number, to: number): number {
    return this.exactUpTo[to - FIRST_AXIS_YEAR + 1]! - this.exactUpTo[from - FIRST_AXIS_YEAR]!;
  }

  /**
   * Objects with a year in `from`…`to`: those whose envelope overlaps the range, less those for which the
   * range falls wholly inside a gap between two of their intervals (an object has at most one such gap).
   */
  touching(from: number, to: number): number {
    const overlapping = this.firstYears.length - countAbove(this.firstYears, to) - countBelow(this.lastYears, from);
    let inGap = 0;
    const candidates = countAtMost(this.gapFrom, from);
    for (let i = 0; i < candidates; i++) if (this.gapTo[i]! >= to) inGap++;
    return overlapping - inGap;
  }
}

/** Entries of the ascending `values` greater than `x`. */
function countAbove(values: Float64Array, x: number): number {
  return values.length - countAtMost(values, x);
}

/** Entries of the ascending `values` smaller than `x`. */
function countBelow(values: Float64Array, x: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (values[mid]! < x) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Entries of the ascending `values` at most `x`. */
function countAtMost(values: Float64Array, x: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (values[mid]! <= x) low = mid + 1;
    else high = mid;
  }
  return low;
}

export interface DensityAxis {
  /** Bucket size in years. */
  bucket: number;
  yearFrom: number;
  yearTo: number;
}

export interface DensityBucket {
  year: number;
  /** Last year of the bucket: bucket - 1 years on, or the axis end for the last bucket. */
  lastYear: number;
  weight: number;
  objectCount: number;
  exactCount: number;
}

/**
 * The buckets of `axis`, ascending: `yearFrom`, `yearFrom + bucket`, … up to `yearTo`; the last bucket ends at
 * `yearTo`. Weights are exact sums (no rounding here); an empty bucket has weight 0 exactly.
 */
export function densityBuckets(population: DensityPopulation, axis: DensityAxis): DensityBucket[] {
  const buckets: DensityBucket[] = [];
  for (let year = axis.yearFrom; year <= axis.yearTo; year += axis.bucket) {
    const lastYear = Math.min(year + axis.bucket - 1, axis.yearTo);
    const objectCount = population.touching(year, lastYear);
    // Prefix sums leave rounding dust where nothing is dated; a bucket no object touches weighs 0.
    const weight = objectCount === 0 ? 0 : Math.max(0, population.weight(year, lastYear));
    buckets.push({ year, lastYear, weight, objectCount, exactCount: population.exact(year, lastYear) });
  }
  return buckets;
}
