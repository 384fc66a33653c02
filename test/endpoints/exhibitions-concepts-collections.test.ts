/**
 * /v2/id/exhibitions and /v2/id/concepts on the real app over a real store worker (the demo generation).
 * Expected totals, members and orders are computed here from the demo's source export (the JSON Lines files),
 * never through the service.
 */
import type { ExhibitionRecord, ConceptRecord } from '../../src/harvest/schema.js';
import type { ResourceKind } from '../../src/engine/kind.js';
import { CONCEPTS } from '../../src/kinds/concepts/kind.js';
import { EXHIBITIONS } from '../../src/kinds/exhibitions/kind.js';
import { sourceRecords, startDemoApp, TEST_BASE_URL, type DemoApp } from '../helpers/demo.js';
import { getCollectionPage, type CollectionPage } from '../helpers/collection-page.js';

type Json = Record<string, unknown>;
type Lang = 'nl' | 'fr' | 'en';
const LANGS = ['nl', 'fr', 'en'] as const;
const CODE: Record<Lang, string> = { nl: 'NLD', fr: 'FRA', en: 'ENG' };

/** One listed record as the tests need it, from the source export. */
interface Listed {
  pid: string;
  label: string;
  modified: string;
  /** Titles (exhibitions) or preferred labels (concepts) per language. */
  names: Partial<Record<Lang, string>>;
  /** Every text `q` may search, the pid aside. */
  texts: string[];
}

interface KindCase {
  name: 'exhibitions' | 'concepts';
  kind: ResourceKind;
  stubType: string;
  recordPath: string;
  titleKey: 'title' | 'label';
  listed: () => Listed[];
}

let demo: DemoApp;
let exhibitions: Listed[];
let concepts: Listed[];

const byPid = (a: { pid: string }, b: { pid: string }): number => (a.pid < b.pid ? -1 : a.pid > b.pid ? 1 : 0);

const CASES: KindCase[] = [
  { name: 'exhibitions', kind: EXHIBITIONS as unknown as ResourceKind, stubType: 'crm:E7_Activity', recordPath: 'exhibition', titleKey: 'title', listed: () => exhibitions },
  { name: 'concepts', kind: CONCEPTS as unknown as ResourceKind, stubType: 'crm:E55_Type', recordPath: 'concept', titleKey: 'label', listed: () => concepts },
];
const EXHIBITIONS_CASE = CASES[0]!;
const CONCEPTS_CASE = CASES[1]!;

const get = (collection: string, query: string): Promise<CollectionPage> => getCollectionPage(demo.app, collection, query);

const pidOf = (c: KindCase, member: Json): string => String(member['@id']).slice(`${TEST_BASE_URL}/v2/id/${c.recordPath}/`.length);

/** Every pid of a filtered collection, in order, walking all pages of 100. */
async function allPids(c: KindCase, query: string): Promise<string[]> {
  const out: string[] = [];
  for (let page = 1; ; page++) {
    const result = await get(c.name, `${query}${query === '' ? '' : '&'}page=${page}&itemsPerPage=100`);
    expect([query, result.status]).toEqual([query, 200]);
    out.push(...result.members.map((m) => pidOf(c, m)));
    if (result.members.length < 100) return out;
  }
}

const pids = (records: Listed[]): string[] => [...records].sort(byPid).map((r) => r.pid);

