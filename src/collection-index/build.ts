/**
 * Builds a kind's collection index of the generation the store serves: the kind's index SELECT queries,
 * then its table, sort orders, full-text index and whatever each filter prepares. Runs once per generation
 * and kind (index-manager.ts decides when), never per request. The rows come through a `SelectRows`: the
 * store by default, or a generation's stored answers (stored-index.ts), which give the same rows.
 */
import { performance } from 'node:perf_hooks';
// Lets the event loop turn (pending I/O, timers) before the next step of a build.
import { setImmediate as turn } from 'node:timers/promises';
import type { IndexDeclaration } from './declarations.js';
import type { QueryLibrary } from '../queries/library.js';
import type { BoundTerm } from '../queries/terms.js';
import { parseSelectJson } from '../records/sparql-json.js';
import type { QueryStore } from '../store/types.js';
import type { Iris } from '../vocab/iris.js';
import { CollectionIndex } from './collection-index.js';
import type { DeferredSelectRows, PreparedFilter, SelectRows } from './filters/filter.js';
import type { RecordTable, Row } from './record-table.js';
import type { SortOrder } from './sort-orders.js';
import { TextIndex } from './text/text-index.js';

export interface IndexDependencies {
  store: QueryStore;
  queries: QueryLibrary;
  iris: Iris;
}

/** The exact SPARQL text a SelectRows sends for `name` and `bindings`: the admin graph is bound for queries that declare it. */
export function boundSelect(deps: Pick<IndexDependencies, 'queries' | 'iris'>, name: string, bindings: Record<string, BoundTerm> = {}): string {
  const entry = deps.queries.get(name);
  const row = { ...bindings };
  if (entry.params.some((param) => param.name === 'admin') && row.admin === undefined) row.admin = deps.iris.adminGraph;
  return deps.queries.bind(name, [row]);
}

/** A SelectRows over the library, answered by the store. */
export function selectRows(deps: IndexDependencies): SelectRows {
  return async (name, bindings) => {
    const text = await deps.store.query(boundSelect(deps, name, bindings), { format: 'application/sparql-results+json', label: name, nonPublic: deps.queries.get(name).nonPublic });
    return parseSelectJson(text);
  };
}

/**
 * The rows of every index query of a kind, by the part of the rows each fills. From a stored index, each part
 * is decoded when the table reads it (a getter), and is garbage once read: at 100,000 objects, holding every
 * part decoded at once was most of a build's peak heap.
 */
async function indexRows<T extends RecordTable>(declaration: IndexDeclaration<T>, select: SelectRows | DeferredSelectRows): Promise<Record<string, Row[]>> {
  const rows: Record<string, Row[]> = {};
  for (const [part, name] of Object.entries(declaration.queries)) {
    if ('deferred' in select) Object.defineProperty(rows, part, { get: await select.deferred(name), enumerable: true });
    else rows[part] = await select(name);
  }
  return rows;
}

async function prepareFilters<T extends RecordTable>(declaration: IndexDeclaration<T>, table: T, select: SelectRows): Promise<PreparedFilter[]> {
  const prepared = [];
  for (const filter of declaration.filters) prepared.push(await filter.prepare(table, select));
  return prepared;
}

/**
 * Asks every query that building the kind's index asks (its index SELECTs, then what its filters prepare from
 * the table), without the sort orders and the text index: what a stored index must hold.
 */
export async function askIndexQueries<T extends RecordTable>(declaration: IndexDeclaration<T>, generationId: string, select: SelectRows): Promise<void> {
  const table = await declaration.table(generationId, await indexRows(declaration, select));
  await prepareFilters(declaration, table, select);
}

/** Builds the index of generation `generationId` (the caller checks that the store still serves it after). */
export async function buildCollectionIndex<T extends RecordTable>(
  deps: IndexDependencies,
  declaration: IndexDeclaration<T>,
  generationId: string,
  select: SelectRows = selectRows(deps),
): Promise<CollectionIndex<T>> {
  const heapBefore = process.memoryUsage().heapUsed;
  const started = performance.now();
  const rows = await indexRows(declaration, select);
  const queried = performance.now();
  const table = await declaration.table(generationId, rows);
  const tabled = performance.now();
  // A turn of the event loop between the steps and between the sort orders: a replica builds the next
  // generation's index while it serves, and at 100,000 objects the table and the orders in one go held its event
  // loop for 2.1 s on an idle machine (about 5 s beside a harvest, when requests waiting on sockets whose
  // keep-alive ran out meanwhile were reset: the soak of 2026-11-29).
  await turn();
  const sorts: Record<string, SortOrder> = {};
  for (const [key, order] of Object.entries(declaration.sorts(table))) {
    sorts[key] = order();
    await turn();
  }
  const sorted = performance.now();
  const text = await TextIndex.build(table.size, declaration.textFields(table));
  const texted = performance.now();
  await turn();
  const prepared = await prepareFilters(declaration, table, select);
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
