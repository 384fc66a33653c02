/** Building blocks of the collection index, alone: bitsets, sort walks, text analysis and syntax, thesaurus, rebuilds. */
import fc from 'fast-check';
import { Bitset, BitsetBuilder } from '../../src/collection-index/bitset.js';
import type { CollectionIndex } from '../../src/collection-index/collection-index.js';
import { CollectionIndexes, IndexNotReadyError, REQUEST_WAIT_MS } from '../../src/collection-index/index-manager.js';
import { pageOf } from '../../src/collection-index/sort-orders.js';
import { foldDiacritics, stem, termsOf, tokenize } from '../../src/collection-index/text/analysis.js';
import { MAX_QUERY_ITEMS, parseTextQuery, TextQueryError } from '../../src/collection-index/text/query-parser.js';
import { Thesaurus } from '../../src/collection-index/thesaurus.js';

describe('Bitset', () => {
  it('counts, slices from any offset in both directions and combines like a set of numbers', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), fc.array(fc.nat(), { maxLength: 200 }), fc.nat(310), fc.integer({ min: 1, max: 50 }), (size, raw, offset, limit) => {
        const ids = [...new Set(raw.map((n) => n % size))].sort((a, b) => a - b);
        const set = Bitset.of(size, ids);
        expect(set.count()).toBe(ids.length);
        expect(set.slice(offset, limit)).toEqual(ids.slice(offset, offset + limit));
        expect(set.sliceDescending(offset, limit)).toEqual([...ids].reverse().slice(offset, offset + limit));
        expect(set.complement().count()).toBe(size - ids.length);
        expect(Bitset.full(size).count()).toBe(size);
        const evens = Bitset.of(size, ids.filter((id) => id % 2 === 0));
        expect(set.and(evens).toArray()).toEqual(ids.filter((id) => id % 2 === 0));
        expect(set.andNot(evens).toArray()).toEqual(ids.filter((id) => id % 2 === 1));
        expect(set.or(evens).toArray()).toEqual([...new Set([...ids, ...ids.filter((id) => id % 2 === 0)])].sort((a, b) => a - b));
        expect(set.countAnd(evens)).toBe(ids.filter((id) => id % 2 === 0).length);
      }),
    );
  });

  it('never changes a set once made: every operation answers a new set', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), fc.array(fc.nat(), { maxLength: 200 }), fc.array(fc.nat(), { maxLength: 200 }), (size, rawA, rawB) => {
        const a = Bitset.of(size, rawA.map((n) => n % size));
        const b = Bitset.of(size, rawB.map((n) => n % size));
        const before = [a.toArray(), b.toArray()];
        for (const result of [a.and(b), a.or(b), a.andNot(b), a.complement(), b.and(a), b.or(a), b.andNot(a)]) {
          expect(result).not.toBe(a);
          expect(result).not.toBe(b);
        }
        a.countAnd(b);
        expect([a.toArray(), b.toArray()]).toEqual(before);
      }),
    );
  });

  it('is filled by a builder once: the builder refuses changes after it built the set', () => {
    const builder = new BitsetBuilder(40);
    builder.add(3);
    builder.addAll([5, 39]);
    const set = builder.build();
    expect(set.toArray()).toEqual([3, 5, 39]);
    expect(() => builder.add(7)).toThrow(/already built/);
    expect(set.has(7)).toBe(false);
  });
});

describe('Sort walks', () => {
  it('walks the ids with the key forwards or backwards, then those without it, skipping what is filtered out', () => {
    const sort = { order: Uint32Array.from([4, 1, 3, 0, 2]), present: 3 };
    const all = () => true;
    expect(pageOf(sort, 'asc', all, 0, 10)).toEqual([4, 1, 3, 0, 2]);
    expect(pageOf(sort, 'desc', all, 0, 10)).toEqual([3, 1, 4, 2, 0]);
    expect(pageOf(sort, 'desc', (id) => id !== 1, 1, 2)).toEqual([4, 2]);
  });
});

describe('Text analysis', () => {
  it('tokenizes letters and digits, lower-cased, and folds diacritics', () => {
    expect(tokenize("Vase d'apparat « Hélios » 1987-1105")).toEqual(['vase', 'd', 'apparat', 'hélios', '1987', '1105']);
    expect(foldDiacritics('Théière Ğ ø')).toBe('Theiere G ø');
  });

  it('stems Dutch, French and English plurals to their singular', () => {
    const pairs: [Parameters<typeof stem>[0], string, string][] = [
      ['nl', 'vaas', 'vazen'],
      ['nl', 'stoel', 'stoelen'],
      ['nl', 'beeldje', 'beeldjes'],
      ['nl', 'brief', 'brieven'],
      ['nl', 'glas', 'glazen'],
      ['fr', 'chaise', 'chaises'],
      ['fr', 'verre', 'verres'],
      ['en', 'chair', 'chairs'],
      ['en', 'glass', 'glasses'],
    ];
    for (const [lang, one, many] of pairs) expect([lang, one, stem(lang, many)]).toEqual([lang, one, stem(lang, one)]);
  });

  it('indexes an accented word under a form that the unaccented spelling also reaches', () => {
    const accented = termsOf('fr', 'théière');
    expect(termsOf('fr', 'theiere').every((term) => accented.includes(term))).toBe(true);
  });
});

