/**
 * GET|HEAD /v2/id/agent/{PID} (and its ark alias) against the spec's agent table, its relation table and the
 * agent classification rule, on every public agent of the demo generation. Expected values are computed from
 * the demo's source export (the JSON Lines files), never from the service's output; the relation table and
 * the inverse of each relation are written here from the spec.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import jsonld from 'jsonld';
import { Parser } from 'n3';
import request from 'supertest';
import type { AgentRecord, ExhibitionRecord, ObjectRecord, RelationType } from '../../src/harvest/schema.js';
import { refuseRemoteDocuments } from '../../src/shaping/jsonld.js';
import { sourceObjects, sourceRecords, startDemoApp, TEST_BASE_URL, type DemoApp } from '../helpers/demo.js';
import { jsonRecordEtag } from '../helpers/record-etag.js';

type Json = Record<string, unknown>;
const B = TEST_BASE_URL;
const CRM = 'http://www.cidoc-crm.org/cidoc-crm/';
const LANGUAGE = 'http://publications.europa.eu/resource/authority/language/';
const LANG_CODE = { nl: 'NLD', fr: 'FRA', en: 'ENG' } as const;
const STANDARD_SAME_AS = 'http://www.w3.org/2002/07/owl#sameAs';
const agentIri = (pid: string): string => `${B}/v2/id/agent/${pid}`;
const arr = (v: unknown): Json[] => (v === undefined ? [] : Array.isArray(v) ? (v as Json[]) : [v as Json]);
const ids = (v: unknown): string[] => arr(v).map((n) => n['@id'] as string);
const sorted = (values: readonly string[]): string[] => [...values].sort();
const gYear = (year: number): string => `${year < 0 ? '-' : ''}${String(Math.abs(year)).padStart(4, '0')}`;

/** The spec's relation table: property and crm:P2_has_type qualifier of the related node. */
const RELATION_TABLE: Record<RelationType, { property: string; qualifier?: string }> = {
  parent_of: { property: 'crm:P152i_is_parent_of' },
  child_of: { property: 'crm:P152_has_parent' },
  spouse_of: { property: 'crm:P107i_is_current_or_former_member_of', qualifier: 'spouse' },
  sibling_of: { property: 'crm:P107i_is_current_or_former_member_of', qualifier: 'sibling' },
  employer_of: { property: 'crm:P107_has_current_or_former_member', qualifier: 'employee' },
  employee_of: { property: 'crm:P107i_is_current_or_former_member_of', qualifier: 'employee' },
  mentor_of: { property: 'crm:P107_has_current_or_former_member', qualifier: 'student' },
  student_of: { property: 'crm:P107i_is_current_or_former_member_of', qualifier: 'mentor' },
  collaborator: { property: 'crm:P107i_is_current_or_former_member_of', qualifier: 'collaborator' },
  member_of: { property: 'crm:P107i_is_current_or_former_member_of', qualifier: 'member' },
  has_member: { property: 'crm:P107_has_current_or_former_member', qualifier: 'member' },
  founded: { property: 'crm:P107_has_current_or_former_member', qualifier: 'founded' },
  founded_by: { property: 'crm:P107i_is_current_or_former_member_of', qualifier: 'founder' },
};
const RELATION_PROPERTIES = [...new Set(Object.values(RELATION_TABLE).map((r) => r.property))];

/** The same relation seen from the other agent ("stored in both directions"). */
const INVERSE: Record<RelationType, RelationType> = {
  parent_of: 'child_of',
  child_of: 'parent_of',
  spouse_of: 'spouse_of',
  sibling_of: 'sibling_of',
  employer_of: 'employee_of',
  employee_of: 'employer_of',
  mentor_of: 'student_of',
  student_of: 'mentor_of',
  collaborator: 'collaborator',
  member_of: 'has_member',
  has_member: 'member_of',
  founded: 'founded_by',
  founded_by: 'founded',
};