/** Lower-cased, accent-folded runs of letters and digits. */
const words = (text: string): string[] => (text.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

/**
 * A word of the `lang` names of the listed records, in no name of another language, that no other word of any
 * searchable text starts like (first four letters), so stemming in any language cannot join it to another word:
 * the records it finds are exactly those whose texts contain it. The most frequent such word, so the search
 * finds more than one record when it can.
 */
function distinctiveWord(records: Listed[], lang: Lang): { word: string; expected: string[] } {
  const vocabulary = new Set(records.flatMap((r) => r.texts.flatMap(words)));
  const byPrefix = new Map<string, Set<string>>();
  for (const w of vocabulary) byPrefix.set(w.slice(0, 4), (byPrefix.get(w.slice(0, 4)) ?? new Set()).add(w));
  // Words of this language only: in no name of another language.
  const elsewhere = new Set(records.flatMap((r) => LANGS.filter((l) => l !== lang).flatMap((l) => words(r.names[l] ?? ''))));
  const candidates = [...new Set(records.flatMap((r) => words(r.names[lang] ?? '')))].filter(
    (w) => w.length >= 6 && /^\p{L}+$/u.test(w) && byPrefix.get(w.slice(0, 4))!.size === 1 && !elsewhere.has(w),
  );
  const recordWords = records.map((r) => ({ r, words: new Set(r.texts.flatMap(words)) }));
  const having = new Map(candidates.map((w) => [w, recordWords.filter((x) => x.words.has(w)).map((x) => x.r)]));
  const word = candidates.sort((a, b) => having.get(b)!.length - having.get(a)!.length || (a < b ? -1 : 1))[0];
  if (word === undefined) throw new Error(`no distinctive ${lang} word`);
  return { word, expected: pids(having.get(word)!) };
}

beforeAll(async () => {
  demo = await startDemoApp();
  exhibitions = (sourceRecords(demo.data, 'exhibitions') as ExhibitionRecord[])
    .filter((e) => e.public)
    .map((e) => ({
      pid: e.pid,
      label: e.titles.nl ?? e.sourceTitle ?? e.titles.en ?? e.titles.fr ?? e.pid,
      modified: e.modified,
      names: e.titles,
      texts: [...LANGS.flatMap((l) => (e.titles[l] ? [e.titles[l]] : [])), ...(e.sourceTitle ? [e.sourceTitle] : [])],
    }));
  concepts = (sourceRecords(demo.data, 'concepts') as ConceptRecord[])
    .filter((c) => c.public)
    .map((c) => ({
      pid: c.pid,
      label: c.labels.nl,
      modified: c.modified,
      names: c.labels,
      texts: LANGS.flatMap((l) => [c.labels[l], c.scopeNotes[l]].filter((t): t is string => t !== undefined)),
    }));
}, 600_000);
afterAll(async () => demo?.close());

describe('Collection envelope', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('/v2/id/%s lists stubs {@id, @type, rdfs:label} of every public record in pid order', async (_name, c) => {
    const stubs: Json[] = [];
    for (let page = 1; page <= Math.ceil(c.listed().length / 100); page++) stubs.push(...(await get(c.name, `page=${page}&itemsPerPage=100`)).members);
    expect(stubs.map((s) => pidOf(c, s))).toEqual(pids(c.listed()));
    const expected = [...c.listed()].sort(byPid).map((r) => ({ '@id': `${TEST_BASE_URL}/v2/id/${c.recordPath}/${r.pid}`, '@type': c.stubType, 'rdfs:label': r.label }));
    expect(stubs).toEqual(expected);
    for (const stub of stubs) expect(Object.keys(stub)).toEqual(['@id', '@type', 'rdfs:label']);
  });

});

/** Tests every collection section has: language and modifiedSince from source, sorting both ways (what they refuse: collection-engine.test.ts). */
function commonCollectionTests(c: KindCase, languageRule: string): void {
  it.each(LANGS.map((l) => [CODE[l], l] as const))(`language=%s keeps the records with ${languageRule} in that language`, async (code, lang) => {
    const expected = pids(c.listed().filter((r) => r.names[lang] !== undefined));
    expect(expected.length).toBeGreaterThan(0);
    expect((await get(c.name, `language=${code}`)).total).toBe(expected.length);
    expect(await allPids(c, `language=${code}`)).toEqual(expected);
    expect(await allPids(c, `language=${code.toLowerCase()}`)).toEqual(expected);
  });

  it('modifiedSince keeps the records modified on or after the day, for dates across the source range', async () => {
    const dates = [...new Set(c.listed().map((r) => r.modified))].sort();
    const probes = ['1900-01-01', dates[0]!, dates[Math.floor(dates.length / 3)]!, dates[Math.floor(dates.length / 2)]!, dates[dates.length - 1]!, '2099-12-31'];
    for (const since of probes) {
      const expected = pids(c.listed().filter((r) => r.modified >= since));
      expect([since, (await get(c.name, `modifiedSince=${since}`)).total]).toEqual([since, expected.length]);
      expect(await allPids(c, `modifiedSince=${since}`)).toEqual(expected);
    }
  });

  it('combines language and modifiedSince with AND', async () => {
    const since = [...c.listed().map((r) => r.modified)].sort()[Math.floor(c.listed().length / 2)]!;
    const expected = pids(c.listed().filter((r) => r.modified >= since && r.names.en !== undefined));
    expect(await allPids(c, `language=ENG&modifiedSince=${since}`)).toEqual(expected);
  });

  const collator = new Intl.Collator('nl');
  const orders: [string, (records: Listed[]) => Listed[]][] = [
    ['pid', (records) => [...records].sort(byPid)],
    [c.titleKey, (records) => [...records].sort((a, b) => collator.compare(a.label, b.label) || byPid(a, b))],
    ['modified', (records) => [...records].sort((a, b) => (a.modified < b.modified ? -1 : a.modified > b.modified ? 1 : 0) || byPid(a, b))],
  ];
  it.each(orders)('sortBy=%s orders both ways, ties by pid', async (key, order) => {
    const asc = order(c.listed()).map((r) => r.pid);
    expect(await allPids(c, `sortBy=${key}`)).toEqual(asc);
    expect(await allPids(c, `sortBy=${key}&sortOrder=asc`)).toEqual(asc);
    expect(await allPids(c, `sortBy=${key}&sortOrder=desc`)).toEqual([...asc].reverse());
  });

  it('sortOrder=desc alone gives reverse pid order', async () => {
    expect(await allPids(c, 'sortOrder=desc')).toEqual(pids(c.listed()).reverse());
  });
}

