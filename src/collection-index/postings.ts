/** Inverted lists: for each key (a label, an agent or concept IRI) the ascending ids of the objects that have it. */
export type Postings = ReadonlyMap<string, Uint32Array>;

/** Collects (key, id) pairs in any order and freezes them into sorted, duplicate-free id lists. */
export class PostingsBuilder {
  private readonly lists = new Map<string, number[]>();

  add(key: string, id: number): void {
    const list = this.lists.get(key);
    if (list) list.push(id);
    else this.lists.set(key, [id]);
  }

  build(): Postings {
    const out = new Map<string, Uint32Array>();
    for (const [key, list] of this.lists) {
      const sorted = Uint32Array.from(list).sort();
      let length = 0;
      for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[length++] = sorted[i]!;
      out.set(key, sorted.slice(0, length));
    }
    return out;
  }
}
