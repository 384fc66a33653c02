/**
 * Dominant colours of the object pixels: seeded k-means (k-means++ start, ml-kmeans) in Lab on a deterministic
 * sample, every object pixel assigned to its nearest centre, clusters closer than a ΔE00 threshold merged,
 * negligible clusters dropped (their pixels go to the nearest remaining cluster). A cluster's colour is
 * the mean of its pixels in linear light, the same rule the colour index uses across images.
 *
 * Pixels on the object's outline mix object and background after downscaling. As long as the object's
 * interior (object pixels whose four neighbours are object pixels too) holds at least a quarter of it,
 * clusters are found, merged and dropped on the interior alone, and each outline pixel is then only
 * counted for the cluster most of its interior neighbours belong to: otherwise the outline forms clusters of
 * colours that are nowhere in the object, or inflates the cluster nearest to the backdrop's colour.
 */
import { kmeans } from 'ml-kmeans';
import { LINEAR_OF_BYTE, linearToLab, type Lab, type LinearRgb } from './color-space.js';
import type { Pixels } from './decode.js';
import { deltaE00 } from './delta-e.js';

export interface ClusterOptions {
  /** Clusters k-means starts from (fewer when the sample has fewer distinct colours). */
  k: number;
  /** Seed of the sample and of the k-means++ start. */
  seed: number;
  /** Object pixels k-means runs on, at most. */
  sampleSize: number;
  /** Clusters whose colours are closer than this ΔE00 are merged. */
  mergeDistance: number;
  /** Clusters covering less than this share of the object are dropped. */
  minShare: number;
}

/** One colour of the object. */
export interface ColorCluster {
  lab: Lab;
  /** Mean colour in linear light. */
  linear: LinearRgb;
  /** Object pixels in the cluster. */
  count: number;
  /** count over all object pixels, 0..1. */
  share: number;
}

/** mulberry32: a small seeded PRNG, enough to pick a sample reproducibly. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Up to `size` of `items`, chosen by a seeded partial Fisher–Yates shuffle (order of choice). */
function sample(items: Int32Array, size: number, seed: number): Int32Array {
  if (items.length <= size) return items;
  const pool = Int32Array.from(items);
  const random = prng(seed);
  for (let k = 0; k < size; k++) {
    const j = k + Math.floor(random() * (pool.length - k));
    const tmp = pool[k] as number;
    pool[k] = pool[j] as number;
    pool[j] = tmp;
  }
  return pool.subarray(0, size);
}

interface Accumulator {
  /** The k-means centres whose pixels this cluster holds. */
  centres: number[];
  count: number;
  r: number;
  g: number;
  b: number;
  lab: Lab;
}

const meanOf = (acc: Accumulator): LinearRgb => [acc.r / acc.count, acc.g / acc.count, acc.b / acc.count];

/**
 * k-means++ seeding (Arthur and Vassilvitskii 2007) with the seeded PRNG: each next centre is a sample
 * point drawn with probability proportional to its squared distance to the nearest centre so far. Done
 * here rather than by ml-kmeans, whose seeding builds a matrix row per distance and took two thirds of
 * the clustering time; the k-means iterations themselves are ml-kmeans'.
 */
function kmeansPlusPlus(data: readonly number[][], k: number, random: () => number): number[][] {
  const n = data.length;
  const d2 = new Float64Array(n).fill(Infinity);
  const centres: number[][] = [data[Math.floor(random() * n)] as number[]];
  while (centres.length < k) {
    const c = centres[centres.length - 1] as number[];
    let total = 0;
    for (let i = 0; i < n; i++) {
      const p = data[i] as number[];
      const d = ((p[0] as number) - (c[0] as number)) ** 2 + ((p[1] as number) - (c[1] as number)) ** 2 + ((p[2] as number) - (c[2] as number)) ** 2;
      if (d < (d2[i] as number)) d2[i] = d;
      total += d2[i] as number;
    }
    let target = random() * total;
    let pick = n - 1;
    for (let i = 0; i < n; i++) {
      target -= d2[i] as number;
      if (target < 0 && (d2[i] as number) > 0) {
        pick = i;
        break;
      }
    }
    centres.push(data[pick] as number[]);
  }
  return centres.map((c) => [...c]);
}

