/**
 * Colour-space arithmetic for pixel arrays: sRGB bytes to linear light and CIELAB (D65), and back to hex.
 * The constants and the order of operations are culori's (lrgb, xyz65, lab65), so a pixel converted here
 * gives the same Lab as `converter('lab65')` (checked in test/unit/colors-space.test.ts); the hot loops
 * simply avoid culori's per-call objects.
 */
import { converter, formatHex } from 'culori';

/** A colour in CIELAB, D65 white (culori's `lab65`). */
export interface Lab {
  l: number;
  a: number;
  b: number;
}

/** Linear-light sRGB, each channel 0..1 for in-gamut colours. */
export type LinearRgb = [r: number, g: number, b: number];

const D65_X = 0.3127 / 0.329;
const D65_Z = (1 - 0.3127 - 0.329) / 0.329;
const LAB_K = Math.pow(29, 3) / Math.pow(3, 3);
const LAB_E = Math.pow(6, 3) / Math.pow(29, 3);

function decodeGamma(c: number): number {
  const abs = Math.abs(c);
  if (abs <= 0.04045) return c / 12.92;
  return (Math.sign(c) || 1) * Math.pow((abs + 0.055) / 1.055, 2.4);
}

function encodeGamma(c: number): number {
  const abs = Math.abs(c);
  if (abs > 0.0031308) return (Math.sign(c) || 1) * (1.055 * Math.pow(abs, 1 / 2.4) - 0.055);
  return c * 12.92;
}

/** Linear-light value of each 8-bit sRGB level. */
export const LINEAR_OF_BYTE: Float64Array = (() => {
  const table = new Float64Array(256);
  for (let i = 0; i < 256; i++) table[i] = decodeGamma(i / 255);
  return table;
})();

const labF = (v: number): number => (v > LAB_E ? Math.cbrt(v) : (LAB_K * v + 16) / 116);

/** Writes the Lab of a linear-light colour into `out` at `offset` (l, a, b). */
export function linearToLabInto(r: number, g: number, b: number, out: Float32Array | Float64Array, offset: number): void {
  const x = 0.4123907992659593 * r + 0.357584339383878 * g + 0.1804807884018343 * b;
  const y = 0.2126390058715102 * r + 0.715168678767756 * g + 0.0721923153607337 * b;
  const z = 0.0193308187155918 * r + 0.119194779794626 * g + 0.9505321522496607 * b;
  const f0 = labF(x / D65_X);
  const f1 = labF(y);
  const f2 = labF(z / D65_Z);
  out[offset] = 116 * f1 - 16;
  out[offset + 1] = 500 * (f0 - f1);
  out[offset + 2] = 200 * (f1 - f2);
}

/** Lab of a linear-light colour. */
export function linearToLab([r, g, b]: LinearRgb): Lab {
  const out = new Float64Array(3);
  linearToLabInto(r, g, b, out, 0);
  return { l: out[0] as number, a: out[1] as number, b: out[2] as number };
}

/** Lab of every pixel of an RGBA byte array, as consecutive (l, a, b) triples. */
export function rgbaToLab(rgba: Uint8Array, pixelCount: number): Float32Array {
  const out = new Float32Array(pixelCount * 3);
  for (let i = 0; i < pixelCount; i++) {
    const p = i * 4;
    linearToLabInto(
      LINEAR_OF_BYTE[rgba[p] as number] as number,
      LINEAR_OF_BYTE[rgba[p + 1] as number] as number,
      LINEAR_OF_BYTE[rgba[p + 2] as number] as number,
      out,
      i * 3,
    );
  }
  return out;
}

const toLab65 = converter('lab65');
const toLrgb = converter('lrgb');

/** Lab of a `#rrggbb` colour; throws on a string that is not a colour. */
export function hexToLab(hex: string): Lab {
  const lab = toLab65(hex);
  if (!lab) throw new Error(`not a colour: ${hex}`);
  return { l: lab.l, a: lab.a, b: lab.b };
}

/** Linear-light sRGB of a `#rrggbb` colour. */
export function hexToLinear(hex: string): LinearRgb {
  const c = toLrgb(hex);
  if (!c) throw new Error(`not a colour: ${hex}`);
  return [c.r, c.g, c.b];
}

/** `#rrggbb` of a linear-light colour (channels clamped to the sRGB gamut). */
export function linearToHex([r, g, b]: LinearRgb): string {
  return formatHex({ mode: 'rgb', r: encodeGamma(r), g: encodeGamma(g), b: encodeGamma(b) });
}

/** `#rrggbb` of a Lab colour (clamped to the sRGB gamut). */
export function labToHex(lab: Lab): string {
  return formatHex({ mode: 'lab65', l: lab.l, a: lab.a, b: lab.b });
}
