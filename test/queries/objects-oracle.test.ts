/**
 * The collection index against its pure-SPARQL oracle (queries/objects/oracle-*.rq) on the demo generation:
 * for every filter alone, every sort key both ways, and random combinations (fast-check), the same ids in
 * the same order. The index is built from the store under test (the embedded store, or Virtuoso in the remote
 * pass, test/remote/run.ts). Most oracle queries run on that store too; the ones Virtuoso cannot be trusted
 * with run on an embedded store of the same generation in the remote pass, so the index built from the
 * server's answers is still checked against them:
 *
 * - the concept filters (`concept`, `conceptSearch`): a `skos:broader*` path. Virtuoso 7.2 answered it wrongly
 *   in two remote passes of eight (CI and a local run, 2026-11-27): for `concept=530001000` it listed 41 objects
 *   typed below the concept's external parent (AAT 300264092) and left out 2017-0095_2-3, whose type 530001003
 *   is below 530001000 (concepts.jsonl); the index built from the server agreed with the source. The other
 *   passes, and 60 repetitions in one pass, answered right: a plan chosen on some runs, not yet isolated, is
 *   the likely cause. `conceptSearch` from every matching concept also ran past the pass's 15 s limit.
 * - the random combinations: three or more EXISTS with a sort run past that limit on Virtuoso.
 */
import fc from 'fast-check';
import { buildCollectionIndex } from '../../src/collection-index/build.js';
import type { CollectionIndex } from '../../src/collection-index/collection-index.js';
import { oracleQuery } from '../../src/collection-index/oracle.js';
import type { SortDirection } from '../../src/collection-index/sort-orders.js';
import { OBJECTS } from '../../src/kinds/objects/kind.js';
import { OBJECT_FILTERS } from '../../src/kinds/objects/filters/index.js';
import { SORT_KEYS, type SortKey } from '../../src/kinds/objects/sorts.js';
import { QueryLibrary } from '../../src/queries/library.js';
import { parseSelectJson } from '../../src/records/sparql-json.js';
import type { ServingStore } from '../../src/store/stores.js';
import { Iris } from '../../src/vocab/iris.js';
import { remoteStoreRun, TEST_BASE_URL, startDemoStore } from '../helpers/demo.js';

let store: ServingStore;
/** The store the path and combination oracles run on: `store`, or in the remote pass an embedded one. */
let trusted: ServingStore;
let index: CollectionIndex;
const queries = new QueryLibrary();
const iris = new Iris(TEST_BASE_URL);

beforeAll(async () => {
  store = await startDemoStore();
  trusted = remoteStoreRun() ? await startDemoStore({ embedded: true }) : store;
  index = await buildCollectionIndex({ store, queries, iris }, OBJECTS.index, store.generation!.id);
});
afterAll(async () => {
  await store?.close();
  if (trusted !== store) await trusted?.close();
});

type Params = Record<string, string>;
interface Sort {
  key: SortKey;
  direction: SortDirection;
}

function fromIndex(params: Params, sort?: Sort): string[] {
  const filters = OBJECT_FILTERS.flatMap((filter) => {
    const active = filter.parse(params);
    return active ? [active] : [];
  });
  return index.select({ filters, sort, offset: 0, limit: Number.MAX_SAFE_INTEGER }).iris;
}

async function fromOracle(params: Params, sort?: Sort, on: ServingStore = store): Promise<Record<string, string>[]> {
  const sparql = oracleQuery(queries, iris, OBJECTS.oracle, { filters: OBJECTS.oracle.filters(params, iris), sort });
  return parseSelectJson(await on.query(sparql, { format: 'application/sparql-results+json', unionDefaultGraph: true }));
}

const SINGLE: Params[] = [
  {},
  { hasImages: 'true' },
  { hasParts: 'true' },
  { isPartOf: 'true' },
  { onDisplay: 'true' },
  { onDisplay: 'false' },
  { language: 'NLD' },
  { language: 'FRA' },
  { language: 'ENG' },
  { modifiedSince: '2023-06-15' },
  { type: 'vaas' },
  { type: 'Stoel' },
  { material: 'glas' },
  { material: 'glas,zilver' },
  { agent: 'DMG-A-00198' },
  { date: '1900/1950' },
  { date: '1960/..' },
  { dateFrom: '2000' },
  { dateTo: '1800' },
  { koepels: 'exclude' },
];
/** The concept filters, whose oracle is a `skos:broader*` path (run on `trusted`). */
const CONCEPTS: Params[] = [{ concept: '530001000' }, { concept: '530001001' }, { conceptSearch: 'stoel' }, { conceptSearch: 'glass' }];

