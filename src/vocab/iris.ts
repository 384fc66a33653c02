/**
 * IRI minting. Every record IRI is `{base}/v2/id/<kind>/<pid>` (spec rule 5). Pids are validated before
 * an IRI is minted, so no request value can place arbitrary text inside an IRI.
 */
import { AUTHORITY, AAT } from './namespaces.js';

export type RecordKind = 'object' | 'agent' | 'exhibition' | 'concept';

/** Object numbers: letters, digits and `-_.+` (real examples: 1987-1105, TUP-0073, 2017-0095_1-3). */
export const OBJECT_NUMBER = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/;
/** Agent pids such as DMG-A-00162. */
export const AGENT_PID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** Exhibition pids: TE_<year>-<serial>. */
export const EXHIBITION_PID = /^TE_\d{4}-\d{1,6}$/;
/** Concept pids: the thesaurus's numeric ids (530000049) or similar plain tokens. */
export const CONCEPT_PID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const PID_PATTERN: Record<RecordKind, RegExp> = {
  object: OBJECT_NUMBER,
  agent: AGENT_PID,
  exhibition: EXHIBITION_PID,
  concept: CONCEPT_PID,
};

/** True when `pid` can be the pid of a record of `kind`. */
export function isValidPid(kind: RecordKind, pid: string): boolean {
  return PID_PATTERN[kind].test(pid);
}

/** Builds the IRIs of one deployment; `base` is scheme and host without a trailing slash. */
export class Iris {
  readonly base: string;

  constructor(base: string) {
    this.base = base.replace(/\/+$/, '');
  }

  /** `{base}/v2/id/<kind>/<pid>`; throws on an invalid pid (callers validate first). */
  record(kind: RecordKind, pid: string): string {
    if (!isValidPid(kind, pid)) throw new Error(`invalid ${kind} pid: ${JSON.stringify(pid)}`);
    return `${this.base}/v2/id/${kind}/${pid}`;
  }

  object(pid: string): string {
    return this.record('object', pid);
  }
  agent(pid: string): string {
    return this.record('agent', pid);
  }
  exhibition(pid: string): string {
    return this.record('exhibition', pid);
  }
  concept(pid: string): string {
    return this.record('concept', pid);
  }

  /** The pid at the end of a record IRI of this deployment, or undefined. */
  pidOf(kind: RecordKind, iri: string): string | undefined {
    const prefix = `${this.base}/v2/id/${kind}/`;
    if (!iri.startsWith(prefix)) return undefined;
    const pid = iri.slice(prefix.length);
    return isValidPid(kind, pid) ? pid : undefined;
  }

  /** `{base}/v2/id/type/<name>`: internal types (objectnummer, dimension types, relation/<x>). */
  type(name: string): string {
    return `${this.base}/v2/id/type/${name}`;
  }

  /** The collection-presentation place of objects on display. */
  place(name: string): string {
    return `${this.base}/v2/id/place/${name}`;
  }

  collection(kind: 'objects' | 'agents' | 'exhibitions' | 'concepts'): string {
    return `${this.base}/v2/id/${kind}`;
  }

  /** Named graph that holds the non-public state of records (redirects, removals, privacy, health). */
  get adminGraph(): string {
    return `${this.base}/graph/admin`;
  }
}

export const aat = (term: string): string => `${AUTHORITY.aat}${term}`;
export const languageIri = (code: 'NLD' | 'FRA' | 'ENG'): string => `${AUTHORITY.language}${code}`;
export const AAT_IRI = Object.fromEntries(Object.entries(AAT).map(([k, v]) => [k, aat(v)])) as Record<keyof typeof AAT, string>;