/** Spec "States and transitions": the registrar decides first, then the knowledge base, else unknown. */
function expectedClass(a: AgentRecord): string {
  if (a.registrarKind === 'person') return 'crm:E21_Person';
  if (a.registrarKind === 'institution') return 'crm:E74_Group';
  if (a.knowledgeBaseKind === 'human') return 'crm:E21_Person';
  if (a.knowledgeBaseKind === 'organisation') return 'crm:E74_Group';
  return 'crm:E39_Actor';
}

const GENDER_LABEL = { MALE: 'mannelijk', FEMALE: 'vrouwelijk', OP_DATPRO: 'ander' } as const;

let demo: DemoApp;
let agents: Map<string, AgentRecord>;
let publicAgents: AgentRecord[];
let objects: Map<string, ObjectRecord>;
let exhibitions: ExhibitionRecord[];
/** The served body and headers of every public agent, fetched once. */
const served = new Map<string, { text: string; body: Json; headers: Record<string, string> }>();

const servable = (o: ObjectRecord | undefined): boolean => !!o && o.public && o.healthy && o.state.kind === 'current';
const record = (pid: string): Json => served.get(pid)!.body;

/** The relations of `pid` from both sides of the source, to public agents only. */
function expectedRelations(pid: string): { type: RelationType; other: string }[] {
  const out = new Map<string, { type: RelationType; other: string }>();
  const add = (type: RelationType, other: string): void => {
    if (agents.get(other)?.public) out.set(`${type}|${other}`, { type, other });
  };
  for (const r of agents.get(pid)!.relations) add(r.type, r.agent);
  for (const a of agents.values()) for (const r of a.relations) if (r.agent === pid && a.public) add(INVERSE[r.type], a.pid);
  return [...out.values()];
}

/** Exhibition label rule of the exhibition record: Dutch title, else source title, else another title, else pid. */
const exhibitionLabel = (e: ExhibitionRecord): string => e.titles.nl ?? e.sourceTitle ?? e.titles.en ?? e.titles.fr ?? e.pid;

/** Public exhibitions curated by the agent or showing a servable object whose production or creation names it. */
function expectedParticipation(pid: string): ExhibitionRecord[] {
  return exhibitions.filter(
    (e) =>
      e.public &&
      (e.curator?.agent === pid ||
        e.objects.some((n) => {
          const o = objects.get(n);
          return servable(o) && [...o!.productions, ...o!.creations].some((event) => event.agent === pid);
        })),
  );
}

beforeAll(async () => {
  demo = await startDemoApp();
  agents = new Map((sourceRecords(demo.data, 'agents') as AgentRecord[]).map((a) => [a.pid, a]));
  publicAgents = [...agents.values()].filter((a) => a.public);
  objects = new Map(sourceObjects(demo.data).map((o) => [o.objectNumber, o]));
  exhibitions = sourceRecords(demo.data, 'exhibitions') as ExhibitionRecord[];
  for (const a of publicAgents) {
    const res = await request(demo.app).get(`/v2/id/agent/${a.pid}`);
    if (res.status !== 200) throw new Error(`${a.pid}: ${res.status}`);
    served.set(a.pid, { text: res.text, body: JSON.parse(res.text) as Json, headers: res.headers as Record<string, string> });
  }
}, 180_000);
afterAll(async () => demo?.close());

