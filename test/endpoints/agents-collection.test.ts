/**
 * /v2/id/agents on the real app over a real store worker (the demo generation). Expected sets are computed
 * here from the demo's source export (the JSON Lines files), never through the service; the full-text
 * expectations come from a small matcher written here from the spec's description of `q`.
 */
import type { AgentRecord, ObjectRecord } from '../../src/harvest/schema.js';
import { parseTextQuery } from '../../src/collection-index/text/query-parser.js';
import { TextIndex } from '../../src/collection-index/text/text-index.js';
import { AGENTS } from '../../src/kinds/agents/kind.js';
import { buildAgentTable } from '../../src/kinds/agents/table.js';
import { type DemoApp, sourceObjects, sourceRecords, startDemoApp, TEST_BASE_URL } from '../helpers/demo.js';
import { getCollectionPage, type CollectionPage } from '../helpers/collection-page.js';

type Json = Record<string, unknown>;
let demo: DemoApp;
let agents: AgentRecord[];
/** The agents the collection lists: the public ones. */
let listed: AgentRecord[];
let objects: ObjectRecord[];

const agentIri = (pid: string): string => `${TEST_BASE_URL}/v2/id/agent/${pid}`;
const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const pidsOf = (records: readonly AgentRecord[]): string[] => records.map((a) => a.pid).sort(byCodePoint);
const servable = (o: ObjectRecord): boolean => o.public && o.healthy && o.state.kind === 'current';

/** Spec "States and transitions": registrar kind, then knowledge-base kind, else unknown. */
function typeOf(a: AgentRecord): 'individual' | 'organisation' | 'unknown' {
  if (a.registrarKind === 'person') return 'individual';
  if (a.registrarKind === 'institution') return 'organisation';
  if (a.knowledgeBaseKind === 'human') return 'individual';
  if (a.knowledgeBaseKind === 'organisation') return 'organisation';
  return 'unknown';
}

const get = (query: string): Promise<CollectionPage> => getCollectionPage(demo.app, 'agents', query);

const pidOf = (member: Json): string => String(member['@id']).slice(`${TEST_BASE_URL}/v2/id/agent/`.length);

/** Every pid of a filtered collection, in order, walking all pages of 100; checks the total on the way. */
async function allPids(query: string): Promise<string[]> {
  const out: string[] = [];
  let total: number | undefined;
  for (let page = 1; ; page++) {
    const result = await get(`${query}${query === '' ? '' : '&'}page=${page}&itemsPerPage=100`);
    expect([query, result.status]).toEqual([query, 200]);
    total ??= result.total;
    out.push(...result.members.map(pidOf));
    if (result.members.length < 100) break;
  }
  expect([query, out.length]).toEqual([query, total]);
  return out;
}
const allSorted = async (query: string): Promise<string[]> => (await allPids(query)).sort(byCodePoint);

