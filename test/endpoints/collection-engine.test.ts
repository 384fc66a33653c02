/**
 * What the collection engine does the same for every kind, tested once as a table over the kinds (objects,
 * agents, exhibitions, concepts) on the real app over the demo generation: the Hydra envelope and view, the
 * RFC 8288 Link header, the middle and the last page, the itemsPerPage cap, a page past the end, and the
 * conditional requests, and random requests (never a 5xx; the total is the members over all pages, each once).
 * Expected totals and pid orders come from the demo's source export (the JSON Lines
 * files), never through the service. What differs per kind (its stubs, filters, sorts and search) is tested in
 * the kind's own collection test; what a kind refuses is a row of this one's table.
 */
import fc from 'fast-check';
import request from 'supertest';
import type { RecordTable } from '../../src/collection-index/record-table.js';
import type { ResourceKind } from '../../src/engine/kind.js';
import { KINDS } from '../../src/kinds/index.js';
import type { ObjectRecord } from '../../src/harvest/schema.js';
import { frameStubs } from '../../src/kinds/objects/stub.js';
import type { JsonObject } from '../../src/shaping/jsonld.js';
import { frameLabelledStubs } from '../../src/shaping/labelled-stub.js';
import { getCollectionPage, type CollectionPage } from '../helpers/collection-page.js';
import { sampleListed } from '../helpers/sample.js';
import { remoteStoreRun, sourceObjects, sourceRecords, startDemoApp, TEST_BASE_URL, type DemoApp } from '../helpers/demo.js';

type Json = Record<string, unknown>;

interface KindCase {
  /** The collection's path segment. */
  collection: string;
  /** The record's path segment. */
  record: string;
  /** The pids the collection lists, from the source export, in pid (code point) order. */
  listed: () => string[];
  /** The reference stubs: what jsonld.js framing makes of the stub CONSTRUCT's N-Quads (the kind's stub frame). */
  referenceStubs: (nquads: string) => Promise<Map<string, JsonObject>>;
  /** A filter of the kind with a few pages of matches in the demo. */
  filter: string;
  /** Every parameter of the kind in a scrambled order, defaults and unknown ones among them … */
  scrambled: string;
  /** … and the query of the first page's link: the active ones in the order of the spec's table, values normalised. */
  linked: string;
}

let demo: DemoApp;
const listedPids: Record<string, string[]> = {};
const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const labelled = (type: string) => (nquads: string) => frameLabelledStubs(nquads, type);
const CASES: KindCase[] = [
  {
    collection: 'objects',
    record: 'object',
    listed: () => listedPids.objects!,
    referenceStubs: frameStubs,
    filter: 'hasImages=true&onDisplay=false',
    scrambled: 'koepels=exclude&type=vaas&hasImages=1&q=vaas&modifiedSince=2000-01-01&onDisplay=0&sortBy=titleNL&fullRecord=false&unknown=x',
    linked: 'modifiedSince=2000-01-01&q=vaas&hasImages=true&onDisplay=false&type=vaas&koepels=exclude&sortBy=titleNL',
  },
  {
    collection: 'agents',
    record: 'agent',
    listed: () => listedPids.agents!,
    referenceStubs: labelled('crm:E39_Actor'),
    filter: 'type=individual',
    scrambled: 'type=individual&q=jan&nationality=Belgi%C3%AB&hasBio=true&sortBy=name&modifiedSince=2000-01-01&language=NLD&role=designer&fullRecord=false&unknown=x',
    linked: 'modifiedSince=2000-01-01&q=jan&nationality=Belgi%C3%AB&role=designer&hasBio=true&language=NLD&type=individual&sortBy=name',
  },
  ...(['exhibitions', 'concepts'] as const).map((collection) => ({
    collection,
    record: collection.slice(0, -1),
    listed: () => listedPids[collection]!,
    referenceStubs: labelled(collection === 'exhibitions' ? 'crm:E7_Activity' : 'crm:E55_Type'),
    filter: collection === 'exhibitions' ? 'language=ENG' : 'language=FRA',
    scrambled: 'sortOrder=desc&sortBy=modified&q=design&language=fra&modifiedSince=2000-01-01&fullRecord=false&unknown=x',
    linked: 'modifiedSince=2000-01-01&language=FRA&q=design&sortBy=modified&sortOrder=desc',
  })),
];
const each = CASES.map((c) => [c.collection, c] as const);