describe('Agent record', () => {
  it('serves every public demo agent with 200 and a body valid against schemas/agent.schema.json', () => {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats.default(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync(new URL('../../schemas/agent.schema.json', import.meta.url), 'utf8')) as object);
    expect(served.size).toBe(publicAgents.length);
    expect(publicAgents.length).toBeGreaterThan(300);
    for (const a of publicAgents) {
      if (!validate(record(a.pid))) throw new Error(`${a.pid}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
    }
  });

  it('re-expands every record with jsonld.js, without fetching anything, to the record IRI, class, name and links', async () => {
    for (const a of publicAgents) {
      const expanded = (await jsonld.expand(record(a.pid) as never, { documentLoader: refuseRemoteDocuments } as never)) as unknown as Json[];
      expect(expanded).toHaveLength(1);
      const node = expanded[0]!;
      expect(node['@id']).toBe(agentIri(a.pid));
      expect(node['@type']).toEqual([`${CRM}${expectedClass(a).slice('crm:'.length)}`]);
      expect(node['http://www.w3.org/2000/01/rdf-schema#label']).toEqual([{ '@value': a.name }]);
      expect(sorted(ids(node['https://www.w3.org/2002/07/owl#sameAs']))).toEqual(sorted(a.sameAs));
      if (a.thumbnail) expect(node['http://xmlns.com/foaf/0.1/thumbnail']).toEqual([{ '@id': a.thumbnail }]);
    }
  }, 120_000);

  it('matches the source for id, class, label, sameAs, names, identifier, gender, citizenship and harvest time', () => {
    for (const a of publicAgents) {
      const r = record(a.pid);
      expect(r['@id']).toBe(agentIri(a.pid));
      expect(r['@type']).toBe(expectedClass(a));
      expect(r['rdfs:label']).toBe(a.name);
      expect(sorted(arr(r['owl:sameAs']) as unknown as string[])).toEqual(sorted(a.sameAs));
      expect(r['prov:generatedAtTime']).toEqual({ '@type': 'xsd:dateTime', '@value': a.harvestedAt });

      const names = arr(r['crm:P1_is_identified_by']);
      expect(names[0]).toEqual({ '@id': `${agentIri(a.pid)}/appellation/preferred`, '@type': 'crm:E41_Appellation', 'rdfs:label': a.name });
      expect(names[names.length - 1]).toEqual({
        '@id': `${agentIri(a.pid)}/identifier/intern`,
        '@type': 'crm:E42_Identifier',
        'rdfs:label': a.pid,
        'crm:P2_has_type': { '@id': `${B}/v2/id/type/intern-referentienummer`, '@type': 'crm:E55_Type', 'rdfs:label': 'Intern referentienummer' },
      });
      const middle = names.slice(1, -1);
      const alternatives = middle.filter((n) => !('crm:P72_has_language' in n));
      expect(sorted(alternatives.map((n) => n['rdfs:label'] as string))).toEqual(sorted(a.alternativeNames));
      for (const n of alternatives) expect(n).toEqual({ '@type': 'crm:E41_Appellation', 'rdfs:label': n['rdfs:label'] });
      const titles = middle.filter((n) => 'crm:P72_has_language' in n);
      const expectedTitles = (['nl', 'fr', 'en'] as const).flatMap((lang) => a.wikipediaTitles.filter((w) => w.lang === lang));
      expect(titles).toEqual(
        expectedTitles.map((w) => ({
          '@type': 'crm:E41_Appellation',
          'rdfs:label': w.title,
          'crm:P129i_is_subject_of': { '@id': w.url, '@type': 'crm:E73_Information_Object' },
          'crm:P72_has_language': { '@id': `${LANGUAGE}${LANG_CODE[w.lang]}` },
        })),
      );

      if (expectedClass(a) === 'crm:E21_Person' && a.gender !== undefined) {
        expect(r['crm:P2_has_type']).toEqual({
          '@id': `http://publications.europa.eu/resource/authority/human-sex/${a.gender}`,
          '@type': 'crm:E55_Type',
          'rdfs:label': GENDER_LABEL[a.gender],
        });
      } else expect(r['crm:P2_has_type']).toBeUndefined();

      if (a.citizenship) {
        expect(r['person:citizenship']).toEqual({
          '@id': `http://publications.europa.eu/resource/authority/country/${a.citizenship.code}`,
          '@type': 'crm:E53_Place',
          'rdfs:label': [
            { '@language': 'nl', '@value': a.citizenship.labels.nl },
            { '@language': 'fr', '@value': a.citizenship.labels.fr },
            { '@language': 'en', '@value': a.citizenship.labels.en },
          ],
        });
      } else expect(r['person:citizenship']).toBeUndefined();
    }
  });

  it('matches the source for birth (founding) and death (dissolution): years as xsd:gYear and places', () => {
    for (const a of publicAgents) {
      const r = record(a.pid);
      for (const [key, event, suffix, type] of [
        ['crm:P98i_was_born', a.birth, 'birth', 'crm:E67_Birth'],
        ['crm:P100i_died_in', a.death, 'death', 'crm:E69_Death'],
      ] as const) {
        if (event === undefined) {
          expect(r[key]).toBeUndefined();
          continue;
        }
        const expected: Json = {
          '@id': `${agentIri(a.pid)}/${suffix}`,
          '@type': type,
          'crm:P4_has_time-span': {
            '@type': 'crm:E52_Time-Span',
            'rdfs:label': String(event.year),
            'crm:P82a_begin_of_the_begin': { '@type': 'xsd:gYear', '@value': gYear(event.year) },
            'crm:P82b_end_of_the_end': { '@type': 'xsd:gYear', '@value': gYear(event.year) },
          },
        };
        if (event.place) expected['crm:P7_took_place_at'] = { '@id': event.place.uri, '@type': 'crm:E53_Place', 'rdfs:label': event.place.label };
        expect(r[key]).toEqual(expected);
      }
    }
  });

  it('gives one biography per source biography, in the order nl, fr, en, with its language, source page and licence, and the thumbnail', () => {
    let withBio = 0;
    for (const a of publicAgents) {
      const r = record(a.pid);
      const expected = (['nl', 'fr', 'en'] as const).flatMap((lang) => a.biographies.filter((b) => b.lang === lang));
      expect(arr(r['crm:P67i_is_referred_to_by'])).toEqual(
        expected.map((b) => ({
          '@type': 'crm:E33_Linguistic_Object',
          'rdfs:label': b.text,
          'crm:P129i_is_subject_of': { '@id': b.source, '@type': 'crm:E73_Information_Object' },
          'crm:P2_has_type': { '@id': 'http://vocab.getty.edu/aat/300080091', '@type': 'crm:E55_Type', 'rdfs:label': 'description' },
          'crm:P72_has_language': { '@id': `${LANGUAGE}${LANG_CODE[b.lang]}` },
          'dcterms:license': { '@id': b.licence },
        })),
      );
      if (expected.length > 0) withBio++;
      expect(r.thumbnail).toBe(a.thumbnail);
    }
    expect(withBio).toBeGreaterThan(50);
  });

  it('returns every multi-valued property as an array, even with one value', () => {
    const multi = ['owl:sameAs', 'crm:P1_is_identified_by', 'crm:P67i_is_referred_to_by', 'crm:P11i_participated_in', ...RELATION_PROPERTIES];
    const single = new Map<string, number>();
    for (const a of publicAgents) {
      const r = record(a.pid);
      for (const key of multi) {
        if (!(key in r)) continue;
        expect([a.pid, key, Array.isArray(r[key])]).toEqual([a.pid, key, true]);
        if ((r[key] as unknown[]).length === 1) single.set(key, (single.get(key) ?? 0) + 1);
      }
    }
    // The rule is exercised where it matters: properties holding one value.
    for (const key of ['owl:sameAs', 'crm:P67i_is_referred_to_by', 'crm:P11i_participated_in', 'crm:P107i_is_current_or_former_member_of']) {
      expect([key, (single.get(key) ?? 0) > 0]).toEqual([key, true]);
    }
  });

  it('lists exactly the exhibitions the agent curated or that showed a servable object it made (crm:P11i_participated_in)', () => {
    let participants = 0;
    for (const a of publicAgents) {
      const r = record(a.pid);
      const expected = expectedParticipation(a.pid);
      expect([a.pid, sorted(ids(r['crm:P11i_participated_in']))]).toEqual([a.pid, sorted(expected.map((e) => `${B}/v2/id/exhibition/${e.pid}`))]);
      for (const node of arr(r['crm:P11i_participated_in'])) {
        const e = expected.find((x) => `${B}/v2/id/exhibition/${x.pid}` === node['@id'])!;
        const wanted: Json = { '@id': node['@id'], '@type': 'crm:E7_Activity', 'rdfs:label': exhibitionLabel(e) };
        if (e.sameAs.length > 0) wanted['owl:sameAs'] = sorted(e.sameAs);
        expect({ ...node, ...(node['owl:sameAs'] ? { 'owl:sameAs': sorted(node['owl:sameAs'] as string[]) } : {}) }).toEqual(wanted);
      }
      if (expected.length > 0) participants++;
    }
    expect(participants).toBeGreaterThan(10);
    // Every reason and every exclusion occurs in the demo: curating a public exhibition, a private exhibition with a
    // public curator and servable objects, and objects that are shown but not servable.
    const made = (o: ObjectRecord | undefined): boolean => !!o && [...o.productions, ...o.creations].some((e) => e.agent !== undefined);
    expect(exhibitions.some((e) => e.public && e.curator?.agent !== undefined && agents.get(e.curator.agent)?.public)).toBe(true);
    expect(exhibitions.some((e) => !e.public && agents.get(e.curator?.agent ?? '')?.public && e.objects.some((n) => servable(objects.get(n))))).toBe(true);
    expect(exhibitions.some((e) => e.public && e.objects.some((n) => !servable(objects.get(n)) && made(objects.get(n))))).toBe(true);
  });

});

