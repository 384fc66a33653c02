/**
 * Related objects (`/v2/id/object/{pid}/similar`, docs/similar.md). The expected ranking is computed here from
 * the served JSON-LD records of every listed object (makers, types, materials, techniques, sub-collections,
 * dated spans) and from the `color` filter's answers, with the documented weights, independently of the
 * collection index's postings that the endpoint reads.
 */
import request from 'supertest';
import { startDemoApp, type DemoApp } from '../helpers/demo.js';

const WEIGHTS = { maker: 5, type: 3, concept: 2, material: 1, color: 0.5, period: 1 } as const;
const BASE_COLORS = ['red', 'orange', 'yellow', 'green', 'blue', 'purple', 'pink', 'brown', 'grey', 'black', 'white'];

type Json = Record<string, unknown>;
interface Facts {
  iri: string;
  pid: string;
  makers: Set<string>;
  types: Set<string>;
  materials: Set<string>;
  others: Set<string>;
  colors: Set<string>;
  begin?: number;
  end?: number;
}

let demo: DemoApp;
const facts = new Map<string, Facts>();
const typeConcepts = new Set<string>();
const materialConcepts = new Set<string>();

const list = (value: unknown): Json[] => (value === undefined ? [] : Array.isArray(value) ? (value as Json[]) : [value as Json]);
const ids = (value: unknown): string[] => list(value).flatMap((node) => (typeof node['@id'] === 'string' ? [node['@id']] : []));
const year = (node: unknown): number | undefined => {
  const value = (node as { '@value'?: string } | undefined)?.['@value'];
  return value === undefined ? undefined : Number.parseInt(value, 10);
};

beforeAll(async () => {
  demo = await startDemoApp();
  // Every listed object, page by page, as full records.
  for (let page = 1; ; page++) {
    const res = await request(demo.app).get(`/v2/id/objects?fullRecord=true&itemsPerPage=100&page=${page}`);
    const members = res.body['hydra:member'] as Json[];
    for (const record of members) {
      const events = [...list(record['crm:P108i_was_produced_by']), ...list(record['crm:P94i_was_created_by'])];
      const spans = events.map((event) => event['crm:P4_has_time-span'] as Json | undefined).filter((span): span is Json => span !== undefined);
      const begins = spans.map((span) => year(span['crm:P82a_begin_of_the_begin'])).filter((y): y is number => y !== undefined);
      const ends = spans.map((span) => year(span['crm:P82b_end_of_the_end'])).filter((y): y is number => y !== undefined);
      const iri = record['@id'] as string;
      const f: Facts = {
        iri,
        pid: iri.slice(iri.lastIndexOf('/') + 1),
        makers: new Set(events.flatMap((event) => ids(event['crm:P14_carried_out_by']))),
        types: new Set(ids(record['crm:P2_has_type'])),
        materials: new Set(ids(record['crm:P45_consists_of'])),
        others: new Set([...list(record['crm:P108i_was_produced_by']).flatMap((event) => ids(event['crm:P32_used_general_technique'])), ...ids(record['crm:P106i_forms_part_of'])]),
        colors: new Set(),
        ...(begins.length > 0 ? { begin: Math.min(...begins) } : {}),
        ...(ends.length > 0 ? { end: Math.max(...ends) } : {}),
      };
      f.types.forEach((t) => typeConcepts.add(t));
      f.materials.forEach((m) => materialConcepts.add(m));
      facts.set(iri, f);
    }
    if (members.length < 100) break;
  }
  for (const color of BASE_COLORS) {
    for (let page = 1; ; page++) {
      const members = (await request(demo.app).get(`/v2/id/objects?color=${color}&itemsPerPage=100&page=${page}`)).body['hydra:member'] as Json[];
      for (const member of members) facts.get(member['@id'] as string)?.colors.add(color);
      if (members.length < 100) break;
    }
  }
}, 600_000);
afterAll(() => demo.close());

