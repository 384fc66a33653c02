/**
 * The stad.gent ids the generator gives agents and exhibitions (their sameAs links). Each kind has a block in the
 * 530 million range, as the real museum's ids do, sized for collections of up to 300,000 objects. A kind that
 * outgrows its block continues in a block of its own above 550 million, so larger collections (1,000,000 objects:
 * about 333,000 agents) keep every id distinct, and a collection that fits keeps the ids it always had.
 */
export interface IdBlock {
  start: number;
  size: number;
  /** Where the ids past the block continue. */
  overflow: number;
}

export const AGENT_IDS: IdBlock = { start: 530_300_000, size: 100_000, overflow: 551_000_000 };
export const EXHIBITION_IDS: IdBlock = { start: 530_400_000, size: 100_000, overflow: 552_000_000 };

/** The id of the kind's `index`-th record (0-based). */
export const idInBlock = (block: IdBlock, index: number): number => (index < block.size ? block.start + index : block.overflow + (index - block.size));
