/**
 * The eleven base colours of the colour index, by a fixed rule on CIE lightness L* and chroma C*ab (CIELCh,
 * D65) and on hue. The hue is Oklab's (OKLCh) rather than CIELAB's: CIELAB hue bends in the blue-violet
 * region (#0000ff and mediumpurple #9370db both sit at h = 306° in CIELCh, 264° and 297° in OKLCh), so
 * CIELAB hue sectors cannot tell blue from purple. The rule, in order (docs/colors.md has the table):
 *
 *  1. black: L < 8, or L < 20 and C < 20 (navy, L 13 with C 80, stays blue);
 *  2. white: L ≥ 90 and C < 14 (ivory, cream and off-whites);
 *  3. grey: C < 12;
 *  4. by OKLCh hue sector, with lightness and chroma deciding pink, brown and olive:
 *     - 340°–12° (magenta side of red): pink when L ≥ 50, else red;
 *     - 12°–35° (red): pink when L ≥ 55 and C < 50; brown when L < 45 and C < 30; else red;
 *     - 35°–80° (orange): brown when L < 50, or C < 55 and (L < 65, or L < 85 on the yellow side from 63°:
 *       tan, camel, beige); else orange (light salmon, apricot and peach stay orange);
 *     - 80°–115° (yellow): when L < 65, green from 95° on (olive), brown below; brown when C < 40 and
 *       L < 85 (sand, khaki); else yellow;
 *     - 115°–180° green; 180°–290° blue; 290°–340° purple.
 */
import { converter } from 'culori';
import type { Lab } from './color-space.js';

/** The base colours, in the spec's order. */
export const BASE_COLORS = ['red', 'orange', 'yellow', 'green', 'blue', 'purple', 'pink', 'brown', 'grey', 'black', 'white'] as const;
export type BaseColor = (typeof BASE_COLORS)[number];

/** The thresholds of the rule (L and C are CIE L* and C*ab, hues OKLCh degrees). */
export const BASE_COLOR_RULE = {
  black: { lAlways: 8, lDark: 20, cDark: 20 },
  white: { lMin: 90, cMax: 14 },
  grey: { cMax: 12 },
  hue: { magentaRed: 340, red: 12, orange: 35, yellow: 80, olive: 95, green: 115, blue: 180, purple: 290 },
  pink: { lMagentaSide: 50, lRed: 55, cRed: 50 },
  brown: {
    red: { lMax: 45, cMax: 30 },
    orange: { lMax: 50, cMax: 55, lLight: 65, lPastel: 85, hBeige: 63 },
    yellow: { lDark: 65, cMax: 40, lPastel: 85 },
  },
} as const;

const toOklch = converter('oklch');

/** CIE L*, C*ab and OKLCh hue (degrees, 0 for neutral colours) of a Lab colour. */
export function lightnessChromaHue(lab: Lab): { l: number; c: number; h: number } {
  const ok = toOklch({ mode: 'lab65', l: lab.l, a: lab.a, b: lab.b });
  return { l: lab.l, c: Math.hypot(lab.a, lab.b), h: ok.h ?? 0 };
}

/** The base colour of a Lab colour. */
export function baseColorOf(lab: Lab): BaseColor {
  const { l, c, h } = lightnessChromaHue(lab);
  const R = BASE_COLOR_RULE;
  if (l < R.black.lAlways || (l < R.black.lDark && c < R.black.cDark)) return 'black';
  if (l >= R.white.lMin && c < R.white.cMax) return 'white';
  if (c < R.grey.cMax) return 'grey';
  if (h >= R.hue.magentaRed || h < R.hue.red) return l >= R.pink.lMagentaSide ? 'pink' : 'red';
  if (h < R.hue.orange) {
    if (l >= R.pink.lRed && c < R.pink.cRed) return 'pink';
    if (l < R.brown.red.lMax && c < R.brown.red.cMax) return 'brown';
    return 'red';
  }
  if (h < R.hue.yellow) {
    const o = R.brown.orange;
    const beige = l < o.lPastel && h >= o.hBeige;
    return l < o.lMax || (c < o.cMax && (l < o.lLight || beige)) ? 'brown' : 'orange';
  }
  if (h < R.hue.green) {
    const y = R.brown.yellow;
    if (l < y.lDark) return h >= R.hue.olive ? 'green' : 'brown';
    return c < y.cMax && l < y.lPastel ? 'brown' : 'yellow';
  }
  if (h < R.hue.blue) return 'green';
  if (h < R.hue.purple) return 'blue';
  return 'purple';
}
