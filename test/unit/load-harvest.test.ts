import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { harvestExport } from '../../src/harvest/harvest.js';
import { createGeneration, generationFiles } from '../../src/store/generations.js';
import { loadNQuadsFile } from '../../src/store/load.js';
import { tempDir } from './store-fixtures.js';
import { KIND_NAMES } from '../../src/kinds/index.js';

const SOURCE = fileURLToPath(new URL('../fixtures/source-mini', import.meta.url));
const BASE = 'http://localhost:3000';
const sortedLines = async (file: string): Promise<string[]> =>
  gunzipSync(await readFile(file)).toString('utf8').split('\n').filter((l) => l !== '').sort();

describe('load and harvest agree on what is public', () => {
  it('splits the concatenation of a harvested generation into the same public and non-public quads', async () => {
    const { dir, remove } = await tempDir('load-harvest-');
    try {
      const harvested = await createGeneration(path.join(dir, 'a'), { source: { kind: 'harvest', path: SOURCE }, baseUrl: BASE, kinds: KIND_NAMES }, async (out) => {
        await harvestExport(SOURCE, out, { baseUrl: BASE, imageHosts: ['iiif.test'], validateImages: false });
      });
      const files = generationFiles(harvested.dir);
      // A dump of everything, public and non-public mixed, as a data engineer might hand it over.
      const all = Buffer.concat([gunzipSync(await readFile(files.nonPublic)), gunzipSync(await readFile(files.public))]);
      await writeFile(path.join(dir, 'all.nq'), all);
      const loaded = await loadNQuadsFile(path.join(dir, 'b'), path.join(dir, 'all.nq'), { kinds: KIND_NAMES });

      expect(harvested.manifest.counts.nonPublicQuads).toBeGreaterThan(0);
      expect(loaded.manifest.baseUrl).toBe(BASE);
      expect(loaded.manifest.counts).toEqual(harvested.manifest.counts);
      const loadedFiles = generationFiles(loaded.dir);
      expect(await sortedLines(loadedFiles.public)).toEqual(await sortedLines(files.public));
      expect(await sortedLines(loadedFiles.nonPublic)).toEqual(await sortedLines(files.nonPublic));
    } finally {
      await remove();
    }
  });
});
