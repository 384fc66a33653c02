/**
 * The colour endpoints (/v2/id/colors, /v2/id/colors/dominant) and the colour filters of /v2/id/objects on the
 * real app over the real store (the 1,000-object demo generation, its images analysed during the harvest).
 *
 * Two independent checks. The expected counts, dominances and palettes are computed here from the colour
 * statements themselves, read with a SELECT through /sparql (the stored graph, not the collection index the
 * endpoints count with), restricted to the objects the collections list according to the demo's source
 * export. And every count of the index equals the `hydra:totalItems` of its own filter link, followed.
 */
import request from 'supertest';
import { hydraTotal, servicePath } from '../helpers/links.js';
import fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { type DemoApp, sourceObjects, startDemoApp, TEST_BASE_URL } from '../helpers/demo.js';

const BASES = ['red', 'orange', 'yellow', 'green', 'blue', 'purple', 'pink', 'brown', 'grey', 'black', 'white'];

type Json = Record<string, unknown>;

/** One analysed image as stored: its base notes and its clusters. */
interface StoredImage {
  item: string;
  bases: Map<string, number>;
  clusters: { hex: string; name: string; percent: number }[];
}

let demo: DemoApp;
/** Listed object IRI → its analysed images (only objects with at least one). */
const images = new Map<string, StoredImage[]>();
let listed: Set<string>;
let onDisplay: Set<string>;

const objectIri = (pid: string): string => `${TEST_BASE_URL}/v2/id/object/${pid}`;

beforeAll(async () => {
  demo = await startDemoApp({}, { sparql: true });
  const objects = sourceObjects(demo.data).filter((o) => o.public && o.healthy && o.state.kind === 'current');
  listed = new Set(objects.map((o) => objectIri(o.objectNumber)));
  onDisplay = new Set(objects.filter((o) => o.onDisplay).map((o) => objectIri(o.objectNumber)));
  const query = `PREFIX crm: <http://www.cidoc-crm.org/cidoc-crm/>
    PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>
    PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
    SELECT ?o ?item ?f ?v ?name ?p WHERE {
      ?o crm:P65_shows_visual_item ?item . ?item crm:P56_bears_feature ?f . ?f crm:P3_has_note ?n .
      ?n rdf:value ?v ; crm:P43_has_dimension ?d . ?d crm:P90_has_value ?p .
      OPTIONAL { ?n rdfs:label ?name }
    }`;
  const res = await request(demo.app).post('/sparql').type('form').send({ query }).set('Accept', 'application/sparql-results+json');
  expect(res.status).toBe(200);
  const rows = (JSON.parse(res.text) as { results: { bindings: Record<string, { value: string }>[] } }).results.bindings;
  expect(rows.length).toBeGreaterThan(1000);
  const byItem = new Map<string, StoredImage & { object: string }>();
  for (const row of rows) {
    const object = row.o!.value;
    if (!listed.has(object)) continue;
    const item = row.item!.value;
    let image = byItem.get(item);
    if (!image) byItem.set(item, (image = { object, item, bases: new Map(), clusters: [] }));
    const percent = Number(row.p!.value);
    if (row.f!.value.endsWith('/colors/base')) image.bases.set(row.v!.value, percent);
    else image.clusters.push({ hex: row.v!.value, name: row.name!.value, percent });
  }
  for (const image of byItem.values()) images.set(image.object, [...(images.get(image.object) ?? []), image]);
}, 300_000);

afterAll(async () => {
  await demo?.close();
});

async function getJson(path: string): Promise<{ status: number; body: Json }> {
  const res = await request(demo.app).get(path);
  return { status: res.status, body: (res.status === 200 ? JSON.parse(res.text) : res.body) as Json };
}

const local = servicePath;
const totalOf = (url: string): Promise<number> => hydraTotal(demo.app, url);

/** A colour's share of one image: the base note, or the sum of the clusters carrying the tone's name. */
function share(image: StoredImage, color: { base: string } | { tone: string }): number {
  if ('base' in color) return image.bases.get(color.base) ?? 0;
  return image.clusters.filter((c) => c.name.toLowerCase() === color.tone).reduce((sum, c) => sum + c.percent, 0);
}

/** Object IRI → the largest share of the colour over its images, for the objects that show it, within `objects`. */
function dominance(color: { base: string } | { tone: string }, objects: Set<string> = listed): Map<string, number> {
  const out = new Map<string, number>();
  for (const [object, list] of images) {
    if (!objects.has(object)) continue;
    const best = Math.max(...list.map((image) => share(image, color)));
    if (best > 0) out.set(object, Math.round(best * 100) / 100);
  }
  return out;
}

