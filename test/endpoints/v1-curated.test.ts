/**
 * The curated v1 paths (spec, Deprecated v1 interface): /v1/colors/ and /v1/color-api/{color}, which read the
 * colour notes that a /sparql SELECT here reads too; /v1/pattern-api (tiles and tile panels, members with a
 * IIIF crop URL); /v1/id/exhibitions/billboardseries. Expected values from /sparql and the source export.
 */
import { sourceRecords } from '../helpers/demo.js';
import { byCodePoint, expectValid, json, membersOf, publicRecords, sparqlSelect, useV1Demo, v1Schemas, walk, type SourceRecord } from './v1-support.js';

const v1 = useV1Demo({}, { sparql: true });
const schema = v1Schemas();
const BASE = 'http://localhost:3000';
const { get } = v1;
const numberOfPage = (member: Record<string, unknown>): string => String(member['foaf:page']).split('/').pop()!;

/** Colour notes per object from the public store: feature kind (hex/base), value and label. */
async function colorNotes(): Promise<{ object: string; kind: string; value: string; label?: string }[]> {
  const rows = await sparqlSelect(
    v1.demo.app,
    `PREFIX crm: <http://www.cidoc-crm.org/cidoc-crm/>
     PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>
     PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
     SELECT ?object ?feature ?value ?label WHERE { GRAPH ?object { ?object crm:P65_shows_visual_item ?item . ?item crm:P56_bears_feature ?feature .
       ?feature crm:P3_has_note ?note . ?note rdf:value ?value . OPTIONAL { ?note rdfs:label ?label } } }`,
  );
  return rows.map((row) => ({ object: row.object!.split('/').pop()!, kind: row.feature!.endsWith('/colors/hex') ? 'hex' : 'base', value: row.value!, label: row.label }));
}

describe('Deprecated v1 interface: /v1/colors/ and /v1/color-api/{color}', () => {
  it('lists the base colours and named tones that the objects show', async () => {
    const notes = await colorNotes();
    const body = json(await get('/v1/colors/'));
    const bases = new Set(notes.filter((n) => n.kind === 'base').map((n) => n.value));
    expect(new Set(body.base_colors as string[])).toEqual(bases);
    expect(body.css_colors).toEqual([...new Set(notes.filter((n) => n.kind === 'hex').map((n) => n.label!))].sort((a, b) => a.localeCompare(b, 'en')));
  });

  it('lists the objects showing a base colour, in object-number order, as v1 stubs with their colours', async () => {
    const notes = await colorNotes();
    for (const color of ['red', 'Blue', 'white']) {
      const expected = [...new Set(notes.filter((n) => n.kind === 'base' && n.value === color.toLowerCase()).map((n) => n.object))].sort(byCodePoint);
      const { members, pages } = await walk(v1.demo.app, `/v1/color-api/${color}?itemsPerPage=100`);
      expect(members.map(numberOfPage)).toEqual(expected);
      expect(pages[0]!['hydra:totalItems']).toBe(expected.length);
      for (const member of members) {
        expectValid(schema('object-stub'), member);
        expect((member['ex:colors'] as string[]).length).toBeGreaterThan(0);
      }
    }
  });

  it('lists the objects showing a named tone, whatever its case', async () => {
    const notes = await colorNotes();
    const tone = notes.find((n) => n.kind === 'hex' && n.label !== undefined && / /.test(n.label))!.label!;
    const expected = [...new Set(notes.filter((n) => n.kind === 'hex' && n.label?.toLowerCase() === tone.toLowerCase()).map((n) => n.object))].sort(byCodePoint);
    const { members } = await walk(v1.demo.app, `/v1/color-api/${encodeURIComponent(tone.toUpperCase())}?itemsPerPage=100&fullRecord=true`);
    expect(members.map(numberOfPage)).toEqual(expected);
    for (const member of members) expect(member['ex:colorNames']).toContain(tone);
  });

  it('answers a colour that no object shows with an empty collection, and a too long one with 400', async () => {
    const body = json(await get('/v1/color-api/no-such-colour'));
    expect(body['hydra:totalItems']).toBe(0);
    expect(membersOf(body)).toEqual([]);
    expect((body['hydra:view'] as Record<string, unknown>)['hydra:previous']).toBeNull();
    expect((body['hydra:view'] as Record<string, unknown>)['hydra:next']).toBeNull();
    expect((await get(`/v1/color-api/${'x'.repeat(101)}`)).status).toBe(400);
  });
});

