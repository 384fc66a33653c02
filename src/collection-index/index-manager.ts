/**
 * Keeps the collection index of the generation the store serves. The first request for a generation (or
 * `warm()`) starts the build; requests that arrive meanwhile wait for it rather than answer from another
 * generation's index, because the page is then fetched from the store, which already serves the new one.
 * A build during which the store swapped generations is thrown away and done again.
 */
import type { CollectionIndex } from './collection-index.js';
import type { RecordTable } from './record-table.js';

export class CollectionIndexes<T extends RecordTable = RecordTable> {
  private index: CollectionIndex<T> | undefined;
  private building: { generationId: string; done: Promise<CollectionIndex<T>> } | undefined;

  constructor(
    private readonly build: (generationId: string) => Promise<CollectionIndex<T>>,
    private readonly servedGeneration: () => string | undefined,
  ) {}

  /** The index of the served generation, built first when needed. */
  async current(): Promise<CollectionIndex<T>> {
    const generationId = this.servedGeneration();
    if (generationId === undefined) throw new Error('no generation is served yet');
    if (this.index?.generationId === generationId) return this.index;
    if (this.building?.generationId !== generationId) {
      const done = this.buildFor(generationId).finally(() => {
        if (this.building?.done === done) this.building = undefined;
      });
      this.building = { generationId, done };
    }
    return this.building.done;
  }

  /** Starts building the served generation's index without waiting; failures surface on the next request. */
  warm(onError: (error: unknown) => void): void {
    if (this.servedGeneration() === undefined) return;
    this.current().catch(onError);
  }

  private async buildFor(generationId: string): Promise<CollectionIndex<T>> {
    const index = await this.build(generationId);
    if (this.servedGeneration() !== generationId) return this.current();
    this.index = index;
    return index;
  }
}