describe('Exhibitions collection', () => {
  commonCollectionTests(EXHIBITIONS_CASE, 'a title');

  it.each(LANGS.map((l) => [l] as const))('q finds exactly the exhibitions whose titles hold a word of a %s title', async (lang) => {
    const { word, expected } = distinctiveWord(exhibitions, lang);
    const found = await allPids(EXHIBITIONS_CASE, `q=${encodeURIComponent(word)}`);
    expect([word, [...found].sort()]).toEqual([word, expected]);
    expect((await allPids(EXHIBITIONS_CASE, `q=${encodeURIComponent(word.toUpperCase())}`)).sort()).toEqual(expected);
  });

  it('q finds an exhibition by its pid first', async () => {
    for (const pid of ['TE_2020-001', pids(exhibitions)[exhibitions.length - 1]!]) {
      const page = await get('exhibitions', `q=${encodeURIComponent(pid)}`);
      expect(page.total).toBeGreaterThan(0);
      expect(pidOf(EXHIBITIONS_CASE, page.members[0]!)).toBe(pid);
    }
  });

  it('q combines with language and counts the same with stubs and full records', async () => {
    const { word, expected } = distinctiveWord(exhibitions, 'nl');
    const withNl = expected.filter((pid) => exhibitions.find((e) => e.pid === pid)!.names.nl !== undefined);
    expect((await allPids(EXHIBITIONS_CASE, `q=${word}&language=NLD`)).sort()).toEqual(withNl);
    expect((await get('exhibitions', `q=${word}&fullRecord=true`)).total).toBe(expected.length);
  });
});

describe('Concepts collection', () => {
  commonCollectionTests(CONCEPTS_CASE, 'a preferred label');

  it('q finds exactly the concepts whose labels or scope notes hold a word of a Dutch label', async () => {
    const { word, expected } = distinctiveWord(concepts, 'nl');
    expect(expected.length).toBeGreaterThan(0);
    const page = await get('concepts', `q=${encodeURIComponent(word)}&itemsPerPage=100`);
    expect([word, page.members.map((m) => pidOf(CONCEPTS_CASE, m)).sort()]).toEqual([word, expected]);
    // Labels weigh more than scope notes: the best match carries the word in a label.
    const best = concepts.find((r) => r.pid === pidOf(CONCEPTS_CASE, page.members[0]!))!;
    expect(LANGS.some((l) => words(best.names[l] ?? '').includes(word))).toBe(true);
  });

  it('q finds a concept by its pid first', async () => {
    const pid = pids(concepts)[Math.floor(concepts.length / 2)]!;
    const page = await get('concepts', `q=${pid}`);
    expect(pidOf(CONCEPTS_CASE, page.members[0]!)).toBe(pid);
  });

  it('q finds a concept by an English label word as well', async () => {
    const { word, expected } = distinctiveWord(concepts, 'en');
    expect((await allPids(CONCEPTS_CASE, `q=${encodeURIComponent(word)}`)).sort()).toEqual(expected);
  });
});
