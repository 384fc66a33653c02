/**
 * The non-public state of records (redirected, removed, private, unhealthy), read once per generation from
 * the admin graph. A single-record request consults it before it queries the record, so that 301, 410 and
 * 404 never depend on what a CONSTRUCT happens to return. The rows may also be handed in ahead of time
 * (`prepare`, from the generation's stored index), so the first record request after a start or a swap does not
 * wait for the query.
 */
import type { QueryStore } from '../store/types.js';
import type { QueryLibrary } from '../queries/library.js';
import type { Iris } from '../vocab/iris.js';
import { parseSelectJson } from './sparql-json.js';

export type RecordStatus =
  | { kind: 'redirect'; state: 'merged' | 'renumbered' | 'withdrawn'; to: string }
  | { kind: 'removed' }
  | { kind: 'hidden'; reason: 'private' | 'unhealthy' };

const REDIRECTS = new Set(['merged', 'renumbered', 'withdrawn']);

/** Library name of the SELECT the statuses are read from (parameter `admin`). */
export const STATUS_QUERY = 'records/status';

/** Builds the status map of the store's current generation; rebuilt lazily when the generation changes. */
export class StatusIndex {
  private generationId: string | undefined;
  private statuses = new Map<string, RecordStatus>();
  private loading: Promise<void> | undefined;
  /** Statuses read ahead for a generation (the one being loaded or just served), taken when it serves. */
  private prepared: { generationId: string; statuses: Map<string, RecordStatus> } | undefined;
  /** Where the rows come from when set (the generation's stored index, else the store); the store by default. */
  private source: ((generationId: string) => Promise<readonly Readonly<Record<string, string>>[]>) | undefined;

  constructor(
    private readonly store: QueryStore,
    private readonly queries: QueryLibrary,
    private readonly iris: Iris,
  ) {}

  /** The state of a record IRI; undefined means current and public. */
  async get(recordIri: string): Promise<RecordStatus | undefined> {
    await this.refresh();
    return this.statuses.get(recordIri);
  }

  /** Reads the rows of STATUS_QUERY through `source` from now on, rather than from the store directly. */
  readFrom(source: (generationId: string) => Promise<readonly Readonly<Record<string, string>>[]>): void {
    this.source = source;
  }

  /** Hands in the rows of STATUS_QUERY for generation `generationId`, read elsewhere (the stored index). */
  prepare(generationId: string, rows: readonly Readonly<Record<string, string>>[]): void {
    this.prepared = { generationId, statuses: statusesOf(rows) };
  }

  private async refresh(): Promise<void> {
    const id = this.store.generation?.id;
    if (id === this.generationId && !this.loading) return;
    if (id !== undefined && this.prepared?.generationId === id && !this.loading) {
      this.statuses = this.prepared.statuses;
      this.generationId = id;
      this.prepared = undefined;
      return;
    }
    if (!this.loading) {
      this.loading = this.load(id).finally(() => {
        this.loading = undefined;
      });
    }
    await this.loading;
  }

  private async load(id: string | undefined): Promise<void> {
    const rows =
      this.source && id !== undefined
        ? await this.source(id)
        : parseSelectJson(
            await this.store.query(this.queries.bound(STATUS_QUERY, { admin: this.iris.adminGraph }), {
              format: 'application/sparql-results+json',
            }),
          );
    this.statuses = statusesOf(rows);
    this.generationId = id;
  }
}

/** The non-public states of the rows of STATUS_QUERY, by record IRI. */
function statusesOf(rows: readonly Readonly<Record<string, string>>[]): Map<string, RecordStatus> {
  const statuses = new Map<string, RecordStatus>();
  for (const row of rows) {
    const record = row.record;
    if (!record) continue;
    const state = row.state ?? 'current';
    if (REDIRECTS.has(state) && row.resolvesTo) {
      statuses.set(record, { kind: 'redirect', state: state as 'merged' | 'renumbered' | 'withdrawn', to: row.resolvesTo });
    } else if (state === 'removed') {
      statuses.set(record, { kind: 'removed' });
    } else if (row.private === 'true') {
      statuses.set(record, { kind: 'hidden', reason: 'private' });
    } else if (row.healthy === 'false') {
      statuses.set(record, { kind: 'hidden', reason: 'unhealthy' });
    } else if (state !== 'current') {
      // An unknown state is treated as not public rather than served.
      statuses.set(record, { kind: 'hidden', reason: 'private' });
    }
  }
  return statuses;
}
