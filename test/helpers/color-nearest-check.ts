/**
 * Worker thread for colors-named.test.ts: checks with fast-check that the k-d tree returns the same name as
 * a full ΔE00 scan over the whole list, and measures both. It runs outside jest's module sandbox, where
 * every Math call costs about a hundred times more and a full scan would take a third of a second.
 */
import fc from 'fast-check';
import { parentPort, workerData } from 'node:worker_threads';
import { hexToLab, type Lab } from '../../src/colors/color-space.js';
import { namedColors } from '../../src/colors/named-colors.js';

export interface NearestCheckRequest {
  runs: number;
  seed: number;
}

export interface NearestCheckResult {
  /** Per kind of colour: runs made and the first counterexample, if any. */
  checks: { kind: string; runs: number; failure?: string }[];
  treePerSecond: number;
  scanPerSecond: number;
  names: number;
}

const { runs, seed } = (workerData as { data: NearestCheckRequest }).data;
const index = namedColors();

const byte = fc.integer({ min: 0, max: 255 });
const kinds: [string, fc.Arbitrary<Lab>][] = [
  ['sRGB colours', fc.tuple(byte, byte, byte).map(([r, g, b]) => hexToLab(`#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`))],
  ['any Lab colours', fc.record({ l: fc.double({ min: 0, max: 100, noNaN: true }), a: fc.double({ min: -130, max: 130, noNaN: true }), b: fc.double({ min: -130, max: 130, noNaN: true }) })],
  ['neutral greys', fc.double({ min: 0, max: 100, noNaN: true }).map((l) => ({ l, a: 0, b: 0 }))],
  [
    'strong blues and violets',
    fc.record({ l: fc.double({ min: 10, max: 70, noNaN: true }), c: fc.double({ min: 20, max: 130, noNaN: true }), h: fc.double({ min: 230, max: 320, noNaN: true }) }).map(({ l, c, h }) => ({ l, a: c * Math.cos((h * Math.PI) / 180), b: c * Math.sin((h * Math.PI) / 180) })),
  ],
];

const checks = kinds.map(([kind, arbitrary]) => {
  const details = fc.check(
    fc.property(arbitrary, (lab) => {
      const tree = index.nearest(lab);
      const scan = index.nearestByScan(lab);
      return tree.index === scan.index && tree.deltaE === scan.deltaE;
    }),
    { numRuns: runs, seed },
  );
  return { kind, runs: details.numRuns, ...(details.failed ? { failure: JSON.stringify(details.counterexample) } : {}) };
});

const queries: Lab[] = [];
for (let r = 0; r < 256; r += 23) for (let g = 0; g < 256; g += 29) for (let b = 0; b < 256; b += 31) queries.push(hexToLab(`#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`));
const perSecond = (f: (q: Lab) => unknown, qs: Lab[]): number => {
  const started = performance.now();
  for (const q of qs) f(q);
  return (qs.length / (performance.now() - started)) * 1000;
};
perSecond((q) => index.nearest(q), queries);
const result: NearestCheckResult = {
  checks,
  treePerSecond: perSecond((q) => index.nearest(q), queries),
  scanPerSecond: perSecond((q) => index.nearestByScan(q), queries.slice(0, 50)),
  names: index.size,
};
parentPort?.postMessage(result);
