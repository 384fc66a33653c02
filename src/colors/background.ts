/**
 * Separates the object from its background in a decoded, downscaled image.
 *
 * - **alpha**: when at least 1 % of the pixels are transparent (alpha < 128), the alpha channel decides.
 * - **border**: otherwise the background is what a flood fill from the image border reaches. A smooth
 *   background model (a quadratic surface in x and y per Lab channel) is fitted robustly to the border
 *   pixels, so plain backdrops, gradients and vignetting are all "the same colour as the model here"; a
 *   pixel joins the fill when its ΔE00 to the model at its position is below the tolerance, and it is
 *   4-connected to the border through such pixels. Border pixels off the model (an object touching the
 *   edge) neither steer the fit nor seed the fill. The tolerance widens on grainy backdrops: it is the
 *   larger of the configured value and 2.5 times the median ΔE00 between neighbouring border pixels, at
 *   most twice the configured value.
 *
 *   With `shadows` (off by default), the fill also enters soft shadows: a pixel that misses the tolerance
 *   still joins when it is darker than the model (keeping at least 45 % of its lightness), has the model's
 *   chromaticity, and differs by less than 3 ΔE00 from the neighbour the fill reaches it from. That
 *   removes drop shadows on a backdrop, but it also walks into any smoothly shaded object of the
 *   backdrop's hue (a white vase lit from one side on a white backdrop disappears), hence opt-in.
 * - **none**: all pixels are the object when the border is not one backdrop (less than 60 % of it fits the
 *   model, or the model spans more than 40 ΔE00 across the image: a full-bleed picture or textile) or when
 *   the fill would leave less than 0.5 % of the image.
 */
import type { Pixels } from './decode.js';
import { ciede2000 } from './delta-e.js';

export type BackgroundMethod = 'alpha' | 'border' | 'none';

/** Which pixels belong to the object. */
export interface Foreground {
  /** 1 for object pixels, 0 for background, one byte per pixel. */
  mask: Uint8Array;
  /** Object pixels. */
  count: number;
  method: BackgroundMethod;
  /** The ΔE00 tolerance the fill used (border method only). */
  tolerance?: number;
}

/** Alpha below this is transparent. */
const ALPHA_OPAQUE = 128;
/** Share of transparent pixels from which an image counts as cut out. */
const ALPHA_MIN_SHARE = 0.01;
/** Share of the border that must fit the background model for the border to count as a backdrop. */
const MIN_BORDER_SHARE = 0.6;
/**
 * Largest ΔE00 a backdrop spans across the image. A smooth surface fitted to a border of unrelated colours
 * (stripes of a full-bleed picture) bends from one to the other; a studio backdrop's sweep stays well below.
 */
const MAX_BACKDROP_RANGE = 40;
/** Share of the image below which the fill is taken to have eaten the object. */
const MIN_FOREGROUND_SHARE = 0.005;
/** The tolerance never widens beyond this multiple of the configured one. */
const MAX_TOLERANCE_FACTOR = 2;
/** Tolerance as a multiple of the median neighbour-to-neighbour ΔE00 along the border. */
const GRAIN_FACTOR = 2.5;
const FIT_ROUNDS = 3;
/** A shadow keeps at least this share of the backdrop's lightness L*. */
const SHADOW_MIN_LIGHTNESS = 0.45;
/** Largest ΔE00 between neighbouring pixels of a soft shadow. */
const SHADOW_STEP = 3;

export interface BackgroundOptions {
  /** ΔE00 to the background model below which a pixel is backdrop (before widening for grain). */
  tolerance: number;
  /** Also take soft shadows on the backdrop for backdrop (see the module comment; off by default). */
  shadows: boolean;
}

/** Object pixels of `pixels` (`lab` holds their Lab triples). */
export function findForeground(pixels: Pixels, lab: Float32Array, options: BackgroundOptions): Foreground {
  const n = pixels.width * pixels.height;
  let transparent = 0;
  for (let i = 0; i < n; i++) if ((pixels.rgba[i * 4 + 3] as number) < ALPHA_OPAQUE) transparent++;
  if (transparent >= ALPHA_MIN_SHARE * n) {
    const mask = new Uint8Array(n);
    for (let i = 0; i < n; i++) mask[i] = (pixels.rgba[i * 4 + 3] as number) >= ALPHA_OPAQUE ? 1 : 0;
    return { mask, count: n - transparent, method: 'alpha' };
  }
  return floodFromBorder(pixels.width, pixels.height, lab, options);
}

