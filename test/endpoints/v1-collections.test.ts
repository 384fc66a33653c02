/**
 * The v1 collections (spec, Deprecated v1 interface): /v1/id/objects with its parameters, /v1/id/agents,
 * /v1/id/exhibitions, /v1/id/concepts. Expected members and totals come from the demo's source export and from
 * SELECTs on /sparql written here, not from the code under test.
 */
import fc from 'fast-check';
import {
  byCodePoint,
  datahubOf,
  expectValid,
  json,
  membersOf,
  publicRecords,
  sparqlSelect,
  v1Schemas,
  useV1Demo,
  walk,
  type SourceObject,
} from './v1-support.js';

const v1 = useV1Demo({}, { sparql: true });
const schema = v1Schemas();
const { get } = v1;
const view = (body: Record<string, unknown>) => body['hydra:view'] as Record<string, string | null>;
const numberOf = (member: Record<string, unknown>): string =>
  ((member['Object.identificator'] as { 'Identificator.identificator': { '@value': string } }[])[0]!)['Identificator.identificator']['@value'];
const v1Id = (base: string, kind: string, record: { sameAs?: string[] }, pid: string): string => datahubOf(record) ?? `${base}/v1/id/${kind}/${pid}`;

describe('Deprecated v1 interface: /v1/id/objects', () => {
  it('lists every healthy, public, canonical object once, in object-number order, across pages whose first previous and last next are null', async () => {
    const { members, pages } = await walk(v1.demo.app, '/v1/id/objects?itemsPerPage=100');
    expect(members.map(numberOf)).toEqual(v1.objects.listed.map((o) => o.objectNumber).sort(byCodePoint));
    expect(view(pages[0]!)['hydra:previous']).toBeNull();
    expect(view(pages.at(-1)!)['hydra:next']).toBeNull();
    expect(pages.length).toBe(Math.ceil(v1.objects.listed.length / 100));
    for (const page of pages) {
      expectValid(schema('collection'), page);
      expect(page['hydra:totalItems']).toBe(v1.objects.listed.length);
    }
    for (const member of members.slice(0, 200)) expectValid(schema('object-stub'), member);
  });

  it('gives each object the city datahub URI as @id, else its v1 address, and its v1 address as foaf:page', async () => {
    const body = json(await get('/v1/id/objects?itemsPerPage=100'));
    const byNumber = new Map(v1.objects.listed.map((o) => [o.objectNumber, o]));
    for (const member of membersOf(body)) {
      const source = byNumber.get(numberOf(member))!;
      expect(member['@id']).toBe(v1Id('http://localhost:3000', 'object', source, source.objectNumber));
      expect(member['foaf:page']).toBe(`http://localhost:3000/v1/id/object/${source.objectNumber}`);
    }
    expect(membersOf(body).some((member) => !String(member['@id']).startsWith('https://stad.gent/'))).toBe(true);
  });

  it('links pages with pageNumber, itemsPerPage and the given parameters, previous and next one page apart', async () => {
    const body = json(await get('/v1/id/objects?pageNumber=3&itemsPerPage=7&onDisplay=true&colors=1'));
    const base = 'http://localhost:3000/v1/id/objects';
    const total = v1.objects.listed.filter((o) => o.onDisplay).length;
    expect(body['hydra:totalItems']).toBe(total);
    expect(view(body)).toEqual({
      '@id': `${base}?pageNumber=3&itemsPerPage=7&onDisplay=true&colors=true`,
      '@type': 'hydra:PartialCollectionView',
      'hydra:first': `${base}?pageNumber=1&itemsPerPage=7&onDisplay=true&colors=true`,
      'hydra:last': `${base}?pageNumber=${Math.ceil(total / 7)}&itemsPerPage=7&onDisplay=true&colors=true`,
      'hydra:previous': `${base}?pageNumber=2&itemsPerPage=7&onDisplay=true&colors=true`,
      'hydra:next': `${base}?pageNumber=4&itemsPerPage=7&onDisplay=true&colors=true`,
    });
  });

  it('serves 10 members by default and at most 100', async () => {
    expect(membersOf(json(await get('/v1/id/objects')))).toHaveLength(10);
    const capped = json(await get('/v1/id/objects?itemsPerPage=5000'));
    expect(membersOf(capped)).toHaveLength(100);
    expect(view(capped)['@id']).toContain('itemsPerPage=100');
  });

  it('answers a page past the last with no members, previous pointing back to the last page', async () => {
    const last = Math.ceil(v1.objects.listed.length / 50);
    const body = json(await get(`/v1/id/objects?itemsPerPage=50&pageNumber=${last + 3}`));
    expect(membersOf(body)).toEqual([]);
    expect(view(body)['hydra:next']).toBeNull();
    expect(view(body)['hydra:previous']).toContain(`pageNumber=${last}&`);
  });

  it.each([
    ['onDisplay=true', (o: SourceObject) => o.onDisplay],
    ['onDisplay=0', (o: SourceObject) => !o.onDisplay],
    ['hasImage=true', (o: SourceObject) => o.media.manifest !== undefined],
    ['hasImage=true&onDisplay=false', (o: SourceObject) => o.media.manifest !== undefined && !o.onDisplay],
    ['hasImage=false', () => true],
    ['license=ALL', () => true],
  ])('filters with %s as the source export says', async (query, keep) => {
    const { members } = await walk(v1.demo.app, `/v1/id/objects?itemsPerPage=100&${query}`);
    expect(members.map(numberOf)).toEqual(v1.objects.listed.filter(keep).map((o) => o.objectNumber).sort(byCodePoint));
  });

  it('writes ex:onDisplay from the object and, with colors=true only, its hex values and tone names as a /sparql SELECT finds them', async () => {
    const rows = await sparqlSelect(
      v1.demo.app,
      `PREFIX crm: <http://www.cidoc-crm.org/cidoc-crm/>
       PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>
       PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
       SELECT ?object ?hex ?name WHERE { GRAPH ?object { ?object crm:P65_shows_visual_item ?item . ?item crm:P56_bears_feature ?feature .
         FILTER(STRENDS(STR(?feature), "/colors/hex")) ?feature crm:P3_has_note ?note . ?note rdf:value ?hex ; rdfs:label ?name } }`,
    );
    const expected = new Map<string, Set<string>>();
    for (const row of rows) {
      const number = row.object!.split('/').pop()!;
      if (!expected.has(number)) expected.set(number, new Set());
      expected.get(number)!.add(`${row.hex}|${row.name}`);
    }
    const withColors = json(await get('/v1/id/objects?itemsPerPage=100&colors=true'));
    const without = json(await get('/v1/id/objects?itemsPerPage=100'));
    const onDisplay = new Map(v1.objects.listed.map((o) => [o.objectNumber, o.onDisplay]));
    let coloured = 0;
    for (const member of membersOf(withColors)) {
      const hex = member['ex:colors'] as string[];
      const names = member['ex:colorNames'] as string[];
      expect(hex).toHaveLength(names.length);
      expect(new Set(hex.map((h, i) => `${h}|${names[i]}`))).toEqual(expected.get(numberOf(member)) ?? new Set());
      expect(member['ex:onDisplay']).toBe(onDisplay.get(numberOf(member)));
      if (hex.length > 0) coloured++;
    }
    expect(coloured).toBeGreaterThan(10);
    for (const member of membersOf(without)) expect([member['ex:colors'], member['ex:colorNames']]).toEqual([[], []]);
  });

  it('serves full records with fullRecord=true, valid against schemas/v1/object.schema.json, single-language', async () => {
    const body = json(await get('/v1/id/objects?itemsPerPage=40&fullRecord=true&colors=true&pageNumber=2'));
    const byNumber = new Map(v1.objects.listed.map((o) => [o.objectNumber, o]));
    for (const member of membersOf(body)) {
      expectValid(schema('object'), member);
      const source = byNumber.get(numberOf(member))!;
      const title = source.titles.nl ?? source.titles.fr ?? source.titles.en;
      if (title !== undefined) expect((member['MensgemaaktObject.titel'] as { '@value': string })['@value']).toBe(title);
      expect(member['owl:sameAs']).toContain(`http://localhost:3000/v2/id/object/${source.objectNumber}`);
    }
  });

  it.each([
    ['pageNumber=0', 'pageNumber'],
    ['pageNumber=abc', 'pageNumber'],
    ['itemsPerPage=-1', 'itemsPerPage'],
    ['fullRecord=yes', 'fullRecord'],
    ['onDisplay=maybe', 'onDisplay'],
    ['hasImage=2', 'hasImage'],
    ['colors=on', 'colors'],
    ['license=CC0', 'license'],
  ])('answers 400 naming the parameter for %s', async (query, name) => {
    const res = await get(`/v1/id/objects?${query}`);
    expect(res.status).toBe(400);
    expect(json(res).error).toContain(name);
  });
});