const toneNames = (objects: Set<string> = listed): Set<string> => {
  const names = new Set<string>();
  for (const [object, list] of images) if (objects.has(object)) for (const image of list) for (const c of image.clusters) names.add(c.name.toLowerCase());
  return names;
};

interface ColorEntry {
  value: string;
  hex: string | null;
  swatches?: { label: string; hex: string; object_count: number; weight: number }[];
  object_count: number;
  collection_share_pct: number;
  avg_dominance_pct: number;
  filter: string;
  dominant: string;
}

describe('/v2/id/colors', () => {
  let index: Json;
  beforeAll(async () => {
    const res = await getJson('/v2/id/colors');
    expect(res.status).toBe(200);
    index = res.body;
  });

  it('is a hydra:Collection listing base colours and named tones, heaviest first, with the fields of the spec', () => {
    expect(index['@id']).toBe(`${TEST_BASE_URL}/v2/id/colors`);
    expect(index['@type']).toBe('hydra:Collection');
    for (const key of ['base_colors', 'css_colors'] as const) {
      const list = index[key] as ColorEntry[];
      expect(list.length).toBeGreaterThan(0);
      const shares = list.map((e) => e.collection_share_pct);
      expect([...shares].sort((a, b) => b - a)).toEqual(shares);
      expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(100, 0);
      for (const e of list) {
        expect(e.hex).toMatch(/^#[0-9a-f]{6}$/);
        expect(e.avg_dominance_pct).toBeGreaterThan(0);
        expect(e.avg_dominance_pct).toBeLessThanOrEqual(100);
      }
    }
    const bases = index.base_colors as ColorEntry[];
    expect(bases.every((b) => BASES.includes(b.value))).toBe(true);
    for (const b of bases) {
      const weights = b.swatches!.map((s) => s.weight);
      expect([...weights].sort((x, y) => y - x)).toEqual(weights);
      expect(b.hex).toBe(b.swatches![0]!.hex);
    }
  });

  it('counts, for every base colour and every tone, the listed objects whose stored colour notes name it', () => {
    const bases = new Map((index.base_colors as ColorEntry[]).map((e) => [e.value, e.object_count]));
    const expectedBases = new Map(BASES.map((b) => [b, dominance({ base: b }).size]).filter(([, n]) => (n as number) > 0) as [string, number][]);
    expect(bases).toEqual(expectedBases);
    const tones = new Map((index.css_colors as ColorEntry[]).map((e) => [e.value.toLowerCase(), e.object_count]));
    expect(new Set(tones.keys())).toEqual(toneNames());
    for (const [tone, count] of tones) expect([tone, count]).toEqual([tone, dominance({ tone }).size]);
  });

  it('avg_dominance_pct is the mean of the objects’ dominance of the colour', () => {
    for (const e of index.base_colors as ColorEntry[]) {
      const values = [...dominance({ base: e.value }).values()];
      expect(e.avg_dominance_pct).toBeCloseTo(values.reduce((a, b) => a + b, 0) / values.length, 1);
    }
  });

  it('agrees with the filters: every object_count equals hydra:totalItems of its filter link, and dominant links name the colour', async () => {
    for (const e of [...(index.base_colors as ColorEntry[]), ...(index.css_colors as ColorEntry[])]) {
      expect([e.value, await totalOf(e.filter)]).toEqual([e.value, e.object_count]);
      const param = (index.base_colors as ColorEntry[]).includes(e) ? 'color' : 'cssColor';
      expect([...new URL(e.dominant).searchParams]).toEqual([[param, e.value]]);
    }
  }, 120_000);

  it('onDisplay=true counts the objects on display only, and its filter links carry onDisplay', async () => {
    const res = await getJson('/v2/id/colors?onDisplay=true');
    expect(res.status).toBe(200);
    for (const e of res.body.base_colors as ColorEntry[]) {
      expect([e.value, e.object_count]).toEqual([e.value, dominance({ base: e.value }, onDisplay).size]);
      expect(new URL(e.filter).searchParams.get('onDisplay')).toBe('true');
      expect([e.value, await totalOf(e.filter)]).toEqual([e.value, e.object_count]);
    }
    expect(new Set((res.body.css_colors as ColorEntry[]).map((e) => e.value.toLowerCase()))).toEqual(toneNames(onDisplay));
  }, 60_000);

  it('minCount drops the colours and swatches on fewer objects', async () => {
    const all = index.css_colors as ColorEntry[];
    const res = await getJson('/v2/id/colors?minCount=5');
    expect((res.body.css_colors as ColorEntry[]).map((e) => e.value)).toEqual(all.filter((e) => e.object_count >= 5).map((e) => e.value));
    for (const b of res.body.base_colors as ColorEntry[]) {
      expect(b.swatches!.every((s) => s.object_count >= 5)).toBe(true);
      if (b.swatches!.length > 0) expect(b.hex).toBe(b.swatches![0]!.hex);
    }
    expect((await getJson('/v2/id/colors?minCount=-1')).status).toBe(400);
    expect((await getJson('/v2/id/colors?minCount=abc')).status).toBe(400);
  });
});

describe('Colour filters of /v2/id/objects', () => {
  it('hasColors=true selects the listed objects with an analysed image, false the others', async () => {
    const withColors = [...images.keys()].length;
    expect(withColors).toBeGreaterThan(0);
    expect(await totalOf(`${TEST_BASE_URL}/v2/id/objects?hasColors=true`)).toBe(withColors);
    expect(await totalOf(`${TEST_BASE_URL}/v2/id/objects?hasColors=false`)).toBe(listed.size - withColors);
  });

  it('color with a comma asks for objects showing every base colour (AND)', async () => {
    const red = dominance({ base: 'red' });
    const green = dominance({ base: 'green' });
    const both = [...red.keys()].filter((o) => green.has(o)).length;
    expect(both).toBeGreaterThan(0);
    expect(await totalOf(`${TEST_BASE_URL}/v2/id/objects?color=red,green`)).toBe(both);
  });

  it('answers 400 naming the eleven base colours for an unknown one, and for colors=true without fullRecord=true', async () => {
    const res = await getJson('/v2/id/objects?color=mauve');
    expect(res.status).toBe(400);
    for (const b of BASES) expect(res.body.error).toContain(b);
    expect((await getJson('/v2/id/objects?colors=true')).status).toBe(400);
  });

  it('colors=true on full records adds crm:P65_shows_visual_item, which validates against the object schema', async () => {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats.default(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync(new URL('../../schemas/object.schema.json', import.meta.url), 'utf8')) as object);
    const page = (await getJson('/v2/id/objects?hasColors=true&fullRecord=true&colors=true&itemsPerPage=50')).body;
    const members = page['hydra:member'] as Json[];
    expect(members.length).toBe(50);
    for (const m of members) {
      const items = m['crm:P65_shows_visual_item'] as Json[];
      expect(items.map((i) => i['@id'])).toEqual(images.get(m['@id'] as string)!.map((i) => i.item).sort((a, b) => a.localeCompare(b, 'en', { numeric: true })));
      const single = (await getJson(`${local(m['@id'] as string)}?colors=true`)).body;
      expect(single['crm:P65_shows_visual_item']).toEqual(items);
      if (!validate(single)) throw new Error(`${String(m['@id'])}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
    }
    const plain = (await getJson('/v2/id/objects?hasColors=true&fullRecord=true&itemsPerPage=5')).body['hydra:member'] as Json[];
    for (const m of plain) expect(m['crm:P65_shows_visual_item']).toBeUndefined();
  }, 60_000);
});

describe('/v2/id/colors/dominant', () => {
  interface Member {
    '@id': string;
    '@type': string;
    'rdfs:label': string;
    dominance_pct: number;
    palette: { hex: string; css: string; base: string; percentage: number }[];
    image?: Json;
    'crm:P138i_has_representation'?: Json[];
    'crm:P129i_is_subject_of'?: Json;
  }

  /** Checks a dominant page against the stored notes: total, order, dominance, palette from the image showing the colour most. */
  async function check(path: string, color: { base: string } | { tone: string }, limit: number): Promise<Member[]> {
    const res = await getJson(path);
    expect(res.status).toBe(200);
    const expected = dominance(color);
    expect(res.body['hydra:totalItems']).toBe(expected.size);
    const members = res.body['hydra:member'] as Member[];
    expect(members.length).toBe(Math.min(limit, expected.size));
    const ranked = [...expected.values()].sort((a, b) => b - a).slice(0, limit);
    expect(members.map((m) => m.dominance_pct)).toEqual(ranked);
    for (const m of members) {
      expect(m['@type']).toBe('crm:E22_Human-Made_Object');
      expect(m.dominance_pct).toBe(expected.get(m['@id']));
      const list = images.get(m['@id'])!;
      const best = Math.max(...list.map((image) => share(image, color)));
      const candidates = list.filter((image) => share(image, color) === best);
      const palettes = candidates.map((image) =>
        [...image.clusters].sort((a, b) => b.percent - a.percent || (a.hex < b.hex ? -1 : 1)).map((c) => ({ hex: c.hex, css: c.name, percentage: Math.round(c.percent * 100) / 10000 })),
      );
      expect(palettes).toContainEqual(m.palette.map(({ hex, css, percentage }) => ({ hex, css, percentage })));
      for (const p of m.palette) expect(BASES).toContain(p.base);
      // The image fields are the object's own record's.
      const record = (await getJson(local(m['@id']))).body;
      expect(m['rdfs:label']).toBe(record['rdfs:label']);
      for (const key of ['image', 'crm:P138i_has_representation', 'crm:P129i_is_subject_of'] as const) expect([key, m[key]]).toEqual([key, record[key]]);
    }
    return members;
  }

  it('ranks by dominance the objects showing a base colour, 20 by default, with the palette and image fields', async () => {
    for (const base of ['brown', 'red', 'blue']) await check(`/v2/id/colors/dominant?color=${base}`, { base }, 20);
  }, 60_000);

  it('ranks the objects showing a named tone (cssColor, any case), with the limit asked for', async () => {
    const tones = ((await getJson('/v2/id/colors')).body.css_colors as ColorEntry[]).slice(0, 3);
    for (const tone of tones) {
      const members = await check(`/v2/id/colors/dominant?cssColor=${encodeURIComponent(tone.value.toUpperCase())}&limit=7`, { tone: tone.value.toLowerCase() }, 7);
      expect(members.length).toBeLessThanOrEqual(7);
    }
  }, 60_000);

  it('serves at most 100 and says so in its @id; an unknown tone is an empty collection', async () => {
    const res = await getJson('/v2/id/colors/dominant?color=brown&limit=500');
    expect(res.body['@id']).toBe(`${TEST_BASE_URL}/v2/id/colors/dominant?color=brown&limit=100`);
    expect((res.body['hydra:member'] as Member[]).length).toBe(Math.min(100, dominance({ base: 'brown' }).size));
    const none = await getJson('/v2/id/colors/dominant?cssColor=No%20Such%20Tone');
    expect([none.status, none.body['hydra:totalItems'], none.body['hydra:member']]).toEqual([200, 0, []]);
  });

  it('answers 400 with a clear message for neither or both parameters, an unknown base colour and a bad limit', async () => {
    for (const path of ['/v2/id/colors/dominant', '/v2/id/colors/dominant?color=red&cssColor=Carpaccio']) {
      const res = await getJson(path);
      expect([path, res.status]).toEqual([path, 400]);
      expect(res.body.error).toMatch(/exactly one of color .* and cssColor/);
    }
    const unknown = await getJson('/v2/id/colors/dominant?color=mauve');
    expect(unknown.status).toBe(400);
    for (const b of BASES) expect(unknown.body.error).toContain(b);
    for (const limit of ['0', '-3', 'ten', '2.5']) expect((await getJson(`/v2/id/colors/dominant?color=red&limit=${limit}`)).status).toBe(400);
  });

  it('carries an ETag, Last-Modified and answers 304 to a matching If-None-Match', async () => {
    const first = await request(demo.app).get('/v2/id/colors/dominant?color=red');
    expect(first.headers.etag).toBeDefined();
    expect(first.headers['last-modified']).toBeDefined();
    const again = await request(demo.app).get('/v2/id/colors/dominant?color=red&limit=20').set('If-None-Match', first.headers.etag as string);
    expect(again.status).toBe(304);
  });

  it('fuzzed parameters give 200 or 400 {error}, never a server error', async () => {
    await fc.assert(
      fc.asyncProperty(fc.record({ color: fc.option(fc.string()), cssColor: fc.option(fc.string()), limit: fc.option(fc.string()) }, { requiredKeys: [] }), async (params) => {
        const query = Object.fromEntries(Object.entries(params).filter(([, v]) => v !== null)) as Record<string, string>;
        const res = await request(demo.app).get('/v2/id/colors/dominant').query(query);
        expect([200, 400]).toContain(res.status);
        if (res.status === 400) expect(typeof (res.body as Json).error).toBe('string');
      }),
      { numRuns: 100 },
    );
  }, 60_000);
});
