/**
 * GET|HEAD /v2/id/object/{PID} against the spec's object table. Expected values are computed from the demo's
 * source export (the JSON Lines files), never from the service's output.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import request from 'supertest';
import type { AgentRecord, ConceptRecord, ExhibitionRecord, ObjectRecord } from '../../src/harvest/schema.js';
import { sourceObjects, sourceRecords, startDemoApp, TEST_BASE_URL, type DemoApp } from '../helpers/demo.js';
import { coveringSample, everyRecord } from '../helpers/sample.js';

type Json = Record<string, unknown>;
const B = TEST_BASE_URL;
const LANG = { nl: 'NLD', fr: 'FRA', en: 'ENG' } as const;
const objectIri = (n: string) => `${B}/v2/id/object/${n}`;
const arr = (v: unknown): Json[] => (v === undefined ? [] : Array.isArray(v) ? (v as Json[]) : [v as Json]);
const ids = (v: unknown): string[] => arr(v).map((n) => n['@id'] as string);

let demo: DemoApp;
let objects: Map<string, ObjectRecord>;
let concepts: Map<string, ConceptRecord>;
let agents: Map<string, AgentRecord>;
let exhibitions: Map<string, ExhibitionRecord>;
let imageStatus: Map<string, string>;
/** The public objects checked one by one: a sample that shows every feature of them (test/helpers/sample.ts). */
let sampled: ObjectRecord[];

const servable = (o: ObjectRecord | undefined): boolean => !!o && o.public && o.healthy && o.state.kind === 'current';

async function getObject(pid: string): Promise<Json> {
  const res = await request(demo.app).get(`/v2/id/object/${pid}`);
  expect(res.status).toBe(200);
  return JSON.parse(res.text) as Json;
}

/** The validated images of a source object, in canvas order: those the IIIF server lists as "ok". */
function expectedImages(o: ObjectRecord): string[] {
  return o.images.filter((i) => imageStatus.get(i.iiifBase.split('/').pop()!) === 'ok').map((i) => `${i.iiifBase}/full/max/0/default.jpg`);
}