/** The k-means centres (Lab) for the sampled object pixels. */
function centres(rgba: Uint8Array, lab: Float32Array, picked: Int32Array, options: ClusterOptions): number[][] {
  const data = Array.from(picked, (i) => [lab[i * 3] as number, lab[i * 3 + 1] as number, lab[i * 3 + 2] as number]);
  const distinct = new Map<number, number[]>();
  for (let k = 0; k < picked.length && distinct.size <= options.k; k++) {
    const p = (picked[k] as number) * 4;
    distinct.set(((rgba[p] as number) << 16) | ((rgba[p + 1] as number) << 8) | (rgba[p + 2] as number), data[k] as number[]);
  }
  // k-means++ needs more distinct points than centres; with fewer, the distinct colours are the clusters.
  if (distinct.size <= options.k) return [...distinct.values()];
  // The seed is offset so that the start does not reuse the sample's random sequence.
  const initialization = kmeansPlusPlus(data, options.k, prng(options.seed + 0x9e3779b9));
  return kmeans(data, options.k, { initialization, maxIterations: 50 }).centroids;
}

/** Index of the Lab point nearest to pixel i (squared Euclidean, as k-means measures). */
function nearest(lab: Float32Array, i: number, points: readonly Lab[]): number {
  const l = lab[i * 3] as number;
  const a = lab[i * 3 + 1] as number;
  const b = lab[i * 3 + 2] as number;
  let best = 0;
  let bestD = Infinity;
  for (let c = 0; c < points.length; c++) {
    const z = points[c] as Lab;
    const d = (l - z.l) ** 2 + (a - z.a) ** 2 + (b - z.b) ** 2;
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best;
}

/** Merges the closest pair of clusters while it is closer than `distance` (ΔE00). */
function mergeClose(clusters: Accumulator[], distance: number): void {
  for (;;) {
    let pair: [number, number] | undefined;
    let closest = distance;
    for (let x = 0; x < clusters.length; x++) {
      for (let y = x + 1; y < clusters.length; y++) {
        const d = deltaE00((clusters[x] as Accumulator).lab, (clusters[y] as Accumulator).lab);
        if (d < closest) {
          closest = d;
          pair = [x, y];
        }
      }
    }
    if (!pair) return;
    const into = clusters[pair[0]] as Accumulator;
    const from = clusters[pair[1]] as Accumulator;
    into.centres.push(...from.centres);
    into.count += from.count;
    into.r += from.r;
    into.g += from.g;
    into.b += from.b;
    into.lab = linearToLab(meanOf(into));
    clusters.splice(pair[1], 1);
  }
}

/**
 * Drops clusters below `minShare` of `total` (the largest always stays). Returns the kept clusters, their
 * counts with each dropped cluster's added to its nearest kept one, and where each k-means centre went.
 */
function dropSmall(clusters: Accumulator[], total: number, minShare: number, centreCount: number): { kept: Accumulator[]; counts: number[]; keptOfCentre: Int32Array } {
  const largest = clusters.reduce((m, c) => Math.max(m, c.count), 0);
  const kept = clusters.filter((c) => c.count / total >= minShare || c.count === largest);
  const counts = kept.map((c) => c.count);
  const keptOfCentre = new Int32Array(centreCount).fill(-1);
  kept.forEach((c, k) => c.centres.forEach((id) => (keptOfCentre[id] = k)));
  for (const dropped of clusters) {
    if (kept.includes(dropped)) continue;
    let to = 0;
    let toD = Infinity;
    kept.forEach((c, k) => {
      const d = deltaE00(dropped.lab, c.lab);
      if (d < toD) {
        toD = d;
        to = k;
      }
    });
    counts[to] = (counts[to] as number) + dropped.count;
    for (const id of dropped.centres) keptOfCentre[id] = to;
  }
  return { kept, counts, keptOfCentre };
}

/** Share of the object its interior must hold to be used on its own (thin objects are all outline). */
const MIN_INTERIOR_SHARE = 0.25;

/** Object pixels split into interior (all 4-neighbours inside the image are object) and outline. */
function splitOutline(mask: Uint8Array, width: number): { interior: Int32Array; outline: Int32Array } {
  const n = mask.length;
  const interior: number[] = [];
  const outline: number[] = [];
  for (let i = 0; i < n; i++) {
    if (mask[i] !== 1) continue;
    const x = i % width;
    const edge = (x > 0 && mask[i - 1] !== 1) || (x < width - 1 && mask[i + 1] !== 1) || (i >= width && mask[i - width] !== 1) || (i + width < n && mask[i + width] !== 1);
    (edge ? outline : interior).push(i);
  }
  return { interior: Int32Array.from(interior), outline: Int32Array.from(outline) };
}

/** Clusters the object pixels (`mask` = 1) of `pixels`; `lab` holds every pixel's Lab triple. */
export function clusterColors(pixels: Pixels, lab: Float32Array, mask: Uint8Array, options: ClusterOptions): ColorCluster[] {
  const split = splitOutline(mask, pixels.width);
  const total = split.interior.length + split.outline.length;
  if (total === 0) return [];
  const useInterior = split.interior.length >= MIN_INTERIOR_SHARE * total;
  const core = useInterior ? split.interior : Int32Array.from([...split.interior, ...split.outline].sort((x, y) => x - y));
  const centers = centres(pixels.rgba, lab, sample(core, options.sampleSize, options.seed), options).map(([l, a, b]) => ({ l, a, b }) as Lab);

  // Every core pixel goes to its nearest centre; a cluster's colour is its pixels' mean in linear light.
  const clusters: Accumulator[] = centers.map((_, id) => ({ centres: [id], count: 0, r: 0, g: 0, b: 0, lab: { l: 0, a: 0, b: 0 } }));
  const centreOf = new Int32Array(mask.length).fill(-1);
  for (const i of core) {
    const id = nearest(lab, i, centers);
    centreOf[i] = id;
    const acc = clusters[id] as Accumulator;
    const p = i * 4;
    acc.count++;
    acc.r += LINEAR_OF_BYTE[pixels.rgba[p] as number] as number;
    acc.g += LINEAR_OF_BYTE[pixels.rgba[p + 1] as number] as number;
    acc.b += LINEAR_OF_BYTE[pixels.rgba[p + 2] as number] as number;
  }
  const found = clusters.filter((c) => c.count > 0);
  for (const c of found) c.lab = linearToLab(meanOf(c));
  mergeClose(found, options.mergeDistance);
  const { kept, counts, keptOfCentre } = dropSmall(found, core.length, options.minShare, centers.length);

  // Outline pixels count for the cluster most of their interior neighbours are in (they are that region's
  // edge, mixed with the background), or for the nearest cluster when none is; they never shape a colour.
  if (useInterior) {
    const colours = kept.map((c) => c.lab);
    const votes = new Int32Array(kept.length);
    const { width } = pixels;
    for (const i of split.outline) {
      votes.fill(0);
      let voted = false;
      const x = i % width;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const j = i + dy * width + dx;
          if ((dx !== 0 || dy !== 0) && x + dx >= 0 && x + dx < width && j >= 0 && j < mask.length && (centreOf[j] as number) >= 0) {
            const k = keptOfCentre[centreOf[j] as number] as number;
            votes[k] = (votes[k] as number) + 1;
            voted = true;
          }
        }
      }
      let k = 0;
      if (voted) {
        for (let c = 1; c < votes.length; c++) if ((votes[c] as number) > (votes[k] as number)) k = c;
      } else {
        k = nearest(lab, i, colours);
      }
      counts[k] = (counts[k] as number) + 1;
    }
  }
  return kept
    .map((c, k) => ({ lab: c.lab, linear: meanOf(c), count: counts[k] as number, share: (counts[k] as number) / total }))
    .sort((x, y) => y.count - x.count || x.lab.l - y.lab.l || x.lab.a - y.lab.a || x.lab.b - y.lab.b);
}
