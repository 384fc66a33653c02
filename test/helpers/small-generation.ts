/**
 * A small generation for tests of a serving process on a remote SPARQL server: a few hand-written objects
 * (test/helpers/hand-export.ts) harvested into a data folder with its stored index, and written to the server
 * unless told otherwise, all in a second or two (the 1,000-object demo takes about a minute to write to a test
 * Virtuoso). The stored index is asked of an embedded store worker, so that a service starting or swapping to
 * the generation sends the server no index query (Virtuoso plans those badly on tiny collections with two
 * generations present: docs/remote-store.md, "What the remote store does not do").
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../../src/config/config.js';
import { storedIndexStep } from '../../src/engine/generation-index.js';
import { harvestExport } from '../../src/harvest/harvest.js';
import { SOURCE_FILES } from '../../src/harvest/schema.js';
import { createGeneration, type Generation } from '../../src/store/generations.js';
import { publishStep } from '../../src/store/stores.js';
import { handConcept, handObject } from './hand-export.js';
import { KIND_NAMES, KINDS } from '../../src/kinds/index.js';

export interface SmallGenerationOptions {
  /** Names the generation's records (`G<seed>-<n>`), so that two generations hold different records. */
  seed: number;
  /** Objects (default 5). */
  objects?: number;
  /** Write it to the server (default true); false makes a generation the server does not hold. */
  publish?: boolean;
  /** Make it current (default true). */
  current?: boolean;
}

/** The object numbers of the small generation of `seed`. */
export const smallGenerationObjects = (seed: number, objects = 5): string[] => Array.from({ length: objects }, (_, i) => `G${seed}-${i + 1}`);

/**
 * Makes a small generation in `config.dataDir` (its source export under `workDir`) with its stored index;
 * `config.store` is the server it is written to (not needed with `publish: false`).
 */
export async function makeSmallGeneration(config: Pick<Config, 'dataDir' | 'baseUrl'> & Partial<Pick<Config, 'store'>>, workDir: string, options: SmallGenerationOptions): Promise<Generation> {
  const sourceDir = join(workDir, `source-${options.seed}`);
  await mkdir(sourceDir, { recursive: true });
  const objects = smallGenerationObjects(options.seed, options.objects).map((number, i) =>
    handObject(number, { title: `Voorwerp ${i + 1} van generatie ${options.seed}`, types: ['300000001'], productions: [[1900 + i, 1910 + i]] }),
  );
  const lines = (items: readonly unknown[]): string => items.map((item) => `${JSON.stringify(item)}\n`).join('');
  await writeFile(join(sourceDir, SOURCE_FILES.objects), lines(objects));
  await writeFile(join(sourceDir, SOURCE_FILES.concepts), lines([handConcept('300000001', 'stoel')]));
  await writeFile(join(sourceDir, SOURCE_FILES.agents), '');
  await writeFile(join(sourceDir, SOURCE_FILES.exhibitions), '');

  let problem: string | undefined;
  const index = storedIndexStep({ baseUrl: config.baseUrl, kinds: KINDS, onDone: (outcome) => (problem = 'problem' in outcome ? outcome.problem : undefined) });
  const generation = await createGeneration(
    config.dataDir,
    { source: { kind: 'harvest', path: sourceDir }, baseUrl: config.baseUrl, kinds: KIND_NAMES },
    async (out) => ({ details: { ...(await harvestExport(sourceDir, out, { baseUrl: config.baseUrl, imageHosts: [] })) } }),
    { makeCurrent: options.current ?? true, derive: options.publish === false ? index : publishStep({ store: config.store }, index) },
  );
  if (problem !== undefined) throw new Error(`stored index of the small generation not written: ${problem}`);
  return generation;
}
