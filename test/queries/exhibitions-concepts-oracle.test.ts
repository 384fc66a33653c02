/**
 * The exhibitions and concepts collection indexes against their pure-SPARQL oracles
 * (queries/exhibitions/oracle-*.rq, queries/concepts/oracle-*.rq) on the demo generation: for every filter
 * alone, every sort key both ways, and random combinations (fast-check), the same ids in the same order.
 */
import fc from 'fast-check';
import { buildCollectionIndex } from '../../src/collection-index/build.js';
import type { CollectionIndex } from '../../src/collection-index/collection-index.js';
import { oracleQuery } from '../../src/collection-index/oracle.js';
import type { RecordTable } from '../../src/collection-index/record-table.js';
import type { SortDirection } from '../../src/collection-index/sort-orders.js';
import type { ResourceKind } from '../../src/engine/kind.js';
import type { ConceptRecord, ExhibitionRecord } from '../../src/harvest/schema.js';
import { CONCEPTS } from '../../src/kinds/concepts/kind.js';
import { EXHIBITIONS } from '../../src/kinds/exhibitions/kind.js';
import { QueryLibrary } from '../../src/queries/library.js';
import { parseSelectJson } from '../../src/records/sparql-json.js';
import type { ServingStore } from '../../src/store/stores.js';
import { Iris } from '../../src/vocab/iris.js';
import { demoData, remoteStoreRun, sourceRecords, TEST_BASE_URL, type DemoData, startDemoStore } from '../helpers/demo.js';

type Params = Record<string, string>;
interface Sort {
  key: string;
  direction: SortDirection;
}

let data: DemoData;
let store: ServingStore;
const queries = new QueryLibrary();
const iris = new Iris(TEST_BASE_URL);
const indexes = new Map<string, CollectionIndex>();

beforeAll(async () => {
  data = await demoData();
  store = await startDemoStore();
  for (const kind of [EXHIBITIONS, CONCEPTS] as unknown as ResourceKind<RecordTable>[]) {
    indexes.set(kind.collection, await buildCollectionIndex({ store, queries, iris }, kind.index, store.generation!.id));
  }
}, 180_000);
afterAll(async () => {
  await store?.close();
});

function fromIndex(kind: ResourceKind, params: Params, sort?: Sort): string[] {
  const filters = kind.index.filters.flatMap((filter) => {
    const active = filter.parse(params);
    return active ? [active] : [];
  });
  return indexes.get(kind.collection)!.select({ filters, sort, offset: 0, limit: Number.MAX_SAFE_INTEGER }).iris;
}

async function fromOracle(kind: ResourceKind, params: Params, sort?: Sort): Promise<Record<string, string>[]> {
  const sparql = oracleQuery(queries, iris, kind.oracle, { filters: kind.oracle.filters(params, iris), sort });
  return parseSelectJson(await store.query(sparql, { format: 'application/sparql-results+json', unionDefaultGraph: true }));
}

const byPid = (a: Record<string, string>, b: Record<string, string>): number => (a.pid! < b.pid! ? -1 : a.pid! > b.pid! ? 1 : 0);

/**
 * The cases of one kind: its filters alone, its sort keys, the key whose order is the Dutch collation, random
 * filters; `modifiedDays` gives the modification day of every public record of the source.
 */
