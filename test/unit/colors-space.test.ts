import { converter, differenceCiede2000 } from 'culori';
import fc from 'fast-check';
import { linearLightCentroid } from '../../src/colors/centroid.js';
import { hexToLab, labToHex, linearToLab, LINEAR_OF_BYTE, rgbaToLab } from '../../src/colors/color-space.js';
import { ciede2000, hueWeight } from '../../src/colors/delta-e.js';

const lab65 = converter('lab65');
const culoriDeltaE = differenceCiede2000();
const byte = fc.integer({ min: 0, max: 255 });
const labColor = fc.record({
  l: fc.double({ min: 0, max: 100, noNaN: true }),
  a: fc.double({ min: -128, max: 128, noNaN: true }),
  b: fc.double({ min: -128, max: 128, noNaN: true }),
});
const hexOf = (r: number, g: number, b: number): string => `#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;

describe('colour space: pixel conversions agree with culori', () => {
  it('converts sRGB bytes to the Lab (D65) culori gives', () => {
    fc.assert(
      fc.property(byte, byte, byte, (r, g, b) => {
        const ours = linearToLab([LINEAR_OF_BYTE[r] as number, LINEAR_OF_BYTE[g] as number, LINEAR_OF_BYTE[b] as number]);
        const theirs = lab65(hexOf(r, g, b));
        expect(ours.l).toBeCloseTo(theirs?.l ?? NaN, 10);
        expect(ours.a).toBeCloseTo(theirs?.a ?? NaN, 10);
        expect(ours.b).toBeCloseTo(theirs?.b ?? NaN, 10);
      }),
      { numRuns: 500 },
    );
  });

  it('converts an RGBA pixel array to Lab triples (single precision)', () => {
    const rgba = Uint8Array.from([255, 0, 0, 255, 0, 0, 0, 0, 18, 52, 86, 255]);
    const lab = rgbaToLab(rgba, 3);
    const expected = ['#ff0000', '#000000', '#123456'].map(hexToLab);
    expected.forEach((e, i) => {
      expect(lab[i * 3]).toBeCloseTo(e.l, 4);
      expect(lab[i * 3 + 1]).toBeCloseTo(e.a, 4);
      expect(lab[i * 3 + 2]).toBeCloseTo(e.b, 4);
    });
  });

  it('round-trips hex through Lab', () => {
    fc.assert(
      fc.property(byte, byte, byte, (r, g, b) => {
        expect(labToHex(hexToLab(hexOf(r, g, b)))).toBe(hexOf(r, g, b));
      }),
      { numRuns: 300 },
    );
  });
});

describe('colour space: CIEDE2000', () => {
  it('returns exactly the doubles culori returns, neutral colours included', () => {
    const neutralOr = (arb: typeof labColor) => fc.oneof(arb, arb.map((c) => ({ ...c, a: 0, b: 0 })));
    fc.assert(
      fc.property(neutralOr(labColor), neutralOr(labColor), (x, y) => {
        expect(ciede2000(x.l, x.a, x.b, y.l, y.a, y.b)).toBe(culoriDeltaE({ mode: 'lab65', ...x }, { mode: 'lab65', ...y }));
      }),
      { numRuns: 2000 },
    );
  });

  it('never exceeds √(ΔL² + 4.2 (Δa² + Δb²)), the shortcut background removal takes for near pixels', () => {
    fc.assert(
      fc.property(labColor, labColor, (x, y) => {
        const bound = Math.sqrt((x.l - y.l) ** 2 + 4.2 * ((x.a - y.a) ** 2 + (x.b - y.b) ** 2));
        // Relative slack for rounding, and an absolute one where squares of subnormal differences underflow to 0.
        expect(ciede2000(x.l, x.a, x.b, y.l, y.a, y.b)).toBeLessThanOrEqual(bound * (1 + 1e-12) + 1e-12);
      }),
      { numRuns: 5000 },
    );
    // The shortcut needs SH ≥ 1, i.e. CIEDE2000's hue weighting T ≥ 0 at every hue.
    let minT = Infinity;
    for (let i = 0; i < 36_000; i++) {
      const h = (2 * Math.PI * i) / 36_000;
      minT = Math.min(minT, hueWeight(h));
    }
    expect(minT).toBeGreaterThan(0.3);
  });

  // Sharma, Wu and Dalal (2005), Table 1: pairs 1, 7, 13, 17 and 25.
  it.each([
    [50, 2.6772, -79.7751, 50, 0, -82.7485, 2.0425],
    [50, 0, 0, 50, -1, 2, 2.3669],
    [50, 2.5, 0, 56, -27, -3, 31.903],
    [50, 2.5, 0, 50, 3.1736, 0.5854, 1],
    [60.2574, -34.0099, 36.2677, 60.4626, -34.1751, 39.4387, 1.2644],
  ])('gives the published value for (%f, %f, %f) against (%f, %f, %f)', (l1, a1, b1, l2, a2, b2, expected) => {
    expect(ciede2000(l1, a1, b1, l2, a2, b2)).toBeCloseTo(expected, 4);
  });
});

describe('colour space: linear-light weighted centroid (spec "Color index record": hex of a tone)', () => {
  it('averages black and white in equal parts to #bcbcbc, not #808080', () => {
    // Linear 0.5 encodes to 1.055 · 0.5^(1/2.4) − 0.055 = 0.7354, × 255 = 187.5 → 188 = 0xbc.
    expect(
      linearLightCentroid([
        { hex: '#000000', weight: 1 },
        { hex: '#ffffff', weight: 1 },
      ]),
    ).toBe('#bcbcbc');
  });

  it('weights by coverage: red 3 parts, blue 1 part gives #e10089', () => {
    // r: linear 0.75 → 1.055 · 0.75^(1/2.4) − 0.055 = 0.8808 → 224.6 → 225 (e1); b: 0.25 → 0.5371 → 137 (89).
    expect(
      linearLightCentroid([
        { hex: '#ff0000', weight: 0.3 },
        { hex: '#0000ff', weight: 0.1 },
      ]),
    ).toBe('#e10089');
  });

  it('returns the colour itself for one occurrence, and null when nothing has weight', () => {
    expect(linearLightCentroid([{ hex: '#c08081', weight: 0.2 }])).toBe('#c08081');
    expect(linearLightCentroid([])).toBeNull();
    expect(linearLightCentroid([{ hex: '#c08081', weight: 0 }])).toBeNull();
  });

  it('refuses negative or non-finite weights', () => {
    expect(() => linearLightCentroid([{ hex: '#000000', weight: -1 }])).toThrow(RangeError);
    expect(() => linearLightCentroid([{ hex: '#000000', weight: Number.NaN }])).toThrow(RangeError);
  });
});
