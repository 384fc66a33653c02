/**
 * Cross-record checks the zod schema cannot make: duplicate pids and dangling references. Each throws
 * SourceLineError naming the line that holds the bad reference.
 */
import { SOURCE_FILES, type ExhibitionRecord, type ObjectRecord } from './schema.js';
import { SourceLineError } from './source-line-error.js';
import type { Catalog } from './catalog.js';

/** Broader terms that name a pid must name a concept of the export, and not the concept itself. */
export function checkConceptBroader(catalog: Catalog): void {
  for (const { record, line } of catalog.concepts.values()) {
    record.broader.forEach((ref, i) => {
      if (typeof ref !== 'string') return;
      if (!catalog.concepts.has(ref)) fail('concepts', line, `broader[${i}]: unknown concept ${ref}`);
      if (ref === record.pid) fail('concepts', line, `broader[${i}]: a concept cannot be its own broader term`);
    });
  }
}

/** Relations must name another agent of the export. */
export function checkAgentRelations(catalog: Catalog): void {
  for (const { record, line } of catalog.agents.values()) {
    record.relations.forEach((relation, i) => {
      if (!catalog.agents.has(relation.agent)) fail('agents', line, `relations[${i}].agent: unknown agent ${relation.agent}`);
      if (relation.agent === record.pid) fail('agents', line, `relations[${i}].agent: an agent cannot relate to itself`);
    });
  }
}

/** A named curator must be a known agent; the exhibition must not close before it opens. */
export function checkExhibition(e: ExhibitionRecord, line: number, catalog: Catalog): void {
  if (e.curator?.agent !== undefined && !catalog.agents.has(e.curator.agent)) {
    fail('exhibitions', line, `curator.agent: unknown agent ${e.curator.agent}`);
  }
  if (e.end < e.begin) fail('exhibitions', line, `end: exhibition ends (${e.end}) before it begins (${e.begin})`);
}

/** Concepts and agents an object names must exist (exhibitions may be missing: they are dropped). */
export function checkObjectReferences(o: ObjectRecord, line: number, catalog: Catalog): void {
  const concept = (pid: string, path: string): void => {
    if (!catalog.concepts.has(pid)) fail('objects', line, `${path}: unknown concept ${pid}`);
  };
  const agent = (pid: string | undefined, path: string): void => {
    if (pid !== undefined && !catalog.agents.has(pid)) fail('objects', line, `${path}: unknown agent ${pid}`);
  };
  o.types.forEach((pid, i) => concept(pid, `types[${i}]`));
  o.materials.forEach((pid, i) => concept(pid, `materials[${i}]`));
  o.subCollections.forEach((pid, i) => concept(pid, `subCollections[${i}]`));
  o.productions.forEach((p, i) => {
    agent(p.agent, `productions[${i}].agent`);
    p.techniques.forEach((pid, j) => concept(pid, `productions[${i}].techniques[${j}]`));
  });
  o.creations.forEach((c, i) => agent(c.agent, `creations[${i}].agent`));
  o.parts.forEach((part, i) => part.materials.forEach((pid, j) => concept(pid, `parts[${i}].materials[${j}]`)));
  if (o.partOfSet === o.objectNumber) fail('objects', line, 'partOfSet: an object cannot be a member of itself');
  if ('into' in o.state && o.state.into === o.objectNumber) fail('objects', line, 'state.into: a record cannot redirect to itself');
}

/** An object number named on `line` (partOfSet, state.into) that must exist once all objects are read. */
export interface PendingObjectReference {
  line: number;
  path: string;
  target: string;
}

/** Fails on the first pending reference to an object number the export does not have. */
export function checkObjectNumbers(pending: readonly PendingObjectReference[], catalog: Catalog): void {
  for (const ref of pending) {
    if (!catalog.objects.has(ref.target)) fail('objects', ref.line, `${ref.path}: unknown object number ${ref.target}`);
  }
}

/** Throws for a second record with the same pid. */
export function duplicate(kind: keyof typeof SOURCE_FILES, line: number, pid: string, firstLine: number): never {
  return fail(kind, line, `duplicate ${kind === 'objects' ? 'object number' : 'pid'} ${pid} (first on line ${firstLine})`);
}

function fail(kind: keyof typeof SOURCE_FILES, line: number, reason: string): never {
  throw new SourceLineError(SOURCE_FILES[kind], line, reason);
}