beforeAll(async () => {
  demo = await startDemoApp();
  // Objects: public, healthy and current (not merged or withdrawn); the other kinds: public.
  listedPids.objects = sourceObjects(demo.data)
    .filter((o: ObjectRecord) => o.public && o.healthy && o.state.kind === 'current')
    .map((o) => o.objectNumber)
    .sort(byCodePoint);
  for (const name of ['agents', 'exhibitions', 'concepts'] as const) {
    listedPids[name] = (sourceRecords(demo.data, name) as { pid: string; public: boolean }[])
      .filter((r) => r.public)
      .map((r) => r.pid)
      .sort(byCodePoint);
  }
}, 600_000);
afterAll(async () => demo?.close());

const get = (c: KindCase, query: string): Promise<CollectionPage> => getCollectionPage(demo.app, c.collection, query);

const url = (c: KindCase): string => `${TEST_BASE_URL}/v2/id/${c.collection}`;
const pidOf = (c: KindCase, member: Json): string => String(member['@id']).slice(`${TEST_BASE_URL}/v2/id/${c.record}/`.length);

describe('the collection engine, for every kind', () => {
  it.each(each)('/v2/id/%s is a Hydra collection of its listed records with a view and an RFC 8288 Link header', async (_name, c) => {
    const page = await get(c, '');
    expect(page.status).toBe(200);
    expect(Object.keys(page.body)).toEqual(['@context', '@id', '@type', 'hydra:totalItems', 'hydra:view', 'hydra:member']);
    expect(page.body['@context']).toEqual({
      crm: 'http://www.cidoc-crm.org/cidoc-crm/',
      rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
      hydra: 'http://www.w3.org/ns/hydra/core#',
      owl: 'https://www.w3.org/2002/07/owl#',
    });
    expect(page.body['@id']).toBe(url(c));
    expect(page.body['@type']).toBe('hydra:Collection');
    expect(page.total).toBe(c.listed().length);
    const last = Math.ceil(c.listed().length / 10);
    expect(last).toBeGreaterThan(2);
    expect(page.view).toEqual({
      '@id': `${url(c)}?page=1&itemsPerPage=10`,
      '@type': 'hydra:PartialCollectionView',
      'hydra:first': `${url(c)}?page=1&itemsPerPage=10`,
      'hydra:last': `${url(c)}?page=${last}&itemsPerPage=10`,
      'hydra:next': `${url(c)}?page=2&itemsPerPage=10`,
    });
    expect(page.link).toBe(`<${url(c)}?page=1&itemsPerPage=10>; rel="first", <${url(c)}?page=2&itemsPerPage=10>; rel="next", <${url(c)}?page=${last}&itemsPerPage=10>; rel="last"`);
    expect(page.members.map((m) => pidOf(c, m))).toEqual(c.listed().slice(0, 10));
  });

  it.each(each)('/v2/id/%s keeps every active parameter in the links, in the order of the spec table, and fullRecord=true', async (_name, c) => {
    const page = await get(c, c.scrambled);
    expect(page.status).toBe(200);
    expect(page.view['hydra:first']).toBe(`${url(c)}?page=1&itemsPerPage=10&${c.linked}`);
    const full = await get(c, 'fullRecord=true&itemsPerPage=2');
    expect(full.view['hydra:first']).toBe(`${url(c)}?page=1&itemsPerPage=2&fullRecord=true`);
  });

  it.each(each)('/v2/id/%s links previous and next on a middle page, and no next on the last page', async (_name, c) => {
    const last = Math.ceil(c.listed().length / 7);
    const middle = await get(c, 'page=2&itemsPerPage=7');
    expect(middle.view['hydra:previous']).toBe(`${url(c)}?page=1&itemsPerPage=7`);
    expect(middle.view['hydra:next']).toBe(`${url(c)}?page=3&itemsPerPage=7`);
    expect(middle.link).toBe(
      [
        `<${url(c)}?page=1&itemsPerPage=7>; rel="first"`,
        `<${url(c)}?page=1&itemsPerPage=7>; rel="prev"`,
        `<${url(c)}?page=3&itemsPerPage=7>; rel="next"`,
        `<${url(c)}?page=${last}&itemsPerPage=7>; rel="last"`,
      ].join(', '),
    );
    expect(middle.members.map((m) => pidOf(c, m))).toEqual(c.listed().slice(7, 14));
    const end = await get(c, `page=${last}&itemsPerPage=7`);
    expect(end.view['hydra:next']).toBeUndefined();
    expect(end.view['hydra:previous']).toBe(`${url(c)}?page=${last - 1}&itemsPerPage=7`);
    expect(end.link).not.toContain('rel="next"');
    expect(end.members.map((m) => pidOf(c, m))).toEqual(c.listed().slice((last - 1) * 7));
  });

  it.each(each)('/v2/id/%s serves itemsPerPage above 100 as 100, says so in the links, and answers a page past the end with 200 and no members', async (_name, c) => {
    for (const value of ['250', '100000000000000000000000']) {
      const big = await get(c, `itemsPerPage=${value}`);
      expect([value, big.members.length]).toEqual([value, Math.min(100, c.listed().length)]);
      expect(big.view['@id']).toBe(`${url(c)}?page=1&itemsPerPage=100`);
    }
    const past = await get(c, 'page=500');
    expect(past.status).toBe(200);
    expect(past.members).toEqual([]);
    expect(past.total).toBe(c.listed().length);
    expect(past.view['hydra:next']).toBeUndefined();
  });

  it.each(each)('/v2/id/%s gives each page an ETag and the Last-Modified of its generation, and 304 on either validator', async (_name, c) => {
    const fetchPage = (query: string, headers: Record<string, string> = {}): request.Test => {
      let req = request(demo.app).get(`/v2/id/${c.collection}?${query}`);
      for (const [name, value] of Object.entries(headers)) req = req.set(name, value);
      return req;
    };
    const first = await fetchPage('page=2&itemsPerPage=5');
    expect(first.status).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"/);
    expect(new Date(first.headers['last-modified'] as string).getTime()).toBe(Math.floor(Date.parse(demo.ctx.store.generation!.created) / 1000) * 1000);
    // The same page asked with its parameters in another order is the same document.
    const again = await fetchPage('itemsPerPage=5&page=2', { 'If-None-Match': etag });
    expect([again.status, again.text]).toEqual([304, '']);
    expect((await fetchPage('page=2&itemsPerPage=5', { 'If-Modified-Since': first.headers['last-modified'] as string })).status).toBe(304);
    expect((await fetchPage('page=3&itemsPerPage=5', { 'If-None-Match': etag })).status).toBe(200);
  });
});

