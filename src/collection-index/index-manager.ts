/**
 * Keeps the collection index of the generation the store serves. The first request for a generation (or
 * `warm()`) starts the build; requests that arrive meanwhile wait for it rather than answer from another
 * generation's index, because the page is then fetched from the store, which already serves the new one.
 * A build during which the store swapped generations is thrown away and done again. An index may also be
 * built ahead (`preload`, from the generation's stored index while the store still loads it): the generation
 * takes it when it serves, and a failed preload is forgotten for the usual build.
 */
import type { CollectionIndex } from './collection-index.js';
import type { RecordTable } from './record-table.js';

interface Build<T extends RecordTable> {
  generationId: string;
  done: Promise<CollectionIndex<T>>;
}

export class CollectionIndexes<T extends RecordTable = RecordTable> {
  private index: CollectionIndex<T> | undefined;
  private building: Build<T> | undefined;
  /** One index built ahead, for a generation the store does not serve yet. */
  private prepared: Build<T> | undefined;

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
      let ahead: Promise<CollectionIndex<T>> | undefined;
      if (this.prepared?.generationId === generationId) {
        ahead = this.prepared.done;
        this.prepared = undefined;
      }
      const done = this.buildFor(generationId, ahead).finally(() => {
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

  /**
   * Builds the index of generation `generationId` with `build` before the store serves it (it replaces an
   * earlier one built ahead); nothing is done when that generation's index is already there or under way.
   */
  preload(generationId: string, build: () => Promise<CollectionIndex<T>>): void {
    if (this.index?.generationId === generationId || this.building?.generationId === generationId) return;
    if (this.prepared?.generationId === generationId) return;
    const done = build();
    // Observed here: a failed preload only means the usual build, which reports its own failures.
    done.catch(() => undefined);
    this.prepared = { generationId, done };
  }

  /** True when `generationId`'s index is built, being built, or built ahead. */
  has(generationId: string): boolean {
    return [this.index?.generationId, this.building?.generationId, this.prepared?.generationId].includes(generationId);
  }

  private async buildFor(generationId: string, ahead: Promise<CollectionIndex<T>> | undefined): Promise<CollectionIndex<T>> {
    const index = ahead ? await ahead.catch(() => this.build(generationId)) : await this.build(generationId);
    if (this.servedGeneration() !== generationId) return this.current();
    this.index = index;
    return index;
  }
}
