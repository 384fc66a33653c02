/**
 * The admin graph `<{base}/graph/admin>` (docs/graph-model.md "Non-public quads"): lifecycle state,
 * redirect target, privacy and health of every record that has something to say. Never public.
 */
import type { Iris } from '../vocab/iris.js';
import { literal, typed, XSD } from './nquads.js';
import { P } from './terms.js';
import type { RecordState } from './schema.js';

export interface AdminFacts {
  state: RecordState;
  public: boolean;
  /** Objects only; other kinds are always healthy. */
  healthy: boolean;
}

/** True when a record with these facts belongs in the public quads. */
export function isServable(facts: AdminFacts): boolean {
  return facts.public && facts.healthy && facts.state.kind === 'current';
}

/** The admin quads of one record as N-Quads text ('' for a servable record), and their count. */
export function adminQuads(iris: Iris, recordIri: string, facts: AdminFacts): { text: string; quads: number } {
  if (isServable(facts)) return { text: '', quads: 0 };
  const graph = `<${iris.adminGraph}>`;
  const s = `<${recordIri}>`;
  let text = `${s} ${P.adminState} ${literal(facts.state.kind)} ${graph} .\n`;
  let quads = 1;
  if ('into' in facts.state) {
    text += `${s} ${P.adminResolvesTo} <${iris.object(facts.state.into)}> ${graph} .\n`;
    quads += 1;
  }
  if (!facts.public) {
    text += `${s} ${P.adminPrivate} ${typed('true', XSD.boolean)} ${graph} .\n`;
    quads += 1;
  }
  if (!facts.healthy) {
    text += `${s} ${P.adminHealthy} ${typed('false', XSD.boolean)} ${graph} .\n`;
    quads += 1;
  }
  return { text, quads };
}
