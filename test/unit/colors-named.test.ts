import { colornames } from 'color-name-list';
import { differenceCiede2000 } from 'culori';
import fc from 'fast-check';
import { boundQuery, ciede2000LowerBound, T_MAX, type LabBox } from '../../src/colors/ciede2000-bound.js';
import { hexToLab, type Lab } from '../../src/colors/color-space.js';
import { hueWeight } from '../../src/colors/delta-e.js';
import { NamedColorIndex, namedColors, nearestColorName } from '../../src/colors/named-colors.js';
import { startTsWorker } from '../../src/threads/ts-worker.js';
import type { NearestCheckRequest, NearestCheckResult } from '../helpers/color-nearest-check.js';

const culoriDeltaE = differenceCiede2000();
const deltaE = (x: Lab, y: Lab): number => culoriDeltaE({ mode: 'lab65', ...x }, { mode: 'lab65', ...y });

const unit = fc.double({ min: 0, max: 1, noNaN: true });
const byte = fc.integer({ min: 0, max: 255 });
const srgbLab = fc.tuple(byte, byte, byte).map(([r, g, b]) => hexToLab(`#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`));
const anyLab = fc.record({
  l: fc.double({ min: 0, max: 100, noNaN: true }),
  a: fc.double({ min: -130, max: 130, noNaN: true }),
  b: fc.double({ min: -130, max: 130, noNaN: true }),
});
const neutral = fc.double({ min: 0, max: 100, noNaN: true }).map((l) => ({ l, a: 0, b: 0 }));
/** Strongly chromatic blues and violets, where CIEDE2000's rotation term RT is largest. */
const blueish = fc.record({ l: fc.double({ min: 10, max: 70, noNaN: true }), c: fc.double({ min: 20, max: 130, noNaN: true }), h: fc.double({ min: 230, max: 320, noNaN: true }) }).map(({ l, c, h }) => ({
  l,
  a: c * Math.cos((h * Math.PI) / 180),
  b: c * Math.sin((h * Math.PI) / 180),
}));

/** A box with one corner at `at` and sides up to `size`, and a point inside it. */
const boxAndPoint = (at: fc.Arbitrary<Lab>, size: number) =>
  fc.tuple(at, unit, unit, unit, unit, unit, unit).map(([c, w1, w2, w3, f1, f2, f3]) => {
    const box: LabBox = { lMin: c.l, lMax: c.l + w1 * size, aMin: c.a, aMax: c.a + w2 * size, bMin: c.b, bMax: c.b + w3 * size };
    const point = { l: box.lMin + f1 * (box.lMax - box.lMin), a: box.aMin + f2 * (box.aMax - box.aMin), b: box.bMin + f3 * (box.bMax - box.bMin) };
    return { box, point };
  });

describe('named colours: the ΔE00 lower bound behind the tree', () => {
  it.each([
    ['any colours, large boxes', anyLab, anyLab, 80],
    ['any colours, small boxes', anyLab, anyLab, 6],
    ['neutral queries', neutral, anyLab, 30],
    ['blues against blues (largest RT)', blueish, blueish, 10],
    ['sRGB colours against sRGB colours', srgbLab, srgbLab, 4],
  ])('never exceeds culori ΔE00 to a point in the box: %s', (_name, queries, corners, size) => {
    fc.assert(
      fc.property(queries, boxAndPoint(corners, size), (q, { box, point }) => {
        expect(ciede2000LowerBound(boundQuery(q), box)).toBeLessThanOrEqual(deltaE(q, point));
      }),
      { numRuns: 6000 },
    );
  });

  it('is 0 for a box that holds the query', () => {
    const q = { l: 50, a: 10, b: -20 };
    expect(ciede2000LowerBound(boundQuery(q), { lMin: 40, lMax: 60, aMin: 0, aMax: 20, bMin: -30, bMax: -10 })).toBe(0);
  });

  it('bounds the hue weighting T from above over all hues', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }), (h) => {
        expect(hueWeight(h)).toBeLessThanOrEqual(T_MAX);
      }),
      { numRuns: 5000 },
    );
  });
});

describe('named colours: nearest name by CIEDE2000 (spec "Object record": named colour per cluster)', () => {
  const index = namedColors();

  it('holds the whole color-name-list community list', () => {
    expect(index.size).toBe(colornames.length);
    expect(index.size).toBeGreaterThan(30_000);
  });

  it('returns the same name as a full ΔE00 scan (fast-check, whole list, in a worker thread)', async () => {
    // The scan costs 0.3 s per colour inside jest's sandbox (slow Math), 10 ms outside it.
    const worker = startTsWorker<NearestCheckRequest>(new URL('../helpers/color-nearest-check.ts', import.meta.url), { runs: 150, seed: 20261125 });
    const result = await new Promise<NearestCheckResult>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    console.log(
      `nearest named colour over ${result.names} names: k-d tree ${result.treePerSecond.toFixed(0)} lookups/s, full ΔE00 scan ${result.scanPerSecond.toFixed(0)} lookups/s (${(result.treePerSecond / result.scanPerSecond).toFixed(0)}x); ` +
        result.checks.map((c) => `${c.kind}: ${c.runs} colours`).join(', '),
    );
    expect(result.checks.filter((c) => c.failure)).toEqual([]);
    expect(result.checks.every((c) => c.runs === 150)).toBe(true);
  });

  it('returns the same name as a full ΔE00 scan (fast-check, in this thread, a few colours)', () => {
    fc.assert(
      fc.property(fc.oneof(srgbLab, anyLab, neutral, blueish), (lab) => {
        expect(index.nearest(lab)).toEqual(index.nearestByScan(lab));
      }),
      { numRuns: 6 },
    );
  });

  it('names each listed colour by its own name', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: colornames.length - 1 }), (i) => {
        const entry = colornames[i] as { name: string; hex: string };
        const match = nearestColorName(hexToLab(entry.hex));
        expect(match).toEqual({ name: entry.name, hex: entry.hex, deltaE: 0, index: i });
      }),
      { numRuns: 300 },
    );
  });

  it('breaks ties by position in the list, in the tree as in the scan', () => {
    // Equal colours under different names are exact ties: the name earlier in the list wins.
    const list = [
      { name: 'red', hex: '#ff0000' },
      { name: 'zeta teal', hex: '#1f7a7a' },
      { name: 'alpha teal', hex: '#1f7a7a' },
    ];
    const small = new NamedColorIndex(list);
    expect(small.nearest(hexToLab('#1f7a7a'))).toMatchObject({ name: 'zeta teal', index: 1, deltaE: 0 });
    expect(small.nearest(hexToLab('#207b7b'))).toEqual(small.nearestByScan(hexToLab('#207b7b')));
    // Many duplicates spread over the tree's leaves.
    fc.assert(
      fc.property(fc.array(fc.constantFrom<string>('#000000', '#808080', '#c08081', '#1f7a7a', '#ffffff', '#2e5fa8'), { minLength: 1, maxLength: 60 }), srgbLab, (hexes, q) => {
        const index = new NamedColorIndex(hexes.map((hex, i) => ({ name: `n${i}`, hex })));
        const found = index.nearest(q);
        expect(found).toEqual(index.nearestByScan(q));
        expect(hexes.indexOf(found.hex)).toBe(found.index);
      }),
      { numRuns: 200 },
    );
  });
});