beforeAll(async () => {
  demo = await startDemoApp();
  objects = new Map(sourceObjects(demo.data).map((o) => [o.objectNumber, o]));
  concepts = new Map((sourceRecords(demo.data, 'concepts') as ConceptRecord[]).map((c) => [c.pid, c]));
  agents = new Map((sourceRecords(demo.data, 'agents') as AgentRecord[]).map((a) => [a.pid, a]));
  exhibitions = new Map((sourceRecords(demo.data, 'exhibitions') as ExhibitionRecord[]).map((e) => [e.pid, e]));
  sampled = coveringSample([...objects.values()].filter((o) => servable(o)));
  imageStatus = new Map(
    readFileSync(join(demo.data.sourceDir, 'images.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { id: string; status: string })
      .map((i) => [i.id, i.status]),
  );
}, 180_000);
afterAll(async () => demo.close());

describe('Object record: every row of the object table, on public demo objects that show every feature of them', () => {
  it('matches the source export for identifier, titles, types, materials, descriptions and keeper', async () => {
    let checked = 0;
    for (const o of sampled) {
      if (!servable(o)) continue;
      const r = await getObject(o.objectNumber);
      expect(r['@id']).toBe(objectIri(o.objectNumber));
      expect(r['@type']).toBe('crm:E22_Human-Made_Object');
      const title = o.titles.nl ?? o.titles.fr ?? o.titles.en ?? o.objectNumber;
      expect(r['rdfs:label']).toBe(title);

      const identifiedBy = arr(r['crm:P1_is_identified_by']);
      expect(identifiedBy[0]).toMatchObject({
        '@id': `${objectIri(o.objectNumber)}/identifier/objectnummer`,
        '@type': 'crm:E42_Identifier',
        'rdfs:label': o.objectNumber,
        'crm:P2_has_type': { '@id': `${B}/v2/id/type/objectnummer`, '@type': 'crm:E55_Type' },
      });
      const titles = identifiedBy.slice(1).map((t) => [(t['crm:P72_has_language'] as Json)['@id'], t['rdfs:label']]);
      const expectedTitles = (['nl', 'fr', 'en'] as const)
        .filter((l) => o.titles[l])
        .map((l) => [`http://publications.europa.eu/resource/authority/language/${LANG[l]}`, o.titles[l]]);
      expect(titles).toEqual(expectedTitles);

      expect(ids(r['crm:P2_has_type']).sort()).toEqual(o.types.map((c) => `${B}/v2/id/concept/${c}`).sort());
      for (const t of arr(r['crm:P2_has_type'])) {
        const pid = (t['@id'] as string).split('/').pop()!;
        expect(t['rdfs:label']).toBe(concepts.get(pid)!.labels.nl);
        expect(t['@type']).toBe('crm:E55_Type');
        expect(t['owl:sameAs']).toEqual(expect.arrayContaining(concepts.get(pid)!.sameAs));
      }
      expect(ids(r['crm:P45_consists_of']).sort()).toEqual(o.materials.map((c) => `${B}/v2/id/concept/${c}`).sort());
      for (const m of arr(r['crm:P45_consists_of'])) expect(m['@type']).toBe('crm:E57_Material');

      const descriptions = arr(r['crm:P67i_is_referred_to_by']).map((d) => d['rdfs:label']);
      expect(descriptions).toEqual((['nl', 'fr', 'en'] as const).filter((l) => o.descriptions[l]).map((l) => o.descriptions[l]));
      for (const d of arr(r['crm:P67i_is_referred_to_by'])) {
        expect(d['crm:P2_has_type']).toMatchObject({ '@id': 'http://vocab.getty.edu/aat/300080091', 'rdfs:label': 'description' });
      }
      expect(r['crm:P50_has_current_keeper']).toEqual({
        '@id': 'http://www.wikidata.org/entity/Q1809071',
        '@type': 'crm:E39_Actor',
        'rdfs:label': 'Design Museum Gent',
      });
      checked++;
    }
    expect(checked).toBeGreaterThan(everyRecord() ? 800 : 150);
  }, 120_000);

  it('matches the source export for production, creation, acquisition and dimensions', async () => {
    for (const o of sampled) {
      if (!servable(o)) continue;
      const r = await getObject(o.objectNumber);
      const productions = arr(r['crm:P108i_was_produced_by']);
      expect(productions.map((p) => p['@id'])).toEqual(o.productions.map((_, i) => `${objectIri(o.objectNumber)}/production/${i + 1}`));
      o.productions.forEach((p, i) => {
        const node = productions[i]!;
        expect(node['@type']).toBe('crm:E12_Production');
        if (p.agent) expect((node['crm:P14_carried_out_by'] as Json)['@id']).toBe(`${B}/v2/id/agent/${p.agent}`);
        if (p.agent && agents.get(p.agent)?.public) expect((node['crm:P14_carried_out_by'] as Json)['rdfs:label']).toBe(agents.get(p.agent)!.name);
        if (p.place) expect(node['crm:P7_took_place_at']).toMatchObject({ '@id': p.place.uri, 'rdfs:label': p.place.label });
        expect(ids(node['crm:P32_used_general_technique']).sort()).toEqual(p.techniques.map((c) => `${B}/v2/id/concept/${c}`).sort());
        if (p.date) {
          expect(node['crm:P4_has_time-span']).toMatchObject({
            '@type': 'crm:E52_Time-Span',
            'rdfs:label': p.date.label,
            'crm:P82a_begin_of_the_begin': { '@type': 'xsd:gYear', '@value': String(p.date.begin).padStart(4, '0') },
            'crm:P82b_end_of_the_end': { '@type': 'xsd:gYear', '@value': String(p.date.end).padStart(4, '0') },
          });
        } else expect(node['crm:P4_has_time-span']).toBeUndefined();
      });
      const creations = arr(r['crm:P94i_was_created_by']);
      expect(creations.map((c) => c['@id'])).toEqual(o.creations.map((_, i) => `${objectIri(o.objectNumber)}/creation/${i + 1}`));
      for (const c of creations) expect(c['@type']).toBe('crm:E65_Creation');

      const acquisition = r['crm:P24i_changed_ownership_through'] as Json | undefined;
      if (o.acquisition) {
        expect(acquisition).toMatchObject({ '@id': `${objectIri(o.objectNumber)}/acquisition`, '@type': 'crm:E8_Acquisition' });
        expect((acquisition!['crm:P2_has_type'] as Json)['rdfs:label']).toBe(o.acquisition.method);
        if (o.acquisition.year !== undefined) {
          expect((acquisition!['crm:P4_has_time-span'] as Json)['rdfs:label']).toBe(String(o.acquisition.year));
        }
        expect((acquisition!['crm:P22_transferred_title_to'] as Json)['@id']).toBe(o.acquisition.receiver?.uri ?? 'http://www.wikidata.org/entity/Q1809071');
      } else expect(acquisition).toBeUndefined();

      const toCm = (d: { value: number; unit: string }) => (d.unit === 'mm' ? d.value / 10 : d.unit === 'm' ? d.value * 100 : d.value);
      const dims = arr(r['crm:P43_has_dimension'])
        .map((d) => [(d['crm:P2_has_type'] as Json)['rdfs:label'], d['crm:P90_has_value']] as [string, number])
        .sort();
      const expectedDims = o.dimensions.map((d) => [d.type, toCm(d)] as [string, number]).sort();
      expect(dims.map((d) => d[0])).toEqual(expectedDims.map((d) => d[0]));
      dims.forEach((d, i) => expect(d[1]).toBeCloseTo(expectedDims[i]![1], 2));
      for (const d of arr(r['crm:P43_has_dimension'])) {
        expect(d['crm:P91_has_unit']).toEqual({ '@id': 'http://vocab.getty.edu/aat/300379098', '@type': 'crm:E58_Measurement_Unit', 'rdfs:label': 'cm' });
      }
    }
  }, 120_000);

  it('matches the source export for parts, sets, sub-collections, exhibitions, media, images, projects and location', async () => {
    const membersOf = new Map<string, string[]>();
    for (const o of objects.values()) if (o.partOfSet && servable(o)) membersOf.set(o.partOfSet, [...(membersOf.get(o.partOfSet) ?? []), o.objectNumber]);
    for (const o of sampled) {
      if (!servable(o)) continue;
      const r = await getObject(o.objectNumber);
      const parts = arr(r['crm:P46_has_component']);
      expect(parts.map((p) => [p['@id'], p['rdfs:label']])).toEqual(o.parts.map((p, i) => [`${objectIri(o.objectNumber)}/part/${i + 1}`, p.label]));

      expect(ids(r['crm:P106_is_composed_of']).sort()).toEqual((membersOf.get(o.objectNumber) ?? []).map(objectIri).sort());
      if (o.partOfSet && servable(objects.get(o.partOfSet))) {
        expect(r['crm:P46i_forms_part_of']).toEqual({ '@id': objectIri(o.partOfSet), '@type': 'crm:E22_Human-Made_Object' });
      } else expect(r['crm:P46i_forms_part_of']).toBeUndefined();

      expect(ids(r['crm:P106i_forms_part_of']).sort()).toEqual(o.subCollections.map((c) => `${B}/v2/id/concept/${c}`).sort());
      const shown = o.exhibitions.filter((e) => exhibitions.get(e)?.public);
      expect(ids(r['crm:P12i_was_present_at']).sort()).toEqual(shown.map((e) => `${B}/v2/id/exhibition/${e}`).sort());

      const media = arr(r['crm:P129i_is_subject_of']);
      const expectedMedia = [o.media.manifest, ...o.media.videos.map((v) => v.url), ...o.media.audios.map((a) => a.url)].filter(Boolean);
      expect(media.map((m) => m['@id']).sort()).toEqual([...expectedMedia].sort());
      if (expectedMedia.length === 1) expect(Array.isArray(r['crm:P129i_is_subject_of'])).toBe(false);
      if (o.media.manifest) expect(media[0]).toMatchObject({ '@id': o.media.manifest, '@type': 'crm:E73_Information_Object' });

      const images = expectedImages(o);
      expect(ids(r['crm:P138i_has_representation'])).toEqual(images);
      if (images.length > 0) {
        expect(r.image).toEqual(arr(r['crm:P138i_has_representation'])[0]);
        const first = o.images.find((i) => `${i.iiifBase}/full/max/0/default.jpg` === images[0])!;
        expect(r.image).toEqual({
          '@id': images[0],
          '@type': 'crm:E38_Image',
          thumbnail: `${first.iiifBase}/full/400,/0/default.jpg`,
          'crm:P104_is_subject_to': { '@id': first.rights, '@type': 'crm:E30_Right' },
          'crm:P3_has_note': first.attribution,
        });
      } else {
        expect(r.image).toBeUndefined();
        expect(r['crm:P138i_has_representation']).toBeUndefined();
      }
      expect(arr(r['crm:P15i_was_motivation_of'])).toHaveLength(o.creativeProjects.length);
      if (o.onDisplay) expect((r['crm:P55_has_current_location'] as Json)['@id']).toBe(`${B}/v2/id/place/collection-presentation`);
      else expect(r['crm:P55_has_current_location']).toBeUndefined();
    }
  }, 120_000);

  it('validates the sampled public demo objects against schemas/object.schema.json', async () => {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats.default(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync(new URL('../../schemas/object.schema.json', import.meta.url), 'utf8')) as object);
    for (const o of sampled) {
      if (!servable(o)) continue;
      const r = await getObject(o.objectNumber);
      if (!validate(r)) throw new Error(`${o.objectNumber}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
    }
  }, 120_000);

  it('orders the keys as the spec tables do', async () => {
    const r = await getObject('2000-0012');
    const keys = Object.keys(r);
    expect(keys.slice(0, 6)).toEqual(['@context', '@id', '@type', 'rdfs:label', 'owl:sameAs', 'prov:generatedAtTime']);
    const at = (k: string) => keys.indexOf(k);
    expect(at('crm:P1_is_identified_by')).toBeLessThan(at('crm:P2_has_type'));
    expect(at('crm:P108i_was_produced_by')).toBeLessThan(at('crm:P24i_changed_ownership_through'));
  });
});

describe('Object record: the edge cases the spec names', () => {
  it('serves a koepelrecord with its members and a set member with its koepel', async () => {
    const koepel = await getObject('1990-0060_0-5');
    expect(ids(koepel['crm:P106_is_composed_of']).sort()).toEqual([1, 2, 3, 4, 5].map((x) => objectIri(`1990-0060_${x}-5`)).sort());
    const member = await getObject('1990-0060_3-5');
    expect(member['crm:P46i_forms_part_of']).toEqual({ '@id': objectIri('1990-0060_0-5'), '@type': 'crm:E22_Human-Made_Object' });
  });

  it('leaves out images that failed validation, and the image key with them', async () => {
    const allFailed = await getObject('2000-0022');
    expect(allFailed['crm:P138i_has_representation']).toBeUndefined();
    expect(allFailed.image).toBeUndefined();
    expect(objects.get('2000-0022')!.images.length).toBeGreaterThan(0);
    const mixed = await getObject('2000-0023');
    expect(arr(mixed['crm:P138i_has_representation'])).toHaveLength(2);
    const none = await getObject('2000-0021');
    expect(none.image).toBeUndefined();
  });

  it.each([
    ['2000-0001', 'merged', '1987-1105', 'This object has been merged into 1987-1105.'],
    ['2000-0002', 'renumbered', '2017-0308', 'This object has been renumbered to 2017-0308.'],
    ['2000-0003', 'withdrawn', '1482', 'This object has been withdrawn; its record continues as 1482.'],
  ])('answers 301 for a %s record (%s) with Location and {message, resolved}', async (pid, state, to, message) => {
    expect(objects.get(pid)!.state).toEqual({ kind: state, into: to });
    const res = await request(demo.app).get(`/v2/id/object/${pid}`);
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe(objectIri(to));
    expect(res.body).toEqual({ message, resolved: objectIri(to) });
  });

  it('answers 410 with the reference body for a removed record', async () => {
    expect(objects.get('2000-0004')!.state.kind).toBe('removed');
    const res = await request(demo.app).get('/v2/id/object/2000-0004');
    expect(res.status).toBe(410);
    expect(res.body).toEqual({ error: 'This object has been permanently removed from our collection.' });
  });

  it.each([
    ['an unknown', '1234-5678'],
    ['an unhealthy', '2000-0005'],
    ['a private', '2000-0006'],
  ])('answers 404 for %s pid', async (_what, pid) => {
    const res = await request(demo.app).get(`/v2/id/object/${pid}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Object not found' });
    expect(res.text).not.toContain('rdfs:label');
  });

});

describe('Object record: HTTP', () => {
  it('answers HEAD for a removed record with 410', async () => {
    expect((await request(demo.app).head('/v2/id/object/2000-0004')).status).toBe(410);
  });
});
