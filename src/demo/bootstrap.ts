/**
 * `npm start` on a fresh clone (a data folder with no current generation, no STORE_URL) or with DEMO=1: the
 * demo data set is generated (deterministically, from DEMO_OBJECTS and
 * DEMO_SEED), its images rendered, and — once the server listens, so that the harvest can HEAD-check the
 * images against the service's own IIIF server — harvested into the first generation. Later starts reuse
 * what is on disk: the source export and images when their recipe is unchanged, the current generation when
 * its records carry BASE_URL's IRIs. A harvested demo generation gets its stored index like any other. A data
 * folder whose current generation is a data engineer's gets no demo file at all (issue 28).
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import { generateCollection } from '../generator/collection.js';
import { writeCollection } from '../generator/write.js';
import { storedIndexStep } from '../engine/generation-index.js';
import { COLOR_CACHE_DIR } from '../harvest/image-colors.js';
import { harvestExport } from '../harvest/harvest.js';
import { IMAGES_FILE, SOURCE_FILES } from '../harvest/schema.js';
import { renderImages } from '../iiif/render.js';
import { createRecordGeneration, currentGeneration, pruneGenerations, type Generation } from '../store/generations.js';
import { KIND_NAMES, KINDS } from '../kinds/index.js';
import { kindSources } from '../harvest/kind-source.js';

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

/** True when `generation` was harvested from the demo source export of `paths`. */
export function isDemoGeneration(generation: Generation, paths: DemoPaths): boolean {
  return generation.manifest.source.kind === 'harvest' && resolve(generation.manifest.source.path) === resolve(paths.sourceDir);
}

/**
 * Whether this start prepares the demo: DEMO decides when set; unset, only a data folder that serves the
 * demo already, or one with no current generation and no STORE_URL (a remote store is an operator's
 * deployment, never a first look). Every other start writes nothing of the demo, so replicas over a harvested collection
 * never race on demo files and start without the demo's cost.
 */
export async function wantsDemo(config: Config): Promise<boolean> {
  if (config.demo !== undefined) return config.demo;
  const current = await currentGeneration(config.dataDir);
  // A folder serving the demo already keeps it up to date (a new BASE_URL re-harvests it), STORE_URL or not.
  if (current !== undefined) return isDemoGeneration(current, demoPaths(config));
  return config.store === undefined;
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
 * otherwise the demo source export (`demo`, when this start prepared it) is harvested into a new current
 * generation. Undefined: nothing to serve (no current generation and no demo).
 */
export async function ensureGeneration(config: Config, logger: Logger, demo: DemoPaths | undefined): Promise<string | undefined> {
  const current = await currentGeneration(config.dataDir);
  if (current) {
    const fromDemo = isDemoGeneration(current, demoPaths(config));
    // Without the demo's source (DEMO=0) even a demo generation of another BASE_URL is better than none.
    if (current.manifest.baseUrl === config.baseUrl || !fromDemo || demo === undefined) {
      if (current.manifest.baseUrl !== config.baseUrl) {
        logger.warn({ generation: current.id, generationBaseUrl: current.manifest.baseUrl, baseUrl: config.baseUrl },
          'the current generation was minted for another BASE_URL; records will not resolve under this one');
      }
      return current.dir;
    }
  }
  if (demo === undefined) return undefined;
  const started = Date.now();
  const generation = await createRecordGeneration(
    config.dataDir,
    { source: { kind: 'harvest', path: demo.sourceDir }, baseUrl: config.baseUrl, kinds: KIND_NAMES },
    async (out) => ({ details: { ...(await harvestExport(demo.sourceDir, out, {
          kinds: kindSources(KINDS),
          baseUrl: config.baseUrl,
          imageHosts: [...config.imageHosts],
          imageLogger: logger,
          colors: { cacheDir: join(config.dataDir, COLOR_CACHE_DIR) },
        })) } }),
    {
      derive: storedIndexStep({
        baseUrl: config.baseUrl,
        kinds: KINDS,
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