describe('the collection engine\'s members, for every kind', () => {
  it.each(each)('/v2/id/%s with fullRecord=true lists, page by page, every record once, each sampled one byte for byte as its single record (koepelrecords and set members too)', async (_name, c) => {
    const seen: string[] = [];
    // The remote pass walks the first two pages: every record is a CONSTRUCT sent to the server twice. Each
    // member of a sample that shows every feature of the kind's source records (test/helpers/sample.ts) is
    // compared with its single record; the others are only counted.
    const pages = remoteStoreRun() ? 2 : Math.ceil(c.listed().length / 50);
    const compared = new Set(sampleListed(c.listed(), sourceRecords(demo.data, c.collection as 'objects') as object[]));
    for (let page = 1; page <= pages; page++) {
      const res = await request(demo.app).get(`/v2/id/${c.collection}?fullRecord=true&itemsPerPage=50&page=${page}`);
      expect(res.status).toBe(200);
      for (const member of (JSON.parse(res.text) as { 'hydra:member': Json[] })['hydra:member']) {
        seen.push(pidOf(c, member));
        if (!compared.has(pidOf(c, member))) continue;
        const single = await request(demo.app).get(`/v2/id/${c.record}/${pidOf(c, member)}`);
        expect([pidOf(c, member), JSON.stringify(member)]).toEqual([pidOf(c, member), single.text]);
      }
    }
    expect(seen).toEqual(c.listed().slice(0, pages * 50));
  }, 180_000);

  it.each(each)('/v2/id/%s counts the same with stubs and full records, filtered or not, on any page', async (_name, c) => {
    for (const query of ['', c.filter, `${c.filter}&sortOrder=desc`]) {
      const stubs = await get(c, `${query}&page=2&itemsPerPage=5`);
      const full = await get(c, `${query}&fullRecord=true&page=1&itemsPerPage=3`);
      expect([query, full.total]).toEqual([query, stubs.total]);
      expect([query, stubs.total > 10]).toEqual([query, true]);
    }
  });

  it.each(each)('/v2/id/%s builds its stubs on the fast path exactly as jsonld.js frames the stub CONSTRUCT, for every listed record', async (_name, c) => {
    const { store, queries } = demo.ctx;
    const kind = kindOf(c);
    let compared = 0;
    for (let i = 0; i < c.listed().length; i += 100) {
      const rows = c.listed().slice(i, i + 100).map((pid) => ({ record: `${TEST_BASE_URL}/v2/id/${c.record}/${pid}` }));
      const nquads = await store.query(queries.bind(kind.page.stubs, rows), { format: 'application/n-quads' });
      const fast = kind.page.stubsFromNQuads(nquads);
      const reference = await c.referenceStubs(nquads);
      expect([fast.size, reference.size]).toEqual([rows.length, rows.length]);
      for (const { record } of rows) expect([record, JSON.stringify(fast.get(record))]).toEqual([record, JSON.stringify(reference.get(record))]);
      compared += rows.length;
    }
    expect(compared).toBe(c.listed().length);
  });
});

