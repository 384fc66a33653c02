/** Every resource kind the service serves, in the order the catalog lists them: the one list of the kinds. */
import type { ResourceKind } from '../engine/kind.js';
import type { RecordTable } from '../collection-index/record-table.js';
import { RecordKinds } from '../vocab/record-kinds.js';
import { AGENTS } from './agents/kind.js';
import { CONCEPTS } from './concepts/kind.js';
import { EXHIBITIONS } from './exhibitions/kind.js';
import { OBJECTS } from './objects/kind.js';

export { AGENTS, CONCEPTS, EXHIBITIONS, OBJECTS };

/** The kinds, as the engine receives them (it imports none). */
export const KINDS: readonly ResourceKind<RecordTable>[] = [OBJECTS, AGENTS, EXHIBITIONS, CONCEPTS] as unknown as ResourceKind<RecordTable>[];

/**
 * The same kinds with their names looked up (`ctx.kinds` of the app), as the data side also receives them
 * (harvest, load, generation checks, dumps, the change feed).
 */
export const KIND_NAMES = new RecordKinds(KINDS);
