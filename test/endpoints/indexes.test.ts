/**
 * The index endpoints (/v2/id/types, /materials, /nationalities, /roles, /production) on the real app over a
 * real store worker (the 1,000-object demo generation). Two independent checks: every count equals the
 * `hydra:totalItems` of the member's own filter link, followed through the app; and the counts equal those
 * computed here from the demo's source export (the JSON Lines files), never through the service.
 * The catalog's endpoint links are followed too, and the query parameters are fuzzed.
 */
import request from 'supertest';
import { hydraTotal, servicePath } from '../helpers/links.js';
import fc from 'fast-check';
import type { AgentRecord, ConceptRecord, ObjectRecord } from '../../src/harvest/schema.js';
import { type DemoApp, sourceObjects, sourceRecords, startDemoApp, TEST_BASE_URL } from '../helpers/demo.js';
import { HAND_BASE_URL, handConcept, handObject, startHandApp, type HandApp } from '../helpers/hand-export.js';
import type { ProductionBucket } from '../helpers/production.js';

let demo: DemoApp;
let concepts: Map<string, ConceptRecord>;
let agents: Map<string, AgentRecord>;
/** The objects the collections list: public, healthy and current (src/harvest/admin-graph.ts isServable). */
let listed: ObjectRecord[];

beforeAll(async () => {
  demo = await startDemoApp({}, { sparql: true });
  listed = sourceObjects(demo.data).filter((o) => o.public && o.healthy && o.state.kind === 'current');
  concepts = new Map((sourceRecords(demo.data, 'concepts') as ConceptRecord[]).map((c) => [c.pid, c]));
  agents = new Map((sourceRecords(demo.data, 'agents') as AgentRecord[]).map((a) => [a.pid, a]));
}, 300_000);

afterAll(async () => {
  await demo?.close();
});

async function getJson(path: string): Promise<{ status: number; body: Record<string, unknown>; headers: Record<string, string> }> {
  const res = await request(demo.app).get(path);
  const body = (res.status === 200 ? JSON.parse(res.text) : res.body) as Record<string, unknown>;
  return { status: res.status, body, headers: res.headers as Record<string, string> };
}

const local = servicePath;
const totalOf = (url: string): Promise<number> => hydraTotal(demo.app, url);

interface LabelMember {
  '@id'?: string;
  '@type': string;
  'rdfs:label': string;
  object_count?: number;
  agent_count?: number;
  filter: string;
}

const DUTCH = (a: string, b: string): number => a.localeCompare(b, 'nl', { sensitivity: 'base', numeric: true });

/** Envelope checks every label index shares: Hydra collection, total = members, sorted by count then label, labels unique. */
function checkEnvelope(body: Record<string, unknown>, id: string, countKey: 'object_count' | 'agent_count'): LabelMember[] {
  expect(body['@id']).toBe(id);
  expect(body['@type']).toBe('hydra:Collection');
  expect(typeof body['rdfs:label']).toBe('string');
  expect(typeof body['rdfs:comment']).toBe('string');
  const members = body['hydra:member'] as LabelMember[];
  expect(Array.isArray(members)).toBe(true);
  expect(body['hydra:totalItems']).toBe(members.length);
  for (let i = 1; i < members.length; i++) {
    const [a, b] = [members[i - 1]!, members[i]!];
    const order = a[countKey]! > b[countKey]! || (a[countKey] === b[countKey] && DUTCH(a['rdfs:label'], b['rdfs:label']) <= 0);
    expect([a['rdfs:label'], a[countKey], b['rdfs:label'], b[countKey], order]).toEqual([a['rdfs:label'], a[countKey], b['rdfs:label'], b[countKey], true]);
  }
  const lower = members.map((m) => m['rdfs:label'].toLowerCase());
  expect(new Set(lower).size).toBe(lower.length);
  for (const m of members) {
    expect(Number.isInteger(m[countKey])).toBe(true);
    expect(m[countKey]).toBeGreaterThan(0);
  }
  return members;
}