function everything(n: number): Foreground {
  return { mask: new Uint8Array(n).fill(1), count: n, method: 'none' };
}

/** Indices of the pixels on the image's outer ring, clockwise from the top-left corner. */
function borderPixels(width: number, height: number): Int32Array {
  if (width === 1 || height === 1) return Int32Array.from({ length: width * height }, (_, i) => i);
  const out: number[] = [];
  for (let x = 0; x < width; x++) out.push(x);
  for (let y = 1; y < height; y++) out.push(y * width + width - 1);
  for (let x = width - 2; x >= 0; x--) out.push((height - 1) * width + x);
  for (let y = height - 2; y >= 1; y--) out.push(y * width);
  return Int32Array.from(out);
}

/** A quadratic surface per Lab channel over normalised coordinates u, v in [-1, 1]. */
class BackgroundModel {
  /** coef[channel * 6 + term], terms 1, u, v, u², v², uv. */
  readonly coef = new Float64Array(18);
  private readonly su: number;
  private readonly sv: number;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.su = width > 1 ? 2 / (width - 1) : 0;
    this.sv = height > 1 ? 2 / (height - 1) : 0;
  }

  terms(i: number, out: Float64Array): void {
    const u = (i % this.width) * this.su - 1;
    const v = Math.floor(i / this.width) * this.sv - 1;
    out[0] = 1;
    out[1] = u;
    out[2] = v;
    out[3] = u * u;
    out[4] = v * v;
    out[5] = u * v;
  }

  /** ΔE00 of pixel i to the model at its position. */
  residual(i: number, lab: Float32Array, t: Float64Array): number {
    this.terms(i, t);
    return ciede2000(this.channel(0, t), this.channel(1, t), this.channel(2, t), lab[i * 3] as number, lab[i * 3 + 1] as number, lab[i * 3 + 2] as number);
  }

  /**
   * Whether pixel i is within `tolerance` ΔE00 of the model. Most backdrop pixels are decided without
   * computing ΔE00: since SL, SC, SH ≥ 1, (1 + G)² ≤ 2.25 and |RT| ≤ √3, ΔE00² ≤ ΔL² + 4.2 (Δa² + Δb²).
   */
  fits(i: number, lab: Float32Array, t: Float64Array, tolerance: number): boolean {
    this.terms(i, t);
    const l = this.channel(0, t);
    const a = this.channel(1, t);
    const b = this.channel(2, t);
    const dl = (lab[i * 3] as number) - l;
    const da = (lab[i * 3 + 1] as number) - a;
    const db = (lab[i * 3 + 2] as number) - b;
    if (dl * dl + 4.2 * (da * da + db * db) < tolerance * tolerance) return true;
    return ciede2000(l, a, b, lab[i * 3] as number, lab[i * 3 + 1] as number, lab[i * 3 + 2] as number) < tolerance;
  }

  /** The model's Lab at pixel i, into out. */
  predict(i: number, t: Float64Array, out: Float64Array): void {
    this.terms(i, t);
    for (let ch = 0; ch < 3; ch++) out[ch] = this.channel(ch, t);
  }

  private channel(ch: number, t: Float64Array): number {
    const c = this.coef;
    const o = ch * 6;
    let v = 0;
    for (let k = 0; k < 6; k++) v += (c[o + k] as number) * (t[k] as number);
    return v;
  }

  /** The largest ΔE00 between the model's colours at the corners, edge midpoints and centre. */
  range(): number {
    const t = new Float64Array(6);
    const points: number[][] = [];
    for (const fy of [0, 0.5, 1]) {
      for (const fx of [0, 0.5, 1]) {
        this.terms(Math.round(fy * (this.height - 1)) * this.width + Math.round(fx * (this.width - 1)), t);
        points.push([this.channel(0, t), this.channel(1, t), this.channel(2, t)]);
      }
    }
    let max = 0;
    for (const p of points) for (const q of points) max = Math.max(max, ciede2000(p[0] as number, p[1] as number, p[2] as number, q[0] as number, q[1] as number, q[2] as number));
    return max;
  }

  /** A constant model: the per-channel median of the given pixels. */
  fitMedian(pixels: Int32Array, lab: Float32Array): void {
    this.coef.fill(0);
    for (let ch = 0; ch < 3; ch++) {
      const values = Float64Array.from(pixels, (i) => lab[i * 3 + ch] as number).sort();
      this.coef[ch * 6] = values[Math.floor(values.length / 2)] as number;
    }
  }

  /** Least-squares fit to the given pixels; keeps the current model when the system is singular. */
  fitLeastSquares(pixels: Int32Array, lab: Float32Array): void {
    const ata = new Float64Array(36);
    const atb = new Float64Array(18);
    const t = new Float64Array(6);
    for (const i of pixels) {
      this.terms(i, t);
      for (let r = 0; r < 6; r++) {
        const tr = t[r] as number;
        for (let c = 0; c < 6; c++) ata[r * 6 + c] = (ata[r * 6 + c] as number) + tr * (t[c] as number);
        for (let ch = 0; ch < 3; ch++) atb[ch * 6 + r] = (atb[ch * 6 + r] as number) + tr * (lab[i * 3 + ch] as number);
      }
    }
    const solved = solve6(ata, atb);
    if (solved) this.coef.set(solved);
  }
}

