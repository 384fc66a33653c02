/**
 * /v2/id/objects on the real app over a real store worker (the 1,000-object demo generation). Expected sets
 * are computed here from the demo's source export (the JSON Lines files), never through the service.
 */
import request from 'supertest';
import type { ConceptRecord, ObjectRecord } from '../../src/harvest/schema.js';
import { getCollectionPage, type CollectionPage } from '../helpers/collection-page.js';
import { type DemoApp, sourceObjects, sourceRecords, startDemoApp, TEST_BASE_URL } from '../helpers/demo.js';

let demo: DemoApp;
let objects: ObjectRecord[];
let concepts: ConceptRecord[];
/** The objects the collection lists: public, healthy and current. */
let listed: ObjectRecord[];

const byNumber = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const numbersOf = (records: ObjectRecord[]): string[] => records.map((o) => o.objectNumber).sort(byNumber);

const get = (query: string): Promise<CollectionPage> => getCollectionPage(demo.app, 'objects', query);

const pidOf = (member: Record<string, unknown>): string => String(member['@id']).slice(`${TEST_BASE_URL}/v2/id/object/`.length);

/** Every object number of a filtered collection, in order, walking all pages of 100. */
async function allNumbers(query: string): Promise<string[]> {
  const out: string[] = [];
  for (let page = 1; ; page++) {
    const result = await get(`${query}${query === '' ? '' : '&'}page=${page}&itemsPerPage=100`);
    expect(result.status).toBe(200);
    out.push(...result.members.map(pidOf));
    if (result.members.length < 100) return out;
  }
}

const events = (o: ObjectRecord) => [...o.productions, ...o.creations];
const period = (o: ObjectRecord): [number, number] | undefined => {
  const dates = events(o).flatMap((e) => (e.date ? [e.date] : []));
  if (dates.length === 0) return undefined;
  return [Math.min(...dates.map((d) => d.begin)), Math.max(...dates.map((d) => d.end))];
};
/** One production or creation span overlaps from…to (spans one by one, not the envelope of all of them). */
const overlaps = (o: ObjectRecord, from: number, to: number): boolean =>
  events(o).some((e) => e.date !== undefined && e.date.begin <= to && e.date.end >= from);
const conceptLabel = (pid: string): string => concepts.find((c) => c.pid === pid)?.labels.nl ?? '';
const isKoepel = (o: ObjectRecord): boolean =>
  /_0-\d+$/.test(o.objectNumber) || listed.some((m) => m.partOfSet === o.objectNumber);
/** The concept and every concept whose broader chain reaches it. */
function closure(pids: string[]): Set<string> {
  const out = new Set(pids);
  for (let grew = true; grew; ) {
    grew = false;
    for (const c of concepts) {
      if (!out.has(c.pid) && c.broader.some((b) => typeof b === 'string' && out.has(b))) {
        out.add(c.pid);
        grew = true;
      }
    }
  }
  return out;
}
const usesConcept = (o: ObjectRecord, set: Set<string>): boolean =>
  [...o.types, ...o.materials, ...o.subCollections, ...o.productions.flatMap((p) => p.techniques)].some((pid) => set.has(pid));

beforeAll(async () => {
  demo = await startDemoApp();
  objects = sourceObjects(demo.data);
  concepts = sourceRecords(demo.data, 'concepts') as ConceptRecord[];
  listed = objects.filter((o) => o.public && o.healthy && o.state.kind === 'current');
}, 600_000);

afterAll(async () => {
  await demo?.close();
});

describe('Collection envelope', () => {
  it('answers a filter value that matches nothing with 200 and a total of 0', async () => {
    for (const query of ['type=no-such-type', 'agent=DMG-A-99999', 'concept=999999999', 'q=zzzyzzy', 'agent=https://example.org/x']) {
      const page = await get(query);
      expect([query, page.status, page.total, page.members]).toEqual([query, 200, 0, []]);
      expect(page.view['hydra:last']).toContain('page=1&');
    }
  });
});