/** What the engine refuses for every kind: paging, order, member form, a parameter given twice (exact texts). */
const ENGINE_REFUSED: [string, string][] = [
  ['page=0', 'Invalid page. Use a whole number from 1.'],
  ['page=-1', 'Invalid page. Use a whole number from 1.'],
  ['page=1.5', 'Invalid page. Use a whole number from 1.'],
  ['itemsPerPage=abc', 'Invalid itemsPerPage. Use a whole number from 1.'],
  ['itemsPerPage=0', 'Invalid itemsPerPage. Use a whole number from 1.'],
  ['sortOrder=up', 'Invalid sortOrder. Use one of: asc, desc.'],
  ['fullRecord=maybe', 'Invalid fullRecord. Use one of: true, false, 1, 0.'],
  ['page=1&page=2', 'Invalid page: give it once.'],
  ['language=DE', 'Invalid language. Use one of: NLD, FRA, ENG.'],
  ['language=ENG&language=ENG', 'Invalid language: give it once.'],
];
/** What each kind's own filters and sort keys refuse (exact texts of the spec's tables). */
const KIND_REFUSED: Record<string, [string, string][]> = {
  objects: [
    ['sortBy=title', 'Invalid sortBy. Use one of: objectNumber, modified, titleNL, titleFR, titleEN, dateBegin, dateEnd.'],
    ['koepels=hide', 'Invalid koepels. Use one of: exclude, include.'],
    ['modifiedSince=2026-02-30', 'Invalid modifiedSince date format. Use YYYY-MM-DD.'],
    ['modifiedSince=yesterday', 'Invalid modifiedSince date format. Use YYYY-MM-DD.'],
    ['date=1900-1950', 'Invalid date. Use a production range YYYY/YYYY such as 1920/1930 (.. leaves an end open).'],
    ['dateFrom=19x0', 'Invalid dateFrom. Use a year such as 1920.'],
    ['hasImages=yes', 'Invalid hasImages. Use one of: true, false, 1, 0.'],
    ['color=magenta', 'Invalid color. Use one of the base colours: red, orange, yellow, green, blue, purple, pink, brown, grey, black, white.'],
    ['colors=true', 'colors=true needs fullRecord=true: stubs carry no colors.'],
  ],
  agents: [
    ['sortBy=title', 'Invalid sortBy. Use one of: pid, name, modified.'],
    ['role=painter', 'Invalid role. Use one of: designer, producer.'],
    ['type=person', 'Invalid type. Use one of: individual, organisation, unknown.'],
    ['hasBio=yes', 'Invalid hasBio. Use one of: true, false, 1, 0.'],
    ['modifiedSince=2026-02-30', 'Invalid modifiedSince format. Use YYYY-MM-DD.'],
    ['modifiedSince=yesterday', 'Invalid modifiedSince format. Use YYYY-MM-DD.'],
    ['modifiedSince=2024-1-1', 'Invalid modifiedSince format. Use YYYY-MM-DD.'],
    ['role=designer&role=producer', 'Invalid role: give it once.'],
  ],
  exhibitions: [
    ['sortBy=x', 'Invalid sortBy. Use one of: pid, title, modified.'],
    ['modifiedSince=2026-02-30', 'Invalid modifiedSince format. Use YYYY-MM-DD.'],
    ['modifiedSince=yesterday', 'Invalid modifiedSince format. Use YYYY-MM-DD.'],
  ],
  concepts: [
    ['sortBy=x', 'Invalid sortBy. Use one of: pid, label, modified.'],
    ['modifiedSince=2026-02-30', 'Invalid modifiedSince format. Use YYYY-MM-DD.'],
    ['modifiedSince=yesterday', 'Invalid modifiedSince format. Use YYYY-MM-DD.'],
  ],
};