/**
 * Per lower-cased Dutch label of the public concepts the objects name in `field`: the objects that carry it,
 * and the concepts that carry it (private concepts have no label in the object graphs, so they are not counted).
 */
function labelCounts(objects: ObjectRecord[], field: 'types' | 'materials'): Map<string, { objects: Set<string>; concepts: Set<string> }> {
  const out = new Map<string, { objects: Set<string>; concepts: Set<string> }>();
  for (const o of objects) {
    for (const pid of o[field]) {
      const concept = concepts.get(pid);
      if (!concept?.public) continue;
      const key = concept.labels.nl.toLowerCase();
      const entry = out.get(key) ?? { objects: new Set(), concepts: new Set() };
      entry.objects.add(o.objectNumber);
      entry.concepts.add(pid);
      out.set(key, entry);
    }
  }
  return out;
}

const labelIndexes = [
  { name: 'types', field: 'types', param: 'type', memberType: 'crm:E55_Type' },
  { name: 'materials', field: 'materials', param: 'material', memberType: 'crm:E57_Material' },
] as const;

describe.each(labelIndexes)('/v2/id/$name', ({ name, field, param, memberType }) => {
  const variants = [
    { query: '', keep: (_o: ObjectRecord) => true, suffix: '' },
    { query: '?onDisplay=true', keep: (o: ObjectRecord) => o.onDisplay, suffix: '&onDisplay=true' },
    { query: '?onDisplay=1', keep: (o: ObjectRecord) => o.onDisplay, suffix: '&onDisplay=true' },
    { query: '?onDisplay=false', keep: (o: ObjectRecord) => !o.onDisplay, suffix: '&onDisplay=false' },
  ];

  it.each(variants)('$query: counts, labels and @ids equal those computed from the source records', async ({ query, keep, suffix }) => {
    const res = await getJson(`/v2/id/${name}${query}`);
    expect(res.status).toBe(200);
    const canonical = suffix === '' ? '' : `?${suffix.slice(1)}`;
    const members = checkEnvelope(res.body, `${TEST_BASE_URL}/v2/id/${name}${canonical}`, 'object_count');
    const expected = labelCounts(listed.filter(keep), field);
    expect(expected.size).toBeGreaterThan(3);
    // The same labels (ignoring case), each with its count from the source.
    expect(new Map(members.map((m) => [m['rdfs:label'].toLowerCase(), m.object_count]))).toEqual(
      new Map([...expected].map(([key, entry]) => [key, entry.objects.size])),
    );
    for (const m of members) {
      const entry = expected.get(m['rdfs:label'].toLowerCase())!;
      expect(m['@type']).toBe(memberType);
      // The label is a Dutch label of one of the concepts that carry it.
      expect([...entry.concepts].map((pid) => concepts.get(pid)!.labels.nl)).toContain(m['rdfs:label']);
      // The filter link: the objects collection with the label (percent-encoded) and the onDisplay of the request.
      const link = new URL(m.filter);
      expect(`${link.origin}${link.pathname}`).toBe(`${TEST_BASE_URL}/v2/id/objects`);
      expect([...link.searchParams]).toEqual([[param, m['rdfs:label']], ...(suffix === '' ? [] : [['onDisplay', suffix.split('=')[1]]])]);
      // Types name their concept when exactly one concept carries the label; materials never do.
      if (name === 'types' && entry.concepts.size === 1) expect(m['@id']).toBe(`${TEST_BASE_URL}/v2/id/concept/${[...entry.concepts][0]}`);
      else expect(m['@id']).toBeUndefined();
    }
    if (query === '?onDisplay=true') {
      // Narrowing can only lower a count.
      const all = checkEnvelope((await getJson(`/v2/id/${name}`)).body, `${TEST_BASE_URL}/v2/id/${name}`, 'object_count');
      const allCounts = new Map(all.map((m) => [m['rdfs:label'], m.object_count!]));
      for (const m of members) expect(m.object_count!).toBeLessThanOrEqual(allCounts.get(m['rdfs:label'])!);
      expect(members.length).toBeLessThanOrEqual(all.length);
    }
  });

  it.each(variants.filter((v) => v.query !== '?onDisplay=1'))('$query: every member’s object_count is its filter link’s hydra:totalItems', async ({ query }) => {
    const members = (await getJson(`/v2/id/${name}${query}`)).body['hydra:member'] as LabelMember[];
    expect(members.length).toBeGreaterThan(0);
    // Every member is followed; the disagreements are listed together (label, index count, filter total).
    const disagreements: [string, number, number][] = [];
    for (const m of members) {
      const total = await totalOf(m.filter);
      if (total !== m.object_count) disagreements.push([m['rdfs:label'], m.object_count!, total]);
    }
    expect(disagreements).toEqual([]);
  });
});

