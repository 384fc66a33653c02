import { mkdir, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { pino } from 'pino';
import request from 'supertest';
import sharp from 'sharp';
import fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import type { ObjectRecord } from '../../src/harvest/schema.js';
import { minimalObjectRecord } from '../helpers/object-record.js';
import { renderImages } from '../../src/iiif/render.js';
import { createIiifRouter } from '../../src/iiif/router.js';
import { errorHandler } from '../../src/endpoints/error-handler.js';
import { renderedImagePath } from '../../src/iiif/rendered-files.js';
import type { ImageSpec } from '../../src/iiif/image-list.js';

const BASE = 'http://museum.test';
const CC_BY = 'https://creativecommons.org/licenses/by/4.0/';

const IMAGES: ImageSpec[] = [
  { id: 'img-vase', status: 'ok', width: 800, height: 600, shape: 'vase', colors: ['#c0392b', '#2c3e50'], background: '#f4f1ea', transparent: false },
  { id: 'img-chair', status: 'ok', width: 600, height: 900, shape: 'chair', colors: ['#27ae60'], background: '#ffffff', transparent: true },
  { id: 'img-secret', status: 'restricted', width: 640, height: 480, shape: 'poster', colors: ['#8e44ad'], background: '#eeeeee', transparent: false },
  { id: 'img-gone', status: 'missing', width: 640, height: 480, shape: 'lamp', colors: ['#f1c40f'], background: '#eeeeee', transparent: false },
  { id: 'img-unrendered', status: 'ok', width: 500, height: 500, shape: 'tile', colors: ['#34495e'], background: '#fafafa', transparent: false },
];

function objectRecord(objectNumber: string, imageIds: string[], extra: Partial<ObjectRecord> = {}): ObjectRecord {
  return minimalObjectRecord(objectNumber, {
    titles: { nl: `Titel ${objectNumber}`, en: `Title ${objectNumber}` },
    media: { manifest: `${BASE}/iiif/manifest/${objectNumber}`, videos: [], audios: [] },
    images: imageIds.map((id) => ({ iiifBase: `${BASE}/iiif/3/${id}`, attribution: 'Photo: Studio Test', rights: CC_BY })),
    ...extra,
  });
}

const OBJECTS = [
  objectRecord('2020-0001', ['img-vase', 'img-secret', 'img-gone', 'img-chair']),
  objectRecord('2020-0002', ['img-gone', 'img-secret']),
  objectRecord('2020-0003', ['img-vase'], { public: false }),
];

const schema: object = JSON.parse(readFileSync(new URL('../../schemas/iiif/presentation-3.schema.json', import.meta.url), 'utf8'));
const ajv = new Ajv2020({ allErrors: true });
// ajv-formats is CommonJS: its default import is module.exports, which carries the plugin as .default.
ajvFormats.default(ajv);
const validateManifest = ajv.compile(schema);

let dir: string;
let app: express.Express;

/** The router as the app mounts it, with the app's error handler turning thrown HttpErrors into responses. */
function serve(router: express.Router): express.Express {
  const server = express();
  server.use('/iiif', router);
  server.use(errorHandler(pino({ level: 'silent' })));
  return server;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'iiif-endpoint-'));
  const sourceDir = join(dir, 'source');
  const imageDir = join(dir, 'images');
  await mkdir(sourceDir);
  await writeFile(join(sourceDir, 'images.jsonl'), IMAGES.map((i) => JSON.stringify(i)).join('\n') + '\n');
  await writeFile(join(sourceDir, 'objects.jsonl'), OBJECTS.map((o) => JSON.stringify(o)).join('\n') + '\n');
  await renderImages(join(sourceDir, 'images.jsonl'), imageDir);
  await unlink(renderedImagePath(imageDir, 'img-unrendered'));
  app = serve(createIiifRouter({ imageDir, sourceDir, baseUrl: BASE }));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('IIIF Image API 3.0: image information', () => {
  it('describes an image with its listed size, its service id, the protocol and the level2 profile', async () => {
    const res = await request(app).get('/iiif/3/img-vase/info.json').expect(200);
    const info = JSON.parse(res.text);
    expect(info['@context']).toBe('http://iiif.io/api/image/3/context.json');
    expect(info.id).toBe(`${BASE}/iiif/3/img-vase`);
    expect(info.type).toBe('ImageService3');
    expect(info.protocol).toBe('http://iiif.io/api/image');
    expect(info.profile).toBe('level2');
    expect([info.width, info.height]).toEqual([800, 600]);
  });

  it('answers plain JSON by default and JSON-LD with the image context profile when asked', async () => {
    const plain = await request(app).get('/iiif/3/img-vase/info.json').expect(200);
    expect(plain.headers['content-type']).toMatch(/^application\/json/);
    const ld = await request(app).get('/iiif/3/img-vase/info.json').set('Accept', 'application/ld+json').expect(200);
    expect(ld.headers['content-type']).toMatch(/^application\/ld\+json;\s*profile="http:\/\/iiif\.io\/api\/image\/3\/context\.json"/);
    expect(ld.headers.vary).toMatch(/Accept/);
  });

  it('redirects the image base URI to its info.json with 303', async () => {
    const res = await request(app).get('/iiif/3/img-vase').expect(303);
    expect(res.headers.location).toBe(`${BASE}/iiif/3/img-vase/info.json`);
  });

  it('puts the path of a base URL with a path into the ids', async () => {
    const sub = serve(createIiifRouter({ imageDir: join(dir, 'images'), sourceDir: join(dir, 'source'), baseUrl: 'http://museum.test/data/' }));
    const res = await request(sub).get('/iiif/3/img-vase/info.json').expect(200);
    expect(JSON.parse(res.text).id).toBe('http://museum.test/data/iiif/3/img-vase');
  });
});

