import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import type { ObjectRecord } from '../../src/harvest/schema.js';
import { minimalObjectRecord } from '../helpers/object-record.js';
import type { ImageSpec } from '../../src/iiif/image-list.js';
import { buildManifest, canonicalRights, type Manifest, type ManifestInput } from '../../src/iiif/manifest.js';
import { loadManifests } from '../../src/iiif/manifest-catalogue.js';

const BASE = 'https://data.museum.test';
const CC_BY = 'https://creativecommons.org/licenses/by/4.0/';
const CC0 = 'https://creativecommons.org/publicdomain/zero/1.0/';

const spec = (id: string, width: number, height: number, status: ImageSpec['status'] = 'ok'): ImageSpec => ({
  id,
  status,
  width,
  height,
  shape: 'vase',
  colors: ['#112233'],
  background: '#ffffff',
  transparent: false,
});
const IMAGES = new Map(
  [spec('a', 1000, 750), spec('b', 1234, 777), spec('small', 300, 200), spec('locked', 800, 600, 'restricted'), spec('gone', 800, 600, 'missing')].map(
    (s) => [s.id, s],
  ),
);
const image = (id: string, rights = CC_BY, attribution = 'Photo: A. Fotograaf') => ({ iiifBase: `${BASE}/iiif/3/${id}`, attribution, rights });
const object = (images: ManifestInput['images'], extra: Partial<ManifestInput> = {}): ManifestInput => ({
  objectNumber: '1987-1105',
  titles: { nl: 'Vaas', en: 'Vase' },
  descriptions: {},
  images,
  ...extra,
});
const build = (input: ManifestInput): Manifest => {
  const manifest = buildManifest(input, IMAGES, BASE);
  if (!manifest) throw new Error('expected a manifest');
  return manifest;
};

const schema: object = JSON.parse(readFileSync(new URL('../../schemas/iiif/presentation-3.schema.json', import.meta.url), 'utf8'));
const ajv = new Ajv2020({ allErrors: true });
// ajv-formats is CommonJS: its default import is module.exports, which carries the plugin as .default.
ajvFormats.default(ajv);
const validate = ajv.compile(schema);

describe('buildManifest', () => {
  it('names the manifest by its URL and labels it with the titles per language', () => {
    const manifest = build(object([image('a')]));
    expect(manifest['@context']).toBe('http://iiif.io/api/presentation/3/context.json');
    expect(manifest.id).toBe(`${BASE}/iiif/manifest/1987-1105`);
    expect(manifest.type).toBe('Manifest');
    expect(manifest.label).toEqual({ nl: ['Vaas'], en: ['Vase'] });
    expect(manifest.summary).toBeUndefined();
  });

  it('falls back to the object number as label and adds descriptions as summary', () => {
    const manifest = build(object([image('a')], { titles: {}, descriptions: { fr: 'Un vase.' } }));
    expect(manifest.label).toEqual({ none: ['1987-1105'] });
    expect(manifest.summary).toEqual({ fr: ['Un vase.'] });
  });

  it('gives one canvas per served image in record order, leaving out restricted, missing and unlisted images', () => {
    const manifest = build(object([image('locked'), image('b'), image('gone'), image('unlisted'), image('a')]));
    expect(manifest.items.map((c) => [c.id, c.width, c.height])).toEqual([
      [`${BASE}/iiif/manifest/1987-1105/canvas/1`, 1234, 777],
      [`${BASE}/iiif/manifest/1987-1105/canvas/2`, 1000, 750],
    ]);
  });

  it('builds no manifest when no image is served', () => {
    expect(buildManifest(object([image('locked'), image('gone')]), IMAGES, BASE)).toBeUndefined();
    expect(buildManifest(object([]), IMAGES, BASE)).toBeUndefined();
  });

  it('paints each canvas with the full image and its Image API 3 service, targeting the canvas', () => {
    const [canvas] = build(object([image('a')])).items;
    const annotation = canvas?.items[0]?.items[0];
    expect(annotation).toEqual({
      id: `${BASE}/iiif/manifest/1987-1105/canvas/1/page/painting`,
      type: 'Annotation',
      motivation: 'painting',
      body: {
        id: `${BASE}/iiif/3/a/full/max/0/default.jpg`,
        type: 'Image',
        format: 'image/jpeg',
        width: 1000,
        height: 750,
        service: [{ id: `${BASE}/iiif/3/a`, type: 'ImageService3', profile: 'level2' }],
      },
      target: canvas?.id,
    });
  });

  it('uses the 400-pixel derivative of the first image as thumbnail, with the height the server computes', () => {
    // 400 / (1234 / 777) = 251.86..., rounded down as iiif-processor does.
    const manifest = build(object([image('b'), image('a')]));
    expect(manifest.thumbnail.map(({ id, width, height }) => [id, width, height])).toEqual([[`${BASE}/iiif/3/b/full/400,/0/default.jpg`, 400, 251]]);
    // An image narrower than 400 px would need upscaling, so it is its own thumbnail.
    const small = build(object([image('small')]));
    expect(small.thumbnail.map(({ id, width, height }) => [id, width, height])).toEqual([[`${BASE}/iiif/3/small/full/max/0/default.jpg`, 300, 200]]);
  });

  it('states the distinct attributions and, when all images share one, the rights', () => {
    const shared = build(object([image('a', CC_BY, 'Photo: X'), image('b', CC_BY, 'Photo: Y'), image('small', CC_BY, 'Photo: X')]));
    expect(shared.requiredStatement.value).toEqual({ none: ['Photo: X', 'Photo: Y'] });
    expect(shared.rights).toBe('http://creativecommons.org/licenses/by/4.0/');
    const mixed = build(object([image('a', CC_BY), image('b', CC0)]));
    expect(mixed.rights).toBeUndefined();
    expect(mixed.items.map((c) => c.rights)).toEqual(['http://creativecommons.org/licenses/by/4.0/', 'http://creativecommons.org/publicdomain/zero/1.0/']);
  });
});

