/**
 * A per-generation cache of finished record documents (docs/architecture.md, "Records and the cache":
 * framing is the expensive layer). Entries are keyed by generation id, so a swap makes every old entry
 * unreachable; the oldest entries go first once the cache is full (Map keeps insertion order; a hit moves the
 * entry to the end).
 */
export class RecordCache<V> {
  private readonly entries = new Map<string, V>();

  constructor(private readonly maxEntries: number) {}

  /** The cached value for a record of a generation, if any. */
  get(generationId: string, key: string): V | undefined {
    const cacheKey = `${generationId}\u0000${key}`;
    const value = this.entries.get(cacheKey);
    if (value !== undefined) {
      this.entries.delete(cacheKey);
      this.entries.set(cacheKey, value);
    }
    return value;
  }

  /** Stores a value; evicts the least recently used entries past the limit. */
  set(generationId: string, key: string, value: V): void {
    if (this.maxEntries <= 0) return;
    const cacheKey = `${generationId}\u0000${key}`;
    this.entries.delete(cacheKey);
    this.entries.set(cacheKey, value);
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