describe('Deprecated v1 interface: /v1/id/agents, /v1/id/exhibitions, /v1/id/concepts', () => {
  it.each([
    ['agents', 'agent'],
    ['exhibitions', 'exhibition'],
    ['concepts', 'concept'],
  ] as const)('lists every public %s once in pid order, stubs valid, null links at both ends', async (collection, kind) => {
    const expected = publicRecords(v1.demo.data, collection).sort((a, b) => byCodePoint(a.pid, b.pid));
    const { members, pages } = await walk(v1.demo.app, `/v1/id/${collection}?itemsPerPage=100`);
    expect(members.map((member) => member['foaf:page'])).toEqual(expected.map((record) => `http://localhost:3000/v1/id/${kind}/${record.pid}`));
    expect(members.map((member) => member['@id'])).toEqual(expected.map((record) => v1Id('http://localhost:3000', kind, record, record.pid)));
    expect(view(pages[0]!)['hydra:previous']).toBeNull();
    expect(view(pages.at(-1)!)['hydra:next']).toBeNull();
    for (const member of members) expectValid(schema(kind), member);
    for (const page of pages) expectValid(schema('collection'), page);
  });

  it.each(['agents', 'exhibitions', 'concepts'] as const)('serves full %s with fullRecord=true, each with its @context', async (collection) => {
    const kind = collection.slice(0, -1);
    const body = json(await get(`/v1/id/${collection}?itemsPerPage=50&fullRecord=true`));
    expect(membersOf(body)).toHaveLength(Math.min(50, publicRecords(v1.demo.data, collection).length));
    for (const member of membersOf(body)) {
      expectValid(schema(kind), member);
      expect(member['@context']).toBeDefined();
      expect(member['prov:generatedAtTime']).toEqual(expect.any(String));
    }
  });

  it('writes a single page with both links null when everything fits', async () => {
    const body = json(await get('/v1/id/exhibitions?itemsPerPage=100'));
    expect(view(body)['hydra:previous']).toBeNull();
    expect(view(body)['hydra:next']).toBeNull();
    expect(view(body)['hydra:first']).toBe(view(body)['hydra:last']);
  });
});

