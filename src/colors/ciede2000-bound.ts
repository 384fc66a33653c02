/**
 * A lower bound of CIEDE2000 from one colour to every colour inside an axis-aligned Lab box: what lets the
 * named-colour k-d tree skip whole subtrees and still return exactly the colour a full ΔE00 scan returns.
 *
 * Why it holds (kL = kC = kH = 1; primes are CIEDE2000's a' = (1 + G) a terms):
 *   ΔE00² = (ΔL/SL)² + X² + Y² + RT·X·Y,  X = ΔC'/SC,  Y = ΔH'/SH
 *         ≥ (ΔL/SL)² + (1 − |RT|/2)(X² + Y²)                 since |XY| ≤ (X² + Y²)/2
 * and ΔC'² + ΔH'² = |(a'₁, b₁) − (a'₂, b₂)|² = (1 + G)²Δa² + Δb² ≥ Δa² + Δb² (G ≥ 0 is shared by both
 * colours). Every weight is bounded over the box from the box's extent alone: SL by the farthest mean
 * lightness from 50, SC and SH by the largest possible mean primed chroma (SH ≤ SC always, as T < 3),
 * |RT| by the largest possible Rc and, when the hues involved stay on one side of the circle, by the
 * smallest possible distance of the mean hue from 275°. With SH ≤ SC, X² + Y² is smallest when as much of
 * the planar distance as possible is chroma, which gives the closed form below. Each step only loosens the
 * true value, so the result never exceeds ΔE00 (property-tested against culori in colors-named.test.ts).
 */
import type { Lab } from './color-space.js';
import { hueWeight } from './delta-e.js';

/** An axis-aligned box in Lab. */
export interface LabBox {
  lMin: number;
  lMax: number;
  aMin: number;
  aMax: number;
  bMin: number;
  bMax: number;
}

/** The query colour with the terms every bound on it reuses. */
export interface BoundQuery {
  l: number;
  a: number;
  b: number;
  /** Chroma √(a² + b²). */
  c: number;
  /** Hue atan2(b, a) in radians. */
  h: number;
}

const POW25_7 = Math.pow(25, 7);
const DEG = Math.PI / 180;
const MAX_DELTA_THETA = 30 * DEG;
/**
 * Floating-point slack: the bound is computed by other operations than the ΔE00 it bounds (relative part),
 * and squares of values near 1e-160 lose precision as subnormal numbers (absolute part).
 */
const SLACK = 1 - 1e-9;
const ABSOLUTE_SLACK = 1e-12;

/** The largest value of CIEDE2000's hue weighting T over all hues (a grid maximum plus its error bound). */
export const T_MAX: number = (() => {
  const steps = 36_000;
  let max = -Infinity;
  for (let i = 0; i < steps; i++) {
    const h = (2 * Math.PI * i) / steps;
    const t = hueWeight(h);
    if (t > max) max = t;
  }
  // |dT/dh| ≤ 0.17 + 2·0.24 + 3·0.32 + 4·0.2 = 2.41, so between grid points T exceeds the grid maximum by
  // at most 2.41 · (half a step).
  return max + (2.41 * Math.PI) / steps + 1e-9;
})();

/** CIEDE2000's G, which decreases as the mean chroma grows. */
function gOf(cMean: number): number {
  const p = Math.pow(cMean, 7);
  return 0.5 * (1 - Math.sqrt(p / (p + POW25_7)));
}

/** Wraps an angle into (−π, π]. */
function wrap(x: number): number {
  let y = x % (2 * Math.PI);
  if (y > Math.PI) y -= 2 * Math.PI;
  if (y <= -Math.PI) y += 2 * Math.PI;
  return y;
}

/** The query terms of a Lab colour. */
export function boundQuery(lab: Lab): BoundQuery {
  return { l: lab.l, a: lab.a, b: lab.b, c: Math.sqrt(lab.a * lab.a + lab.b * lab.b), h: Math.atan2(lab.b, lab.a) };
}

/**
 * The largest possible sin(2Δθ) of RT, from where the mean primed hue can lie. The mean hue of two hues lies
 * on the shorter arc between them, so when the query's and the box's (primed) hues all fit in an arc
 * shorter than π, the mean lies in that arc and Δθ is bounded by the arc's distance from 275°.
 */
