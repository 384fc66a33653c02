/**
 * The bounded `q` path (TextIndex.find / findPage on typed arrays, scores read off MiniSearch's postings, only
 * the page put in order) against the straightforward one (MiniSearch's own search, every match scored, all
 * sorted, then sliced; search-reference.ts): the same totals, the same ids in the same order, ties included,
 * and the same scores to the last bit, over random queries (common words, rare words, stop words, OR, phrases,
 * exclusions, numbers) with random filters, sorts and pages (the first, deep ones, the last, past the end) on
 * the demo generation's objects and agents, on hand-made tables of a tiny vocabulary (so that many records
 * tie; phrases cut across line breaks), on a larger one (long postings lists, kept and evicted; pages between
 * the ends), and topRanked alone against sort-all-and-slice.
 */
import fc from 'fast-check';
import { Bitset } from '../../src/collection-index/bitset.js';
import { buildCollectionIndex } from '../../src/collection-index/build.js';
import type { CollectionIndex, CollectionRequest } from '../../src/collection-index/collection-index.js';
import type { RecordTable } from '../../src/collection-index/record-table.js';
import type { SortDirection } from '../../src/collection-index/sort-orders.js';
import { tokenize } from '../../src/collection-index/text/analysis.js';
import { topRanked } from '../../src/collection-index/text/hits.js';
import { parseTextQuery, type TextQuery } from '../../src/collection-index/text/query-parser.js';
import { scoresOf, TextIndex, type TextField, type TextMatches } from '../../src/collection-index/text/text-index.js';
import type { ResourceKind } from '../../src/engine/kind.js';
import { AGENTS } from '../../src/kinds/agents/kind.js';
import { OBJECTS } from '../../src/kinds/objects/kind.js';
import { QueryLibrary } from '../../src/queries/library.js';
import { currentGeneration } from '../../src/store/generations.js';
import { StoreManager } from '../../src/store/store-manager.js';
import { Iris } from '../../src/vocab/iris.js';
import { demoData, TEST_BASE_URL } from '../helpers/demo.js';
import { previousSelect, referenceOrder, referenceSelect } from './search-reference.js';

let store: StoreManager;
const indexes: { objects?: CollectionIndex; agents?: CollectionIndex } = {};

beforeAll(async () => {
  const data = await demoData();
  store = new StoreManager({ includeNonPublic: true });
  await store.start(((await currentGeneration(data.dataDir)) ?? data.generation).dir);
  const deps = { store, queries: new QueryLibrary(), iris: new Iris(TEST_BASE_URL) };
  indexes.objects = (await buildCollectionIndex(deps, OBJECTS.index, store.generation!.id)) as unknown as CollectionIndex;
  indexes.agents = (await buildCollectionIndex(deps, AGENTS.index, store.generation!.id)) as unknown as CollectionIndex;
}, 600_000);
afterAll(async () => {
  await store?.close();
});

/** Words of a kind's text fields by how many records have them, most first; and some real phrases. */
function vocabulary(index: CollectionIndex, kind: ResourceKind<RecordTable>): { common: string[]; rare: string[]; phrases: string[]; identifiers: string[] } {
  const fields = kind.index.textFields(index.table);
  const counts = new Map<string, number>();
  const phrases: string[] = [];
  const identifiers: string[] = [];
  for (let id = 0; id < index.table.size; id++) {
    const seen = new Set<string>();
    for (const field of fields) {
      const text = field.text(id);
      if (text === undefined) continue;
      if (field.analysis === 'identifier') {
        if (id % 37 === 0) identifiers.push(text);
        continue;
      }
      const lines = text.split('\n');
      for (const line of lines) {
        const words = line.split(/\s+/).filter((word) => tokenize(word).length > 0);
        for (const word of words) for (const token of tokenize(word)) seen.add(token);
        if (id % 13 === 0 && words.length >= 2) {
          const at = id % Math.max(1, words.length - 1);
          phrases.push(words.slice(at, at + 2 + (id % 2)).join(' '));
        }
      }
    }
    for (const word of seen) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  const ranked = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([word]) => word);
  return { common: ranked.slice(0, 40), rare: ranked.slice(-200), phrases, identifiers };
}