/**
 * What the demo lacks (its type and material labels are one concept each, spelled once, all public): a hand-made
 * export with two concepts spelled `Stoel` and `stoel`, a private concept, a label with a comma, and objects that
 * are private, unhealthy or removed.
 */
describe('/v2/id/types and /v2/id/materials on a hand-made export', () => {
  let hand: HandApp;
  const C = { Stoel: '530000011', stoel: '530000012', tafel: '530000013', geheim: '530000014', glas: '530000015', hout: '530000016', kast: '530000017', bank: '530000018' };
  const concept = (pid: string): string => `${HAND_BASE_URL}/v2/id/concept/${pid}`;

  beforeAll(async () => {
    hand = await startHandApp({
      concepts: [
        handConcept(C.Stoel, 'Stoel'),
        handConcept(C.stoel, 'stoel'),
        handConcept(C.tafel, 'tafel'),
        handConcept(C.geheim, 'geheim', false),
        handConcept(C.glas, 'glas'),
        handConcept(C.hout, 'hout'),
        handConcept(C.kast, 'kast, laag'),
        handConcept(C.bank, 'bank'),
      ],
      objects: [
        handObject('T-1', { title: 'een', types: [C.Stoel], materials: [C.glas], onDisplay: true }),
        handObject('T-2', { title: 'twee', types: [C.stoel], materials: [C.glas, C.hout] }),
        handObject('T-3', { title: 'drie', types: [C.Stoel, C.stoel], materials: [C.hout], onDisplay: true }),
        handObject('T-4', { title: 'vier', types: [C.tafel, C.geheim], materials: [C.geheim] }),
        handObject('T-5', { title: 'vijf', types: [C.kast] }),
        handObject('T-6', { title: 'zes', types: [C.tafel, C.bank], materials: [C.glas], onDisplay: true, public: false }),
        handObject('T-7', { title: 'zeven', types: [C.tafel, C.bank], materials: [C.hout], healthy: false }),
        handObject('T-8', { title: 'acht', types: [C.Stoel, C.bank], materials: [C.hout], state: { kind: 'removed' } }),
      ],
    });
  }, 120_000);
  afterAll(async () => {
    await hand?.close();
  });

  const members = async (path: string): Promise<LabelMember[]> => {
    const res = await request(hand.app).get(path);
    expect([path, res.status]).toEqual([path, 200]);
    const body = JSON.parse(res.text) as Record<string, unknown>;
    expect(body['hydra:totalItems']).toBe((body['hydra:member'] as unknown[]).length);
    return body['hydra:member'] as LabelMember[];
  };
  const objects = `${HAND_BASE_URL}/v2/id/objects`;

  it('merges labels that differ in case (no @id: two concepts), names a single concept, leaves out private concepts and unlisted objects', async () => {
    // Stoel: T-1 (Stoel), T-2 (stoel), T-3 (both, once) = 3; the removed T-8 does not count. Shown as `Stoel`, the
    // spelling first in code-point order. tafel: T-4 = 1 (T-6 private, T-7 unhealthy). kast, laag: T-5 = 1.
    // geheim is private (no label in the object graphs) and bank is carried only by unlisted objects: neither is listed.
    // Order: 3, then the two 1s by label (kast < tafel).
    expect(await members('/v2/id/types')).toEqual([
      { '@type': 'crm:E55_Type', 'rdfs:label': 'Stoel', object_count: 3, filter: `${objects}?type=Stoel` },
      { '@id': concept(C.kast), '@type': 'crm:E55_Type', 'rdfs:label': 'kast, laag', object_count: 1, filter: `${objects}?type=kast%2C%20laag` },
      { '@id': concept(C.tafel), '@type': 'crm:E55_Type', 'rdfs:label': 'tafel', object_count: 1, filter: `${objects}?type=tafel` },
    ]);
    // On display: T-1 and T-3 (T-6 is private).
    expect(await members('/v2/id/types?onDisplay=true')).toEqual([
      { '@type': 'crm:E55_Type', 'rdfs:label': 'Stoel', object_count: 2, filter: `${objects}?type=Stoel&onDisplay=true` },
    ]);
    // Not on display: T-2 (Stoel), T-4 (tafel), T-5 (kast, laag): three 1s, by label ignoring case: kast, Stoel, tafel.
    expect((await members('/v2/id/types?onDisplay=0')).map((m) => [m['rdfs:label'], m.object_count])).toEqual([
      ['kast, laag', 1],
      ['Stoel', 1],
      ['tafel', 1],
    ]);
    // Materials: glas T-1, T-2 = 2; hout T-2, T-3 = 2 (T-6, T-7, T-8 unlisted); geheim private. No @id on materials.
    expect(await members('/v2/id/materials')).toEqual([
      { '@type': 'crm:E57_Material', 'rdfs:label': 'glas', object_count: 2, filter: `${objects}?material=glas` },
      { '@type': 'crm:E57_Material', 'rdfs:label': 'hout', object_count: 2, filter: `${objects}?material=hout` },
    ]);
    expect(await members('/v2/id/materials?onDisplay=true')).toEqual([
      { '@type': 'crm:E57_Material', 'rdfs:label': 'glas', object_count: 1, filter: `${objects}?material=glas&onDisplay=true` },
      { '@type': 'crm:E57_Material', 'rdfs:label': 'hout', object_count: 1, filter: `${objects}?material=hout&onDisplay=true` },
    ]);
  });

  it('every member’s filter link selects as many objects as the member counts (a label with a comma included)', async () => {
    const disagreements: [string, number, number][] = [];
    for (const path of ['/v2/id/types', '/v2/id/types?onDisplay=false', '/v2/id/materials']) {
      for (const m of await members(path)) {
        const res = await request(hand.app).get(m.filter.slice(HAND_BASE_URL.length));
        expect(res.status).toBe(200);
        const total = (JSON.parse(res.text) as { 'hydra:totalItems': number })['hydra:totalItems'];
        if (total !== m.object_count) disagreements.push([m.filter, m.object_count!, total]);
      }
    }
    expect(disagreements).toEqual([]);
  });
});

