/**
 * The non-public state of records (redirected, removed, private, unhealthy), read once per generation from
 * the admin graph. A single-record request consults it before it queries the record, so that 301, 410 and
 * 404 never depend on what a CONSTRUCT happens to return.
 */
import type { QueryStore } from '../store/types.js';
import type { QueryCatalogue } from '../queries/catalogue.js';
import type { Iris } from '../vocab/iris.js';
import { parseSelectJson } from './sparql-json.js';

export type RecordStatus =
  | { kind: 'redirect'; state: 'merged' | 'renumbered' | 'withdrawn'; to: string }
  | { kind: 'removed' }
  | { kind: 'hidden'; reason: 'private' | 'unhealthy' };

const REDIRECTS = new Set(['merged', 'renumbered', 'withdrawn']);

/** Builds the status map of the store's current generation; rebuilt lazily when the generation changes. */
export class StatusIndex {
  private generationId: string | undefined;
  private statuses = new Map<string, RecordStatus>();
  private loading: Promise<void> | undefined;

  constructor(
    private readonly store: QueryStore,
    private readonly queries: QueryCatalogue,
    private readonly iris: Iris,
  ) {}

  /** The state of a record IRI; undefined means current and public. */
  async get(recordIri: string): Promise<RecordStatus | undefined> {
    await this.refresh();
    return this.statuses.get(recordIri);
  }

  private async refresh(): Promise<void> {
    const id = this.store.generation?.id;
    if (id === this.generationId && !this.loading) return;
    if (!this.loading) {
      this.loading = this.load(id).finally(() => {
        this.loading = undefined;
      });
    }
    await this.loading;
  }

  private async load(id: string | undefined): Promise<void> {
    const text = await this.store.query(this.queries.bind('records/status', { admin: this.iris.adminGraph }), {
      format: 'application/sparql-results+json',
    });
    const statuses = new Map<string, RecordStatus>();
    for (const row of parseSelectJson(text)) {
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
    this.statuses = statuses;
    this.generationId = id;
  }
}
