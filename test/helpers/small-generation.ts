/**
 * A small generation for tests of a serving process on a remote SPARQL server: a generated collection of a few
 * dozen objects (no image checks), harvested into a data folder with its stored index, and written to the
 * server unless told otherwise. The stored index is asked of an embedded store worker, so that a service
 * starting or swapping to the generation sends the server no index query (Virtuoso plans those badly on tiny
 * collections with two generations present: docs/remote-store.md, "What the remote store does not do").
 * Writing 40 objects to a test Virtuoso takes seconds, where the 1,000-object demo takes about a minute.
 */
import { join } from 'node:path';
import type { Config } from '../../src/config/config.js';
import { storedIndexStep } from '../../src/engine/indexes.js';
import { generateCollection } from '../../src/generator/collection.js';
import { writeCollection } from '../../src/generator/write.js';
import { harvestExport } from '../../src/harvest/harvest.js';
import { createGeneration, type Generation } from '../../src/store/generations.js';
import { publishStep } from '../../src/store/stores.js';

export interface SmallGenerationOptions {
  /** Objects of the generated collection (default 40). */
  objects?: number;
  /** The generator's seed: another seed makes other records. */
  seed: number;
  /** Write it to the server (default true); false makes a generation the server does not hold. */
  publish?: boolean;
  /** Make it current (default true). */
  current?: boolean;
}

/**
 * Makes a small generation in `config.dataDir` (its source export under `workDir`) with its stored index;
 * `config.store` is the server it is written to (not needed with `publish: false`).
 */
export async function makeSmallGeneration(config: Pick<Config, 'dataDir' | 'baseUrl'> & Partial<Pick<Config, 'store'>>, workDir: string, options: SmallGenerationOptions): Promise<Generation> {
  const sourceDir = join(workDir, `source-${options.seed}`);
  writeCollection(sourceDir, generateCollection({ objects: options.objects ?? 40, seed: options.seed, iiifBase: config.baseUrl }));
  let problem: string | undefined;
  const index = storedIndexStep({ baseUrl: config.baseUrl, onDone: (outcome) => (problem = 'problem' in outcome ? outcome.problem : undefined) });
  const generation = await createGeneration(
    config.dataDir,
    { source: { kind: 'harvest', path: sourceDir }, baseUrl: config.baseUrl },
    async (out) => ({ details: { ...(await harvestExport(sourceDir, out, { baseUrl: config.baseUrl, imageHosts: [], validateImages: false })) } }),
    { makeCurrent: options.current ?? true, derive: options.publish === false ? index : publishStep({ store: config.store }, index) },
  );
  if (problem !== undefined) throw new Error(`stored index of the small generation not written: ${problem}`);
  return generation;
}
