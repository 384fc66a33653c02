/**
 * /v2/id/production on a hand-made source export (a handful of objects written below), harvested into a real
 * generation and served by the real app over a real store worker. Every expected figure is worked out by hand
 * from the records in this file, with the arithmetic in the comments; nothing is read back from the endpoint.
 *
 * The rule (src/kinds/objects/production-density.ts, spec "Production-density record"): an object's years are the
 * union of the years of its production and creation time-spans; each dated, listed (public, healthy, current)
 * object weighs 1, spread evenly over its years (1/|years| per year) whether or not the axis shows them, and
 * only the years on the axis count. A bucket's object_count is the number of objects with a year in it,
 * exact_count the objects dated to one single year that lies in it.
 */
import request from 'supertest';
import fc from 'fast-check';
import type { Express } from 'express';
import { DensityPopulation, densityBuckets, objectYears } from '../../src/kinds/objects/production-density.js';
import { HAND_BASE_URL as BASE, handConcept, handObject, startHandApp, type HandApp, type ObjectOptions } from '../helpers/hand-export.js';
import type { ProductionBucket, ProductionDensity } from '../helpers/production.js';

const OBJECTS = `${BASE}/v2/id/objects`;

/** Every object of the export is a piece of furniture (530000001), so the export has one concept. */
const object = (objectNumber: string, options: ObjectOptions) => handObject(objectNumber, { types: ['530000001'], ...options });

/**
 * The export. Years per listed, dated object (|years| in brackets):
 *   P-01  1925                                  [1]    on display   "Lamp"
 *   P-02  1901–1950                             [50]                 "Stoel"
 *   P-03  production 1944, creation 1977–1990   [1 + 14 = 15]  on display   "Lamp"  (gap 1945–1976)
 *   P-04  1500–1900                             [401]                "Kast"
 *   P-05  undated (a production without date)   excluded       on display   "Lamp"
 *   P-09  creation 2025–2034                    [10]                 "Tafel"
 *   P-10  production 1925 and creation 1925     [1] (the union)      "Lamp"
 *   P-11  production 1910–1920, creation 1915–1930  [21] (union 1910–1930)  on display  "Bank"
 * Not listed, so never counted: P-06 private (1925, "Lamp", on display), P-07 unhealthy (1960, on display),
 * P-08 merged into P-02 (1930, on display).
 */
const RECORDS = [
  object('P-01', { title: 'Lamp één', productions: [[1925, 1925]], onDisplay: true }),
  object('P-02', { title: 'Stoel breed', productions: [[1901, 1950]] }),
  object('P-03', { title: 'Lamp twee', productions: [[1944, 1944]], creations: [[1977, 1990]], onDisplay: true }),
  object('P-04', { title: 'Kast oud', productions: [[1500, 1900]] }),
  { ...object('P-05', { title: 'Lamp zonder datum', onDisplay: true }), productions: [{ techniques: [] }] },
  object('P-06', { title: 'Lamp verborgen', productions: [[1925, 1925]], onDisplay: true, public: false }),
  object('P-07', { title: 'Stoel ziek', productions: [[1960, 1960]], onDisplay: true, healthy: false }),
  object('P-08', { title: 'Stoel samengevoegd', productions: [[1930, 1930]], onDisplay: true, state: { kind: 'merged', into: 'P-02' } }),
  object('P-09', { title: 'Tafel recent', creations: [[2025, 2034]] }),
  object('P-10', { title: 'Lamp dubbel', productions: [[1925, 1925]], creations: [[1925, 1925]] }),
  object('P-11', { title: 'Bank overlap', productions: [[1910, 1920]], creations: [[1915, 1930]], onDisplay: true }),
];

let hand: HandApp;
let app: Express;

beforeAll(async () => {
  hand = await startHandApp({ objects: RECORDS, concepts: [handConcept('530000001', 'meubel')] });
  app = hand.app;
}, 120_000);

afterAll(async () => {
  await hand?.close();
});

async function density(query: string): Promise<ProductionDensity> {
  const res = await request(app).get(`/v2/id/production${query === '' ? '' : `?${query}`}`);
  expect([query, res.status]).toEqual([query, 200]);
  expect(res.headers['content-type']).toMatch(/^application\/ld\+json/);
  return JSON.parse(res.text) as ProductionDensity;
}

