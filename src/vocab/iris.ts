/**
 * IRI minting. Every record IRI is `{base}/v2/id/<kind>/<pid>` (spec rule 5). Pids are validated before
 * an IRI is minted, so no request value can place arbitrary text inside an IRI.
 */
import { AUTHORITY, AAT } from './namespaces.js';

/**
 * The singular of a kind in its record IRIs (`object` in `/v2/id/object/<pid>`). The kinds a deployment serves
 * are declared in src/kinds (the `KINDS` list) and handed to what needs them as a RecordKinds
 * (./record-kinds.ts); no type here lists them.
 */
export type RecordKind = string;
/** The plural of a kind's collection (`objects` in `/v2/id/objects`). */
export type CollectionName = string;

/**
 * What can be a pid, one rule for every kind (docs/architecture.md, "Record routes"): 1 to 64 characters of
 * `A-Z a-z 0-9 . _ + -`, the first a letter or digit. Every real identifier fits (1987-1105, TUP-0073,
 * 2017-0095_1-3, 1998-0024_044-755, DMG-A-00162, 530000049, TE_2020-001), and nothing that fits needs escaping
 * in an IRI or a path. A request for a string outside it is a 400; one inside it that names no record is a
 * 404, whatever the kind: the kind's own shape (TE_<year>-<serial>) is a rule of the source export, not of
 * the URL space, so `/exhibition/TE-1999` is an unknown exhibition as `/object/TE-1999` is an unknown object.
 */
export const PID = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/;
/** Object numbers in the source export: the pid rule (real examples: 1987-1105, TUP-0073, 2017-0095_1-3). */
export const OBJECT_NUMBER = PID;
/** Agent pids in the source export, such as DMG-A-00162. */
export const AGENT_PID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** Exhibition pids in the source export: TE_<year>-<serial> (a request is checked against `PID` only). */
export const EXHIBITION_PID = /^TE_\d{4}-\d{1,6}$/;
/** Concept pids in the source export: the thesaurus's numeric ids (530000049) or similar plain tokens. */
export const CONCEPT_PID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * True when `pid` can be the pid of a record of `kind`: the same rule for every kind (`PID`), so one string
 * gets one answer (400 or 404) on every record route; `kind` stays in the signature for its callers.
 */
export function isValidPid(_kind: RecordKind, pid: string): boolean {
  return PID.test(pid);
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

  collection(kind: CollectionName): string {
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
