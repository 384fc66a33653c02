/**
 * The v1 view of each resource kind: the engine's kind (its queries, collection index and record cache are
 * v1's too) and the shapers that turn its finished v2 records into v1 stubs and full records.
 */
import type { ActiveFilter } from '../collection-index/filters/filter.js';
import { parseCollectionQuery } from '../endpoints/collection-params.js';
import type { ResourceKind } from '../engine/kind.js';
import { AGENTS, CONCEPTS, EXHIBITIONS, OBJECTS } from '../kinds/index.js';
import type { RecordTable } from '../collection-index/record-table.js';
import type { JsonObject } from '../shaping/jsonld.js';
import type { RecordKind } from '../vocab/iris.js';
import { v1Agent, v1AgentStub } from './shaping/agent.js';
import { v1Concept, v1ConceptStub } from './shaping/concept.js';
import { v1Exhibition, v1ExhibitionStub } from './shaping/exhibition.js';
import type { V1Links } from './shaping/links.js';
import { v1Object, v1ObjectStub } from './shaping/object.js';

/** Exact text of reference/error-bodies.json (v1_object_422_unhealthy). */
export const OBJECT_NOT_PUBLISHED =
  'Oops. the syntax of your request is correct, but data on this object has either not yet been published or we are working on repairing this link.';

export interface V1Kind {
  readonly engine: ResourceKind<RecordTable>;
  readonly kind: RecordKind;
  /** Whether full records are fetched with the kind's view (objects: their colours, for `ex:colors`). */
  readonly withView: boolean;
  stub(links: V1Links, v2Record: JsonObject, colors: boolean): JsonObject;
  full(links: V1Links, v2Record: JsonObject, colors: boolean): JsonObject;
  /** The 422 body text: a valid identifier that names no published record. */
  readonly notPublished: string;
}

const kindOf = <T extends RecordTable>(engine: ResourceKind<T>): ResourceKind<RecordTable> => engine as unknown as ResourceKind<RecordTable>;

export const V1_OBJECTS: V1Kind = {
  engine: kindOf(OBJECTS),
  kind: 'object',
  withView: true,
  stub: v1ObjectStub,
  full: v1Object,
  notPublished: OBJECT_NOT_PUBLISHED,
};

type Shaper = (links: V1Links, v2Record: JsonObject) => JsonObject;

/** A kind without a view, whose 422 text names it. */
function plainKind(engine: ResourceKind<RecordTable>, kind: RecordKind, stub: Shaper, full: Shaper): V1Kind {
  return { engine, kind, withView: false, stub, full, notPublished: `There is no ${kind} in our catalogue with that id.` };
}

export const V1_AGENTS = plainKind(kindOf(AGENTS), 'agent', v1AgentStub, v1Agent);
export const V1_EXHIBITIONS = plainKind(kindOf(EXHIBITIONS), 'exhibition', v1ExhibitionStub, v1Exhibition);
export const V1_CONCEPTS = plainKind(kindOf(CONCEPTS), 'concept', v1ConceptStub, v1Concept);

/** The v1 collections by their path segment. */
export const V1_COLLECTIONS = { objects: V1_OBJECTS, agents: V1_AGENTS, exhibitions: V1_EXHIBITIONS, concepts: V1_CONCEPTS } as const;

/** The filters of the v2 objects collection for v2 parameters (`{onDisplay: 'true'}`); throws BadRequestError. */
export function objectFilters(params: Readonly<Record<string, string>>): ActiveFilter<RecordTable>[] {
  return parseCollectionQuery(params, OBJECTS.index).filters as unknown as ActiveFilter<RecordTable>[];
}
