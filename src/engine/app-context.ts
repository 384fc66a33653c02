/**
 * What every endpoint module receives: the service's context (service-context.ts) and the kinds it serves.
 * Handlers get their collaborators from here, never from module-level singletons, so tests build an app around
 * a real store on fixture data.
 */
import type { ResourceKind } from './kind.js';
import type { RecordTable } from '../collection-index/record-table.js';
import type { ServiceContext } from './service-context.js';
import type { RecordKinds } from '../vocab/record-kinds.js';

export interface AppContext extends ServiceContext {
  /** The resource kinds served under /v2, in catalog order (src/kinds/index.ts, `KIND_NAMES`; a test may add its own). */
  kinds: RecordKinds<ResourceKind<RecordTable>>;
}