describe('/v2/id/nationalities and /v2/id/roles', () => {
  const publicAgents = (): AgentRecord[] => [...agents.values()].filter((a) => a.public);

  it('nationalities: counts per Dutch country name of the public agents, each equal to its filter link’s total', async () => {
    const res = await getJson('/v2/id/nationalities');
    expect(res.status).toBe(200);
    const members = checkEnvelope(res.body, `${TEST_BASE_URL}/v2/id/nationalities`, 'agent_count');
    const expected = new Map<string, number>();
    for (const a of publicAgents()) {
      if (!a.citizenship) continue;
      const key = a.citizenship.labels.nl.toLowerCase();
      expected.set(key, (expected.get(key) ?? 0) + 1);
    }
    expect(expected.size).toBeGreaterThan(1);
    expect(new Map(members.map((m) => [m['rdfs:label'].toLowerCase(), m.agent_count]))).toEqual(expected);
    for (const m of members) {
      expect(m['@type']).toBe('crm:E55_Type');
      expect(m['@id']).toBeUndefined();
      const link = new URL(m.filter);
      expect(`${link.origin}${link.pathname}`).toBe(`${TEST_BASE_URL}/v2/id/agents`);
      expect([...link.searchParams]).toEqual([['nationality', m['rdfs:label']]]);
      expect([m['rdfs:label'], m.agent_count]).toEqual([m['rdfs:label'], await totalOf(m.filter)]);
    }
  });

  it('roles: designers and producers of listed objects among the public agents, each equal to its filter link’s total', async () => {
    const res = await getJson('/v2/id/roles');
    expect(res.status).toBe(200);
    const members = checkEnvelope(res.body, `${TEST_BASE_URL}/v2/id/roles`, 'agent_count');
    const isPublic = (pid: string | undefined): pid is string => pid !== undefined && agents.get(pid)?.public === true;
    const designers = new Set(listed.flatMap((o) => o.creations.map((e) => e.agent).filter(isPublic)));
    const producers = new Set(listed.flatMap((o) => o.productions.map((e) => e.agent).filter(isPublic)));
    expect(designers.size).toBeGreaterThan(0);
    expect(producers.size).toBeGreaterThan(0);
    expect(new Map(members.map((m) => [m['rdfs:label'], m.agent_count]))).toEqual(
      new Map([
        ['designer', designers.size],
        ['producer', producers.size],
      ]),
    );
    for (const m of members) {
      expect(m.filter).toBe(`${TEST_BASE_URL}/v2/id/agents?role=${m['rdfs:label']}`);
      expect([m['rdfs:label'], m.agent_count]).toEqual([m['rdfs:label'], await totalOf(m.filter)]);
    }
  });
});