/** A bucket with nothing in it: weight 0, shares 0, no spread factor. */
const EMPTY = { weight: 0, share_pct: 0, object_count: 0, exact_count: 0, spread_factor: null };

/** The bucket of `year`, without its filter link (checked separately). */
function figures(doc: ProductionDensity, year: number): Omit<ProductionBucket, 'filter' | 'year'> {
  const bucket = doc.buckets.find((b) => b.year === year);
  if (!bucket) throw new Error(`no bucket ${year} in ${doc['@id']}`);
  const { weight, share_pct, object_count, exact_count, spread_factor } = bucket;
  return { weight, share_pct, object_count, exact_count, spread_factor };
}

/** Years the buckets start at, from `from` by `step` up to `to`. */
const starts = (from: number, to: number, step: number): number[] => Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, i) => from + i * step);

describe('/v2/id/production on a hand-made export', () => {
  it('default axis (1600–2030, buckets of 10): every bucket’s weight, counts, share and spread as worked out by hand', async () => {
    const doc = await density('');
    expect(doc['@id']).toBe(`${BASE}/v2/id/production`);
    expect(doc['@type']).toBe('hydra:Collection');
    expect([doc.bucket_size, doc.year_from, doc.year_to]).toEqual([10, 1600, 2030]);
    // (2030 - 1600) / 10 + 1 = 44 buckets: 1600, 1610, …, 2020, and 2030 alone (the last one ends at yearTo).
    expect(doc.buckets.map((b) => b.year)).toEqual(starts(1600, 2030, 10));
    expect(doc.buckets[0]!.filter).toBe(`${OBJECTS}?date=1600/1609`);
    expect(doc.buckets.at(-1)!.filter).toBe(`${OBJECTS}?date=2030/2030`);

    // total = P-04 301/401 (1600–1900 on the axis of its 401 years) + P-01 1 + P-02 1 + P-03 1 + P-09 6/10
    // (2025–2030 of 2025–2034) + P-10 1 + P-11 1 = 5.6 + 0.750623… = 6.350623… → 6.351.
    // P-05 (undated), P-06 (private), P-07 (unhealthy) and P-08 (merged) weigh nothing (the last three would add 3).
    const total = 5.6 + 301 / 401;
    expect(doc.total_weight).toBe(6.351);

    // 1600 … 1890: only P-04, 10 of its 401 years: 10/401 = 0.024938 → 0.0249; share 0.024938 / 6.350623 = 0.39 %;
    // spread 1 / 0.024938 = 40.1.
    for (const year of starts(1600, 1890, 10)) {
      expect([year, figures(doc, year)]).toEqual([year, { weight: 0.0249, share_pct: 0.39, object_count: 1, exact_count: 0, spread_factor: 40.1 }]);
    }
    // 1900–1909: P-04 1900 (1/401 = 0.002494) + P-02 1901–1909 (9/50 = 0.18) = 0.182494 → 0.1825; 2 objects;
    // share 0.182494 / 6.350623 = 2.87 %; spread 2 / 0.182494 = 10.96 → 11.
    expect(figures(doc, 1900)).toEqual({ weight: 0.1825, share_pct: 2.87, object_count: 2, exact_count: 0, spread_factor: 11 });
    // 1910–1919: P-02 10/50 = 0.2 + P-11 10/21 = 0.476190 → 0.676190 → 0.6762; share 10.65 %; spread 2 / 0.676190 = 2.96 → 3.
    expect(figures(doc, 1910)).toEqual({ weight: 0.6762, share_pct: 10.65, object_count: 2, exact_count: 0, spread_factor: 3 });
    // 1920–1929: P-01 1 + P-10 1 (its two 1925 spans are one year) + P-02 0.2 + P-11 10/21 = 2.676190 → 2.6762;
    // 4 objects, 2 dated to a single year (P-01, P-10); share 2.676190 / 6.350623 = 42.14 %; spread 4 / 2.676190 = 1.49 → 1.5.
    expect(figures(doc, 1920)).toEqual({ weight: 2.6762, share_pct: 42.14, object_count: 4, exact_count: 2, spread_factor: 1.5 });
    // 1930–1939: P-02 0.2 + P-11 1930 1/21 = 0.247619 → 0.2476; share 3.90 %; spread 2 / 0.247619 = 8.08 → 8.1.
    expect(figures(doc, 1930)).toEqual({ weight: 0.2476, share_pct: 3.9, object_count: 2, exact_count: 0, spread_factor: 8.1 });
    // 1940–1949: P-02 0.2 + P-03 1944 1/15 = 0.266667 → 0.2667 (P-03 has 15 years, so not exact); share 4.20 %;
    // spread 2 / (4/15) = 7.5.
    expect(figures(doc, 1940)).toEqual({ weight: 0.2667, share_pct: 4.2, object_count: 2, exact_count: 0, spread_factor: 7.5 });
    // 1950–1959: P-02 1950 only, 1/50 = 0.02; P-03's gap 1945–1976 covers the whole bucket, so it does not count;
    // share 0.02 / 6.350623 = 0.31 %; spread 1 / 0.02 = 50.
    expect(figures(doc, 1950)).toEqual({ weight: 0.02, share_pct: 0.31, object_count: 1, exact_count: 0, spread_factor: 50 });
    // 1960–1969: only the unhealthy P-07 (1960), which is not listed: empty. So are 2000 and 2010.
    for (const year of [1960, 2000, 2010]) expect([year, figures(doc, year)]).toEqual([year, EMPTY]);
    // 1970–1979: P-03 1977–1979 = 3/15 = 0.2; share 3.15 %; spread 5.
    expect(figures(doc, 1970)).toEqual({ weight: 0.2, share_pct: 3.15, object_count: 1, exact_count: 0, spread_factor: 5 });
    // 1980–1989: P-03 10/15 = 0.666667 → 0.6667; share 10.50 %; spread 1.5.
    expect(figures(doc, 1980)).toEqual({ weight: 0.6667, share_pct: 10.5, object_count: 1, exact_count: 0, spread_factor: 1.5 });
    // 1990–1999: P-03 1990 = 1/15 = 0.066667 → 0.0667; share 1.05 %; spread 15.
    expect(figures(doc, 1990)).toEqual({ weight: 0.0667, share_pct: 1.05, object_count: 1, exact_count: 0, spread_factor: 15 });
    // 2020–2029: P-09 2025–2029 = 5/10 = 0.5; share 7.87 %; spread 2.
    expect(figures(doc, 2020)).toEqual({ weight: 0.5, share_pct: 7.87, object_count: 1, exact_count: 0, spread_factor: 2 });
    // 2030 (a one-year last bucket): P-09 2030 = 1/10 = 0.1 (2031–2034 lie off the axis); share 1.57 %; spread 10.
    expect(figures(doc, 2030)).toEqual({ weight: 0.1, share_pct: 1.57, object_count: 1, exact_count: 0, spread_factor: 10 });

    // The shares add up to 100 (up to rounding) and total_weight is the sum of the weights.
    expect(doc.buckets.reduce((sum, b) => sum + b.share_pct, 0)).toBeCloseTo(100, 0);
    expect(doc.buckets.reduce((sum, b) => sum + b.weight, 0)).toBeCloseTo(total, 2);
  });

  it('clamps bucket to 5 … 100: bucket=1 is served as 5, bucket=1000 as 100 (the last bucket 2000–2030 is shorter)', async () => {
    const five = await density('bucket=1');
    expect(five['@id']).toBe(`${BASE}/v2/id/production?bucket=5`);
    expect(five.bucket_size).toBe(5);
    // (2030 - 1600) / 5 + 1 = 87 buckets.
    expect(five.buckets.map((b) => b.year)).toEqual(starts(1600, 2030, 5));
    expect(five.buckets.find((b) => b.year === 1925)!.filter).toBe(`${OBJECTS}?date=1925/1929`);
    // 1925–1929: P-01 1 + P-10 1 + P-02 5/50 = 0.1 + P-11 5/21 = 0.238095 → 2.338095 → 2.3381; 4 objects, 2 exact;
    // share 2.338095 / 6.350623 = 36.82 %; spread 4 / 2.338095 = 1.71 → 1.7.
    expect(figures(five, 1925)).toEqual({ weight: 2.3381, share_pct: 36.82, object_count: 4, exact_count: 2, spread_factor: 1.7 });
    // 1600–1604: P-04 5/401 = 0.012469 → 0.0125; share 0.20 %; spread 401/5 = 80.2.
    expect(figures(five, 1600)).toEqual({ weight: 0.0125, share_pct: 0.2, object_count: 1, exact_count: 0, spread_factor: 80.2 });
    expect(five.total_weight).toBe(6.351);

    for (const query of ['bucket=1000', 'bucket=101']) {
      const hundred = await density(query);
      expect(hundred['@id']).toBe(`${BASE}/v2/id/production?bucket=100`);
      expect(hundred.bucket_size).toBe(100);
      expect(hundred.buckets.map((b) => [b.year, b.filter])).toEqual([
        [1600, `${OBJECTS}?date=1600/1699`],
        [1700, `${OBJECTS}?date=1700/1799`],
        [1800, `${OBJECTS}?date=1800/1899`],
        [1900, `${OBJECTS}?date=1900/1999`],
        [2000, `${OBJECTS}?date=2000/2030`],
      ]);
      // 1600, 1700, 1800: P-04 100/401 = 0.249377 → 0.2494; share 0.249377 / 6.350623 = 3.93 %; spread 4.01 → 4.
      for (const year of [1600, 1700, 1800]) {
        expect([year, figures(hundred, year)]).toEqual([year, { weight: 0.2494, share_pct: 3.93, object_count: 1, exact_count: 0, spread_factor: 4 }]);
      }
      // 1900–1999: P-04 1/401 + P-01, P-02, P-03, P-10, P-11 whole = 5.002494 → 5.0025; 6 objects, 2 exact;
      // share 78.77 %; spread 6 / 5.002494 = 1.2.
      expect(figures(hundred, 1900)).toEqual({ weight: 5.0025, share_pct: 78.77, object_count: 6, exact_count: 2, spread_factor: 1.2 });
      // 2000–2030 (31 years): P-09 2025–2030 = 6/10 = 0.6; share 9.45 %; spread 1.67 → 1.7.
      expect(figures(hundred, 2000)).toEqual({ weight: 0.6, share_pct: 9.45, object_count: 1, exact_count: 0, spread_factor: 1.7 });
      expect(hundred.total_weight).toBe(6.351);
    }
    // Below 5 and above 100 in any spelling the integer parser accepts.
    for (const [query, size] of [
      ['bucket=0', 5],
      ['bucket=-20', 5],
      ['bucket=4', 5],
      ['bucket=5', 5],
      ['bucket=%2B25', 25],
      ['bucket=100', 100],
    ] as const) {
      expect([query, (await density(query)).bucket_size]).toEqual([query, size]);
    }
  });

  it('clamps yearFrom to ≥ 1 and yearTo to ≤ 2100; on the axis 1–2100 total_weight is the number of dated listed objects', async () => {
    const low = await density('yearFrom=0');
    expect([low.year_from, low.year_to, low['@id']]).toEqual([1, 2030, `${BASE}/v2/id/production?yearFrom=1`]);
    expect(low.buckets[0]!.filter).toBe(`${OBJECTS}?date=1/10`);
    expect((await density('yearFrom=-5000')).year_from).toBe(1);

    const high = await density('yearTo=3000');
    expect([high.year_from, high.year_to, high['@id']]).toEqual([1600, 2100, `${BASE}/v2/id/production?yearTo=2100`]);
    // Buckets 1600 … 2100; the last one is the single year 2100.
    expect(high.buckets.map((b) => b.year)).toEqual(starts(1600, 2100, 10));
    expect(high.buckets.at(-1)!.filter).toBe(`${OBJECTS}?date=2100/2100`);
    // P-09 2025–2034 now lies wholly on the axis: 2020 bucket 5/10, 2030 bucket 2030–2034 = 5/10.
    expect(figures(high, 2030)).toEqual({ weight: 0.5, share_pct: 7.41, object_count: 1, exact_count: 0, spread_factor: 2 });
    // total = 301/401 + 6 = 6.750623 → 6.751; share of 2030: 0.5 / 6.750623 = 7.41 %.
    expect(high.total_weight).toBe(6.751);

    // yearFrom=1&yearTo=2100 (and 0 / 3000, clamped to it): every year of every object is on the axis, so each of
    // the 7 dated listed objects (P-01, P-02, P-03, P-04, P-09, P-10, P-11) weighs 1 in full: total 7.
    for (const query of ['yearFrom=1&yearTo=2100&bucket=100', 'yearFrom=0&yearTo=3000&bucket=100']) {
      const all = await density(query);
      expect([all.year_from, all.year_to, all.bucket_size]).toEqual([1, 2100, 100]);
      expect(all.total_weight).toBe(7);
      // Buckets 1, 101, …, 2001 (21 of them; 2001–2100 is a full hundred years).
      expect(all.buckets.map((b) => b.year)).toEqual(starts(1, 2100, 100));
      expect(all.buckets.at(-1)!.filter).toBe(`${OBJECTS}?date=2001/2100`);
      // 1401–1500: P-04's first year, 1/401 = 0.002494 → 0.0025; share 0.002494 / 7 = 0.04 %; spread 401.
      expect(figures(all, 1401)).toEqual({ weight: 0.0025, share_pct: 0.04, object_count: 1, exact_count: 0, spread_factor: 401 });
      // 1901–2000: P-01, P-02, P-03, P-10, P-11 whole = 5; share 5/7 = 71.43 %; spread 1.
      expect(figures(all, 1901)).toEqual({ weight: 5, share_pct: 71.43, object_count: 5, exact_count: 2, spread_factor: 1 });
      // 2001–2100: P-09 whole = 1; share 14.29 %.
      expect(figures(all, 2001)).toEqual({ weight: 1, share_pct: 14.29, object_count: 1, exact_count: 0, spread_factor: 1 });
    }
  });

  it('serves one-year axes at both ends of the year range', async () => {
    for (const year of [1, 2100]) {
      const doc = await density(`yearFrom=${year}&yearTo=${year}`);
      expect([doc.year_from, doc.year_to, doc.total_weight]).toEqual([year, year, 0]);
      expect(doc.buckets).toEqual([{ year, ...EMPTY, filter: `${OBJECTS}?date=${year}/${year}` }]);
    }
  });

  it('divides a span clipped by yearFrom by its recorded length: 1500–1900 on an axis from 1700 weighs 201/401', async () => {
    const doc = await density('yearFrom=1700');
    expect([doc.year_from, doc['@id']]).toEqual([1700, `${BASE}/v2/id/production?yearFrom=1700`]);
    expect(doc.buckets[0]!.year).toBe(1700);
    // P-04 on the axis: 1700–1900 = 201 of its 401 years. total = 201/401 + 5.6 = 6.101247 → 6.101.
    expect(doc.total_weight).toBe(6.101);
    // 1700–1709: 10/401 → 0.0249; share 0.024938 / 6.101247 = 0.41 %.
    expect(figures(doc, 1700)).toEqual({ weight: 0.0249, share_pct: 0.41, object_count: 1, exact_count: 0, spread_factor: 40.1 });
    // Sum of P-04's buckets 1700 … 1900: 20 × 10/401 + 1/401 = 201/401 = 0.501247 (to rounding of the parts).
    const p04 = doc.buckets.filter((b) => b.year < 1900).reduce((sum, b) => sum + b.weight, 0) + 1 / 401;
    expect(p04).toBeCloseTo(201 / 401, 2);

    // From 1951 P-02 (1901–1950) lies wholly before the axis and drops out; so do P-01, P-04, P-10, P-11.
    // total = P-03 1977–1990 (14/15 = 0.933333) + P-09 2025–2030 (6/10) = 1.533333 → 1.533.
    const late = await density('yearFrom=1951');
    expect(late.total_weight).toBe(1.533);
    // Buckets 1951, 1961, …, 2021 (the last one 2021–2030, a full ten years).
    expect(late.buckets.map((b) => b.year)).toEqual(starts(1951, 2030, 10));
    expect(late.buckets.at(-1)!.filter).toBe(`${OBJECTS}?date=2021/2030`);
    // 1951–1960: only the unhealthy P-07 (1960): empty. 1981–1990: P-03 10/15 = 0.666667 → 0.6667; share
    // 0.666667 / 1.533333 = 43.48 %; spread 1.5.
    expect(figures(late, 1951)).toEqual(EMPTY);
    expect(figures(late, 1981)).toEqual({ weight: 0.6667, share_pct: 43.48, object_count: 1, exact_count: 0, spread_factor: 1.5 });
    // 2021–2030: P-09 0.6; share 0.6 / 1.533333 = 39.13 %.
    expect(figures(late, 2021)).toEqual({ weight: 0.6, share_pct: 39.13, object_count: 1, exact_count: 0, spread_factor: 1.7 });
  });

  it('ends the last bucket at yearTo when the axis is not a whole number of buckets', async () => {
    const doc = await density('yearFrom=1900&yearTo=1935');
    expect(doc.buckets.map((b) => [b.year, b.filter])).toEqual([
      [1900, `${OBJECTS}?date=1900/1909`],
      [1910, `${OBJECTS}?date=1910/1919`],
      [1920, `${OBJECTS}?date=1920/1929`],
      [1930, `${OBJECTS}?date=1930/1935`],
    ]);
    // total = P-04 1900 (1/401) + P-02 1901–1935 (35/50 = 0.7) + P-01 1 + P-10 1 + P-11 1 = 3.702494 → 3.702
    // (P-03 1944 and P-09 lie off the axis).
    expect(doc.total_weight).toBe(3.702);
    // 1930–1935 (6 years): P-02 6/50 = 0.12 + P-11 1/21 = 0.047619 → 0.167619 → 0.1676; share 0.167619 / 3.702494 = 4.53 %;
    // spread 2 / 0.167619 = 11.93 → 11.9.
    expect(figures(doc, 1930)).toEqual({ weight: 0.1676, share_pct: 4.53, object_count: 2, exact_count: 0, spread_factor: 11.9 });
    // 1920–1929 is unchanged in weight, its share grows: 2.676190 / 3.702494 = 72.28 %.
    expect(figures(doc, 1920)).toEqual({ weight: 2.6762, share_pct: 72.28, object_count: 4, exact_count: 2, spread_factor: 1.5 });
    // A one-year axis is one bucket.
    const one = await density('yearFrom=1925&yearTo=1925');
    // 1925: P-01 1 + P-10 1 + P-02 1/50 + P-11 1/21 = 2.067619 → 2.0676; 4 objects, 2 exact; share 100.
    expect(one.buckets).toEqual([
      { year: 1925, weight: 2.0676, share_pct: 100, object_count: 4, exact_count: 2, spread_factor: 1.9, filter: `${OBJECTS}?date=1925/1925` },
    ]);
    expect(one.total_weight).toBe(2.068);
  });

  it('narrows to the objects a text query selects, and to those on display (or not), carrying both in the filter links', async () => {
    // q=lamp: titles P-01, P-03, P-05 (undated), P-06 (private), P-10 → dated and listed: P-01, P-03, P-10: total 3.
    const lamp = await density('q=lamp');
    expect(lamp['@id']).toBe(`${BASE}/v2/id/production?q=lamp`);
    expect(lamp.total_weight).toBe(3);
    // 1920: P-01 + P-10 = 2, both exact; share 2/3 = 66.67 %; spread 1.
    expect(figures(lamp, 1920)).toEqual({ weight: 2, share_pct: 66.67, object_count: 2, exact_count: 2, spread_factor: 1 });
    // 1940: P-03 1/15 → 0.0667; share 2.22 %; 1980: P-03 10/15 → 0.6667, share 22.22 %.
    expect(figures(lamp, 1940)).toEqual({ weight: 0.0667, share_pct: 2.22, object_count: 1, exact_count: 0, spread_factor: 15 });
    expect(figures(lamp, 1980)).toEqual({ weight: 0.6667, share_pct: 22.22, object_count: 1, exact_count: 0, spread_factor: 1.5 });
    // P-04 and P-02 are not lamps: 1600 and 1910 are empty.
    expect(figures(lamp, 1600)).toEqual(EMPTY);
    expect(figures(lamp, 1910)).toEqual(EMPTY);
    expect(lamp.buckets.find((b) => b.year === 1920)!.filter).toBe(`${OBJECTS}?date=1920/1929&q=lamp`);

    // onDisplay=true: P-01, P-03, P-11 (P-05 undated; P-06, P-07, P-08 not listed): total 3.
    for (const value of ['true', '1']) {
      const shown = await density(`onDisplay=${value}`);
      expect(shown['@id']).toBe(`${BASE}/v2/id/production?onDisplay=true`);
      expect(shown.total_weight).toBe(3);
      // 1920: P-01 1 + P-11 10/21 = 1.476190 → 1.4762; 2 objects, 1 exact; share 49.21 %; spread 1.35 → 1.4.
      expect(figures(shown, 1920)).toEqual({ weight: 1.4762, share_pct: 49.21, object_count: 2, exact_count: 1, spread_factor: 1.4 });
      // 1910: P-11 10/21 = 0.476190 → 0.4762; share 15.87 %; spread 2.1.
      expect(figures(shown, 1910)).toEqual({ weight: 0.4762, share_pct: 15.87, object_count: 1, exact_count: 0, spread_factor: 2.1 });
      expect(figures(shown, 1600)).toEqual(EMPTY);
      expect(shown.buckets.find((b) => b.year === 1920)!.filter).toBe(`${OBJECTS}?date=1920/1929&onDisplay=true`);
    }
    // onDisplay=false: P-02, P-04, P-09, P-10: total 1 + 301/401 + 0.6 + 1 = 3.350623 → 3.351.
    const hidden = await density('onDisplay=false');
    expect(hidden.total_weight).toBe(3.351);
    // 1920: P-10 1 + P-02 0.2 = 1.2; 2 objects, 1 exact; share 1.2 / 3.350623 = 35.81 %; spread 1.67 → 1.7.
    expect(figures(hidden, 1920)).toEqual({ weight: 1.2, share_pct: 35.81, object_count: 2, exact_count: 1, spread_factor: 1.7 });

    // Both: P-01 and P-03: total 2; 1920: P-01 alone, share 50 %.
    const both = await density('q=lamp&onDisplay=true');
    expect(both['@id']).toBe(`${BASE}/v2/id/production?onDisplay=true&q=lamp`);
    expect(both.total_weight).toBe(2);
    expect(figures(both, 1920)).toEqual({ weight: 1, share_pct: 50, object_count: 1, exact_count: 1, spread_factor: 1 });
    expect(both.buckets.find((b) => b.year === 1920)!.filter).toBe(`${OBJECTS}?date=1920/1929&onDisplay=true&q=lamp`);

    // A query nothing matches: every bucket empty, total 0, no division by zero.
    const none = await density('q=zeppelin');
    expect(none.total_weight).toBe(0);
    expect(none.buckets).toHaveLength(44);
    for (const bucket of none.buckets) expect(bucket).toEqual({ year: bucket.year, ...EMPTY, filter: `${OBJECTS}?date=${bucket.year}/${Math.min(bucket.year + 9, 2030)}&q=zeppelin` });
  });

  it('answers 400 {error} for a non-integer parameter, a repeated one, or yearFrom after yearTo', async () => {
    for (const query of [
      'bucket=abc',
      'bucket=10.0',
      'yearFrom=1.5',
      'yearFrom=1e3',
      'yearTo=twee',
      'yearFrom=1900&yearTo=1800',
      'yearFrom=2200',
      'yearFrom=2101&yearTo=3000',
      'yearTo=0',
      'bucket=5&bucket=10',
      'onDisplay=yes',
    ]) {
      const res = await request(app).get(`/v2/id/production?${query}`);
      expect([query, res.status]).toEqual([query, 400]);
      expect(res.headers['content-type']).toMatch(/json/);
      expect(Object.keys(res.body as object)).toEqual(['error']);
      expect(typeof (res.body as { error: unknown }).error).toBe('string');
    }
  });

  it('treats an empty value as absent, as the collections do', async () => {
    const doc = await density('bucket=&yearFrom=');
    expect([doc['@id'], doc.bucket_size, doc.year_from]).toEqual([`${BASE}/v2/id/production`, 10, 1600]);
  });

  it('every bucket’s object_count is the hydra:totalItems of its filter link, followed on the app', async () => {
    const queries = [
      '',
      'bucket=5',
      'bucket=100',
      'yearFrom=1700',
      'yearFrom=1900&yearTo=1935',
      'yearFrom=1&yearTo=2100&bucket=100',
      'yearTo=2100',
      'q=lamp',
      'onDisplay=true',
      'onDisplay=false',
      'q=lamp&onDisplay=true',
      'q=stoel&onDisplay=0',
    ];
    for (const query of queries) {
      const doc = await density(query);
      for (const bucket of doc.buckets) {
        expect(bucket.filter.startsWith(`${OBJECTS}?date=`)).toBe(true);
        const res = await request(app).get(bucket.filter.slice(BASE.length));
        expect([query, bucket.filter, res.status]).toEqual([query, bucket.filter, 200]);
        const total = (JSON.parse(res.text) as { 'hydra:totalItems': number })['hydra:totalItems'];
        expect([query, bucket.filter, bucket.object_count]).toEqual([query, bucket.filter, total]);
      }
    }
    // And the objects collection agrees with the hand count where the gap matters: P-03 is not in 1950–1959.
    const fifties = await request(app).get('/v2/id/objects?date=1950/1959');
    expect((JSON.parse(fifties.text) as { 'hydra:member': { '@id': string }[] })['hydra:member'].map((m) => m['@id'])).toEqual([`${BASE}/v2/id/object/P-02`]);
  });

  it('sends weak ETags that change with the query, Last-Modified and Cache-Control, and 304 on If-None-Match', async () => {
    const first = await request(app).get('/v2/id/production');
    expect(first.headers.etag).toMatch(/^W\/"/);
    expect(first.headers['cache-control']).toBe('public, max-age=3600');
    expect(Number.isNaN(Date.parse(first.headers['last-modified'] as string))).toBe(false);
    const again = await request(app).get('/v2/id/production').set('If-None-Match', first.headers.etag as string);
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    // bucket=1 and bucket=5 are the same canonical query, so the same document and tag; bucket=20 is not.
    const five = await request(app).get('/v2/id/production?bucket=1');
    expect(five.headers.etag).toBe((await request(app).get('/v2/id/production?bucket=5')).headers.etag);
    expect(five.headers.etag).not.toBe(first.headers.etag);
    const q = await request(app).get('/v2/id/production?q=lamp');
    expect(new Set([first.headers.etag, five.headers.etag, q.headers.etag, (await request(app).get('/v2/id/production?q=stoel')).headers.etag]).size).toBe(4);
    const head = await request(app).head('/v2/id/production?q=lamp');
    expect(head.status).toBe(200);
    expect(head.headers.etag).toBe(q.headers.etag);
  });
});

/**
 * The density functions against a brute-force count on random objects (0–3 spans each, some partly or wholly
 * off the 1–2100 axis, overlapping, adjacent or with gaps) and random axes and sub-populations: every year of
 * every object enumerated, no prefix sums.
 */
describe('density functions against a year-by-year count', () => {
  const span = fc.tuple(fc.integer({ min: -30, max: 2130 }), fc.integer({ min: 0, max: 80 })).map(([begin, length]): [number, number] => [begin, begin + length]);
  const objects = fc.array(fc.array(span, { maxLength: 3 }), { minLength: 1, maxLength: 25 });
  const axis = fc
    .tuple(fc.integer({ min: 1, max: 2100 }), fc.integer({ min: 1, max: 2100 }), fc.integer({ min: 1, max: 120 }))
    .map(([a, b, bucket]) => ({ yearFrom: Math.min(a, b), yearTo: Math.max(a, b), bucket }));

  it('gives the weight, object_count and exact_count of a brute-force count', () => {
    fc.assert(
      fc.property(objects, axis, fc.array(fc.boolean(), { minLength: 25, maxLength: 25 }), (spans, ax, chosen) => {
        const flat = spans.flatMap((list, id) => list.map(([begin, end]) => ({ id, begin, end })));
        // Span rows in a scrambled order, as the store may return them.
        flat.reverse();
        const years = objectYears(spans.length, {
          object: flat.map((s) => s.id),
          begin: flat.map((s) => s.begin),
          end: flat.map((s) => s.end),
        });
        const ids = spans.map((_, id) => id).filter((id) => chosen[id]);
        const buckets = densityBuckets(new DensityPopulation(years, ids), ax);
        const yearSets = spans.map((list) => new Set(list.flatMap(([begin, end]) => Array.from({ length: end - begin + 1 }, (_, i) => begin + i))));
        expect(buckets.map((b) => b.year)).toEqual(Array.from({ length: Math.floor((ax.yearTo - ax.yearFrom) / ax.bucket) + 1 }, (_, i) => ax.yearFrom + i * ax.bucket));
        for (const b of buckets) {
          expect(b.lastYear).toBe(Math.min(b.year + ax.bucket - 1, ax.yearTo));
          let weight = 0;
          let count = 0;
          let exact = 0;
          for (const id of ids) {
            const all = yearSets[id]!;
            const inside = [...all].filter((y) => y >= b.year && y <= b.lastYear).length;
            if (inside > 0) count++;
            if (all.size > 0) weight += inside / all.size;
            if (all.size === 1 && inside === 1) exact++;
          }
          expect([b.year, b.objectCount, b.exactCount]).toEqual([b.year, count, exact]);
          expect(Math.abs(b.weight - weight)).toBeLessThan(1e-9);
        }
      }),
      { numRuns: 150 },
    );
  });
});