/** q strings: words (common, rare, stop words, unknown), OR, quoted phrases, exclusions, identifiers. */
function queryText(words: ReturnType<typeof vocabulary>): fc.Arbitrary<string> {
  const word = fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...words.common) },
    { weight: 2, arbitrary: fc.constantFrom(...words.rare) },
    { weight: 1, arbitrary: fc.constantFrom('de', 'het', 'the', 'la', 'of', 'zzqx', 'Stuk', 'VAAS', 'ceramique', 'céramique') },
    ...(words.identifiers.length > 0 ? [{ weight: 1, arbitrary: fc.constantFrom(...words.identifiers) }] : []),
  );
  const phrase = fc.oneof(
    fc.constantFrom(...words.phrases).map((p) => `"${p}"`),
    fc.array(word, { minLength: 2, maxLength: 3 }).map((ws) => `"${ws.join(' ')}"`),
  );
  const item = fc.oneof({ weight: 4, arbitrary: word }, { weight: 1, arbitrary: phrase });
  const part = fc.oneof(
    { weight: 6, arbitrary: item },
    { weight: 2, arbitrary: fc.tuple(item, item).map(([a, b]) => `${a} OR ${b}`) },
    { weight: 1, arbitrary: item.map((i) => `-${i}`) },
  );
  return fc.array(part, { minLength: 1, maxLength: 4 }).map((parts) => parts.join(' '));
}

/** Every score of the fast ranking is the reference's score, to the last bit (a string round-trips a double exactly). */
function expectSameScores(q: string, fast: TextMatches, reference: ReturnType<TextIndex['findReference']>): void {
  const scores = scoresOf(fast);
  if (scores === undefined || reference.scores === undefined) {
    expect([q, scores === undefined]).toEqual([q, reference.scores === undefined]);
    return;
  }
  const bits = (map: ReadonlyMap<number, number>): string[] => [...map].map(([id, score]) => `${id} ${String(score)}`).sort();
  expect([q, bits(scores)]).toEqual([q, bits(reference.scores)]);
}

/** Where a page starts: the first, somewhere, the last, just past the end, far past it. */
const position = fc.oneof(fc.constant(0), fc.double({ min: 0, max: 1, noNaN: true }), fc.constant(1), fc.constant(1.01), fc.constant(3));

function offsetFor(total: number, limit: number, at: number): number {
  if (at === 1) return Math.max(0, (Math.ceil(total / limit) - 1) * limit);
  if (at > 1) return Math.floor(total * at) + 1;
  return Math.floor(at * total);
}

function checkRequest(index: CollectionIndex, request: Omit<CollectionRequest, 'offset' | 'limit'>, limit: number, at: number): void {
  const { total } = referenceOrder(index, request);
  const full: CollectionRequest = { ...request, offset: offsetFor(total, limit, at), limit };
  const expected = referenceSelect(index, full);
  expect(index.select(full)).toEqual(expected);
  // The benchmark's baseline (the select this one replaced) gives the same answers too.
  expect(previousSelect(index, full)).toEqual(expected);
}

