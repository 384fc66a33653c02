/**
 * The IIIF access of a served generation (src/iiif/served-access.ts), against the demo's source export: the
 * objects it grants are the ones the export marks public, healthy and current, and a generation that was not
 * harvested from the router's export grants nothing.
 */
import { demoData, sourceObjects, type DemoData } from '../helpers/demo.js';
import { NO_ACCESS, ServedIiifAccess } from '../../src/iiif/served-access.js';

/** The demo data set may have to be built first (a couple of minutes). */
const SLOW_MS = 300_000;

let data: DemoData;
beforeAll(async () => {
  data = await demoData();
}, SLOW_MS);

describe('ServedIiifAccess', () => {
  it('grants exactly the objects the source export marks public, healthy and current', async () => {
    const expected = sourceObjects(data)
      .filter((o) => o.public && o.healthy && o.state.kind === 'current')
      .map((o) => o.objectNumber)
      .sort();
    const access = await new ServedIiifAccess({ dataDir: data.dataDir, sourceDir: data.sourceDir }).of(data.generation.manifest);
    expect([...access.objects].sort()).toEqual(expected);
    expect(access.images.size).toBeGreaterThan(0);
  });

  it('reads a generation once, however many requests ask', async () => {
    const served = new ServedIiifAccess({ dataDir: data.dataDir, sourceDir: data.sourceDir });
    const [a, b] = await Promise.all([served.of(data.generation.manifest), served.of(data.generation.manifest)]);
    expect(a).toBe(b);
    expect(await served.of(data.generation.manifest)).toBe(a);
  });

  it('grants nothing for a generation harvested from another export, or when no generation is served', async () => {
    const served = new ServedIiifAccess({ dataDir: data.dataDir, sourceDir: `${data.sourceDir}-elsewhere` });
    expect(await served.of(data.generation.manifest)).toBe(NO_ACCESS);
    expect(await served.of(undefined)).toBe(NO_ACCESS);
  });
});