/** An object's years: the union of its production and creation spans (empty when undated). */
function yearsOf(o: ObjectRecord): Set<number> {
  const years = new Set<number>();
  for (const event of [...o.productions, ...o.creations]) {
    if (!event.date) continue;
    for (let y = Math.min(event.date.begin, event.date.end); y <= Math.max(event.date.begin, event.date.end); y++) years.add(y);
  }
  return years;
}

/** Weight of `objects` on the axis from…to: each dated object's share of its years that lie on the axis. */
function axisWeight(objects: ObjectRecord[], from: number, to: number): number {
  let total = 0;
  for (const o of objects) {
    const years = [...yearsOf(o)];
    if (years.length > 0) total += years.filter((y) => y >= from && y <= to).length / years.length;
  }
  return total;
}

/** Every object number of an objects query, walking its pages. */
async function objectNumbers(query: string): Promise<Set<string>> {
  const out = new Set<string>();
  for (let page = 1; ; page++) {
    const res = await getJson(`/v2/id/objects?${query}&page=${page}&itemsPerPage=100`);
    expect(res.status).toBe(200);
    const members = res.body['hydra:member'] as { '@id': string }[];
    for (const m of members) out.add(m['@id'].slice(`${TEST_BASE_URL}/v2/id/object/`.length));
    if (members.length < 100) return out;
  }
}