describe('Deprecated v1 interface: /v1/pattern-api', () => {
  /** Objects typed with the concept labelled `label` or a narrower one, with a IIIF manifest, as the source export states them. */
  function expectedPatterns(label: string): string[] {
    const concepts = sourceRecords(v1.demo.data, 'concepts') as (SourceRecord & { labels: { nl: string }; broader: string[] })[];
    const under = new Set(concepts.filter((c) => c.labels.nl === label).map((c) => c.pid));
    for (let grew = true; grew; ) {
      grew = false;
      for (const c of concepts) {
        if (under.has(c.pid) || !c.broader.some((b) => under.has(b))) continue;
        under.add(c.pid);
        grew = true;
      }
    }
    return v1.objects.listed.filter((o) => o.media.manifest !== undefined && o.types.some((t) => under.has(t))).map((o) => o.objectNumber).sort(byCodePoint);
  }

  it.each([
    ['tegels', 'tegel'],
    ['panelen', 'tegeltableau'],
  ])('lists the %s (under the term %s) with images, each with its @id and a crop of its first image', async (collection, label) => {
    const expected = expectedPatterns(label);
    expect(expected.length).toBeGreaterThan(0);
    const { members, pages } = await walk(v1.demo.app, `/v1/pattern-api?collection=${collection}&itemsPerPage=100`);
    const byNumber = new Map(v1.objects.listed.map((o) => [o.objectNumber, o]));
    const ids = expected.map((number) => byNumber.get(number)!.sameAs.find((uri) => uri.startsWith('https://stad.gent/')) ?? `${BASE}/v1/id/object/${number}`);
    expect(members.map((member) => member['@id'])).toEqual(ids);
    expect(pages[0]!['hydra:totalItems']).toBe(expected.length);
    for (const [i, member] of members.entries()) {
      expectValid(schema('pattern'), member);
      const first = byNumber.get(expected[i]!)!.images[0];
      if (first !== undefined) expect(member.image).toBe(`${first.iiifBase}/pct:25,25,50,50/max/0/default.jpg`);
    }
  });

  it('serves the crop URL as an image from the IIIF server', async () => {
    const { members } = await walk(v1.demo.app, '/v1/pattern-api?itemsPerPage=100');
    const url = new URL(String(members.find((member) => member.image !== null)!.image));
    const res = await get(url.pathname);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/jpeg/);
  });

  it('defaults to tegels and answers 400 to another collection', async () => {
    expect(json(await get('/v1/pattern-api?itemsPerPage=5'))['hydra:view']).toEqual(json(await get('/v1/pattern-api?itemsPerPage=5&collection=tegels'))['hydra:view']);
    const res = await get('/v1/pattern-api?collection=vazen');
    expect(res.status).toBe(400);
    expect(json(res)).toEqual({ error: 'Invalid collection. Use one of: tegels, panelen.' });
  });
});

describe('Deprecated v1 interface: /v1/id/exhibitions/billboardseries', () => {
  it('lists the public exhibitions whose title names the billboard series, as full v1 records', async () => {
    const expected = (publicRecords(v1.demo.data, 'exhibitions') as (SourceRecord & { titles: Record<string, string> })[])
      .filter((e) => Object.values(e.titles).some((title) => /billboard/i.test(title)))
      .map((e) => e.pid)
      .sort(byCodePoint);
    const res = await get('/v1/id/exhibitions/billboardseries');
    expect(res.status).toBe(200);
    const body = json(res) as { billboards: Record<string, unknown>[] };
    expect(Object.keys(body)).toEqual(['billboards']);
    expect(body.billboards.map((b) => b['dcterms:identifier'])).toEqual(expected);
    for (const billboard of body.billboards) expectValid(schema('exhibition'), billboard);
  });
});