describe('Query syntax', () => {
  it('reads words, quoted phrases, OR and -negation', () => {
    const q = parseTextQuery('rode "art deco" vaas OR kom -zilver -"van gogh" or');
    expect(q.groups.map((group) => group.map((item) => item.tokens))).toEqual([[['rode']], [['art', 'deco']], [['vaas'], ['kom']], [['or']]]);
    expect(q.excluded.map((item) => item.tokens)).toEqual([['zilver'], ['van', 'gogh']]);
  });

  it('treats a hyphenated word as a phrase, ignores stray operators and refuses overlong queries', () => {
    expect(parseTextQuery('1987-1105').groups).toEqual([[{ raw: '1987-1105', tokens: ['1987', '1105'] }]]);
    expect(parseTextQuery('OR - "" OR').groups).toEqual([]);
    expect(() => parseTextQuery(Array.from({ length: MAX_QUERY_ITEMS + 1 }, (_, i) => `w${i}`).join(' '))).toThrow(TextQueryError);
  });
});

describe('Thesaurus', () => {
  it('expands to every narrower concept at any depth and survives a cycle', () => {
    const thesaurus = new Thesaurus({
      broader: [
        { concept: 'b', broader: 'a' },
        { concept: 'c', broader: 'b' },
        { concept: 'd', broader: 'c' },
        { concept: 'a', broader: 'd' },
        { concept: 'x', broader: 'y' },
      ],
      labels: [{ concept: 'b', label: 'Stoelen' }],
    });
    expect([...thesaurus.closure(['b'])].sort()).toEqual(['a', 'b', 'c', 'd']);
    expect([...thesaurus.closure(['y'])].sort()).toEqual(['x', 'y']);
    expect([...thesaurus.search('STOEL')]).toEqual(['b']);
  });
});

describe('Index rebuilds', () => {
  const fakeIndex = (generationId: string) => ({ generationId }) as unknown as CollectionIndex;

  it('builds once per generation, lets concurrent requests wait for the same build, and rebuilds after a swap', async () => {
    let served = 'g1';
    const builds: string[] = [];
    const indexes = new CollectionIndexes(async (id) => {
      builds.push(id);
      await new Promise((resolve) => setTimeout(resolve, 5));
      return fakeIndex(id);
    }, () => served);
    const [a, b] = await Promise.all([indexes.current(), indexes.current()]);
    expect(a).toBe(b);
    expect(a.generationId).toBe('g1');
    served = 'g2';
    expect((await indexes.current()).generationId).toBe('g2');
    expect(builds).toEqual(['g1', 'g2']);
  });

  it('throws a build away when the store swapped while it ran, and never answers from the old generation', async () => {
    let served = 'g1';
    const indexes = new CollectionIndexes(async (id) => {
      if (id === 'g1') served = 'g2';
      return fakeIndex(id);
    }, () => served);
    expect((await indexes.current()).generationId).toBe('g2');
  });

  it('gives a request an index built within the short wait, and a 503 instead of waiting for a longer build', async () => {
    let release: () => void = () => undefined;
    const slow = new Promise<void>((resolve) => (release = resolve));
    const indexes = new CollectionIndexes(async (id) => {
      if (id === 'slow') await slow;
      return fakeIndex(id);
    }, () => 'quick', 'agents');
    expect((await indexes.forRequest()).generationId).toBe('quick');

    const waiting = new CollectionIndexes(async (id) => {
      await slow;
      return fakeIndex(id);
    }, () => 'slow', 'agents');
    const asked = performance.now();
    await expect(waiting.forRequest()).rejects.toThrow(new IndexNotReadyError('agents'));
    expect(performance.now() - asked).toBeLessThan(REQUEST_WAIT_MS + 500);
    release();
    expect((await waiting.forRequest()).generationId).toBe('slow');
  });

  it('counts an index built ahead as built the moment its generation serves, before any request takes it', async () => {
    let served = 'g1';
    const builds: string[] = [];
    const indexes = new CollectionIndexes(async (id) => {
      builds.push(id);
      return fakeIndex(id);
    }, () => served);
    await indexes.current();
    await indexes.preload('g2', async () => fakeIndex('g2'));
    expect([indexes.builtFor('g1'), indexes.builtFor('g2')]).toEqual([true, true]);
    // The swap: /readyz asks builtFor synchronously, before anything has taken the index built ahead.
    served = 'g2';
    expect(indexes.builtFor('g2')).toBe(true);
    const taken = await indexes.forRequest();
    expect(taken.generationId).toBe('g2');
    expect(await indexes.current()).toBe(taken);
    // Built once, by current() for g1; g2's came from the preload.
    expect(builds).toEqual(['g1']);
  });

  it('does not count an index built ahead that is still under way, or that failed', async () => {
    const indexes = new CollectionIndexes(async (id) => fakeIndex(id), () => 'g1');
    let release: () => void = () => undefined;
    const under = indexes.preload('g2', async () => {
      await new Promise<void>((resolve) => (release = resolve));
      return fakeIndex('g2');
    });
    expect(indexes.builtFor('g2')).toBe(false);
    release();
    await under;
    expect(indexes.builtFor('g2')).toBe(true);
    await indexes.preload('g3', async () => {
      throw new Error('the stored index could not be read');
    }).catch(() => undefined);
    expect([indexes.builtFor('g2'), indexes.builtFor('g3')]).toEqual([false, false]);
  });

  it('starts no build for requests within RETRY_BUILD_MS of a failed one', async () => {
    let builds = 0;
    const indexes = new CollectionIndexes(async () => {
      builds++;
      throw new Error('the server ended the query at its time limit');
    }, () => 'g1', 'agents');
    for (let request = 0; request < 3; request++) await expect(indexes.forRequest()).rejects.toBeInstanceOf(IndexNotReadyError);
    expect(builds).toBe(1);
  });
});
