/**
 * Builds a kind's collection index of the generation the store serves: the kind's index SELECT queries,
 * then its table, sort orders, full-text index and whatever each filter prepares. Runs once per generation
 * and kind (index-manager.ts decides when), never per request.
 */
import { performance } from 'node:perf_hooks';
import type { IndexDeclaration } from '../engine/kind.js';
import type { QueryCatalogue } from '../queries/catalogue.js';
import type { BoundTerm } from '../queries/terms.js';
import { parseSelectJson } from '../records/sparql-json.js';
import type { QueryStore } from '../store/types.js';
import type { Iris } from '../vocab/iris.js';
import { CollectionIndex } from './collection-index.js';
import type { SelectRows } from './filters/filter.js';
import type { RecordTable, Row } from './record-table.js';
import { TextIndex } from './text/text-index.js';

export interface IndexDependencies {
  store: QueryStore;
  queries: QueryCatalogue;
  iris: Iris;
}

/** A SelectRows over the catalogue; the admin graph is bound for queries that declare it. */
export function selectRows(deps: IndexDependencies): SelectRows {
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
export async function buildCollectionIndex<T extends RecordTable>(
  deps: IndexDependencies,
  declaration: IndexDeclaration<T>,
  generationId: string,
): Promise<CollectionIndex<T>> {
  const heapBefore = process.memoryUsage().heapUsed;
  const started = performance.now();
  const select = selectRows(deps);
  const rows: Record<string, Row[]> = {};
  for (const [part, name] of Object.entries(declaration.queries)) rows[part] = await select(name);
  const queried = performance.now();
  const table = declaration.table(generationId, rows);
  const tabled = performance.now();
  const sorts = declaration.sorts(table);
  const sorted = performance.now();
  const text = await TextIndex.build(table.size, declaration.textFields(table));
  const texted = performance.now();
  const prepared = [];
  for (const filter of declaration.filters) prepared.push(await filter.prepare(table, select));
  const done = performance.now();
  return new CollectionIndex(table, sorts, text, deps.iris, prepared, {
    records: table.size,
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