describe('/v2/id/production', () => {
  /** A word of many demo titles, so that q narrows to a real subset. */
  const Q = 'vaas';

  it.each([
    '',
    'bucket=25&yearFrom=1800',
    'onDisplay=true',
    `q=${Q}`,
    `q=${Q}&onDisplay=false&bucket=50`,
    'yearFrom=1&yearTo=2100&bucket=100',
    'q=stoel%20OR%20glas&bucket=20',
    'q=zilver%20-lamp&bucket=20',
    'q=%22art%20deco%22&bucket=20',
  ])(
    '%s: every bucket’s object_count is its filter link’s hydra:totalItems',
    async (query) => {
      const res = await getJson(`/v2/id/production${query === '' ? '' : `?${query}`}`);
      expect(res.status).toBe(200);
      const buckets = res.body.buckets as ProductionBucket[];
      expect(buckets.length).toBeGreaterThan(0);
      expect(buckets.some((b) => b.object_count > 0)).toBe(true);
      for (const b of buckets) {
        expect([b.year, b.object_count]).toEqual([b.year, await totalOf(b.filter)]);
        if (b.object_count === 0) expect([b.weight, b.spread_factor]).toEqual([0, null]);
        else expect(b.weight).toBeGreaterThan(0);
        expect(b.exact_count).toBeLessThanOrEqual(b.object_count);
      }
      const sum = buckets.reduce((s, b) => s + b.weight, 0);
      expect(Math.abs((res.body.total_weight as number) - sum)).toBeLessThan(0.001 + buckets.length * 0.00005);
    },
  );

  it('on the axis 1–2100 total_weight is the number of dated listed objects; on the default axis, their share of years in 1600–2030', async () => {
    const dated = listed.filter((o) => yearsOf(o).size > 0);
    expect(dated.length).toBeGreaterThan(100);
    const inside = dated.filter((o) => [...yearsOf(o)].every((y) => y >= 1 && y <= 2100));
    const full = (await getJson('/v2/id/production?yearFrom=1&yearTo=2100&bucket=100')).body;
    expect(full.total_weight).toBeCloseTo(axisWeight(dated, 1, 2100), 3);
    expect(full.total_weight).toBe(inside.length);
    // The default axis cuts off what lies before 1600 or after 2030.
    const standard = (await getJson('/v2/id/production')).body;
    expect(standard.total_weight).toBeCloseTo(axisWeight(dated, 1600, 2030), 3);
    // bucket=25&yearFrom=1800.
    expect((await getJson('/v2/id/production?bucket=25&yearFrom=1800')).body.total_weight).toBeCloseTo(axisWeight(dated, 1800, 2030), 3);
    // Exactly-dated objects: those with a single year, counted in the bucket of that year.
    const exact = dated.filter((o) => yearsOf(o).size === 1 && [...yearsOf(o)][0]! >= 1 && [...yearsOf(o)][0]! <= 2100).length;
    expect((full.buckets as ProductionBucket[]).reduce((s, b) => s + b.exact_count, 0)).toBe(exact);
  });

  it('onDisplay=true and q narrow the population to the objects on display and to the objects the text query finds', async () => {
    const shown = listed.filter((o) => o.onDisplay && yearsOf(o).size > 0);
    const onDisplay = (await getJson('/v2/id/production?onDisplay=true&yearFrom=1&yearTo=2100&bucket=100')).body;
    expect(onDisplay.total_weight).toBeCloseTo(axisWeight(shown, 1, 2100), 3);

    // The objects q finds, as the objects collection lists them; their years from the source.
    const found = await objectNumbers(`q=${Q}`);
    const matched = listed.filter((o) => found.has(o.objectNumber));
    expect(matched.length).toBeGreaterThan(2);
    expect(matched.length).toBeLessThan(listed.length / 2);
    const searched = (await getJson(`/v2/id/production?q=${Q}&yearFrom=1&yearTo=2100&bucket=100`)).body;
    expect(searched.total_weight).toBeCloseTo(axisWeight(matched, 1, 2100), 3);
    expect(searched.total_weight).toBeLessThan(axisWeight(listed, 1, 2100));
    for (const b of searched.buckets as ProductionBucket[]) expect(b.filter).toMatch(new RegExp(`&q=${Q}$`));
  });

  it('describes the axis: bucket_size, year_from, year_to and buckets from year_from in steps, the last ending at year_to', async () => {
    const doc = (await getJson('/v2/id/production?bucket=25&yearFrom=1800')).body;
    expect([doc['@id'], doc.bucket_size, doc.year_from, doc.year_to]).toEqual([`${TEST_BASE_URL}/v2/id/production?bucket=25&yearFrom=1800`, 25, 1800, 2030]);
    const buckets = doc.buckets as ProductionBucket[];
    // 1800, 1825, …, 2025: (2030 - 1800) / 25 = 9.2 → 10 buckets; the last is 2025–2030.
    expect(buckets.map((b) => b.year)).toEqual(Array.from({ length: 10 }, (_, i) => 1800 + 25 * i));
    expect(buckets.at(-1)!.filter).toBe(`${TEST_BASE_URL}/v2/id/objects?date=2025/2030`);
    expect(buckets[0]!.filter).toBe(`${TEST_BASE_URL}/v2/id/objects?date=1800/1824`);
  });
});