describe('refused values, for every kind (400 naming the parameter and what it accepts, no Link header)', () => {
  const refused = CASES.flatMap((c) => [...ENGINE_REFUSED, ...KIND_REFUSED[c.collection]!].map(([query, message]) => [c.collection, query, message] as const));
  it.each(refused)('/v2/id/%s?%s → 400', async (collection, query, message) => {
    const res = await request(demo.app).get(`/v2/id/${collection}?${query}`);
    expect(res.status).toBe(400);
    expect(res.text).toBe(JSON.stringify({ error: message }));
    expect(res.headers.link).toBeUndefined();
  });
});

/**
 * Random requests, for every kind: the parameter names come from the kind's declaration (its filters' params,
 * reserved parameters, sort keys, view parameter) beside paging and `q`; values of every shape, some the kind
 * accepts and some it refuses.
 */
const GENERIC_VALUES = ['', 'true', 'false', '1', '0', '-1', '2', '100', '101', '1e3', 'NaN', 'NLD', 'fra', 'ENG', 'asc', 'desc', '2026-02-30', '2024-01-01',
  '"', '%', '%E0%A4%A', '<>', '-', 'OR', '"a b', 'x'.repeat(600)];
/** Values that mean something to one kind (filter values of the demo, pids, ranges). */
const KIND_VALUES: Record<string, string[]> = {
  objects: ['vaas', 'glas', 'stoel', '1900/1950', '../2000', '1950', 'exclude', 'DMG-A-00198', '530001000', 'red', 'white,black', 'Carpaccio'],
  agents: ['België', 'belgië,frankrijk', 'Nederland', 'designer', 'producer', 'individual', 'organisation', 'unknown', 'DMG-A-00001', 'van OR de', '-lambert', 'lambert'],
  exhibitions: ['TE_2020-001', 'design', 'boxes'],
  concepts: ['530001000', 'stoel', 'glas'],
};
/** Filters each kind accepts, with values of the demo: any subset of them is a valid request. */
const VALID_PAIRS: Record<string, [string, string][]> = {
  objects: [['type', 'vaas'], ['q', 'stoel OR glas'], ['hasImages', 'true'], ['onDisplay', 'false'], ['koepels', 'exclude'], ['dateFrom', '1950'], ['language', 'FRA'], ['color', 'red'], ['sortBy', 'titleNL'], ['sortOrder', 'desc']],
  agents: [['nationality', 'België'], ['role', 'designer'], ['hasBio', 'true'], ['language', 'NLD'], ['type', 'individual'], ['modifiedSince', '2020-01-01'], ['q', 'van OR de'], ['sortBy', 'name'], ['sortOrder', 'desc']],
  exhibitions: [['language', 'ENG'], ['q', 'design OR dozen'], ['modifiedSince', '2020-01-01'], ['sortBy', 'title'], ['sortOrder', 'desc']],
  concepts: [['language', 'FRA'], ['q', 'stoel OR glas'], ['modifiedSince', '2020-01-01'], ['sortBy', 'label'], ['sortOrder', 'desc']],
};
const kindOf = (c: KindCase): ResourceKind<RecordTable> => KINDS.find((k) => k.collection === c.collection)!;
const parameterNames = (kind: ResourceKind<RecordTable>): string[] => [
  'page', 'itemsPerPage', 'fullRecord', 'q', 'sortBy', 'sortOrder',
  ...kind.index.filters.flatMap((filter) => filter.params),
  ...(kind.index.reserved ?? []),
  ...(kind.record.view ? [kind.record.view.param] : []),
];
const valuesOf = (c: KindCase): string[] => [...GENERIC_VALUES, ...kindOf(c).index.sortKeys, ...(KIND_VALUES[c.collection] ?? [])];