/** Solves A x = b for a 6×6 A and three right-hand sides (Gaussian elimination, partial pivoting). */
function solve6(a: Float64Array, b: Float64Array): Float64Array | undefined {
  const m = Float64Array.from(a);
  const rhs = Float64Array.from(b);
  const scale = Math.max(...m.map(Math.abs)) || 1;
  for (let col = 0; col < 6; col++) {
    let pivot = col;
    for (let r = col + 1; r < 6; r++) if (Math.abs(m[r * 6 + col] as number) > Math.abs(m[pivot * 6 + col] as number)) pivot = r;
    if (Math.abs(m[pivot * 6 + col] as number) < 1e-10 * scale) return undefined;
    if (pivot !== col) {
      for (let c = 0; c < 6; c++) [m[col * 6 + c], m[pivot * 6 + c]] = [m[pivot * 6 + c] as number, m[col * 6 + c] as number];
      for (let ch = 0; ch < 3; ch++) [rhs[ch * 6 + col], rhs[ch * 6 + pivot]] = [rhs[ch * 6 + pivot] as number, rhs[ch * 6 + col] as number];
    }
    for (let r = col + 1; r < 6; r++) {
      const f = (m[r * 6 + col] as number) / (m[col * 6 + col] as number);
      if (f === 0) continue;
      for (let c = col; c < 6; c++) m[r * 6 + c] = (m[r * 6 + c] as number) - f * (m[col * 6 + c] as number);
      for (let ch = 0; ch < 3; ch++) rhs[ch * 6 + r] = (rhs[ch * 6 + r] as number) - f * (rhs[ch * 6 + col] as number);
    }
  }
  const x = new Float64Array(18);
  for (let ch = 0; ch < 3; ch++) {
    for (let r = 5; r >= 0; r--) {
      let s = rhs[ch * 6 + r] as number;
      for (let c = r + 1; c < 6; c++) s -= (m[r * 6 + c] as number) * (x[ch * 6 + c] as number);
      x[ch * 6 + r] = s / (m[r * 6 + r] as number);
    }
  }
  return x;
}

function median(values: Float64Array): number {
  const sorted = Float64Array.from(values).sort();
  return sorted.length === 0 ? 0 : (sorted[Math.floor(sorted.length / 2)] as number);
}