describe('q: bounded page against sort-all-and-slice', () => {
  it('gives the same full ranking and match set as MiniSearch for random queries (objects)', () => {
    const index = indexes.objects!;
    const words = vocabulary(index, OBJECTS as unknown as ResourceKind<RecordTable>);
    fc.assert(
      fc.property(queryText(words), (q) => {
        const text = parseTextQuery(q);
        const size = index.table.size;
        const reference = index.text.findReference(text, size);
        const fast = index.text.find(text, size);
        expect(fast.matches.toArray()).toEqual(reference.matches.toArray());
        expect(fast.page(undefined, 0, size)).toEqual(Array.from(reference.ranked));
        expectSameScores(q, fast, reference);
        expect(index.text.find(text, size, false).matches.toArray()).toEqual(reference.matches.toArray());
      }),
      { numRuns: 300 },
    );
  });

  it('scores a long phrase that records have (more terms than one 32-bit mask holds) as MiniSearch does, to the last bit', () => {
    const index = indexes.objects!;
    const size = index.table.size;
    const fields = OBJECTS.index.textFields(index.table as never);
    // Lines of the demo's descriptions, their first 40 words: each word is looked up under a stem per language,
    // folded and as an identifier part (about 1.5 distinct terms a word here), so more than 32 distinct terms.
    const lines: string[] = [];
    for (let id = 0; id < size && lines.length < 12; id++) {
      for (const field of fields) {
        if (field.analysis === 'identifier') continue;
        for (const line of (field.text(id) ?? '').split('\n')) {
          const words = line.split(/\s+/).filter((word) => tokenize(word).length > 0);
          if (words.length >= 40 && lines.length < 12) lines.push(words.slice(0, 40).join(' '));
        }
      }
    }
    expect(lines.length).toBe(12);
    let matched = 0;
    for (const line of lines) {
      // The phrase alone, and beside a word of its own (OR), so that its scores are added to another item's.
      for (const q of [`"${line}"`, `"${line}" OR ${line.split(' ')[3]}`]) {
        const text = parseTextQuery(q);
        const reference = index.text.findReference(text, size);
        const fast = index.text.find(text, size);
        expect([q, fast.matches.toArray()]).toEqual([q, reference.matches.toArray()]);
        expect([q, fast.page(undefined, 0, size)]).toEqual([q, Array.from(reference.ranked)]);
        expectSameScores(q, fast, reference);
        if (reference.matches.count() > 0) matched++;
      }
    }
    // Not vacuous: the phrases come from records, so each is found.
    expect(matched).toBe(24);
  });

  it('gives the same totals and pages for random queries, filters, sorts and pages (objects)', () => {
    const index = indexes.objects!;
    const words = vocabulary(index, OBJECTS as unknown as ResourceKind<RecordTable>);
    const params = fc.record(
      {
        hasImages: fc.constant('true'),
        onDisplay: fc.constantFrom('true', 'false'),
        language: fc.constantFrom('NLD', 'FRA', 'ENG'),
        type: fc.constantFrom('vaas', 'stoel', 'theepot'),
        material: fc.constantFrom('glas', 'zilver', 'porselein'),
        dateFrom: fc.constantFrom('1920', '1960'),
        koepels: fc.constant('exclude'),
        agent: fc.constantFrom('DMG-A-00198', 'DMG-A-00001'),
      },
      { requiredKeys: [] },
    );
    const sortKeys = [...OBJECTS.index.sortKeys];
    const sort = fc.option(fc.record({ key: fc.constantFrom(...sortKeys), direction: fc.constantFrom<SortDirection>('asc', 'desc') }), { nil: undefined, freq: 2 });
    fc.assert(
      fc.property(fc.option(queryText(words), { nil: undefined, freq: 10 }), params, sort, fc.integer({ min: 1, max: 100 }), position, (q, p, s, limit, at) => {
        const filters = OBJECTS.index.filters.flatMap((filter) => {
          const active = filter.parse(p);
          return active ? [active] : [];
        });
        const text = q === undefined ? undefined : parseTextQuery(q);
        checkRequest(index, { filters: filters as CollectionRequest['filters'], text, sort: s }, limit, at);
        const expected = referenceOrder(index, { filters: filters as CollectionRequest['filters'], text });
        const set = index.matching(filters as CollectionRequest['filters'], text);
        expect(set ? set.count() : index.table.size).toBe(expected.total);
      }),
      { numRuns: 400 },
    );
  });

  it('gives the same pages on agents (folded names, pid identifiers)', () => {
    const index = indexes.agents!;
    const words = vocabulary(index, AGENTS as unknown as ResourceKind<RecordTable>);
    const sort = fc.option(fc.record({ key: fc.constantFrom('pid', 'name', 'modified'), direction: fc.constantFrom<SortDirection>('asc', 'desc') }), { nil: undefined, freq: 2 });
    fc.assert(
      fc.property(queryText(words), sort, fc.integer({ min: 1, max: 40 }), position, (q, s, limit, at) => {
        checkRequest(index, { filters: [], text: parseTextQuery(q), sort: s }, limit, at);
      }),
      { numRuns: 200 },
    );
  });

  it('answers the fixed cases: every page of a common word, the last page, past the end, only exclusions, nothing searchable, a long phrase', () => {
    const index = indexes.objects!;
    const words = vocabulary(index, OBJECTS as unknown as ResourceKind<RecordTable>);
    const common = words.common.find((word) => !['de', 'het', 'en', 'van', 'in', 'is', 'een'].includes(word))!;
    const { total } = referenceOrder(index, { filters: [], text: parseTextQuery(common) });
    expect(total).toBeGreaterThan(100);
    for (let offset = 0; offset < total + 20; offset += 7) {
      const request: CollectionRequest = { filters: [], text: parseTextQuery(common), offset, limit: 10 };
      expect(index.select(request)).toEqual(referenceSelect(index, request));
    }
    const long = `"${words.common.slice(0, 20).join(' ')}" ${words.common.slice(20, 34).join(' OR ')}`;
    for (const q of [`-${common}`, '-zzqx', '"" OR', 'zzqx', `${common} zzqx`, long, `${common} -"${words.phrases[0]}"`]) {
      for (const [offset, limit] of [[0, 10], [5, 100], [total - 3, 10], [10_000, 10]] as const) {
        const request: CollectionRequest = { filters: [], text: parseTextQuery(q), offset: Math.max(0, offset), limit };
        expect([q, index.select(request)]).toEqual([q, referenceSelect(index, request)]);
      }
    }
  });
});