describe('the collection engine over random requests, for every kind', () => {
  it.each(each)('/v2/id/%s never answers a random parameter string with a server error', async (_name, c) => {
    const names = parameterNames(kindOf(c));
    expect(names.length).toBeGreaterThan(6);
    const pair = fc.tuple(fc.constantFrom(...names), fc.oneof(fc.constantFrom(...valuesOf(c)), fc.string({ maxLength: 12 })));
    await fc.assert(
      fc.asyncProperty(fc.array(pair, { maxLength: 5 }), fc.string({ maxLength: 20 }), async (pairs, raw) => {
        const query = [...pairs.map(([n, v]) => `${n}=${encodeURIComponent(v)}`), raw].join('&');
        const res = await request(demo.app).get(`/v2/id/${c.collection}?${query}`);
        expect([query, [200, 400].includes(res.status)]).toEqual([query, true]);
      }),
      // The parameters are checked before any store sees them: the remote pass asks fewer (the first pass 120).
      { numRuns: remoteStoreRun() ? 30 : 120 },
    );
  }, 120_000);

  it.each(each)('/v2/id/%s has a total equal to the members over all pages, each once, whatever the filters and page size', async (_name, c) => {
    // Page sizes from 8 walk a whole unfiltered collection in at most 125 requests; the smallest sizes are walked
    // with the kind's filter of a few pages' matches.
    const sizes = fc.oneof(fc.integer({ min: 8, max: 60 }).map((size) => ({ size, filtered: false })), fc.integer({ min: 1, max: 7 }).map((size) => ({ size, filtered: true })));
    await fc.assert(
      fc.asyncProperty(fc.subarray(VALID_PAIRS[c.collection]!, { maxLength: 3 }), sizes, async (pairs, { size: itemsPerPage, filtered }) => {
        const inFilter = new Set(filtered ? [...new URLSearchParams(c.filter).keys()] : []);
        const query = [...(filtered ? [c.filter] : []), ...pairs.filter(([n]) => !inFilter.has(n)).map(([n, v]) => `${n}=${encodeURIComponent(v)}`)].join('&');
        const first = await get(c, `${query}&itemsPerPage=${itemsPerPage}`);
        expect([query, first.status]).toEqual([query, 200]);
        const seen: string[] = [];
        const pages = Math.max(1, Math.ceil(first.total / itemsPerPage));
        for (let page = 1; page <= pages; page++) seen.push(...(await get(c, `${query}&itemsPerPage=${itemsPerPage}&page=${page}`)).members.map((m) => pidOf(c, m)));
        expect([query, seen.length]).toEqual([query, first.total]);
        expect([query, new Set(seen).size]).toEqual([query, first.total]);
      }),
      { numRuns: remoteStoreRun() ? 8 : 20 },
    );
  }, 120_000);
});
