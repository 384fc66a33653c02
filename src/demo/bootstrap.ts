/**
 * `npm start` on a fresh clone: the demo data set is generated (deterministically, from DEMO_OBJECTS and
 * DEMO_SEED), its images rendered, and — once the server listens, so that the harvest can HEAD-check the
 * images against the service's own IIIF server — harvested into the first generation. Later starts reuse
 * what is on disk: the source export and images when their recipe is unchanged, the current generation when
 * its records carry BASE_URL's IRIs. A harvested demo generation gets its stored index like any other.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import { generateCollection } from '../generator/collection.js';
import { writeCollection } from '../generator/write.js';
import { storedIndexStep } from '../engine/indexes.js';
import { COLOR_CACHE_DIR } from '../harvest/image-colors.js';
import { harvestExport } from '../harvest/harvest.js';
import { IMAGES_FILE, SOURCE_FILES } from '../harvest/schema.js';
import { renderImages } from '../iiif/render.js';
import { createGeneration, currentGeneration, pruneGenerations } from '../store/generations.js';

/** Where the demo's source export and rendered images live under DATA_DIR. */
export interface DemoPaths {
  sourceDir: string;
  imageDir: string;
}

const RECIPE_FILE = 'demo-recipe.json';

/** The demo folders of a configuration. */
export function demoPaths(config: Pick<Config, 'dataDir'>): DemoPaths {
  return { sourceDir: join(config.dataDir, 'demo-source'), imageDir: join(config.dataDir, 'demo-images') };
}

/** Generates the demo source export and renders its images unless the same recipe is already on disk. */
export async function prepareDemoSource(config: Config, logger: Logger): Promise<DemoPaths> {
  const paths = demoPaths(config);
  const recipe = JSON.stringify({ objects: config.demoObjects, seed: config.demoSeed, iiifBase: config.baseUrl });
  const recipePath = join(paths.sourceDir, RECIPE_FILE);
  const complete = Object.values(SOURCE_FILES).every((file) => existsSync(join(paths.sourceDir, file)));
  if (!complete || !existsSync(recipePath) || readFileSync(recipePath, 'utf8') !== recipe) {
    const started = Date.now();
    rmSync(paths.sourceDir, { recursive: true, force: true });
    const counts = writeCollection(
      paths.sourceDir,
      generateCollection({ objects: config.demoObjects, seed: config.demoSeed, iiifBase: config.baseUrl }),
    );
    writeFileSync(recipePath, recipe);
    logger.info({ ...counts, ms: Date.now() - started, dir: paths.sourceDir }, 'demo source export generated');
  }
  const started = Date.now();
  const rendered = await renderImages(join(paths.sourceDir, IMAGES_FILE), paths.imageDir);
  logger.info({ ...rendered, ms: Date.now() - started, dir: paths.imageDir }, 'demo images ready');
  return paths;
}

/**
 * The folder of the generation to serve. The current generation is kept when its IRIs use BASE_URL, or when
 * it did not come from the demo (a data engineer's harvest or load is never replaced behind their back);
 * otherwise the demo source export is harvested into a new current generation.
 */
export async function ensureGeneration(config: Config, logger: Logger, demo: DemoPaths = demoPaths(config)): Promise<string> {
  const current = await currentGeneration(config.dataDir);
  if (current) {
    const fromDemo = current.manifest.source.path === demo.sourceDir;
    if (current.manifest.baseUrl === config.baseUrl || !fromDemo) {
      if (current.manifest.baseUrl !== config.baseUrl) {
        logger.warn({ generation: current.id, generationBaseUrl: current.manifest.baseUrl, baseUrl: config.baseUrl },
          'the current generation was minted for another BASE_URL; records will not resolve under this one');
      }
      return current.dir;
    }
  }
  const started = Date.now();
  const generation = await createGeneration(
    config.dataDir,
    { source: { kind: 'harvest', path: demo.sourceDir }, baseUrl: config.baseUrl },
    async (out) => ({ details: { ...(await harvestExport(demo.sourceDir, out, {
          baseUrl: config.baseUrl,
          imageHosts: [...config.imageHosts],
          imageLogger: logger,
          colors: { cacheDir: join(config.dataDir, COLOR_CACHE_DIR) },
        })) } }),
    {
      derive: storedIndexStep({
        baseUrl: config.baseUrl,
        onDone: (outcome) => {
          if ('report' in outcome) logger.info({ ...outcome.report }, 'demo stored index written');
          else logger.warn({ problem: outcome.problem }, 'demo stored index not written; the indexes are built from the store');
        },
      }),
    },
  );
  await pruneGenerations(config.dataDir, config.keepGenerations);
  logger.info({ generation: generation.id, ms: Date.now() - started, counts: generation.manifest.counts }, 'demo harvested');
  return generation.dir;
}