describe('IIIF Image API 3.0: image requests', () => {
  it('returns a real 400-pixel-wide JPEG for full/400,/0/default.jpg', async () => {
    const res = await request(app).get('/iiif/3/img-vase/full/400,/0/default.jpg').expect(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(res.body as Buffer).metadata();
    // 800 x 600 scaled to width 400 keeps the 4:3 ratio.
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 400, 300]);
  });

  it('links the canonical form of the request and the compliance profile', async () => {
    const res = await request(app).get('/iiif/3/img-vase/full/400,/0/default.jpg').expect(200);
    expect(res.headers.link).toContain(`<${BASE}/iiif/3/img-vase/full/400,300/0/default.jpg>;rel="canonical"`);
    expect(res.headers.link).toContain('<http://iiif.io/api/image/3/level2.json>;rel="profile"');
  });

  it('cuts a pixel region and scales it', async () => {
    const res = await request(app).get('/iiif/3/img-vase/100,50,200,100/pct:50/0/default.png').expect(200);
    const meta = await sharp(res.body as Buffer).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 100, 50]);
    expect(res.headers.link).toContain(`<${BASE}/iiif/3/img-vase/100,50,200,100/100,50/0/default.png>;rel="canonical"`);
  });

  it('keeps a transparent image transparent in PNG output', async () => {
    const res = await request(app).get('/iiif/3/img-chair/full/max/0/default.png').expect(200);
    const { data, info } = await sharp(res.body as Buffer).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([600, 900, 4]);
    const alphaAt = (x: number, y: number): number | undefined => data[(y * info.width + x) * 4 + 3];
    expect(alphaAt(0, 0)).toBe(0);
    expect(alphaAt(599, 899)).toBe(0);
    // The chair's back: the object box is 480 x 666.7 px at (60, 116.7); unit point (18, 20) of its 100-unit box.
    const x = Math.round(60 + 18 * 4.8);
    const y = Math.round(116.7 + 20 * 6.667);
    const i = (y * info.width + x) * 4;
    expect([...data.subarray(i, i + 4)]).toEqual([0x27, 0xae, 0x60, 255]);
  });

  it.each([
    ['an unknown region keyword', 'everything/max/0/default.jpg'],
    ['an empty region', '0,0,0,0/max/0/default.jpg'],
    ['a region that starts at the right edge', '800,0,10,10/max/0/default.jpg'],
    ['a region outside the image', '9000,0,10,10/max/0/default.jpg'],
    ['a zero width', 'full/0,/0/default.jpg'],
    ['a percentage that rounds to no pixel', 'full/pct:0.01/0/default.jpg'],
    ['upscaling without ^', 'full/1600,/0/default.jpg'],
    ['the 2.x size keyword full', 'full/full/0/default.jpg'],
    ['a rotation over 360', 'full/max/361/default.jpg'],
    ['a negative rotation', 'full/max/-5/default.jpg'],
    ['an unknown quality', 'full/max/0/sepia.jpg'],
    ['an unknown format', 'full/max/0/default.bmp'],
    ['a missing format', 'full/max/0/default'],
    ['too few parameters', 'full/max/default.jpg'],
  ])('rejects %s with 400 and a JSON error', async (_what, path) => {
    const res = await request(app).get(`/iiif/3/img-vase/${path}`).expect(400);
    expect(typeof res.body.error).toBe('string');
  });
});