describe('Deprecated v1 interface: fuzzed parameters', () => {
  const value = fc.oneof(
    fc.constantFrom('', '0', '1', '-1', 'true', 'false', 'TRUE', '100', '101', '1e3', '9007199254740993', 'ALL', 'null', '%', '%00', '../'),
    fc.string({ maxLength: 12 }),
    fc.integer({ min: -5, max: 100_000 }).map(String),
  );
  const params = fc.dictionary(fc.constantFrom('pageNumber', 'itemsPerPage', 'fullRecord', 'license', 'onDisplay', 'hasImage', 'colors', 'apiKey', 'easy'), value, { maxKeys: 5 });

  it('answers 200 or 4xx (never 5xx) to any mix of v1 collection parameters, with a JSON error body for a 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('objects', 'agents', 'exhibitions', 'concepts'), params, async (collection, query) => {
        const res = await get(`/v1/id/${collection}`).query(query);
        expect(res.status === 200 || (res.status >= 400 && res.status < 500)).toBe(true);
        expect(res.headers.deprecation).toBe('true');
        if (res.status !== 200) expect(json(res)).toEqual({ error: expect.any(String) });
      }),
      { numRuns: 150 },
    );
  });

  it('answers 200, 400, 410 or 422 (never 5xx) to any object identifier', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ minLength: 1, maxLength: 70 }), fc.constantFrom(...v1.objects.all.map((o) => o.objectNumber))), async (id) => {
        const res = await get(`/v1/id/object/${encodeURIComponent(id)}`);
        expect([200, 400, 404, 410, 422]).toContain(res.status);
      }),
      { numRuns: 150 },
    );
  });
});