describe('Conditional requests and compression', () => {
  const fetchPage = (query: string, headers: Record<string, string> = {}) => {
    let req = request(demo.app).get(`/v2/id/objects?${query}`);
    for (const [name, value] of Object.entries(headers)) req = req.set(name, value);
    return req;
  };

  it('changes the ETag with the page, the filters, the member form and the representation', async () => {
    const tags = new Set<string>();
    for (const [query, accept] of [
      ['page=2&itemsPerPage=5', 'application/ld+json'],
      ['page=3&itemsPerPage=5', 'application/ld+json'],
      ['page=2&itemsPerPage=5&hasImages=true', 'application/ld+json'],
      ['page=2&itemsPerPage=5&fullRecord=true', 'application/ld+json'],
      ['page=2&itemsPerPage=5', 'text/turtle'],
    ]) {
      const res = await fetchPage(query!, { Accept: accept! });
      expect([query, accept, res.status]).toEqual([query, accept, 200]);
      tags.add(res.headers.etag as string);
    }
    expect(tags.size).toBe(5);
    const stale = await fetchPage('page=2&itemsPerPage=5', { 'If-None-Match': 'W/"not-this-one"' });
    expect(stale.status).toBe(200);
  });

  it('compresses large bodies for clients that ask, and leaves small ones and other clients alone', async () => {
    const large = await fetchPage('fullRecord=true&itemsPerPage=50', { 'Accept-Encoding': 'gzip' });
    expect(large.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(large.text)['hydra:member']).toHaveLength(50);
    const plain = await fetchPage('fullRecord=true&itemsPerPage=50', { 'Accept-Encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    // A body this large is sent as its UTF-8 bytes (src/http/answer.ts): the length counts bytes, not characters.
    expect(plain.text.length).toBeGreaterThan(65_536);
    expect(Number(plain.headers['content-length'])).toBe(Buffer.byteLength(plain.text, 'utf8'));
    expect(Buffer.byteLength(plain.text, 'utf8')).toBeGreaterThan(plain.text.length);
    const small = await fetchPage('itemsPerPage=1', { 'Accept-Encoding': 'gzip' });
    expect(Number(small.headers['content-length'])).toBeLessThan(8 * 1024);
    expect(small.headers['content-encoding']).toBeUndefined();
  });
});

describe('Members', () => {
  it('builds stubs from the Dutch title, else the object number, with the IIIF manifest when there is one', async () => {
    const numbers = await allNumbers('');
    expect(numbers).toEqual(numbersOf(listed));
    const stubs: Record<string, unknown>[] = [];
    for (let page = 1; page <= Math.ceil(listed.length / 100); page++) stubs.push(...(await get(`page=${page}&itemsPerPage=100`)).members);
    for (const stub of stubs) {
      const source = listed.find((o) => o.objectNumber === pidOf(stub))!;
      const expected: Record<string, unknown> = {
        '@id': `${TEST_BASE_URL}/v2/id/object/${source.objectNumber}`,
        '@type': 'crm:E22_Human-Made_Object',
        'rdfs:label': source.titles.nl ?? source.objectNumber,
      };
      if (source.media.manifest) expected['crm:P129i_is_subject_of'] = { '@id': source.media.manifest, '@type': 'crm:E73_Information_Object' };
      expect(stub).toEqual(expected);
    }
    expect(stubs.some((stub) => !('crm:P129i_is_subject_of' in stub))).toBe(true);
    expect(listed.some((o) => o.titles.nl === undefined)).toBe(true);
  });

  it('never lists unhealthy, private or redirected records', async () => {
    const numbers = new Set(await allNumbers(''));
    const hidden = objects.filter((o) => !listed.includes(o));
    expect(hidden.some((o) => !o.healthy)).toBe(true);
    expect(hidden.some((o) => o.state.kind !== 'current')).toBe(true);
    for (const o of hidden) expect(numbers.has(o.objectNumber)).toBe(false);
  });
});

describe('Filters, each alone, against the source export', () => {
  const cases: [string, (o: ObjectRecord) => boolean][] = [
    ['hasImages=true', (o) => o.media.manifest !== undefined],
    ['hasImages=false', () => true],
    ['hasParts=true', (o) => isKoepel(o)],
    ['isPartOf=true', (o) => o.partOfSet !== undefined],
    ['onDisplay=true', (o) => o.onDisplay],
    ['onDisplay=1', (o) => o.onDisplay],
    ['onDisplay=false', (o) => !o.onDisplay],
    ['onDisplay=0', (o) => !o.onDisplay],
    ['language=NLD', (o) => o.titles.nl !== undefined],
    ['language=fra', (o) => o.titles.fr !== undefined],
    ['language=ENG', (o) => o.titles.en !== undefined],
    ['modifiedSince=2024-01-01', (o) => o.modified >= '2024-01-01'],
    ['date=1900/1950', (o) => overlaps(o, 1900, 1950)],
    ['date=1960/..', (o) => overlaps(o, 1960, Infinity)],
    ['dateFrom=2000', (o) => overlaps(o, 2000, Infinity)],
    ['dateTo=1800', (o) => overlaps(o, -Infinity, 1800)],
    ['dateFrom=1920&dateTo=1930', (o) => overlaps(o, 1920, 1930)],
    ['koepels=exclude', (o) => !isKoepel(o)],
    ['koepels=include', () => true],
  ];
  it.each(cases)('%s keeps exactly the expected objects in number order', async (query, keep) => {
    expect(await allNumbers(query)).toEqual(numbersOf(listed.filter(keep)));
  });

  it('matches type and material labels whole, ignoring case, with commas and repeats combining with AND', async () => {
    const typeOf = (o: ObjectRecord, label: string) => o.types.some((pid) => conceptLabel(pid).toLowerCase() === label);
    const materialOf = (o: ObjectRecord, label: string) => o.materials.some((pid) => conceptLabel(pid).toLowerCase() === label);
    const vases = numbersOf(listed.filter((o) => typeOf(o, 'vaas')));
    expect(vases.length).toBeGreaterThan(5);
    expect(await allNumbers('type=vaas')).toEqual(vases);
    expect(await allNumbers('type=VAAS')).toEqual(vases);
    const both = listed.filter((o) => materialOf(o, 'glas') && materialOf(o, 'zilver'));
    expect(await allNumbers('material=glas,zilver')).toEqual(numbersOf(both));
    expect(await allNumbers('material=glas&material=zilver')).toEqual(numbersOf(both));
    expect(await allNumbers('material=glas')).toEqual(numbersOf(listed.filter((o) => materialOf(o, 'glas'))));
  });

  it('finds an agent by pid or by full URI as designer or producer, in object-number order whatever sortBy says', async () => {
    const counts = new Map<string, number>();
    for (const o of listed) for (const e of events(o)) if (e.agent) counts.set(e.agent, (counts.get(e.agent) ?? 0) + 1);
    const agent = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
    const expected = numbersOf(listed.filter((o) => events(o).some((e) => e.agent === agent)));
    expect(await allNumbers(`agent=${agent}`)).toEqual(expected);
    expect(await allNumbers(`agent=${encodeURIComponent(`${TEST_BASE_URL}/v2/id/agent/${agent}`)}`)).toEqual(expected);
    expect(await allNumbers(`agent=${agent}&sortBy=titleNL&sortOrder=desc`)).toEqual(expected);
  });

  it('expands concept recursively through three levels of narrower concepts, across types, materials, techniques and sub-collections', async () => {
    const depth = (pid: string): number => {
      const parent = concepts.find((c) => c.pid === pid)?.broader.find((b): b is string => typeof b === 'string');
      return parent === undefined ? 0 : 1 + depth(parent);
    };
    const deep = concepts.find((c) => depth(c.pid) === 3 && listed.some((o) => usesConcept(o, new Set([c.pid]))))!;
    let top = deep.pid;
    for (let i = 0; i < 3; i++) top = concepts.find((c) => c.pid === top)!.broader.find((b): b is string => typeof b === 'string')!;
    const set = closure([top]);
    expect(set.has(deep.pid)).toBe(true);
    const expected = numbersOf(listed.filter((o) => usesConcept(o, set)));
    expect(expected.length).toBeGreaterThan(numbersOf(listed.filter((o) => usesConcept(o, new Set([top])))).length);
    expect(await allNumbers(`concept=${top}`)).toEqual(expected);
    expect(await allNumbers(`concept=${encodeURIComponent(`${TEST_BASE_URL}/v2/id/concept/${top}`)}`)).toEqual(expected);
  });

  it('searches concept labels in every language and expands the matches to narrower concepts', async () => {
    const matched = concepts.filter((c) => Object.values(c.labels).some((label) => label?.toLowerCase().includes('stoel'))).map((c) => c.pid);
    expect(matched.length).toBeGreaterThan(0);
    expect(await allNumbers('conceptSearch=Stoel')).toEqual(numbersOf(listed.filter((o) => usesConcept(o, closure(matched)))));
  });
});

describe('Filters in combination', () => {
  it('matches spans one by one: an object whose spans lie either side of a range is not in it', async () => {
    // Objects with two dated spans and a gap between them; a range inside the gap must not return them.
    const gapped = listed.flatMap((o) => {
      const spans = events(o).flatMap((e) => (e.date ? [e.date] : [])).sort((a, b) => a.begin - b.begin);
      for (let i = 1; i < spans.length; i++) {
        const gapStart = Math.max(...spans.slice(0, i).map((d) => d.end)) + 1;
        if (gapStart < spans[i]!.begin) return [{ number: o.objectNumber, from: gapStart, to: spans[i]!.begin - 1 }];
      }
      return [];
    });
    expect(gapped.length).toBeGreaterThan(0);
    for (const { number, from, to } of gapped.slice(0, 5)) {
      expect(await allNumbers(`date=${from}/${to}`)).not.toContain(number);
      expect(await allNumbers(`dateFrom=${from}&dateTo=${to}`)).not.toContain(number);
    }
  });

  it('q + type + dateFrom keeps the objects that satisfy all three', async () => {
    const vases = new Set(await allNumbers('type=vaas'));
    const search = new Set(await allNumbers('q=vaas'));
    const dated = listed.filter((o) => overlaps(o, 1950, Infinity)).map((o) => o.objectNumber);
    const expected = dated.filter((n) => vases.has(n) && search.has(n)).sort(byNumber);
    expect(expected.length).toBeGreaterThan(0);
    expect((await allNumbers('q=vaas&type=vaas&dateFrom=1950')).sort(byNumber)).toEqual(expected);
  });

  it('onDisplay=false + hasImages keeps objects with a manifest that are not on display', async () => {
    expect(await allNumbers('onDisplay=false&hasImages=true')).toEqual(numbersOf(listed.filter((o) => !o.onDisplay && o.media.manifest)));
  });

  it('koepels=exclude removes exactly what hasParts lists, so together they list nothing', async () => {
    const koepels = await allNumbers('hasParts=true');
    const rest = await allNumbers('koepels=exclude');
    expect(koepels.length).toBeGreaterThan(0);
    expect([...koepels, ...rest].sort(byNumber)).toEqual(numbersOf(listed));
    expect((await get('hasParts=true&koepels=exclude')).total).toBe(0);
  });
});

describe('Sorting', () => {
  const collated = (lang: 'nl' | 'fr' | 'en', desc: boolean): string[] => {
    const collator = new Intl.Collator(lang);
    const present = listed.filter((o) => o.titles[lang] !== undefined);
    const missing = numbersOf(listed.filter((o) => o.titles[lang] === undefined));
    const sorted = present
      .sort((a, b) => collator.compare(a.titles[lang]!, b.titles[lang]!) || byNumber(a.objectNumber, b.objectNumber))
      .map((o) => o.objectNumber);
    return desc ? [...sorted.reverse(), ...missing.reverse()] : [...sorted, ...missing];
  };
  const byKey = (key: (o: ObjectRecord) => number | string | undefined, desc: boolean): string[] => {
    const present = listed.filter((o) => key(o) !== undefined);
    const cmp = (a: ObjectRecord, b: ObjectRecord): number => {
      const x = key(a)!;
      const y = key(b)!;
      return (x < y ? -1 : x > y ? 1 : 0) || byNumber(a.objectNumber, b.objectNumber);
    };
    const sorted = present.sort(cmp).map((o) => o.objectNumber);
    const missing = numbersOf(listed.filter((o) => key(o) === undefined));
    return desc ? [...sorted.reverse(), ...missing.reverse()] : [...sorted, ...missing];
  };
  const cases: [string, (desc: boolean) => string[]][] = [
    ['objectNumber', (desc) => (desc ? numbersOf(listed).reverse() : numbersOf(listed))],
    ['modified', (desc) => byKey((o) => o.modified, desc)],
    ['titleNL', (desc) => collated('nl', desc)],
    ['titleFR', (desc) => collated('fr', desc)],
    ['titleEN', (desc) => collated('en', desc)],
    ['dateBegin', (desc) => byKey((o) => period(o)?.[0], desc)],
    ['dateEnd', (desc) => byKey((o) => period(o)?.[1], desc)],
  ];
  it.each(cases)('sortBy=%s orders both ways with objects lacking the value last', async (key, expected) => {
    expect(await allNumbers(`sortBy=${key}`)).toEqual(expected(false));
    expect(await allNumbers(`sortBy=${key}&sortOrder=asc`)).toEqual(expected(false));
    expect(await allNumbers(`sortBy=${key}&sortOrder=desc`)).toEqual(expected(true));
  });

  it('gives most recently modified first with modified desc', async () => {
    const first = (await get('sortBy=modified&sortOrder=desc&itemsPerPage=1')).members.map(pidOf)[0];
    const newest = listed.map((o) => o.modified).sort().pop();
    expect(listed.find((o) => o.objectNumber === first)?.modified).toBe(newest);
  });
});

describe('Full-text search (q)', () => {
  it('matches Dutch and French plural and singular forms alike', async () => {
    expect(await allNumbers('q=vazen')).toEqual(await allNumbers('q=vaas'));
    const withWord = listed.filter((o) => /\bvaas\b/i.test(o.titles.nl ?? '')).map((o) => o.objectNumber);
    const found = new Set(await allNumbers('q=vazen'));
    expect(withWord.length).toBeGreaterThan(0);
    for (const n of withWord) expect(found.has(n)).toBe(true);
    expect(await allNumbers('q=chaises')).toEqual(await allNumbers('q=chaise'));
    expect(await allNumbers('q=stoelen')).toEqual(await allNumbers('q=stoel'));
  });

  it('ignores case and diacritics', async () => {
    const plain = await allNumbers('q=ceramique');
    expect(plain.length).toBeGreaterThan(0);
    expect(await allNumbers('q=C%C3%89RAMIQUE')).toEqual(plain);
  });

  it('ranks title matches above description-only matches and finds an object number first', async () => {
    const page = await get('q=vaas&itemsPerPage=3');
    for (const member of page.members) expect(String(member['rdfs:label']).toLowerCase()).toContain('vaas');
    const number = await get('q=1987-1105');
    expect(number.members.map(pidOf)[0]).toBe('1987-1105');
  });

  it('combines words with AND, OR and -negation', async () => {
    const vaas = new Set(await allNumbers('q=vaas'));
    const brons = new Set(await allNumbers('q=brons'));
    const stoel = new Set(await allNumbers('q=stoel'));
    expect(new Set(await allNumbers('q=vaas%20OR%20stoel'))).toEqual(new Set([...vaas, ...stoel]));
    expect(new Set(await allNumbers('q=vaas%20brons'))).toEqual(new Set([...vaas].filter((n) => brons.has(n))));
    expect(new Set(await allNumbers('q=vaas%20-brons'))).toEqual(new Set([...vaas].filter((n) => !brons.has(n))));
  });

  it('matches a quoted phrase only where its words stand together', async () => {
    const phrase = await allNumbers(`q=${encodeURIComponent('"display vase"')}`);
    const words = await allNumbers('q=display%20vase');
    expect(phrase.length).toBeGreaterThan(0);
    expect(phrase.length).toBeLessThanOrEqual(words.length);
    for (const n of phrase) {
      const o = listed.find((x) => x.objectNumber === n)!;
      const texts = [o.titles.en, o.descriptions.en].join(' ').toLowerCase();
      expect(texts).toMatch(/display vases?\b/);
    }
  });

  it('keeps relevance order unless sortBy is given', async () => {
    const ranked = (await get('q=vaas&itemsPerPage=100')).members.map(pidOf);
    const sorted = (await get('q=vaas&itemsPerPage=100&sortBy=objectNumber')).members.map(pidOf);
    expect(sorted).toEqual([...ranked].sort(byNumber));
    expect(ranked).not.toEqual(sorted);
  });
});