describe('IIIF Image API 3.0: robustness', () => {
  const int = (max: number) => fc.integer({ min: 0, max });
  const junk = { arbitrary: fc.string({ minLength: 1, maxLength: 6 }).map((s) => encodeURIComponent(s)), weight: 1 };
  const region = fc.oneof(
    { arbitrary: fc.constantFrom('full', 'square'), weight: 3 },
    { arbitrary: fc.tuple(int(850), int(650), int(850), int(650)).map((n) => n.join(',')), weight: 4 },
    { arbitrary: fc.tuple(int(110), int(110), int(110), int(110)).map((n) => `pct:${n.join(',')}`), weight: 2 },
    junk,
  );
  const size = fc.oneof(
    { arbitrary: fc.constantFrom('max', '^max', 'full'), weight: 3 },
    {
      arbitrary: fc
        .tuple(fc.constantFrom('', '', '^', '!', '^!'), int(700), int(500), fc.constantFrom('w,', ',h', 'w,h'))
        .map(([pre, w, h, form]) => pre + form.replace('w', String(w)).replace('h', String(h))),
      weight: 5,
    },
    {
      arbitrary: fc.tuple(fc.constantFrom('pct:', '^pct:'), fc.double({ min: 0, max: 150, noNaN: true })).map(([pre, n]) => `${pre}${n.toFixed(2)}`),
      weight: 2,
    },
    junk,
  );
  const rotation = fc.oneof(
    { arbitrary: fc.constantFrom('0', '90', '!180', '360'), weight: 4 },
    { arbitrary: fc.double({ min: 0, max: 400, noNaN: true }).map((d) => d.toFixed(1)), weight: 2 },
    junk,
  );
  const quality = fc.oneof({ arbitrary: fc.constantFrom('default', 'color', 'gray', 'bitonal'), weight: 6 }, junk);
  const format = fc.oneof({ arbitrary: fc.constantFrom('jpg', 'png', 'webp', 'gif', 'tif'), weight: 6 }, junk);

  it('answers any combination of parameters with 200 or 400, never a server error', async () => {
    await fc.assert(
      fc.asyncProperty(region, size, rotation, quality, format, async (r, s, rot, q, f) => {
        const res = await request(app).get(`/iiif/3/img-vase/${r}/${s}/${rot}/${q}.${f}`);
        expect([200, 400]).toContain(res.status);
      }),
      { numRuns: 150, seed: 42 },
    );
  });
});