describe('Collection index and SPARQL oracle', () => {
  it.each(SINGLE.map((params) => [JSON.stringify(params), params] as const))('agree on %s', async (_name, params) => {
    const oracle = (await fromOracle(params)).map((row) => row.object);
    expect(fromIndex(params)).toEqual(oracle);
  });
  it.each(CONCEPTS.map((params) => [JSON.stringify(params), params] as const))('agree on %s (the oracle on the embedded store in the remote pass)', async (_name, params) => {
    const oracle = (await fromOracle(params, undefined, trusted)).map((row) => row.object);
    expect(oracle.length).toBeGreaterThan(0);
    expect(fromIndex(params)).toEqual(oracle);
  });

  const NON_TITLE = SORT_KEYS.filter((key) => !key.startsWith('title'));
  it.each(NON_TITLE.flatMap((key) => (['asc', 'desc'] as const).map((direction) => [key, direction] as const)))(
    'agree on the order of sortBy=%s sortOrder=%s, missing values last',
    async (key, direction) => {
      const oracle = (await fromOracle({}, { key, direction })).map((row) => row.object);
      expect(fromIndex({}, { key, direction })).toEqual(oracle);
    },
  );

  it.each([
    ['titleNL', 'nl'],
    ['titleFR', 'fr'],
    ['titleEN', 'en'],
  ] as const)('orders %s by the titles the oracle returns, in the language collation, missing last', async (key, lang) => {
    const rows = await fromOracle({}, { key, direction: 'asc' });
    const collator = new Intl.Collator(lang);
    const byNumber = (a: Record<string, string>, b: Record<string, string>): number => (a.number! < b.number! ? -1 : a.number! > b.number! ? 1 : 0);
    const present = rows.filter((row) => row.sortKey !== undefined).sort((a, b) => collator.compare(a.sortKey!, b.sortKey!) || byNumber(a, b));
    const missing = rows.filter((row) => row.sortKey === undefined).sort(byNumber);
    expect(missing.length).toBeGreaterThan(0);
    expect(fromIndex({}, { key, direction: 'asc' })).toEqual([...present, ...missing].map((row) => row.object));
    expect(fromIndex({}, { key, direction: 'desc' })).toEqual([...present.reverse(), ...missing.reverse()].map((row) => row.object));
  });

  it('agree on random combinations of filters and orders (the oracle on the embedded store in the remote pass)', async () => {
    const params = fc.record(
      {
        hasImages: fc.constant('true'),
        hasParts: fc.constant('true'),
        isPartOf: fc.constant('true'),
        onDisplay: fc.constantFrom('true', 'false'),
        language: fc.constantFrom('NLD', 'FRA', 'ENG'),
        modifiedSince: fc.constantFrom('2015-01-01', '2022-03-01'),
        type: fc.constantFrom('vaas', 'stoel', 'theepot'),
        material: fc.constantFrom('glas', 'zilver', 'porselein'),
        date: fc.constantFrom('1850/1950', '1900/..', '../1930'),
        dateFrom: fc.constantFrom('1920', '1960'),
        dateTo: fc.constantFrom('1940', '2000'),
        concept: fc.constantFrom('530001000', '530001050', '530001100'),
        conceptSearch: fc.constantFrom('glas', 'stoel', 'art'),
        koepels: fc.constant('exclude'),
      },
      { requiredKeys: [] },
    );
    const sort = fc.option(fc.record({ key: fc.constantFrom(...NON_TITLE), direction: fc.constantFrom<SortDirection>('asc', 'desc') }), { nil: undefined });
    await fc.assert(
      fc.asyncProperty(params, sort, async (p, s) => {
        const oracle = (await fromOracle(p, s, trusted)).map((row) => row.object);
        expect(fromIndex(p, s)).toEqual(oracle);
      }),
      { numRuns: 30 },
    );
  });
});