function floodFromBorder(width: number, height: number, lab: Float32Array, { tolerance: baseTolerance, shadows }: BackgroundOptions): Foreground {
  const n = width * height;
  const border = borderPixels(width, height);
  const model = new BackgroundModel(width, height);
  const t = new Float64Array(6);
  const residuals = new Float64Array(border.length);
  const measure = (): void => {
    for (let k = 0; k < border.length; k++) residuals[k] = model.residual(border[k] as number, lab, t);
  };

  // Grain of the backdrop: the typical ΔE00 between neighbours along the border (neighbour differences
  // carry the noise of two pixels). It widens the tolerance on grainy backdrops, up to twice the base.
  const steps = new Float64Array(border.length);
  for (let k = 0; k < border.length; k++) {
    const i = border[k] as number;
    const j = border[(k + 1) % border.length] as number;
    steps[k] = ciede2000(lab[i * 3] as number, lab[i * 3 + 1] as number, lab[i * 3 + 2] as number, lab[j * 3] as number, lab[j * 3 + 1] as number, lab[j * 3 + 2] as number);
  }
  const tolerance = Math.min(baseTolerance * MAX_TOLERANCE_FACTOR, Math.max(baseTolerance, GRAIN_FACTOR * median(steps)));

  // Start from the median colour (robust to an object on part of the border), then refit the surface to
  // the border pixels that fit, with a threshold that shrinks from "the typical residual" to the tolerance.
  model.fitMedian(border, lab);
  measure();
  for (let round = 0; round < FIT_ROUNDS; round++) {
    const threshold = Math.max(tolerance, 2.5 * median(residuals));
    const inliers = border.filter((_, k) => (residuals[k] as number) < threshold);
    if (inliers.length < 6) break;
    model.fitLeastSquares(inliers, lab);
    measure();
  }
  let seeds = 0;
  for (const r of residuals) if (r < tolerance) seeds++;
  if (seeds < MIN_BORDER_SHARE * border.length || model.range() > MAX_BACKDROP_RANGE) return everything(n);

  // 0 = not yet seen, 1 = background, 2 = object.
  const state = new Uint8Array(n);
  const queue = new Int32Array(n);
  let head = 0;
  let tail = 0;
  for (let k = 0; k < border.length; k++) {
    const i = border[k] as number;
    if (state[i] !== 0) continue;
    if ((residuals[k] as number) < tolerance) {
      state[i] = 1;
      queue[tail++] = i;
    } else {
      state[i] = 2;
    }
  }
  const m = new Float64Array(3);
  const visit = (j: number, from: number): void => {
    if (state[j] === 1) return;
    if (state[j] === 0) {
      if (model.fits(j, lab, t, tolerance)) {
        state[j] = 1;
        queue[tail++] = j;
        return;
      }
      state[j] = 2;
    }
    if (shadows && inShadow(j, from)) {
      state[j] = 1;
      queue[tail++] = j;
    }
  };
  // A shadow pixel: darker than the model (down to 45 % of its lightness), of the model's chromaticity
  // scaled to that lightness, and less than SHADOW_STEP from the backdrop or shadow pixel it is reached from.
  const inShadow = (j: number, from: number): boolean => {
    model.predict(j, t, m);
    const l = lab[j * 3] as number;
    const a = lab[j * 3 + 1] as number;
    const b = lab[j * 3 + 2] as number;
    const ml = m[0] as number;
    if (!(l < ml && l >= SHADOW_MIN_LIGHTNESS * ml)) return false;
    const k = l / ml;
    if (ciede2000(l, (m[1] as number) * k, (m[2] as number) * k, l, a, b) >= tolerance / 2) return false;
    return ciede2000(lab[from * 3] as number, lab[from * 3 + 1] as number, lab[from * 3 + 2] as number, l, a, b) < SHADOW_STEP;
  };
  while (head < tail) {
    const i = queue[head++] as number;
    const x = i % width;
    if (x > 0) visit(i - 1, i);
    if (x < width - 1) visit(i + 1, i);
    if (i >= width) visit(i - width, i);
    if (i + width < n) visit(i + width, i);
  }
  const mask = new Uint8Array(n);
  let count = 0;
  for (let i = 0; i < n; i++) {
    if (state[i] !== 1) {
      mask[i] = 1;
      count++;
    }
  }
  if (count < MIN_FOREGROUND_SHARE * n) return everything(n);
  return { mask, count, method: 'border', tolerance };
}