describe('Agent record: relations (the spec relation table)', () => {
  const relationTypes = (): RelationType[] => [...new Set([...agents.values()].flatMap((a) => a.relations.map((r) => r.type)))];

  it('has every relation type of the spec table in the demo data', () => {
    expect(sorted(relationTypes())).toEqual(sorted(Object.keys(RELATION_TABLE)));
  });

  it.each(Object.keys(RELATION_TABLE) as RelationType[])(
    '%s: the related agent appears under its property with its class and qualifier, and the inverse on the other record',
    (type) => {
      const pairs = [...agents.values()].flatMap((a) => a.relations.filter((r) => r.type === type).map((r) => [a, agents.get(r.agent)!] as const));
      const shown = pairs.filter(([a, b]) => a.public && b.public);
      expect(shown.length).toBeGreaterThan(0);
      const check = (from: AgentRecord, to: AgentRecord, relation: RelationType): void => {
        const { property, qualifier } = RELATION_TABLE[relation];
        const node = arr(record(from.pid)[property]).find((n) => n['@id'] === agentIri(to.pid));
        const expected: Json = { '@id': agentIri(to.pid), '@type': expectedClass(to) };
        if (qualifier !== undefined) {
          expected['crm:P2_has_type'] = { '@id': `${B}/v2/id/type/relation/${relation}`, '@type': 'crm:E55_Type', 'rdfs:label': qualifier };
        }
        expect([from.pid, relation, to.pid, node]).toEqual([from.pid, relation, to.pid, expected]);
      };
      for (const [a, b] of shown) {
        check(a, b, type);
        check(b, a, INVERSE[type]);
      }
    },
  );

  it('puts under each relation property exactly the related public agents of both sides of the source, and no private agent', () => {
    const privateIris = new Set([...agents.values()].filter((a) => !a.public).map((a) => agentIri(a.pid)));
    expect(privateIris.size).toBeGreaterThan(0);
    let related = 0;
    for (const a of publicAgents) {
      const r = record(a.pid);
      const expected = expectedRelations(a.pid);
      for (const property of RELATION_PROPERTIES) {
        const want = sorted(expected.filter((e) => RELATION_TABLE[e.type].property === property).map((e) => agentIri(e.other)));
        expect([a.pid, property, sorted(ids(r[property]))]).toEqual([a.pid, property, want]);
        for (const id of ids(r[property])) expect(privateIris.has(id)).toBe(false);
      }
      if (expected.length > 0) related++;
    }
    expect(related).toBeGreaterThan(20);
  });

  it('never states nationality on crm:P107i_is_current_or_former_member_of', () => {
    for (const a of publicAgents) {
      for (const node of arr(record(a.pid)['crm:P107i_is_current_or_former_member_of'])) {
        expect(String(node['@id'])).toMatch(/\/v2\/id\/agent\//);
        expect(JSON.stringify(node)).not.toContain('/authority/country/');
      }
    }
  });
});

describe('States and transitions: agent classification', () => {
  it('types every agent by the rule: registrar kind first, then knowledge-base kind, else crm:E39_Actor', () => {
    const evidence = new Map<string, number>();
    for (const a of publicAgents) {
      expect([a.pid, record(a.pid)['@type']]).toEqual([a.pid, expectedClass(a)]);
      const key = a.registrarKind ? `registrar:${a.registrarKind}` : a.knowledgeBaseKind ? `knowledgeBase:${a.knowledgeBaseKind}` : 'none';
      evidence.set(key, (evidence.get(key) ?? 0) + 1);
    }
    // Every form of evidence occurs, so every branch of the rule is exercised.
    expect(sorted([...evidence.keys()])).toEqual(['knowledgeBase:human', 'knowledgeBase:organisation', 'none', 'registrar:institution', 'registrar:person']);
  });

  it('serves each agent class', () => {
    const classes = new Set(publicAgents.map((a) => record(a.pid)['@type']));
    expect(sorted([...classes] as string[])).toEqual(['crm:E21_Person', 'crm:E39_Actor', 'crm:E74_Group']);
  });

  it('gives organisations their founding as crm:P98i_was_born and never a gender', () => {
    const groups = publicAgents.filter((a) => expectedClass(a) === 'crm:E74_Group');
    expect(groups.length).toBeGreaterThan(10);
    const founded = groups.filter((a) => a.birth !== undefined);
    expect(founded.length).toBeGreaterThan(0);
    for (const a of founded) {
      const born = record(a.pid)['crm:P98i_was_born'] as Json;
      expect(born['@type']).toBe('crm:E67_Birth');
      expect((born['crm:P4_has_time-span'] as Json)['rdfs:label']).toBe(String(a.birth!.year));
    }
    for (const a of groups) expect(record(a.pid)['crm:P2_has_type']).toBeUndefined();
    // A gender recorded on a non-person does not reach its record.
    const gendered = publicAgents.filter((a) => a.gender !== undefined && expectedClass(a) !== 'crm:E21_Person');
    for (const a of gendered) expect(record(a.pid)['crm:P2_has_type']).toBeUndefined();
  });

  it('gives an agent with biographies in exactly one language exactly that biography', () => {
    const single = publicAgents.filter((a) => new Set(a.biographies.map((b) => b.lang)).size === 1);
    expect(single.length).toBeGreaterThan(0);
    for (const a of single) {
      const bios = arr(record(a.pid)['crm:P67i_is_referred_to_by']);
      expect(bios).toHaveLength(1);
      expect((bios[0]!['crm:P72_has_language'] as Json)['@id']).toBe(`${LANGUAGE}${LANG_CODE[a.biographies[0]!.lang]}`);
    }
    // Not only Dutch: an agent whose only biography is English or French keeps it.
    expect(single.some((a) => a.biographies[0]!.lang !== 'nl')).toBe(true);
  });
});

describe('Single entities: the agent endpoint and its cache rules', () => {
  it('answers the ark path with the identical status, body and ETag', async () => {
    for (const a of publicAgents) {
      const res = await request(demo.app).get(`/v2/id/ark:/29417/agent/${a.pid}`);
      expect([a.pid, res.status]).toEqual([a.pid, 200]);
      expect(res.text).toBe(served.get(a.pid)!.text);
      expect(res.headers.etag).toBe(served.get(a.pid)!.headers.etag);
    }
    const unknown = await request(demo.app).get('/v2/id/ark:/29417/agent/DMG-A-99999');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'Agent not found' });
  }, 120_000);

  it('sends ETag "<pid>-<harvest ms>-<body digest>", Last-Modified, Cache-Control public max-age=3600 and Vary: Accept on every record', () => {
    for (const a of publicAgents) {
      const { headers, text } = served.get(a.pid)!;
      const harvestedAt = new Date(a.harvestedAt);
      expect(headers.etag).toBe(jsonRecordEtag(a.pid, harvestedAt, text));
      expect(headers['last-modified']).toBe(harvestedAt.toUTCString());
      expect(headers['cache-control']).toBe('public, max-age=3600');
      expect(headers['content-type']).toBe('application/ld+json; charset=utf-8');
      expect(headers.vary).toMatch(/\bAccept\b/);
    }
  });

  it('answers HEAD on the ark path as on the record path, without a body', async () => {
    const a = publicAgents[2]!;
    const headArk = await request(demo.app).head(`/v2/id/ark:/29417/agent/${a.pid}`);
    expect(headArk.status).toBe(200);
    expect(headArk.headers.etag).toBe(served.get(a.pid)!.headers.etag);
    expect(headArk.text ?? '').toBe('');
  });

  it('gives Turtle on Accept: text/turtle, with the standard owl#sameAs links of the source', async () => {
    const withLinks = publicAgents.filter((a) => a.sameAs.length > 1).slice(0, 10);
    expect(withLinks.length).toBeGreaterThan(0);
    for (const a of withLinks) {
      const res = await request(demo.app).get(`/v2/id/agent/${a.pid}`).set('Accept', 'text/turtle');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/turtle; charset=utf-8');
      expect(res.headers.vary).toMatch(/\bAccept\b/);
      const quads = new Parser({ format: 'text/turtle' }).parse(res.text);
      const standard = quads.filter((q) => q.subject.value === agentIri(a.pid) && q.predicate.value === STANDARD_SAME_AS).map((q) => q.object.value);
      expect(sorted(standard)).toEqual(sorted(a.sameAs));
      const label = quads.find((q) => q.subject.value === agentIri(a.pid) && q.predicate.value === 'http://www.w3.org/2000/01/rdf-schema#label');
      expect(label?.object.value).toBe(a.name);
    }
  });
});

