/**
 * The pages of v1 collections, served by the engine: the total and the page's ids from the kind's collection
 * index, the page's records from the shared record cache (CollectionMembers, the same finished records v2
 * serves), parsed for the v1 shapers. As for v2, a page whose generation changed while it was fetched is
 * asked again.
 */
import type { AppContext } from '../engine/app-context.js';
import type { CollectionIndex, CollectionSlice } from '../collection-index/collection-index.js';
import type { CollectionIndexes } from '../collection-index/index-manager.js';
import type { RecordTable } from '../collection-index/record-table.js';
import { sharedIndexes } from '../engine/indexes.js';
import { CollectionMembers } from '../endpoints/collection-members.js';
import type { JsonObject } from '../shaping/jsonld.js';
import type { V1Kind } from './kinds.js';

const ATTEMPTS = 3;

export interface RecordPage {
  total: number;
  /** The page's v2 records, parsed, in order. */
  records: JsonObject[];
  generationId: string;
}

/** One kind's index and members in an app. */
export class KindPages {
  readonly indexes: CollectionIndexes<RecordTable>;
  private readonly members: CollectionMembers;

  constructor(
    private readonly ctx: AppContext,
    readonly kind: V1Kind,
  ) {
    this.indexes = sharedIndexes(ctx, kind.engine);
    this.members = new CollectionMembers(ctx, kind.engine);
  }

  /** The records of the slice `select` takes from the current index, with the kind's view when `view`. */
  async page(select: (index: CollectionIndex<RecordTable>) => CollectionSlice, view: boolean): Promise<RecordPage> {
    for (let attempt = 1; ; attempt++) {
      const index = await this.indexes.forRequest();
      const slice = select(index);
      const records = await this.records(slice.iris, index.generationId, view);
      if (records !== undefined) return { total: slice.total, records, generationId: index.generationId };
      if (attempt >= ATTEMPTS) throw new Error('the page changed generation on every attempt');
    }
  }

  /** The finished records of `iris` in generation `generationId`; undefined when the store serves another generation by now. */
  async records(iris: readonly string[], generationId: string, view: boolean): Promise<JsonObject[] | undefined> {
    const bodies = await this.members.fullRecords(iris, generationId, view && this.kind.withView);
    if (bodies === undefined || this.ctx.store.generation?.id !== generationId) return undefined;
    return bodies.map((body) => JSON.parse(body) as JsonObject);
  }
}

/** The KindPages of every v1 kind in an app (one CollectionMembers each, sharing the kind's record cache). */
export class V1Pages {
  private readonly byKind = new Map<V1Kind, KindPages>();

  constructor(private readonly ctx: AppContext) {}

  of(kind: V1Kind): KindPages {
    let pages = this.byKind.get(kind);
    if (!pages) {
      pages = new KindPages(this.ctx, kind);
      this.byKind.set(kind, pages);
    }
    return pages;
  }
}
