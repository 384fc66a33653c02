/**
 * The v1 single records (spec, Deprecated v1 interface; Versioning for the shapes; Errors for the v1 codes):
 * /v1/id/object/{identifier} with `easy`, /v1/id/agent/{PID}, /v1/id/concept/{CONCEPT-PID},
 * /v1/id/exhibition/{EXHIBITION-PID}. Expected values come from the demo's source export.
 */
import { sourceRecords } from '../helpers/demo.js';
import { coveringSample } from '../helpers/sample.js';
import { datahubOf, expectValid, json, publicRecords, useV1Demo, v1Schemas, type SourceRecord } from './v1-support.js';

const v1 = useV1Demo();
const schema = v1Schemas();
const BASE = 'http://localhost:3000';
const { get } = v1;
const UNPUBLISHED = 'Oops. the syntax of your request is correct, but data on this object has either not yet been published or we are working on repairing this link.';

describe('Deprecated v1 interface: /v1/id/object/{identifier}', () => {
  it('serves the listed objects with 200, valid against schemas/v1/object.schema.json, @id the datahub URI and a Dutch-first single title', async () => {
    // A sample that shows every feature of the listed objects (test/helpers/sample.ts; TEST_EVERY_RECORD=1 asks all).
    for (const source of coveringSample(v1.objects.listed)) {
      const res = await get(`/v1/id/object/${source.objectNumber}`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/ld+json; charset=utf-8');
      const body = json(res);
      expectValid(schema('object'), body);
      expect(body['@id']).toBe(datahubOf(source) ?? `${BASE}/v1/id/object/${source.objectNumber}`);
      const [language, title] = (['nl', 'fr', 'en'] as const).flatMap((lang) => (source.titles[lang] ? [[lang, source.titles[lang]]] : []))[0] ?? [];
      expect(body['MensgemaaktObject.titel']).toEqual(title === undefined ? undefined : { '@value': title, '@language': language });
      expect(body['ex:onDisplay']).toBe(source.onDisplay);
    }
  });

  it('answers easy=true with the simplified view built from the same record', async () => {
    const source = v1.objects.listed.find((o) => o.images.length > 0 && o.titles.nl !== undefined && o.descriptions.nl !== undefined)!;
    const res = await get(`/v1/id/object/${source.objectNumber}?easy=true`);
    expect(res.status).toBe(200);
    const body = json(res);
    expectValid(schema('object-easy'), body);
    expect(body).toMatchObject({ objectnumber: source.objectNumber, title: source.titles.nl, description: source.descriptions.nl });
    expect(body.licences).toEqual([...new Set(source.images.map((image) => image.rights))]);
    expect((body.images as string[]).map((url) => url.replace(/\/full\/max\/0\/default\.jpg$/, ''))).toEqual(source.images.map((image) => image.iiifBase));
    expect(json(await get(`/v1/id/object/${source.objectNumber}?easy=false`))['@type']).toBe('MensgemaaktObject');
  });

  it('answers 422 with the v1 text for a well-formed number that names no published object: unknown, private or unhealthy', async () => {
    const numbers = ['9999-99999', v1.objects.privates[0]!.objectNumber, v1.objects.unhealthy[0]!.objectNumber];
    for (const number of numbers) {
      const res = await get(`/v1/id/object/${number}`);
      expect(res.status).toBe(422);
      expect(json(res)).toEqual({ error: UNPUBLISHED });
    }
  });

  it('answers 410 with the v1 body for a removed object and for the special path /removed', async () => {
    expect(v1.objects.removed.length).toBeGreaterThan(0);
    for (const path of [...v1.objects.removed.map((o) => o.objectNumber), 'removed']) {
      const res = await get(`/v1/id/object/${path}`);
      expect(res.status).toBe(410);
      expect(json(res)).toEqual({ 410: 'the object is permanently removed from our collection' });
    }
  });

  it('answers a merged, renumbered or withdrawn object with the record it continues as, named in Content-Location', async () => {
    for (const source of v1.objects.redirected) {
      const target = v1.objects.all.find((o) => o.objectNumber === source.state.into)!;
      const res = await get(`/v1/id/object/${source.objectNumber}`);
      expect(res.status).toBe(200);
      expect(res.headers['content-location']).toBe(`${BASE}/v1/id/object/${target.objectNumber}`);
      expect(json(res)['foaf:page']).toBe(`${BASE}/v1/id/object/${target.objectNumber}`);
    }
  });

  it.each(['bad id', '-starts-with-dash', 'x'.repeat(80), 'a/b'])('answers 400 for the malformed identifier %j', async (id) => {
    const res = await get(`/v1/id/object/${encodeURIComponent(id)}`);
    expect(res.status).toBe(400);
    expect(json(res)).toEqual({ error: 'Invalid object number.' });
  });

  it('sends validators of its own (not v2 ones) and answers 304 to a matching If-None-Match', async () => {
    const number = v1.objects.listed[0]!.objectNumber;
    const v1Answer = await get(`/v1/id/object/${number}`);
    const v2Answer = await get(`/v2/id/object/${number}`);
    expect(v1Answer.headers.etag).toMatch(/-v1"$/);
    expect(v1Answer.headers.etag).not.toBe(v2Answer.headers.etag);
    expect(v1Answer.headers['cache-control']).toBe('public, max-age=3600');
    expect(v1Answer.headers['last-modified']).toBe(v2Answer.headers['last-modified']);
    const again = await get(`/v1/id/object/${number}`).set('If-None-Match', v1Answer.headers.etag!);
    expect(again.status).toBe(304);
    expect((await get(`/v1/id/object/${number}?easy=true`)).headers.etag).toMatch(/-v1-easy"$/);
  });
});

describe('Deprecated v1 interface: /v1/id/agent, /v1/id/concept, /v1/id/exhibition', () => {
  it('serves every public agent with OSLO person properties, nationality a plain Dutch string, biographies in crm:P3_has_note', async () => {
    const agents = publicRecords(v1.demo.data, 'agents') as (SourceRecord & {
      name: string;
      citizenship?: { labels: { nl: string } };
      biographies?: { lang: string; text: string; source: string; licence: string }[];
      birth?: { year?: number };
    })[];
    for (const agent of agents) {
      const res = await get(`/v1/id/agent/${agent.pid}`);
      expect(res.status).toBe(200);
      const body = json(res);
      expectValid(schema('agent'), body);
      expect(body['@id']).toBe(datahubOf(agent) ?? `${BASE}/v1/id/agent/${agent.pid}`);
      expect(body['Persoon.volledigeNaam']).toBe(agent.name);
      expect(body['Persoon.nationaliteit']).toBe(agent.citizenship?.labels.nl);
      const notes = (body['crm:P3_has_note'] as { '@value': string; '@language': string; 'dcterms:source': string; 'dcterms:license': string }[] | undefined) ?? [];
      expect(new Set(notes.map((note) => [note['@language'], note['@value'], note['dcterms:source'], note['dcterms:license']].join('|')))).toEqual(
        new Set((agent.biographies ?? []).map((bio) => [bio.lang, bio.text, bio.source, bio.licence].join('|'))),
      );
      if (agent.birth?.year !== undefined) expect((body['Persoon.geboorte'] as Record<string, string>)['Geboorte.datum']).toBe(String(agent.birth.year));
      for (const key of Object.keys(body)) expect(key).not.toMatch(/^crm:P98i|^person:/);
    }
  });

  it('serves every public concept with one preferred label (Dutch first) and its broader terms', async () => {
    const concepts = publicRecords(v1.demo.data, 'concepts') as (SourceRecord & { labels: Record<string, string>; broader: string[] })[];
    const publicPids = new Set(concepts.map((concept) => concept.pid));
    for (const concept of concepts) {
      const res = await get(`/v1/id/concept/${concept.pid}`);
      expect(res.status).toBe(200);
      const body = json(res);
      expectValid(schema('concept'), body);
      expect(body['skos:prefLabel']).toEqual({ '@value': concept.labels.nl, '@language': 'nl' });
      const broader = ((body['skos:broader'] as { '@id': string }[] | undefined) ?? []).map((term) => term['@id']);
      for (const pid of concept.broader.filter((p) => publicPids.has(p))) {
        const parent = concepts.find((c) => c.pid === pid)!;
        expect(broader).toContain(datahubOf(parent) ?? `${BASE}/v1/id/concept/${pid}`);
      }
    }
  });

  it('serves every public exhibition with a single-language title and the objects shown as v1 ids', async () => {
    const exhibitions = publicRecords(v1.demo.data, 'exhibitions') as (SourceRecord & { titles: Record<string, string>; begin: string; end: string })[];
    for (const exhibition of exhibitions) {
      const res = await get(`/v1/id/exhibition/${exhibition.pid}`);
      expect(res.status).toBe(200);
      const body = json(res);
      expectValid(schema('exhibition'), body);
      const language = ['nl', 'fr', 'en'].find((lang) => exhibition.titles[lang]);
      if (language !== undefined) expect(body['dcterms:title']).toEqual({ '@value': exhibition.titles[language], '@language': language });
      expect(body['cidoc:P4_has_time-span']).toEqual({ 'la:begin_of_the_begin': exhibition.begin, 'la:end_of_the_end': exhibition.end });
    }
  });

  it.each([
    ['agent', 'DMG-A-99999', 'There is no agent in our catalogue with that id.'],
    ['concept', '999999999', 'There is no concept in our catalogue with that id.'],
    ['exhibition', 'TE_1900-999', 'There is no exhibition in our catalogue with that id.'],
  ])('answers 422 for an unknown %s', async (kind, pid, message) => {
    const res = await get(`/v1/id/${kind}/${pid}`);
    expect(res.status).toBe(422);
    expect(json(res)).toEqual({ error: message });
  });

  it('answers 422 for a non-public agent, concept or exhibition, never its record', async () => {
    for (const kind of ['agents', 'concepts', 'exhibitions'] as const) {
      const hidden = (sourceRecords(v1.demo.data, kind) as SourceRecord[]).filter((record) => !record.public);
      for (const record of hidden) expect((await get(`/v1/id/${kind.slice(0, -1)}/${record.pid}`)).status).toBe(422);
    }
  });

  it.each([
    ['exhibition', 'TE 1999', 'Invalid exhibition id. Use TE_<year>-<serial>.'],
    ['agent', '.hidden', 'Invalid agent id.'],
    ['concept', 'x y', 'Invalid concept id.'],
  ])('answers 400 for a malformed %s id', async (kind, pid, message) => {
    const res = await get(`/v1/id/${kind}/${encodeURIComponent(pid)}`);
    expect(res.status).toBe(400);
    expect(json(res)).toEqual({ error: message });
  });
});
