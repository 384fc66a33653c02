/**
 * The generator checks every record it emits against the source-export schema and stops at the first
 * invalid one: a generated export that the harvest would reject is a generator bug, never data.
 */
import { RECORD_SCHEMAS, type SourceKind, type SourceRecord } from '../harvest/schema.js';

/** Returns `record` unchanged when it satisfies the schema of `kind`; throws a descriptive error otherwise. */
export function assertValid<K extends SourceKind>(kind: K, id: string, record: SourceRecord[K]): SourceRecord[K] {
  const result = RECORD_SCHEMAS[kind].safeParse(record);
  if (!result.success) {
    const issues = result.error.issues.map((i) => `${i.path.join('.') || '(record)'}: ${i.message}`).join('; ');
    throw new Error(`generator produced an invalid ${kind} record ${id}: ${issues}`);
  }
  return record;
}

/** Throws when a generated record points at something that is not in the collection. */
export function assertReference(ok: boolean, what: string): void {
  if (!ok) throw new Error(`generator produced a dangling reference: ${what}`);
}
