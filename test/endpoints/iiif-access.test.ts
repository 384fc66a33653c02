/**
 * Issue 28: the IIIF server answers for the objects public in the served generation only, and `npm start` on a
 * data folder holding a harvested collection writes nothing of the demo. Expected values come from the demo's
 * source export (its `public`, `healthy` and `state` fields), not from the code under test.
 */
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { IMAGES_FILE, SOURCE_FILES } from '../../src/harvest/schema.js';
import { demoData, sourceObjects, startDemoApp, TEST_BASE_URL, type DemoApp } from '../helpers/demo.js';
import { startService } from '../helpers/service-process.js';

/** The demo data set may have to be built first (a couple of minutes). */
const SLOW_MS = 300_000;

/** The image id of an image URI `<base>/iiif/3/<id>[/...]`. */
const idOf = (uri: string): string | undefined => /\/iiif\/3\/([^/?#]+)/.exec(uri)?.[1];

describe('the IIIF server follows the served generation', () => {
  let demo: DemoApp;
  /** Object numbers the source export marks private, unhealthy, redirected or removed. */
  let hidden: string[];
  /** Servable objects with at least one image the source lists as "ok". */
  let shown: string[];
  /** Images used only by hidden objects: no public record (object or exhibition) names them. */
  let hiddenImages: string[];

  beforeAll(async () => {
    demo = await startDemoApp();
    const objects = sourceObjects(demo.data);
    const servable = (o: (typeof objects)[number]): boolean => o.public && o.healthy && o.state.kind === 'current';
    hidden = objects.filter((o) => !servable(o)).map((o) => o.objectNumber);
    const okImages = new Set(
      readFileSync(join(demo.data.sourceDir, IMAGES_FILE), 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as { id: string; status: string })
        .filter((image) => image.status === 'ok')
        .map((image) => image.id),
    );
    shown = objects.filter((o) => servable(o) && o.images.some((i) => okImages.has(idOf(i.iiifBase) ?? ''))).map((o) => o.objectNumber);
    const publicImages = new Set(objects.filter(servable).flatMap((o) => o.images.map((i) => idOf(i.iiifBase))));
    // Exhibition posters and views: every image URI in the exhibitions file counts as possibly public.
    for (const match of readFileSync(join(demo.data.sourceDir, SOURCE_FILES.exhibitions), 'utf8').matchAll(/\/iiif\/3\/([^/"?#]+)/g)) publicImages.add(match[1]);
    hiddenImages = [...new Set(objects.filter((o) => !servable(o)).flatMap((o) => o.images.map((i) => idOf(i.iiifBase) ?? '')))].filter(
      (id) => id !== '' && !publicImages.has(id),
    );
  }, SLOW_MS);

  afterAll(async () => {
    await demo.close();
  });

  it('has private, unhealthy and removed demo objects, and images only they use, to test with', () => {
    expect(hidden).toEqual(expect.arrayContaining(['2000-0004', '2000-0005', '2000-0006']));
    expect(hiddenImages.length).toBeGreaterThan(0);
    expect(shown.length).toBeGreaterThan(100);
  });

  it('answers 404 for the manifest of every object that is not public, as /v2/id/object does', async () => {
    for (const objectNumber of hidden) {
      const manifest = await request(demo.app).get(`/iiif/manifest/${objectNumber}`);
      expect([objectNumber, manifest.status]).toEqual([objectNumber, 404]);
      expect(manifest.body).toEqual({ error: 'Manifest not found' });
    }
  }, 60_000);

  it('answers 404 for every image used only by objects that are not public, on info.json, derivatives and HEAD', async () => {
    for (const id of hiddenImages) {
      expect([id, (await request(demo.app).get(`/iiif/3/${id}/info.json`)).status]).toEqual([id, 404]);
      expect([id, (await request(demo.app).get(`/iiif/3/${id}/full/max/0/default.jpg`)).status]).toEqual([id, 404]);
      expect([id, (await request(demo.app).head(`/iiif/3/${id}/full/max/0/default.jpg`)).status]).toEqual([id, 404]);
    }
  }, 60_000);

  it('answers 404 for unknown object numbers and image ids', async () => {
    expect((await request(demo.app).get('/iiif/manifest/1900-9999')).status).toBe(404);
    expect((await request(demo.app).get('/iiif/3/no-such-image/info.json')).status).toBe(404);
  });

  it('still serves the manifest of every public object with a served image, and that object answers 200 on /v2', async () => {
    for (const objectNumber of shown.slice(0, 25)) {
      expect([objectNumber, (await request(demo.app).get(`/iiif/manifest/${objectNumber}`)).status]).toEqual([objectNumber, 200]);
      expect([objectNumber, (await request(demo.app).get(`/v2/id/object/${objectNumber}`)).status]).toEqual([objectNumber, 200]);
    }
  });
});

describe('npm start on a data folder holding a harvested collection', () => {
  it('serves it without writing any demo file, and its IIIF server answers for none of the demo objects', async () => {
    const data = await demoData();
    // A copy of a generation harvested from an export outside DATA_DIR: to the service, a data engineer's collection.
    const dataDir = await mkdtemp(join(tmpdir(), 'harvested-'));
    try {
      await cp(data.dataDir, dataDir, { recursive: true });
      const before = (await readdir(dataDir)).sort();
      const service = await startService({ DATA_DIR: dataDir, BASE_URL: TEST_BASE_URL }, 180_000);
      try {
        expect((await fetch(`${service.origin}/v2/id/object/1482`)).status).toBe(200);
        // The demo's object 1482 is public in this collection too, but this collection's images are not the demo's.
        expect((await fetch(`${service.origin}/iiif/manifest/1482`)).status).toBe(404);
        expect((await fetch(`${service.origin}/iiif/manifest/2000-0006`)).status).toBe(404);
      } finally {
        await service.stop();
      }
      const after = (await readdir(dataDir)).sort();
      expect(after.filter((name) => name.startsWith('demo'))).toEqual([]);
      expect(after.filter((name) => !before.includes(name))).toEqual([]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, SLOW_MS);
});
