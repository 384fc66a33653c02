/**
 * The collection indexes of an app, one per kind, each rebuilt for every generation the store serves. They
 * are built as soon as a generation serves, when the store announces it (StoreManager emits `ready` and
 * `swap`), one kind after the other so the store is not asked for every kind's SELECTs at once; otherwise on
 * first use. Shared per store, so the collections and any index endpoint read the same one.
 */
import type { AppContext } from '../app-context.js';
import { buildCollectionIndex } from '../collection-index/build.js';
import type { CollectionIndex } from '../collection-index/collection-index.js';
import { CollectionIndexes } from '../collection-index/index-manager.js';
import type { RecordTable } from '../collection-index/record-table.js';
import type { QueryStore } from '../store/types.js';
import type { ResourceKind } from './kind.js';

type IndexContext = Pick<AppContext, 'store' | 'queries' | 'iris' | 'logger'>;

const shared = new WeakMap<QueryStore, Map<string, CollectionIndexes<RecordTable>>>();
const builds = new WeakMap<QueryStore, Promise<unknown>>();

/** The index manager of `kind` in the app of `ctx`. */
export function sharedIndexes<T extends RecordTable>(ctx: IndexContext, kind: ResourceKind<T>): CollectionIndexes<T> {
  let byKind = shared.get(ctx.store);
  if (!byKind) {
    byKind = new Map();
    shared.set(ctx.store, byKind);
  }
  const existing = byKind.get(kind.collection);
  if (existing) return existing as unknown as CollectionIndexes<T>;

  const indexes = new CollectionIndexes<T>(
    (generationId) => serially(ctx.store, async (): Promise<CollectionIndex<T>> => {
      const index = await buildCollectionIndex(ctx, kind.index, generationId);
      ctx.logger.info({ generation: generationId, kind: kind.collection, ...index.report }, 'collection index built');
      return index;
    }),
    () => ctx.store.generation?.id,
  );
  byKind.set(kind.collection, indexes as unknown as CollectionIndexes<RecordTable>);
  const warm = (): void => indexes.warm((err) => ctx.logger.error({ err, kind: kind.collection }, 'collection index build failed'));
  const events = ctx.store as Partial<Pick<NodeJS.EventEmitter, 'on'>>;
  if (typeof events.on === 'function') {
    events.on.call(ctx.store, 'ready', warm);
    events.on.call(ctx.store, 'swap', warm);
  }
  if (ctx.store.ready()) warm();
  return indexes;
}

/** Runs index builds of one store one after the other. */
function serially<R>(store: QueryStore, build: () => Promise<R>): Promise<R> {
  const previous = builds.get(store) ?? Promise.resolve();
  const next = previous.then(build, build);
  builds.set(store, next.catch(() => undefined));
  return next;
}