describe('canonicalRights', () => {
  it.each([
    ['https://creativecommons.org/licenses/by-sa/4.0/', 'http://creativecommons.org/licenses/by-sa/4.0/'],
    ['http://creativecommons.org/publicdomain/zero/1.0', 'http://creativecommons.org/publicdomain/zero/1.0/'],
    ['https://creativecommons.org/publicdomain/mark/1.0/', 'http://creativecommons.org/publicdomain/mark/1.0/'],
    ['https://rightsstatements.org/vocab/InC/1.0/', 'http://rightsstatements.org/vocab/InC/1.0/'],
    ['http://rightsstatements.org/vocab/CNE/1.0', 'http://rightsstatements.org/vocab/CNE/1.0/'],
  ])('writes %s in the canonical form %s', (uri, canonical) => {
    expect(canonicalRights(uri)).toBe(canonical);
  });

  it.each(['https://www.museum.test/rights', 'https://creativecommons.org/licenses/by/4.0/legalcode', 'https://rightsstatements.org/page/InC/1.0/'])(
    'keeps %s out of rights',
    (uri) => {
      expect(canonicalRights(uri)).toBeUndefined();
    },
  );
});

describe('the Presentation 3 schema', () => {
  const manifests = [
    build(object([image('a')])),
    build(object([image('b'), image('small', 'https://www.museum.test/rights'), image('a', CC0)], { titles: {}, descriptions: { nl: 'Beschrijving' } })),
  ];

  it('accepts every manifest the builder makes', () => {
    for (const manifest of manifests) {
      validate(manifest);
      expect(validate.errors ?? []).toEqual([]);
    }
  });

  type Json = Record<string, unknown> & { items: Json[] };
  const breakages: [string, (m: Json) => void][] = [
    ['a manifest without label', (m) => delete m.label],
    ['a manifest without @context', (m) => delete m['@context']],
    ['a manifest without canvases', (m) => (m.items = [])],
    ['a label that is a plain string', (m) => (m.label = 'Vaas')],
    ['a language map with a non-array value', (m) => (m.label = { nl: 'Vaas' })],
    ['a rights URI that is not CC or RightsStatements.org', (m) => (m.rights = 'https://www.museum.test/rights')],
    ['a requiredStatement without value', (m) => (m.requiredStatement = { label: { en: ['Attribution'] } })],
    ['a canvas with a width but no height', (m) => delete m.items[0]?.height],
    ['a canvas id with a fragment', (m) => ((m.items[0] as Json).id = `${String(m.id)}/canvas/1#xywh=0,0,1,1`)],
    ['a canvas of the wrong type', (m) => ((m.items[0] as Json).type = 'Sequence')],
    ['an annotation without target', (m) => delete m.items[0]?.items[0]?.items[0]?.target],
    ['a painting annotation with another motivation', (m) => ((m.items[0]?.items[0]?.items[0] as Json).motivation = 'commenting')],
    ['an image body without id', (m) => delete (m.items[0]?.items[0]?.items[0]?.body as Json).id],
    ['an image body with a non-image format', (m) => ((m.items[0]?.items[0]?.items[0]?.body as Json).format = 'text/html')],
    ['an ImageService3 without profile', (m) => delete ((m.items[0]?.items[0]?.items[0]?.body as Json).service as Json[])[0]?.profile],
    ['an id that is not an HTTP(S) URI', (m) => (m.id = 'urn:x:manifest')],
  ];

  it.each(breakages)('rejects %s', (_what, breakIt) => {
    const broken = structuredClone(manifests[0]) as unknown as Json;
    breakIt(broken);
    expect(validate(broken)).toBe(false);
  });
});

describe('loadManifests', () => {
  const record = (objectNumber: string, extra: Partial<ObjectRecord> = {}): ObjectRecord =>
    minimalObjectRecord(objectNumber, {
      media: { manifest: `${BASE}/iiif/manifest/${objectNumber}`, videos: [], audios: [] },
      images: [image('a')],
      onDisplay: true,
      ...extra,
    });

  it('builds manifests for public, healthy, current objects with a served image only', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'iiif-manifests-'));
    try {
      const records = [
        record('2001-0001'),
        record('2001-0002', { public: false }),
        record('2001-0003', { healthy: false }),
        record('2001-0004', { state: { kind: 'merged', into: '2001-0001' } }),
        record('2001-0005', { images: [image('locked')] }),
        record('2001-0006+1', { images: [image('b'), image('a')] }),
      ];
      await writeFile(join(dir, 'objects.jsonl'), records.map((r) => JSON.stringify(r)).join('\n') + '\n');
      const manifests = await loadManifests(dir, IMAGES, BASE);
      expect([...manifests.keys()]).toEqual(['2001-0001', '2001-0006+1']);
      const second = JSON.parse(manifests.get('2001-0006+1') as string) as Manifest;
      expect(second.id).toBe(`${BASE}/iiif/manifest/2001-0006+1`);
      expect(second.items).toHaveLength(2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
