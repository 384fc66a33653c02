/** Every resource kind the service serves, in the order the catalog lists them. */
import type { ResourceKind } from '../engine/kind.js';
import type { RecordTable } from '../collection-index/record-table.js';
import { AGENTS } from './agents/kind.js';
import { CONCEPTS } from './concepts/kind.js';
import { EXHIBITIONS } from './exhibitions/kind.js';
import { OBJECTS } from './objects/kind.js';

export { AGENTS, CONCEPTS, EXHIBITIONS, OBJECTS };

/** The kinds, as the engine receives them (it imports none). */
export const KINDS: readonly ResourceKind<RecordTable>[] = [OBJECTS, AGENTS, EXHIBITIONS, CONCEPTS] as unknown as ResourceKind<RecordTable>[];