function maxSin2Theta(q: BoundQuery, box: LabBox, cMin: number, gMax: number): number {
  const worst = Math.sin(2 * MAX_DELTA_THETA);
  if (cMin === 0) return worst;
  // The box's hue extent relative to the query hue: from its centre, each corner is less than π/2 away.
  const ca = (box.aMin + box.aMax) / 2;
  const cb = (box.bMin + box.bMax) / 2;
  const centreAngle = Math.atan2(cb, ca);
  const centre = wrap(centreAngle - q.h);
  let lo = Infinity;
  let hi = -Infinity;
  for (const a of [box.aMin, box.aMax]) {
    for (const b of [box.bMin, box.bMax]) {
      const rel = centre + wrap(Math.atan2(b, a) - centreAngle);
      if (rel < lo) lo = rel;
      if (rel > hi) hi = rel;
    }
  }
  // a' = (1 + G) a moves a hue towards the b axis by at most atan(√k) − atan(1/√k), k = 1 + G.
  const k = 1 + gMax;
  const shift = Math.atan(Math.sqrt(k)) - Math.atan(1 / Math.sqrt(k)) + 1e-9;
  lo = Math.min(-shift, lo - shift);
  hi = Math.max(shift, hi + shift);
  if (hi - lo >= Math.PI) return worst;
  const t = wrap(275 * DEG - q.h);
  let dist = Infinity;
  for (const tt of [t - 2 * Math.PI, t, t + 2 * Math.PI]) {
    const d = tt < lo ? lo - tt : tt > hi ? tt - hi : 0;
    if (d < dist) dist = d;
  }
  const deltaTheta = MAX_DELTA_THETA * Math.exp(-Math.pow(dist / DEG / 25, 2));
  return Math.sin(2 * deltaTheta);
}

/** A value ≤ ΔE00(q, p) for every colour p inside `box` (culori's CIEDE2000, kL = kC = kH = 1). */
export function ciede2000LowerBound(q: BoundQuery, box: LabBox): number {
  const dL = Math.max(box.lMin - q.l, 0, q.l - box.lMax);
  const da = Math.max(box.aMin - q.a, 0, q.a - box.aMax);
  const db = Math.max(box.bMin - q.b, 0, q.b - box.bMax);
  const planar2 = da * da + db * db;

  // Chroma range of the box: nearest and farthest points from the neutral axis.
  const na = box.aMin > 0 ? box.aMin : box.aMax < 0 ? box.aMax : 0;
  const nb = box.bMin > 0 ? box.bMin : box.bMax < 0 ? box.bMax : 0;
  const cMin = Math.sqrt(na * na + nb * nb);
  const fa = Math.max(Math.abs(box.aMin), Math.abs(box.aMax));
  const fb = Math.max(Math.abs(box.bMin), Math.abs(box.bMax));
  const cMax = Math.sqrt(fa * fa + fb * fb);

  const gMax = gOf((q.c + cMin) / 2);
  const gMin = gOf((q.c + cMax) / 2);
  const cqMin = Math.hypot(q.a * (1 + gMin), q.b);
  const cqMax = Math.hypot(q.a * (1 + gMax), q.b);
  const cpMin = cMin;
  const cpMax = (1 + gMax) * cMax;
  const meanCMax = (cqMax + cpMax) / 2;

  const sc = 1 + 0.045 * meanCMax;
  const sh = 1 + 0.015 * meanCMax * T_MAX;
  const lDev = Math.max(Math.abs((q.l + box.lMin) / 2 - 50), Math.abs((q.l + box.lMax) / 2 - 50));
  const lDev2 = lDev * lDev;
  const sl = 1 + (0.015 * lDev2) / Math.sqrt(20 + lDev2);

  // |ΔC'| range, then the smallest X² + Y² for a planar distance of at least √d2.
  const dcLo = cpMin - cqMax;
  const dcHi = cpMax - cqMin;
  const dcAbsMin = dcLo > 0 ? dcLo : dcHi < 0 ? -dcHi : 0;
  const dcAbsMax = Math.max(Math.abs(dcLo), Math.abs(dcHi));
  const d2 = Math.max(planar2, dcAbsMin * dcAbsMin);
  const chroma2 = Math.min(dcAbsMax * dcAbsMax, d2);
  const xy = chroma2 / (sc * sc) + (d2 - chroma2) / (sh * sh);

  // A neutral query has ΔH' = 0 against everything (culori sets Δh' = 0 when a primed chroma is 0): no RT
  // term. (Tested on a and b, not on c: a tiny a can underflow c to 0 and still give a non-zero a'.)
  let rho = 0;
  if (q.a !== 0 || q.b !== 0) {
    const p = Math.pow(meanCMax, 7);
    rho = Math.sqrt(p / (p + POW25_7)) * maxSin2Theta(q, box, cMin, gMax);
  }
  const lTerm = dL / sl;
  return Math.max(0, Math.sqrt(lTerm * lTerm + (1 - rho) * xy) * SLACK - ABSOLUTE_SLACK);
}