/** The documented order of a member's shares (`<feature> <value>`): by the weights' order, then by value. */
const FEATURE_ORDER = ['maker', 'type', 'concept', 'material', 'color', 'period'];
function byWeightThenValue(x: string, y: string): number {
  const [fx = '', vx = ''] = x.split(' ');
  const [fy = '', vy = ''] = y.split(' ');
  return FEATURE_ORDER.indexOf(fx) - FEATURE_ORDER.indexOf(fy) || (vx < vy ? -1 : vx > vy ? 1 : 0);
}

/** The documented score of `b` for `a`, and what they share. */
function expected(a: Facts, b: Facts): { score: number; shares: string[] } {
  const shares: string[] = [];
  const featureOf = (iri: string): 'type' | 'material' | 'concept' => (typeConcepts.has(iri) ? 'type' : materialConcepts.has(iri) ? 'material' : 'concept');
  for (const m of a.makers) if (b.makers.has(m)) shares.push(`maker ${m}`);
  const conceptsOf = (f: Facts): Set<string> => new Set([...f.types, ...f.materials, ...f.others]);
  const bc = conceptsOf(b);
  for (const c of conceptsOf(a)) if (bc.has(c)) shares.push(`${featureOf(c)} ${c}`);
  for (const c of a.colors) if (b.colors.has(c)) shares.push(`color ${c}`);
  let score = shares.reduce((sum, s) => sum + WEIGHTS[s.split(' ')[0] as keyof typeof WEIGHTS], 0);
  if (score > 0 && a.begin !== undefined && b.begin !== undefined && a.begin <= b.end! && b.begin <= a.end!) {
    shares.push('period');
    score += WEIGHTS.period;
  }
  return { score, shares };
}

describe('related objects', () => {
  it('ranks every other listed object by the documented weights, ties in pid order, with what each shares', async () => {
    const all = [...facts.values()];
    expect(all.length).toBeGreaterThan(500);
    const sample = all.filter((f) => f.makers.size > 0 && f.types.size > 0).filter((_, i) => i % 97 === 0);
    expect(sample.length).toBeGreaterThanOrEqual(5);
    for (const a of sample) {
      const ranking = all
        .filter((b) => b !== a)
        .map((b) => ({ b, ...expected(a, b) }))
        .filter((r) => r.score > 0)
        .sort((x, y) => y.score - x.score || (x.b.pid < y.b.pid ? -1 : x.b.pid > y.b.pid ? 1 : 0))
        .slice(0, 10);
      const res = await request(demo.app).get(`/v2/id/object/${a.pid}/similar`);
      expect(res.status).toBe(200);
      const members = res.body['hydra:member'] as { '@id': string; similarity: number; shares: { feature: string; value?: string | { '@id': string } }[] }[];
      expect([a.pid, members.map((m) => [m['@id'], m.similarity])]).toEqual([a.pid, ranking.map((r) => [r.b.iri, r.score])]);
      for (const [i, member] of members.entries()) {
        const got = member.shares.map((s) => (s.value === undefined ? s.feature : `${s.feature} ${typeof s.value === 'string' ? s.value : s.value['@id']}`));
        // In the order of the weights, then of the value: the same bytes whatever order the index read its rows in.
        expect(got).toEqual([...got].sort(byWeightThenValue));
        expect([...got].sort()).toEqual([...ranking[i]!.shares].sort());
      }
    }
  }, 120_000);

  it('takes limit from 1 to 50, and is 404 for an object that is not listed', async () => {
    const pid = [...facts.values()][0]!.pid;
    expect((await request(demo.app).get(`/v2/id/object/${pid}/similar?limit=3`)).body['hydra:member']).toHaveLength(3);
    for (const bad of ['0', '51', 'x', '-1']) expect((await request(demo.app).get(`/v2/id/object/${pid}/similar?limit=${bad}`)).status).toBe(400);
    expect((await request(demo.app).get('/v2/id/object/2000-0006/similar')).status).toBe(404); // private
    expect((await request(demo.app).get('/v2/id/object/2000-0004/similar')).status).toBe(404); // removed
    expect((await request(demo.app).get('/v2/id/object/NO-SUCH/similar')).status).toBe(404);
  });
});