function oracleTests(kind: ResourceKind, collatedKey: string, modifiedDays: () => string[]): void {
  const SINGLE: Params[] = [
    {},
    { language: 'NLD' },
    { language: 'FRA' },
    { language: 'ENG' },
    { language: 'eng' },
    { modifiedSince: '1900-01-01' },
    { modifiedSince: '2015-01-01' },
    { modifiedSince: '2022-03-01' },
    { modifiedSince: '2024-06-15' },
    { modifiedSince: '2099-01-01' },
  ];

  it('lists every public record of the source, unfiltered', async () => {
    expect(await fromOracle(kind, {})).toHaveLength(modifiedDays().length);
    expect(fromIndex(kind, {})).toHaveLength(modifiedDays().length);
  });

  it('agree on modifiedSince on the very days records were modified (the bound is inclusive)', async () => {
    const days = [...new Set(modifiedDays())].sort();
    for (const day of [days[0]!, days[Math.floor(days.length / 2)]!, days[days.length - 1]!]) {
      const oracle = (await fromOracle(kind, { modifiedSince: day })).map((row) => row.record);
      expect(oracle).toHaveLength(modifiedDays().filter((d) => d >= day).length);
      expect(fromIndex(kind, { modifiedSince: day })).toEqual(oracle);
    }
  });

  it.each(SINGLE.map((params) => [JSON.stringify(params), params] as const))('agree on %s', async (_name, params) => {
    const oracle = (await fromOracle(kind, params)).map((row) => row.record);
    expect(fromIndex(kind, params)).toEqual(oracle);
  });

  const plain = kind.index.sortKeys.filter((key) => key !== collatedKey);
  it.each(plain.flatMap((key) => (['asc', 'desc'] as const).map((direction) => [key, direction] as const)))(
    'agree on the order of sortBy=%s sortOrder=%s, missing values last',
    async (key, direction) => {
      const oracle = (await fromOracle(kind, {}, { key, direction })).map((row) => row.record);
      expect(fromIndex(kind, {}, { key, direction })).toEqual(oracle);
    },
  );

  it(`orders sortBy=${collatedKey} by the values the oracle returns, in the Dutch collation, both ways`, async () => {
    const rows = await fromOracle(kind, {}, { key: collatedKey, direction: 'asc' });
    const collator = new Intl.Collator('nl');
    const present = rows.filter((row) => row.sortKey !== undefined).sort((a, b) => collator.compare(a.sortKey!, b.sortKey!) || byPid(a, b));
    const missing = rows.filter((row) => row.sortKey === undefined).sort(byPid);
    expect(missing).toEqual([]);
    const asc = [...present, ...missing].map((row) => row.record);
    const desc = [...[...present].reverse(), ...[...missing].reverse()].map((row) => row.record);
    expect(fromIndex(kind, {}, { key: collatedKey, direction: 'asc' })).toEqual(asc);
    expect(fromIndex(kind, {}, { key: collatedKey, direction: 'desc' })).toEqual(desc);
  });

  it('agree on random combinations of filters and orders', async () => {
    const params = fc.record(
      {
        language: fc.constantFrom('NLD', 'FRA', 'ENG'),
        modifiedSince: fc.constantFrom('2010-01-01', '2018-07-01', '2023-01-31', '2025-05-05'),
      },
      { requiredKeys: [] },
    );
    const sort = fc.option(fc.record({ key: fc.constantFrom(...plain), direction: fc.constantFrom<SortDirection>('asc', 'desc') }), { nil: undefined });
    await fc.assert(
      fc.asyncProperty(params, sort, async (p, s) => {
        const oracle = (await fromOracle(kind, p, s)).map((row) => row.record);
        expect(fromIndex(kind, p, s)).toEqual(oracle);
      }),
      // Fewer in the remote pass: each case is two queries to Virtuoso, and the first pass runs all 30.
      { numRuns: remoteStoreRun() ? 10 : 30 },
    );
  });
}

describe('Exhibitions collection: collection index and SPARQL oracle', () => {
  oracleTests(EXHIBITIONS as unknown as ResourceKind, 'title', () => (sourceRecords(data, 'exhibitions') as ExhibitionRecord[]).filter((e) => e.public).map((e) => e.modified));
});

describe('Concepts collection: collection index and SPARQL oracle', () => {
  oracleTests(CONCEPTS as unknown as ResourceKind, 'label', () => (sourceRecords(data, 'concepts') as ConceptRecord[]).filter((c) => c.public).map((c) => c.modified));
});