describe('IIIF Image API 3.0: access', () => {
  const paths = (id: string): string[] => [`/iiif/3/${id}/full/max/0/default.jpg`, `/iiif/3/${id}/info.json`, `/iiif/3/${id}`];

  it('answers HEAD for a served image with 200, or 303 for the base URI, and sends no body', async () => {
    const [image, info, base] = paths('img-vase') as [string, string, string];
    const res = await request(app).head(image).expect(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.text ?? '').toBe('');
    await request(app).head(info).expect(200);
    await request(app).head(base).expect(303);
  });

  it('answers 403 with a JSON error for a restricted image, on GET and HEAD', async () => {
    for (const path of paths('img-secret')) {
      await request(app).head(path).expect(403);
      const res = await request(app).get(path).expect(403);
      expect(res.body).toEqual({ error: expect.any(String) });
    }
  });

  it('answers 404 for a missing image, an unlisted id and an image whose file was never rendered', async () => {
    for (const id of ['img-gone', 'no-such-image']) {
      for (const path of paths(id)) {
        await request(app).head(path).expect(404);
        const res = await request(app).get(path).expect(404);
        expect(res.body).toEqual({ error: expect.any(String) });
      }
    }
    await request(app).head('/iiif/3/img-unrendered/full/max/0/default.jpg').expect(404);
    await request(app).get('/iiif/3/img-unrendered/full/max/0/default.jpg').expect(404);
  });

  it('allows every origin on images, info.json, manifests and errors', async () => {
    for (const path of ['/iiif/3/img-vase/full/400,/0/default.jpg', '/iiif/3/img-vase/info.json', '/iiif/manifest/2020-0001', '/iiif/3/img-secret/info.json', '/iiif/manifest/nope']) {
      const res = await request(app).get(path);
      expect(res.headers['access-control-allow-origin']).toBe('*');
    }
  });

  it('lets caches keep images and manifests but not errors', async () => {
    const image = await request(app).get('/iiif/3/img-vase/full/400,/0/default.jpg');
    expect(image.headers['cache-control']).toMatch(/public, max-age=\d+/);
    const manifest = await request(app).get('/iiif/manifest/2020-0001');
    expect(manifest.headers['cache-control']).toMatch(/public, max-age=\d+/);
    const error = await request(app).get('/iiif/3/img-gone/info.json');
    expect(error.headers['cache-control']).toBe('no-store');
  });
});

describe('IIIF Presentation 3 manifests', () => {
  it('serves a manifest that validates against the Presentation 3 schema', async () => {
    const res = await request(app).get('/iiif/manifest/2020-0001').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/ld\+json;\s*profile="http:\/\/iiif\.io\/api\/presentation\/3\/context\.json"/);
    const manifest = JSON.parse(res.text);
    expect(validateManifest(manifest)).toBe(true);
    expect(validateManifest.errors ?? []).toEqual([]);
    expect(manifest.id).toBe(`${BASE}/iiif/manifest/2020-0001`);
  });

  it('has one canvas per served image, in the record order, each painted with its image service', async () => {
    const manifest = JSON.parse((await request(app).get('/iiif/manifest/2020-0001').expect(200)).text);
    // img-secret (403) and img-gone (404) are left out; img-vase and img-chair stay in record order.
    expect(manifest.items.map((c: { width: number; height: number }) => [c.width, c.height])).toEqual([
      [800, 600],
      [600, 900],
    ]);
    const services = manifest.items.map((c: { items: { items: { body: { service: { id: string }[] } }[] }[] }) => c.items[0]?.items[0]?.body.service[0]?.id);
    expect(services).toEqual([`${BASE}/iiif/3/img-vase`, `${BASE}/iiif/3/img-chair`]);
  });

  it('answers 404 for objects without a served image, private objects and unknown numbers', async () => {
    for (const number of ['2020-0002', '2020-0003', '1999-9999']) {
      const res = await request(app).get(`/iiif/manifest/${number}`).expect(404);
      expect(res.body).toEqual({ error: expect.any(String) });
    }
  });

  it('serves the images a manifest names', async () => {
    const manifest = JSON.parse((await request(app).get('/iiif/manifest/2020-0001').expect(200)).text);
    const thumbnail = new URL(manifest.thumbnail[0].id);
    const res = await request(app).get(thumbnail.pathname).expect(200);
    const meta = await sharp(res.body as Buffer).metadata();
    expect([meta.width, meta.height]).toEqual([manifest.thumbnail[0].width, manifest.thumbnail[0].height]);
  });
});
