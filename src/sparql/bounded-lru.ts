/**
 * A least-recently-used map bounded twice: by its number of entries and by the sum of its entries' weights
 * (the caller's estimate of their bytes). The endpoint's caches keep client-chosen keys and values, so both
 * bounds are hard: a value heavier than the whole budget is not kept at all.
 */

export interface LruBounds {
  /** Most entries held. */
  maxEntries: number;
  /** Most total weight held (bytes, as the caller counts them). */
  maxWeight: number;
}

interface Slot<V> {
  value: V;
  weight: number;
}

/** A Map in recency order (oldest first) that evicts its oldest entries past either bound. */
export class BoundedLru<K, V> {
  private readonly slots = new Map<K, Slot<V>>();
  private total = 0;

  constructor(private readonly bounds: LruBounds) {}

  /** Entries held now. */
  get size(): number {
    return this.slots.size;
  }

  /** Total weight held now. */
  get weight(): number {
    return this.total;
  }

  /** The value under `key`, which becomes the most recently used; undefined when absent. */
  get(key: K): V | undefined {
    const slot = this.slots.get(key);
    if (slot === undefined) return undefined;
    // Re-inserting moves the key to the end of the Map's order: the most recent.
    this.slots.delete(key);
    this.slots.set(key, slot);
    return slot.value;
  }

  /** Keeps `value` under `key` (replacing any), evicting the oldest entries to stay within the bounds; false when it cannot fit. */
  set(key: K, value: V, weight: number): boolean {
    this.delete(key);
    if (weight > this.bounds.maxWeight || this.bounds.maxEntries < 1) return false;
    this.slots.set(key, { value, weight });
    this.total += weight;
    for (const [oldest, slot] of this.slots) {
      if (this.total <= this.bounds.maxWeight && this.slots.size <= this.bounds.maxEntries) break;
      this.slots.delete(oldest);
      this.total -= slot.weight;
    }
    return true;
  }

  /** Forgets `key`. */
  delete(key: K): void {
    const slot = this.slots.get(key);
    if (slot === undefined) return;
    this.slots.delete(key);
    this.total -= slot.weight;
  }

  /** Forgets everything. */
  clear(): void {
    this.slots.clear();
    this.total = 0;
  }
}
