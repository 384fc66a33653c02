/**
 * Builds the collection index of the generation the store serves: the `objects/index-*` SELECT queries, then
 * the object table, the sort orders, the full-text index and whatever each filter prepares. Runs once per
 * generation (index-manager.ts decides when), never per request.
 */
import { performance } from 'node:perf_hooks';
import type { QueryCatalogue } from '../queries/catalogue.js';
import type { BoundTerm } from '../queries/terms.js';
import { parseSelectJson } from '../records/sparql-json.js';
import type { QueryStore } from '../store/types.js';
import type { Iris } from '../vocab/iris.js';
import { CollectionIndex } from './collection-index.js';
import type { ObjectFilter, SelectRows } from './filters/filter.js';
import { buildObjectTable, type IndexRows } from './object-table.js';
import { buildSortOrders } from './sort-orders.js';
import { TextIndex } from './text/text-index.js';

export interface IndexDependencies {
  store: QueryStore;
  queries: QueryCatalogue;
  iris: Iris;
  filters: readonly ObjectFilter[];
}

/** Query names per part of the index rows (queries/objects/index-*.rq). */
export const INDEX_QUERIES: Record<keyof IndexRows, string> = {
  objects: 'objects/index-objects',
  titles: 'objects/index-titles',
  descriptions: 'objects/index-descriptions',
  concepts: 'objects/index-concepts',
  dates: 'objects/index-dates',
  agents: 'objects/index-agents',
  broader: 'objects/index-concept-broader',
  conceptLabels: 'objects/index-concept-labels',
};

/** A SelectRows over the catalogue; the admin graph is bound for queries that declare it. */
export function selectRows(deps: Pick<IndexDependencies, 'store' | 'queries' | 'iris'>): SelectRows {
  return async (name, bindings: Record<string, BoundTerm> = {}) => {
    const entry = deps.queries.get(name);
    const row = { ...bindings };
    if (entry.params.some((param) => param.name === 'admin') && row.admin === undefined) row.admin = deps.iris.adminGraph;
    const text = await deps.store.query(deps.queries.bind(name, [row]), {
      format: 'application/sparql-results+json',
      label: name,
    });
    return parseSelectJson(text);
  };
}

/** Builds the index of generation `generationId` (the caller checks that the store still serves it after). */
export async function buildCollectionIndex(deps: IndexDependencies, generationId: string): Promise<CollectionIndex> {
  const heapBefore = process.memoryUsage().heapUsed;
  const started = performance.now();
  const select = selectRows(deps);
  const rows = {} as Record<keyof IndexRows, Record<string, string>[]>;
  for (const [part, name] of Object.entries(INDEX_QUERIES) as [keyof IndexRows, string][]) rows[part] = await select(name);
  const queried = performance.now();
  const table = buildObjectTable(generationId, rows);
  const tabled = performance.now();
  const sorts = buildSortOrders(table);
  const sorted = performance.now();
  const text = await TextIndex.build(table);
  const texted = performance.now();
  const prepared = [];
  for (const filter of deps.filters) prepared.push(await filter.prepare(table, select));
  const done = performance.now();
  return new CollectionIndex(table, sorts, text, deps.iris, prepared, {
    objects: table.size,
    ms: {
      queries: queried - started,
      table: tabled - queried,
      sorts: sorted - tabled,
      text: texted - sorted,
      filters: done - texted,
      total: done - started,
    },
    heapUsedDeltaBytes: process.memoryUsage().heapUsed - heapBefore,
  });
}
