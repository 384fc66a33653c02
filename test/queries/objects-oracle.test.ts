/**
 * The collection index against its pure-SPARQL oracle (queries/objects/oracle-*.rq) on the demo generation:
 * for every filter alone, every sort key both ways, and random combinations (fast-check), the same ids in
 * the same order. On the remote store (test/remote/run.ts) the `conceptSearch` cases and the random
 * combinations are left to the embedded store: their oracle queries (a `skos:broader*` path from every matching
 * concept; three or more EXISTS with a sort) run past the 15 s the remote pass gives a query on Virtuoso.
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
import { itEmbedded, TEST_BASE_URL, startDemoStore } from '../helpers/demo.js';

let store: ServingStore;
let index: CollectionIndex;
const queries = new QueryLibrary();
const iris = new Iris(TEST_BASE_URL);

beforeAll(async () => {
  store = await startDemoStore();
  index = await buildCollectionIndex({ store, queries, iris }, OBJECTS.index, store.generation!.id);
});
afterAll(async () => {
  await store?.close();
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

async function fromOracle(params: Params, sort?: Sort): Promise<Record<string, string>[]> {
  const sparql = oracleQuery(queries, iris, OBJECTS.oracle, { filters: OBJECTS.oracle.filters(params, iris), sort });
  return parseSelectJson(await store.query(sparql, { format: 'application/sparql-results+json', unionDefaultGraph: true }));
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
  { concept: '530001000' },
  { concept: '530001001' },
  { koepels: 'exclude' },
];
/** Single filters whose oracle queries only the embedded store answers within the remote pass's limit. */
const SINGLE_EMBEDDED: Params[] = [{ conceptSearch: 'stoel' }, { conceptSearch: 'glass' }];

describe('Collection index and SPARQL oracle', () => {
  const agreeOn = async (_name: string, params: Params): Promise<void> => {
    const oracle = (await fromOracle(params)).map((row) => row.object);
    expect(fromIndex(params)).toEqual(oracle);
  };
  it.each(SINGLE.map((params) => [JSON.stringify(params), params] as const))('agree on %s', agreeOn);
  itEmbedded().each(SINGLE_EMBEDDED.map((params) => [JSON.stringify(params), params] as const))('agree on %s', agreeOn);

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

  itEmbedded()('agree on random combinations of filters and orders', async () => {
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
        const oracle = (await fromOracle(p, s)).map((row) => row.object);
        expect(fromIndex(p, s)).toEqual(oracle);
      }),
      { numRuns: 30 },
    );
  });
});
