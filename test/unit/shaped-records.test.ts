/**
 * The packing of finished records between a store worker and the main thread (src/store/shaped-records.ts):
 * any bodies come back exactly, whatever characters they hold, and a damaged answer fails loudly rather than
 * cutting records at the wrong place.
 */
import fc from 'fast-check';
import { packShapedRecords, unpackShapedRecords, type ShapedRecord } from '../../src/store/shaped-records.js';

const iri = fc.webUrl().filter((url) => !/[\t\n]/.test(url));
const record: fc.Arbitrary<ShapedRecord> = fc.record(
  {
    body: fc.string({ unit: 'binary' }),
    viewBody: fc.string({ unit: 'binary' }),
    digest: fc.stringMatching(/^[A-Za-z0-9_-]{16}$/),
    viewDigest: fc.stringMatching(/^[A-Za-z0-9_-]{16}$/),
    harvestedAt: fc.integer({ min: 0, max: 4102444800000 }),
  },
  { requiredKeys: ['body', 'digest', 'harvestedAt'] },
).map((r) => (r.viewBody === undefined || r.viewDigest === undefined ? { body: r.body, digest: r.digest, harvestedAt: r.harvestedAt } : r));

describe('Finished records packed in one answer', () => {
  it('come back as they were sent, bodies with tabs, line breaks and any Unicode included', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(iri, record), { selector: ([key]) => key, maxLength: 30 }), (records) => {
        const unpacked = unpackShapedRecords(packShapedRecords(records));
        expect([...unpacked]).toEqual(records);
      }),
      { numRuns: 300 },
    );
  });

  it('answer nothing for no records', () => {
    expect(packShapedRecords([])).toBe('');
    expect(unpackShapedRecords('').size).toBe(0);
  });

  it('refuse an answer cut short or with a damaged head', () => {
    const packed = packShapedRecords([['http://x/1', { body: '{"a":1}', viewBody: '{"a":1,"b":2}', digest: 'd1', viewDigest: 'd2', harvestedAt: 5 }]]);
    expect(() => unpackShapedRecords(packed.slice(0, -3))).toThrow(/runs past the answer/);
    expect(() => unpackShapedRecords(`x\t${packed}`)).toThrow(/bad head/);
    expect(() => unpackShapedRecords('no head line at all')).toThrow(/bad head/);
  });
});