describe('q on hand-made tables of a tiny vocabulary (many ties)', () => {
  const VOCABULARY = ['vaas', 'vazen', 'stoel', 'stoelen', 'glas', 'verre', 'chaise', 'chaises', 'café', 'cafe', 'rood', 'blauw', 'de', 'het', 'art', 'déco', 'deco', 'lamp'];
  const line = fc.array(fc.constantFrom(...VOCABULARY), { minLength: 1, maxLength: 6 }).map((words) => words.join(' '));
  const text = fc.option(fc.array(line, { minLength: 1, maxLength: 2 }).map((lines) => lines.join('\n')), { nil: undefined, freq: 4 });
  const record = fc.record({ number: fc.option(fc.constantFrom('1987-1105', 'A-12', 'a-12', 'B 7', '0001', 'vaas-1'), { nil: undefined }), name: text, nl: text, fr: text });
  type Record = { number?: string; name?: string; nl?: string; fr?: string };
  /** An item's text, given the records: a word, a random phrase, or a phrase cut out of a record's text (across a line break too). */
  type ItemOf = (records: Record[]) => string;
  const word = fc.oneof(fc.constantFrom(...VOCABULARY), fc.constantFrom('1987-1105', 'a-12', '0001', 'b', 'zzqx', 'Vaas', 'CAFÉ'));
  const cut = fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: 2, max: 3 })).map(
    ([r, at, length]): ItemOf =>
      (records) => {
        const record = records[r % records.length]!;
        const text = [record.name, record.nl, record.fr, record.number][at % 4];
        const words = (text ?? 'vaas').split(/\s+/);
        const start = Math.floor(at / 4) % words.length;
        return `"${words.slice(start, start + length).join(' ')}"`;
      },
  );
  const item = fc.oneof(
    { weight: 3, arbitrary: word.map((w): ItemOf => () => w) },
    { weight: 1, arbitrary: fc.array(fc.constantFrom(...VOCABULARY), { minLength: 2, maxLength: 3 }).map((ws): ItemOf => () => `"${ws.join(' ')}"`) },
    { weight: 2, arbitrary: cut },
  );
  const part = fc.oneof(
    { weight: 5, arbitrary: item },
    { weight: 2, arbitrary: fc.tuple(item, item).map(([a, b]): ItemOf => (records) => `${a(records)} OR ${b(records)}`) },
    { weight: 1, arbitrary: item.map((i): ItemOf => (records) => `-${i(records)}`) },
  );
  const q = fc.array(part, { minLength: 1, maxLength: 3 }).map((parts): ItemOf => (records) => parts.map((p) => p(records)).join(' '));

  it('ranks, counts and pages like MiniSearch, with filters (keep sets) and any offset', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(record, { minLength: 1, maxLength: 120, size: 'max' }), fc.array(q, { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 30 }), fc.nat(), async (records, queries, limit, seed) => {
        const fields: TextField[] = [
          { name: 'number', boost: 4, analysis: 'identifier', text: (id) => records[id]!.number },
          { name: 'name', boost: 3, analysis: 'plain', text: (id) => records[id]!.name },
          { name: 'title_nl', boost: 3, analysis: 'nl', text: (id) => records[id]!.nl },
          { name: 'description_fr', boost: 1, analysis: 'fr', text: (id) => records[id]!.fr },
        ];
        const size = records.length;
        const index = await TextIndex.build(size, fields);
        const keep = Bitset.of(size, records.map((_, id) => id).filter((id) => (id * 7 + seed) % 3 !== 0));
        for (const queryOf of queries) {
          const raw = queryOf(records);
          const query: TextQuery = parseTextQuery(raw);
          const reference = index.findReference(query, size);
          const fast = index.find(query, size);
          expect([raw, fast.matches.toArray()]).toEqual([raw, reference.matches.toArray()]);
          const ranked = Array.from(reference.ranked);
          expect([raw, fast.page(undefined, 0, size)]).toEqual([raw, ranked]);
          expectSameScores(raw, fast, reference);
          const kept = ranked.filter((id) => keep.has(id));
          for (const offset of [0, seed % (size + 1), Math.max(0, kept.length - limit), kept.length]) {
            expect([raw, offset, fast.page(keep, offset, limit)]).toEqual([raw, offset, kept.slice(offset, offset + limit)]);
            const page = index.findPage(query, size, keep, offset, limit);
            expect([raw, offset, page.ids, page.matches.toArray()]).toEqual([raw, offset, kept.slice(offset, offset + limit), reference.matches.toArray()]);
          }
        }
      }),
      { numRuns: 80 },
    );
  });
});

