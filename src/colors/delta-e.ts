/**
 * CIEDE2000 colour difference (kL = kC = kH = 1) on plain numbers. It is culori's `differenceCiede2000`
 * written out operation for operation (so it returns the same doubles, checked in colors-space.test.ts)
 * without culori's per-call colour objects: background removal calls it once per pixel.
 */
import type { Lab } from './color-space.js';

const TWO_PI = 2 * Math.PI;
const POW25_7 = Math.pow(25, 7);

/** CIEDE2000's hue weighting T at a mean hue h' in radians (SH = 1 + 0.015 C̄' T). */
export function hueWeight(hp: number): number {
  return (
    1 -
    0.17 * Math.cos(hp - Math.PI / 6) +
    0.24 * Math.cos(2 * hp) +
    0.32 * Math.cos(3 * hp + Math.PI / 30) -
    0.2 * Math.cos(4 * hp - (63 * Math.PI) / 180)
  );
}

/** ΔE00 between (l1, a1, b1) taken as the standard and (l2, a2, b2) as the sample. */
export function ciede2000(l1: number, a1: number, b1: number, l2: number, a2: number, b2: number): number {
  const c1 = Math.sqrt(a1 * a1 + b1 * b1);
  const c2 = Math.sqrt(a2 * a2 + b2 * b2);
  const cAvg = (c1 + c2) / 2;
  const g = 0.5 * (1 - Math.sqrt(Math.pow(cAvg, 7) / (Math.pow(cAvg, 7) + POW25_7)));
  const ap1 = a1 * (1 + g);
  const ap2 = a2 * (1 + g);
  const cp1 = Math.sqrt(ap1 * ap1 + b1 * b1);
  const cp2 = Math.sqrt(ap2 * ap2 + b2 * b2);
  let hp1 = Math.abs(ap1) + Math.abs(b1) === 0 ? 0 : Math.atan2(b1, ap1);
  if (hp1 < 0) hp1 += TWO_PI;
  let hp2 = Math.abs(ap2) + Math.abs(b2) === 0 ? 0 : Math.atan2(b2, ap2);
  if (hp2 < 0) hp2 += TWO_PI;
  const dL = l2 - l1;
  const dC = cp2 - cp1;
  let dhp = cp1 * cp2 === 0 ? 0 : hp2 - hp1;
  if (dhp > Math.PI) dhp -= TWO_PI;
  if (dhp < -Math.PI) dhp += TWO_PI;
  const dH = 2 * Math.sqrt(cp1 * cp2) * Math.sin(dhp / 2);
  const lp = (l1 + l2) / 2;
  const cp = (cp1 + cp2) / 2;
  let hp: number;
  if (cp1 * cp2 === 0) {
    hp = hp1 + hp2;
  } else {
    hp = (hp1 + hp2) / 2;
    if (Math.abs(hp1 - hp2) > Math.PI) hp -= Math.PI;
    if (hp < 0) hp += TWO_PI;
  }
  const lpm50 = Math.pow(lp - 50, 2);
  const t = hueWeight(hp);
  const sl = 1 + (0.015 * lpm50) / Math.sqrt(20 + lpm50);
  const sc = 1 + 0.045 * cp;
  const sh = 1 + 0.015 * cp * t;
  const deltaTheta = ((30 * Math.PI) / 180) * Math.exp(-1 * Math.pow(((180 / Math.PI) * hp - 275) / 25, 2));
  const rc = 2 * Math.sqrt(Math.pow(cp, 7) / (Math.pow(cp, 7) + POW25_7));
  const rt = -1 * Math.sin(2 * deltaTheta) * rc;
  return Math.sqrt(Math.pow(dL / sl, 2) + Math.pow(dC / sc, 2) + Math.pow(dH / sh, 2) + (((rt * dC) / sc) * dH) / sh);
}

/** ΔE00 between two Lab colours. */
export function deltaE00(x: Lab, y: Lab): number {
  return ciede2000(x.l, x.a, x.b, y.l, y.a, y.b);
}