describe('Caching of the index endpoints', () => {
  const paths = ['/v2/id/types', '/v2/id/materials', '/v2/id/nationalities', '/v2/id/roles', '/v2/id/production'];

  it.each(paths)('%s: weak ETag, Last-Modified, Cache-Control; 304 on If-None-Match; HEAD answers the same headers', async (path) => {
    const res = await request(demo.app).get(path);
    expect(res.status).toBe(200);
    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^W\/"[^"]+"$/);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(new Date(res.headers['last-modified'] as string).toUTCString()).toBe(res.headers['last-modified']);
    const conditional = await request(demo.app).get(path).set('If-None-Match', etag);
    expect(conditional.status).toBe(304);
    expect(conditional.text).toBe('');
    expect(conditional.headers.etag).toBe(etag);
    // A strong spelling of the same tag and a list that contains it match too (weak comparison).
    expect((await request(demo.app).get(path).set('If-None-Match', `"x", ${etag.slice(2)}`)).status).toBe(304);
    expect((await request(demo.app).get(path).set('If-None-Match', 'W/"other"')).status).toBe(200);
    const head = await request(demo.app).head(path);
    expect(head.status).toBe(200);
    expect(head.headers.etag).toBe(etag);
    expect(head.headers['content-type']).toMatch(/^application\/ld\+json/);
    expect((await request(demo.app).head(path).set('If-None-Match', etag)).status).toBe(304);
  });

  it('different parameters give different ETags, equivalent spellings the same one', async () => {
    const etag = async (path: string): Promise<string> => {
      const res = await request(demo.app).get(path);
      expect([path, res.status]).toEqual([path, 200]);
      return res.headers.etag as string;
    };
    const production = await Promise.all(
      ['', '?bucket=20', '?yearFrom=1700', '?yearTo=2000', '?onDisplay=true', '?onDisplay=false', `?q=vaas`, '?q=stoel'].map((q) => etag(`/v2/id/production${q}`)),
    );
    expect(new Set(production).size).toBe(production.length);
    const types = await Promise.all(['', '?onDisplay=true', '?onDisplay=false'].map((q) => etag(`/v2/id/types${q}`)));
    expect(new Set(types).size).toBe(3);
    expect(new Set([...types, await etag('/v2/id/materials')]).size).toBe(4);
    // Same canonical query: onDisplay=1 is onDisplay=true; bucket=10 is the default; bucket=3 is bucket=5.
    expect(await etag('/v2/id/types?onDisplay=1')).toBe(types[1]);
    expect(await etag('/v2/id/production?bucket=10&yearFrom=1600')).toBe(production[0]);
    expect(await etag('/v2/id/production?bucket=3')).toBe(await etag('/v2/id/production?bucket=5'));
    // A 304 is only for the matching query.
    expect((await request(demo.app).get('/v2/id/production?bucket=20').set('If-None-Match', production[0]!)).status).toBe(200);
  });
});