describe('q on a larger hand-made table (long postings: scored once and kept, evicted; pages between the ends)', () => {
  const VOCABULARY = ['vaas', 'vazen', 'stoel', 'stoelen', 'glas', 'verre', 'chaise', 'café', 'cafe', 'rood', 'blauw', 'de', 'het', 'art', 'déco', 'deco', 'lamp', 'kast', 'tafel', 'zilver'];
  const SIZE = 3000;
  /** A deterministic table: words drawn with a skewed frequency, so that some postings lists are long. */
  let state = 12345;
  const random = (): number => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
  const pick = (): string => VOCABULARY[Math.floor(random() ** 2 * VOCABULARY.length)]!;
  const text = (lines: number): string | undefined =>
    random() < 0.15 ? undefined : Array.from({ length: lines }, () => Array.from({ length: 1 + Math.floor(random() * 6) }, pick).join(' ')).join('\n');
  const records = Array.from({ length: SIZE }, (_, id) => ({ number: `N-${id % 700}`, name: text(1), nl: text(2), fr: text(1) }));
  const fields: TextField[] = [
    { name: 'number', boost: 4, analysis: 'identifier', text: (id) => records[id]!.number },
    { name: 'name', boost: 3, analysis: 'plain', text: (id) => records[id]!.name },
    { name: 'title_nl', boost: 3, analysis: 'nl', text: (id) => records[id]!.nl },
    { name: 'description_fr', boost: 1, analysis: 'fr', text: (id) => records[id]!.fr },
  ];
  let index: TextIndex;
  beforeAll(async () => {
    index = await TextIndex.build(SIZE, fields);
  });

  const word = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...VOCABULARY) }, { weight: 1, arbitrary: fc.constantFrom('n-12', 'N', '12', 'zzqx') });
  const phrase = fc.array(fc.constantFrom(...VOCABULARY), { minLength: 2, maxLength: 2 }).map((ws) => `"${ws.join(' ')}"`);
  /** Two words that follow each other in a record's text, on one line or across a line break (rare words: few candidates). */
  const cut = fc.tuple(fc.nat(SIZE - 1), fc.nat(3), fc.nat(20)).map(([r, f, at]) => {
    const record = records[r]!;
    const words = ([record.name, record.nl, record.fr, record.nl][f] ?? 'lamp kast').split(/\s+/);
    const start = at % Math.max(1, words.length - 1);
    return `"${words.slice(start, start + 2).join(' ')}"`;
  });
  const item = fc.oneof({ weight: 4, arbitrary: word }, { weight: 1, arbitrary: phrase }, { weight: 1, arbitrary: cut });
  const q = fc
    .array(fc.oneof({ weight: 5, arbitrary: item }, { weight: 2, arbitrary: fc.tuple(item, item).map(([a, b]) => `${a} OR ${b}`) }, { weight: 1, arbitrary: item.map((i) => `-${i}`) }), { minLength: 1, maxLength: 3 })
    .map((parts) => parts.join(' '));

  it('scores, ranks and pages like MiniSearch', () => {
    fc.assert(
      fc.property(q, fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 1, max: 100 }), fc.nat(2), (raw, at, limit, filter) => {
        const query = parseTextQuery(raw);
        const reference = index.findReference(query, SIZE);
        const fast = index.find(query, SIZE);
        expect([raw, fast.matches.toArray()]).toEqual([raw, reference.matches.toArray()]);
        expectSameScores(raw, fast, reference);
        const keep = filter === 0 ? undefined : Bitset.of(SIZE, records.map((_, id) => id).filter((id) => id % (filter + 2) !== 0));
        const kept = Array.from(reference.ranked).filter((id) => keep === undefined || keep.has(id));
        const offset = Math.floor(at * kept.length);
        const page = index.findPage(query, SIZE, keep, offset, limit);
        expect([raw, offset, page.ids]).toEqual([raw, offset, kept.slice(offset, offset + limit)]);
      }),
      { numRuns: 150 },
    );
  });
});