describe('Errors: the agent endpoint', () => {
  it('answers 404 {"error":"Agent not found"} for an unknown pid', async () => {
    expect(agents.has('DMG-A-99999')).toBe(false);
    for (const path of ['/v2/id/agent/DMG-A-99999', '/v2/id/agent/unknown']) {
      const res = await request(demo.app).get(path);
      expect(res.status).toBe(404);
      expect(res.text).toBe('{"error":"Agent not found"}');
    }
  });

  it('answers 404 for every private agent, on both paths and for HEAD, without revealing its name', async () => {
    const hidden = [...agents.values()].filter((a) => !a.public);
    expect(hidden.length).toBeGreaterThan(0);
    for (const a of hidden) {
      for (const path of [`/v2/id/agent/${a.pid}`, `/v2/id/ark:/29417/agent/${a.pid}`]) {
        const res = await request(demo.app).get(path);
        expect([path, res.status]).toEqual([path, 404]);
        expect(res.text).toBe('{"error":"Agent not found"}');
        expect(res.text).not.toContain(a.name);
      }
      expect((await request(demo.app).head(`/v2/id/agent/${a.pid}`)).status).toBe(404);
    }
  });

  it('answers 400 for a pid with a space', async () => {
    const res = await request(demo.app).get('/v2/id/agent/DMG%20A');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Invalid agent id.' });
  });
});