describe('Random query parameters', () => {
  const NAMES = ['bucket', 'yearFrom', 'yearTo', 'onDisplay', 'q'];
  const value = fc.oneof(
    fc.integer({ min: -100_000, max: 100_000 }).map(String),
    fc.integer().map(String),
    fc.constantFrom('', ' ', 'true', 'false', '1', '0', '-0', '+7', '1.5', '1e3', 'NaN', 'Infinity', '0x10', '99999999999999999999', 'vaas', '"', '"a b', 'OR', '-', 'a OR', '%', '*', '()', 'x'.repeat(501)),
    fc.string({ maxLength: 12 }),
    fc.string({ maxLength: 12, unit: 'binary' }),
  );
  const pairs = fc.array(fc.tuple(fc.constantFrom(...NAMES), value), { maxLength: 6 });

  async function check(path: string, query: string): Promise<void> {
    const res = await request(demo.app).get(`${path}?${query}`);
    // 200 or 400, never anything else (a 5xx shows with its query).
    expect([query, res.status]).toEqual([query, res.status === 400 ? 400 : 200]);
    if (res.status === 400) {
      expect(Object.keys(res.body as object)).toEqual(['error']);
      expect(typeof (res.body as { error: unknown }).error).toBe('string');
    } else {
      const body = JSON.parse(res.text) as Record<string, unknown>;
      expect(body['@type']).toBe('hydra:Collection');
    }
  }

  it('/v2/id/production answers 200 or 400 {error}, never a server error', async () => {
    await fc.assert(
      fc.asyncProperty(pairs, fc.string({ maxLength: 10 }), async (params, raw) => {
        const query = [...params.map(([n, v]) => `${n}=${encodeURIComponent(v)}`), raw].join('&');
        await check('/v2/id/production', query);
      }),
      { numRuns: 100 },
    );
  });

  it('/v2/id/production: integer parameters are clamped or refused, never a server error', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: -5000, max: 5000 }), fc.integer({ min: -5000, max: 5000 }), fc.integer({ min: -200, max: 300 }), async (from, to, bucket) => {
        const res = await request(demo.app).get(`/v2/id/production?yearFrom=${from}&yearTo=${to}&bucket=${bucket}`);
        const [f, t, b] = [Math.max(from, 1), Math.min(to, 2100), Math.min(Math.max(bucket, 5), 100)];
        if (f > t) {
          expect([from, to, res.status]).toEqual([from, to, 400]);
          return;
        }
        expect([from, to, res.status]).toEqual([from, to, 200]);
        const doc = JSON.parse(res.text) as { bucket_size: number; year_from: number; year_to: number; buckets: ProductionBucket[] };
        expect([doc.bucket_size, doc.year_from, doc.year_to]).toEqual([b, f, t]);
        expect(doc.buckets.length).toBe(Math.floor((t - f) / b) + 1);
        expect(doc.buckets.at(-1)!.filter.endsWith(`date=${f + b * Math.floor((t - f) / b)}/${t}`)).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it.each(['/v2/id/types', '/v2/id/materials'])('%s answers 200 or 400 {error}, never a server error', async (path) => {
    await fc.assert(
      fc.asyncProperty(pairs, fc.string({ maxLength: 10 }), async (params, raw) => {
        const query = [...params.map(([n, v]) => `${n}=${encodeURIComponent(v)}`), raw].join('&');
        await check(path, query);
      }),
      { numRuns: 100 },
    );
  });
});

describe('Catalog links', () => {
  /** Every value of `key` anywhere in the document, as an IRI. */
  function linksOf(node: unknown, key: string, out: string[] = []): string[] {
    if (Array.isArray(node)) for (const item of node) linksOf(item, key, out);
    else if (node !== null && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        if (k === key) out.push(typeof v === 'string' ? v : (v as { '@id': string })['@id']);
        linksOf(v, key, out);
      }
    }
    return out;
  }

  it('every dcat:endpointURL and dcat:endpointDescription of /v2/ answers 200 on the app', async () => {
    const catalog = await getJson('/v2/');
    expect(catalog.status).toBe(200);
    const urls = linksOf(catalog.body, 'dcat:endpointURL');
    const descriptions = linksOf(catalog.body, 'dcat:endpointDescription');
    expect(urls).toEqual(expect.arrayContaining([`${TEST_BASE_URL}/v2/id/objects`, `${TEST_BASE_URL}/v2/id/production`, `${TEST_BASE_URL}/sparql`]));
    // The datasets' endpoint description is the documentation page /docs.
    expect(descriptions).toContain(`${TEST_BASE_URL}/docs`);
    const failures: string[] = [];
    for (const url of new Set([...urls, ...descriptions])) {
      const res = await request(demo.app).get(local(url));
      if (res.status !== 200) failures.push(`${url} → ${res.status}`);
    }
    expect(failures).toEqual([]);
  });
});