describe('phrases within one line, read from a table or (few candidates) directly', () => {
  it.each([
    ['directly', 200],
    ['from a table', 3],
  ] as const)('does not take a phrase across a line break (%s)', async (_how, size) => {
    const texts = Array.from({ length: size }, (_, id) => (id === 0 ? 'rood vaas\nstoel blauw' : id === 1 ? 'vaas stoel' : 'lamp'));
    const fields: TextField[] = [
      { name: 'number', boost: 4, analysis: 'identifier', text: (id) => `N-${id}` },
      { name: 'name', boost: 3, analysis: 'plain', text: (id) => texts[id] },
      { name: 'title_nl', boost: 3, analysis: 'nl', text: (id) => texts[id] },
    ];
    const index = await TextIndex.build(size, fields);
    for (const raw of ['"vaas stoel"', '"rood vaas"', '"stoel blauw"', '"vazen stoelen"', '"n 0"', 'n-1', '"blauw rood"']) {
      const query = parseTextQuery(raw);
      const reference = index.findReference(query, size);
      expect([raw, index.findPage(query, size, undefined, 0, 10).ids]).toEqual([raw, Array.from(reference.ranked).slice(0, 10)]);
    }
    expect(index.findPage(parseTextQuery('"vaas stoel"'), size, undefined, 0, 10).ids).toEqual([1]);
  });
});

describe('topRanked', () => {
  /** Distinct ids in a scrambled order (7919 and 20011 are prime). */
  const scrambled = (n: number, seed: number): number[] => Array.from({ length: n }, (_, i) => (i * 7919 + seed) % 20_011);

  /** `at`: where the page starts, as a share of the kept ids (below 1) or as an offset (from 1). */
  function check(ids: number[], scoreChoices: number[], at: number, limit: number, filtered: boolean): void {
    const scores = new Float64Array(20_011);
    ids.forEach((id, i) => (scores[id] = scoreChoices[(id * 31 + i) % scoreChoices.length]!));
    const keep = filtered ? Bitset.of(20_011, ids.filter((id) => id % 3 !== 0)) : undefined;
    const all = ids
      .map((id) => ({ id, score: scores[id]! }))
      .filter(({ id }) => keep === undefined || keep.has(id))
      .sort((a, b) => b.score - a.score || a.id - b.id)
      .map(({ id }) => id);
    const offset = at < 1 ? Math.floor(at * all.length) : at;
    const scratch = ids.length % 2 === 0 ? new Uint32Array(ids.length) : undefined;
    expect(topRanked(Uint32Array.from(ids), scores, keep, offset, limit, scratch)).toEqual(all.slice(offset, offset + limit));
  }
  const scoreChoices = fc.array(fc.constantFrom(0.5, 1, 1.5, 2, 2.25, 7, 7.000000000000001), { minLength: 1, maxLength: 50 });

  it('is sort-all-and-slice: score descending, ties by id, only kept ids, any offset', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 300 }), fc.nat(20_010), scoreChoices, fc.double({ min: 0, max: 0.99, noNaN: true }), fc.integer({ min: 0, max: 120 }), fc.boolean(), (n, seed, choices, at, limit, filtered) =>
        check(scrambled(n, seed), choices, at, limit, filtered),
      ),
      { numRuns: 300 },
    );
  });

  it('is sort-all-and-slice for pages far from both ends (the selection) and near them (the heaps)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 3300, max: 6000 }), fc.nat(20_010), scoreChoices, fc.integer({ min: 1, max: 4000 }), fc.integer({ min: 1, max: 100 }), fc.boolean(), (n, seed, choices, at, limit, filtered) =>
        check(scrambled(n, seed), choices, at, limit, filtered),
      ),
      { numRuns: 150 },
    );
  });
});