/* ---- An independent reading of `q` (spec: names and ids; words AND, "phrase", OR, -word) ---- */
const fold = (text: string): string => text.normalize('NFD').replace(/\p{M}+/gu, '').normalize('NFC');
const tokens = (text: string): string[] => (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map(fold);
/** Names of an agent, each its own text: the name, the alternative names and the encyclopedia titles. */
const namesOf = (a: AgentRecord): string[] => [a.name, ...a.alternativeNames, ...a.wikipediaTitles.map((w) => w.title)];
const pidTokens = (a: AgentRecord): string[] => [a.pid.toLowerCase(), ...tokens(a.pid)];
const containsRun = (haystack: readonly string[], needle: readonly string[]): boolean =>
  haystack.some((_, i) => i + needle.length <= haystack.length && needle.every((t, j) => haystack[i + j] === t));
/**
 * One word or phrase as typed: a single token must be a token of one of `names` or of the pid; a phrase a run
 * of tokens of one name (or the whole pid).
 */
function matchesIn(a: AgentRecord, names: readonly string[], item: string): boolean {
  const wanted = tokens(item);
  if (wanted.length === 1) return names.some((n) => tokens(n).includes(wanted[0]!)) || pidTokens(a).includes(wanted[0]!);
  return a.pid.toLowerCase() === item.toLowerCase() || names.some((n) => containsRun(tokens(n), wanted));
}
const matches = (a: AgentRecord, item: string): boolean => matchesIn(a, namesOf(a), item);
const matching = (item: string): string[] => pidsOf(listed.filter((a) => matches(a, item)));
/**
 * True when the alternative names and encyclopedia titles change nothing for `item`. The tests of the query
 * syntax use only such words and phrases, so each tests one thing; words and phrases of alternative names have
 * their own tests.
 */
const preferredNameDecides = (item: string): boolean =>
  listed.every((a) => matchesIn(a, [a.name], item) === matches(a, item));

beforeAll(async () => {
  demo = await startDemoApp();
  agents = sourceRecords(demo.data, 'agents') as AgentRecord[];
  listed = agents.filter((a) => a.public);
  objects = sourceObjects(demo.data);
}, 600_000);

afterAll(async () => {
  await demo?.close();
});

describe('Collection envelope', () => {
  it('omits previous and next on a single page of results', async () => {
    const page = await get(`q=${listed[0]!.pid}`);
    expect(page.total).toBe(1);
    expect(page.view['hydra:previous']).toBeUndefined();
    expect(page.view['hydra:next']).toBeUndefined();
    expect(page.view['hydra:first']).toBe(page.view['hydra:last']);
  });
});

describe('Agents collection: members', () => {
  it('lists every public agent once in pid order, as a stub {@id, @type crm:E39_Actor, rdfs:label} whatever its class', async () => {
    const stubs: Json[] = [];
    for (let page = 1; page <= Math.ceil(listed.length / 100); page++) stubs.push(...(await get(`page=${page}&itemsPerPage=100`)).members);
    expect(stubs.map(pidOf)).toEqual(pidsOf(listed));
    for (const stub of stubs) {
      const source = listed.find((a) => a.pid === pidOf(stub))!;
      expect(JSON.stringify(stub)).toBe(JSON.stringify({ '@id': agentIri(source.pid), '@type': 'crm:E39_Actor', 'rdfs:label': source.name }));
    }
    expect(new Set(listed.map(typeOf))).toEqual(new Set(['individual', 'organisation', 'unknown']));
  });
});

describe('Agents collection: filters, each alone, against the source export', () => {
  const designers = (): Set<string> => new Set(objects.filter(servable).flatMap((o) => o.creations.flatMap((c) => (c.agent ? [c.agent] : []))));
  const producers = (): Set<string> => new Set(objects.filter(servable).flatMap((o) => o.productions.flatMap((p) => (p.agent ? [p.agent] : []))));
  const bioIn = (a: AgentRecord, lang: 'nl' | 'fr' | 'en'): boolean => a.biographies.some((b) => b.lang === lang);
  const cases: [string, (a: AgentRecord) => boolean][] = [
    ['role=designer', (a) => designers().has(a.pid)],
    ['role=producer', (a) => producers().has(a.pid)],
    ['hasBio=true', (a) => a.biographies.length > 0],
    ['hasBio=1', (a) => a.biographies.length > 0],
    ['hasBio=false', () => true],
    ['language=NLD', (a) => bioIn(a, 'nl')],
    ['language=FRA', (a) => bioIn(a, 'fr')],
    ['language=ENG', (a) => bioIn(a, 'en')],
    ['language=eng', (a) => bioIn(a, 'en')],
    ['type=individual', (a) => typeOf(a) === 'individual'],
    ['type=organisation', (a) => typeOf(a) === 'organisation'],
    ['type=unknown', (a) => typeOf(a) === 'unknown'],
    ['modifiedSince=2024-01-01', (a) => a.modified >= '2024-01-01'],
    ['modifiedSince=2025-06-15', (a) => a.modified >= '2025-06-15'],
    ['modifiedSince=1990-01-01', () => true],
    ['modifiedSince=2100-01-01', () => false],
  ];
  it.each(cases)('%s keeps exactly the expected agents, in pid order', async (query, keep) => {
    const expected = pidsOf(listed.filter(keep));
    expect(await allPids(query)).toEqual(expected);
  });

  it('finds every filter value in the demo, so no case above is vacuous', () => {
    expect(designers().size).toBeGreaterThan(10);
    expect(producers().size).toBeGreaterThan(10);
    for (const lang of ['nl', 'fr', 'en'] as const) expect(listed.some((a) => bioIn(a, lang))).toBe(true);
    // A designer that is not a producer and the reverse: the roles are distinct sets.
    expect([...designers()].some((p) => !producers().has(p))).toBe(true);
    expect([...producers()].some((p) => !designers().has(p))).toBe(true);
  });

  it('includes the day itself in modifiedSince', async () => {
    const day = listed[5]!.modified;
    const found = await allPids(`modifiedSince=${day}`);
    expect(found).toContain(listed[5]!.pid);
    expect(found).toEqual(pidsOf(listed.filter((a) => a.modified >= day)));
  });

  it('matches the Dutch country name of the citizenship, ignoring case, for every nationality in the demo', async () => {
    const names = [...new Set(listed.flatMap((a) => (a.citizenship ? [a.citizenship.labels.nl] : [])))];
    expect(names.length).toBeGreaterThan(5);
    for (const name of names) {
      const expected = pidsOf(listed.filter((a) => a.citizenship?.labels.nl === name));
      expect(await allPids(`nationality=${encodeURIComponent(name)}`)).toEqual(expected);
      expect(await allPids(`nationality=${encodeURIComponent(name.toUpperCase())}`)).toEqual(expected);
      expect(await allPids(`nationality=${encodeURIComponent(name.toLowerCase())}`)).toEqual(expected);
    }
  }, 60_000);

  it('combines comma-separated and repeated nationalities with AND, and knows only Dutch names', async () => {
    const belgian = pidsOf(listed.filter((a) => a.citizenship?.labels.nl === 'België'));
    expect(belgian.length).toBeGreaterThan(0);
    expect(await allPids('nationality=Belgi%C3%AB,belgi%C3%AB')).toEqual(belgian);
    expect(await allPids('nationality=Belgi%C3%AB,Frankrijk')).toEqual([]);
    expect(await allPids('nationality=Belgi%C3%AB&nationality=Frankrijk')).toEqual([]);
    expect(await allPids('nationality=Belgium')).toEqual([]);
    expect(await allPids('nationality=Atlantis')).toEqual([]);
  });
});

describe('Agents collection: filters in combination', () => {
  it('keeps the agents that satisfy every filter', async () => {
    const combos: [string, (a: AgentRecord) => boolean][] = [
      ['type=individual&hasBio=true', (a) => typeOf(a) === 'individual' && a.biographies.length > 0],
      ['type=organisation&modifiedSince=2024-01-01&language=NLD', (a) => typeOf(a) === 'organisation' && a.modified >= '2024-01-01' && a.biographies.some((b) => b.lang === 'nl')],
      ['nationality=Nederland&type=individual', (a) => a.citizenship?.labels.nl === 'Nederland' && typeOf(a) === 'individual'],
    ];
    for (const [query, keep] of combos) {
      expect(await allPids(query)).toEqual(pidsOf(listed.filter(keep)));
    }
  });
});

describe('Agents collection: full-text search (q)', () => {
  const STOP = new Set(['de', 'van', 'den', 'het', 'een', 'en', 'la', 'le', 'les', 'a', 's', 'd', 'og', 'du', 'des', 'et', 'of', 'the', 'and', 'l']);
  /** Name words of at least two agents, not stop words or numbers. */
  const words = (): string[] => {
    const counts = new Map<string, number>();
    for (const a of listed) for (const t of new Set(namesOf(a).flatMap(tokens))) counts.set(t, (counts.get(t) ?? 0) + 1);
    return [...counts.entries()].filter(([t, n]) => n >= 2 && t.length >= 3 && !STOP.has(t) && !/^\d+$/.test(t)).map(([t]) => t);
  };

  it('finds a single word of the names, ignoring case and accents', async () => {
    const list = words().filter(preferredNameDecides);
    expect(list.length).toBeGreaterThan(20);
    for (const word of list) expect([word, await allSorted(`q=${encodeURIComponent(word)}`)]).toEqual([word, matching(word)]);
    const accented = listed.find((a) => /[éèç]/.test(a.name))!;
    const word = accented.name.split(' ').find((w) => /[éèç]/.test(w))!;
    expect(matching(word)).toContain(accented.pid);
    for (const typed of [word, fold(word), word.toUpperCase()]) expect([typed, await allSorted(`q=${encodeURIComponent(typed)}`)]).toEqual([typed, matching(word)]);
  }, 60_000);

  it('finds a word that only an alternative name contains', async () => {
    const affected = words().filter((w) => !preferredNameDecides(w));
    expect(affected.length).toBeGreaterThan(0);
    for (const word of affected) expect([word, await allSorted(`q=${encodeURIComponent(word)}`)]).toEqual([word, matching(word)]);
    const memphis = listed.find((a) => a.alternativeNames.includes('Memphis Milano'))!;
    expect(await allSorted('q=Milano')).toContain(memphis.pid);
    expect(await allSorted(`q=${encodeURIComponent('"Memphis Milano"')}`)).toEqual([memphis.pid]);
  });

  it('requires every word of several words, in any order', async () => {
    let nonTrivial = 0;
    for (const a of listed.slice(0, 100)) {
      const parts = tokens(a.name).filter((t) => !STOP.has(t));
      if (parts.length < 2 || !parts.every(preferredNameDecides)) continue;
      const query = parts.join(' ');
      const expected = pidsOf(listed.filter((x) => parts.every((p) => matches(x, p))));
      expect([query, await allSorted(`q=${encodeURIComponent(query)}`)]).toEqual([query, expected]);
      const reversed = [...parts].reverse().join(' ');
      expect([reversed, await allSorted(`q=${encodeURIComponent(reversed)}`)]).toEqual([reversed, expected]);
      if (expected.length < matching(parts[0]!).length) nonTrivial++;
    }
    expect(nonTrivial).toBeGreaterThan(5);
  }, 60_000);

  /** Words that are also parts of pids (`dmg`, `a`, serials): phrases with them have their own test below. */
  const pidParts = (): Set<string> => new Set(agents.flatMap((a) => tokens(a.pid)));

  /** Agents that have every word of `phrase` and its letters in a name, but only inside longer words ("Tissages Durand" for "s durand"). */
  const inWordsOnly = (phrase: string): string[] =>
    pidsOf(
      listed.filter(
        (a) =>
          !matches(a, phrase) &&
          phrase.split(' ').every((t) => matches(a, t)) &&
          namesOf(a).some((n) => fold(n.toLowerCase()).includes(phrase)),
      ),
    );

  it('matches a quoted phrase only where its words stand together, in that order, in one name', async () => {
    const PID_PARTS = pidParts();
    let narrower = 0;
    let checked = 0;
    for (const a of listed.slice(0, 150)) {
      const parts = tokens(a.name);
      for (let i = 0; i + 1 < parts.length; i++) {
        for (const phrase of [`${parts[i]} ${parts[i + 1]}`, `${parts[i + 1]} ${parts[i]}`]) {
          if (!preferredNameDecides(phrase) || phrase.split(' ').some((t) => PID_PARTS.has(t)) || inWordsOnly(phrase).length > 0) continue;
          const expected = matching(phrase);
          expect([phrase, await allSorted(`q=${encodeURIComponent(`"${phrase}"`)}`)]).toEqual([phrase, expected]);
          const loose = pidsOf(listed.filter((x) => phrase.split(' ').every((p) => matches(x, p))));
          if (expected.length < loose.length) narrower++;
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
    // Some phrases exclude agents that have both words, apart or in the other order.
    expect(narrower).toBeGreaterThan(0);
  }, 120_000);

  it('matches a quoted phrase with a word that is also part of a pid, such as "Plast A/S"', async () => {
    const named = listed.filter((a) => / A\/S$/.test(a.name));
    expect(named.length).toBeGreaterThan(0);
    for (const a of named) {
      const parts = a.name.split(' ');
      const phrase = parts.slice(-2).join(' ');
      expect(matching(phrase)).toContain(a.pid);
      expect([phrase, await allSorted(`q=${encodeURIComponent(`"${phrase}"`)}`)]).toEqual([phrase, matching(phrase)]);
    }
  });

  it('never matches a phrase whose first word is only the end of a longer word', async () => {
    const PID_PARTS = pidParts();
    const cases: string[] = [];
    for (const a of listed) {
      const parts = tokens(a.name);
      for (let i = 0; i + 1 < parts.length; i++) {
        const phrase = `${parts[i + 1]} ${parts[i]}`;
        if (inWordsOnly(phrase).length > 0 && !phrase.split(' ').some((t) => PID_PARTS.has(t))) cases.push(phrase);
      }
    }
    expect(cases.length).toBeGreaterThan(0);
    for (const phrase of cases) expect([phrase, await allSorted(`q=${encodeURIComponent(`"${phrase}"`)}`)]).toEqual([phrase, matching(phrase)]);
  });

  it('matches a quoted phrase of an alternative name', async () => {
    const a = listed.find((x) => x.alternativeNames.some((n) => /^[^,]+, [^,]+$/.test(n)))!;
    const phrase = tokens(a.alternativeNames[0]!).join(' ');
    expect(preferredNameDecides(phrase)).toBe(false);
    expect(await allSorted(`q=${encodeURIComponent(`"${phrase}"`)}`)).toEqual(matching(phrase));
  });

  it('never matches a phrase made of the end of one name and the start of the next', async () => {
    const record = agentIri('DMG-A-00028');
    // The rows index-names.rq gives for an agent with an alternative name and an encyclopedia title.
    const table = buildAgentTable('g', {
      agents: [{ record, pid: 'DMG-A-00028', class: 'http://www.cidoc-crm.org/cidoc-crm/E21_Person', name: 'Nathalie Lambert', modified: '2024-01-01' }],
      names: [{ record, text: 'Lambert, Nathalie' }, { record, text: 'Nathalie Lambert' }],
      nationalities: [],
      roles: [],
      biographies: [],
    });
    const text = await TextIndex.build(table.size, AGENTS.index.textFields(table));
    expect(text.find(parseTextQuery('"lambert nathalie"'), table.size).matches.count()).toBe(1);
    expect(text.find(parseTextQuery('"nathalie nathalie"'), table.size).matches.count()).toBe(0);
  });

  it('combines words with OR and excludes -word', async () => {
    const list = words().filter(preferredNameDecides);
    let checked = 0;
    for (let i = 0; i + 1 < list.length && checked < 15; i += 2) {
      const [x, y] = [list[i]!, list[i + 1]!];
      const mx = new Set(matching(x));
      const my = new Set(matching(y));
      expect(await allSorted(`q=${encodeURIComponent(`${x} OR ${y}`)}`)).toEqual([...new Set([...mx, ...my])].sort(byCodePoint));
      expect(await allSorted(`q=${encodeURIComponent(`${x} -${y}`)}`)).toEqual([...mx].filter((p) => !my.has(p)).sort(byCodePoint));
      checked++;
    }
    expect(checked).toBe(15);
    const [x, y] = [list[0]!, list[1]!];
    expect(await allSorted(`q=${encodeURIComponent(`-${x}`)}`)).toEqual(pidsOf(listed).filter((p) => !matching(x).includes(p)));
    // `or` in lower case is not the operator: the result is no union, only agents with both words.
    const both = new Set(pidsOf(listed.filter((a) => matches(a, x) && matches(a, y))));
    for (const pid of await allSorted(`q=${encodeURIComponent(`${x} or ${y}`)}`)) expect(both.has(pid)).toBe(true);
  }, 60_000);

  it('finds an agent by its pid, in any case, first', async () => {
    for (const a of [listed[0]!, listed[100]!, listed[listed.length - 1]!]) {
      for (const q of [a.pid, a.pid.toLowerCase()]) {
        const page = await get(`q=${encodeURIComponent(q)}`);
        expect(page.members.map(pidOf)[0]).toBe(a.pid);
        expect(page.total).toBe(1);
      }
    }
  });

  it('answers a query that matches nothing with 200 and a total of 0', async () => {
    for (const q of ['zzzyzzy', '"zzz yyy"', 'DMG-A-99999']) {
      const page = await get(`q=${encodeURIComponent(q)}`);
      expect([q, page.status, page.total, page.members]).toEqual([q, 200, 0, []]);
    }
  });
});

describe('Agents collection: sorting', () => {
  const collator = new Intl.Collator('nl');
  const byName = (a: AgentRecord, b: AgentRecord): number => collator.compare(a.name, b.name) || byCodePoint(a.pid, b.pid);
  const byModified = (a: AgentRecord, b: AgentRecord): number => byCodePoint(a.modified, b.modified) || byCodePoint(a.pid, b.pid);
  const cases: [string, (desc: boolean) => string[]][] = [
    ['pid', (desc) => (desc ? pidsOf(listed).reverse() : pidsOf(listed))],
    ['name', (desc) => (desc ? [...listed].sort(byName).reverse() : [...listed].sort(byName)).map((a) => a.pid)],
    ['modified', (desc) => (desc ? [...listed].sort(byModified).reverse() : [...listed].sort(byModified)).map((a) => a.pid)],
  ];
  it.each(cases)('sortBy=%s orders both ways', async (key, expected) => {
    expect(await allPids(`sortBy=${key}`)).toEqual(expected(false));
    expect(await allPids(`sortBy=${key}&sortOrder=asc`)).toEqual(expected(false));
    expect(await allPids(`sortBy=${key}&sortOrder=desc`)).toEqual(expected(true));
  });

  it('sorts a filtered collection and keeps the filter', async () => {
    const expected = listed.filter((a) => typeOf(a) === 'organisation').sort(byName).reverse().map((a) => a.pid);
    expect(await allPids('type=organisation&sortBy=name&sortOrder=desc')).toEqual(expected);
  });

  it('gives pid order in reverse with sortOrder=desc alone', async () => {
    expect(await allPids('sortOrder=desc')).toEqual(pidsOf(listed).reverse());
  });
});
