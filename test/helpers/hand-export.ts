/**
 * A source export written by hand in a test (a few records), harvested into a generation in a temp dir and
 * served by the real app over a real store worker: for cases the demo data set does not have. No images,
 * so no image server; agents and exhibitions may be empty.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Express } from 'express';
import { createApp } from '../../src/app.js';
import type { AppContext } from '../../src/engine/app-context.js';
import { loadConfig } from '../../src/config/config.js';
import { harvestExport } from '../../src/harvest/harvest.js';
import { SOURCE_FILES, type AgentRecord, type ConceptRecord, type ExhibitionRecord, type ObjectRecord } from '../../src/harvest/schema.js';
import { Metrics } from '../../src/http/metrics.js';
import { QueryLibrary } from '../../src/queries/library.js';
import { createGeneration } from '../../src/store/generations.js';
import { StoreManager } from '../../src/store/store-manager.js';
import { Iris } from '../../src/vocab/iris.js';
import { memoryLogger } from './http-context.js';
import { KIND_NAMES } from '../../src/kinds/index.js';
import { untilIndexesBuilt } from './ready-app.js';

export const HAND_BASE_URL = 'http://localhost:3000';

/** The fields every record has, with fixed values. */
export const STAMP = { harvestedAt: '2024-04-28T10:12:06Z', modified: '2024-04-01', sameAs: [] as string[] };

export type Span = [number, number];

export interface ObjectOptions {
  title: string;
  productions?: Span[];
  creations?: Span[];
  types?: string[];
  materials?: string[];
  onDisplay?: boolean;
  public?: boolean;
  healthy?: boolean;
  state?: ObjectRecord['state'];
}

/** One object line: dates as [begin, end] per production and per creation; other fields empty. */
export function handObject(objectNumber: string, o: ObjectOptions): ObjectRecord {
  const date = ([begin, end]: Span) => ({ label: begin === end ? `${begin}` : `${begin}/${end}`, begin, end });
  return {
    objectNumber,
    titles: { nl: o.title },
    descriptions: {},
    types: o.types ?? [],
    materials: o.materials ?? [],
    subCollections: [],
    productions: (o.productions ?? []).map((span) => ({ date: date(span), techniques: [] })),
    creations: (o.creations ?? []).map((span) => ({ date: date(span) })),
    dimensions: [],
    parts: [],
    exhibitions: [],
    media: { videos: [], audios: [] },
    images: [],
    creativeProjects: [],
    onDisplay: o.onDisplay ?? false,
    healthy: o.healthy ?? true,
    state: o.state ?? { kind: 'current' },
    public: o.public ?? true,
    ...STAMP,
  };
}

/** One concept line with a Dutch label. */
export const handConcept = (pid: string, nl: string, isPublic = true): ConceptRecord => ({ pid, labels: { nl }, scopeNotes: {}, broader: [], public: isPublic, ...STAMP });

export interface HandExport {
  objects: ObjectRecord[];
  concepts?: ConceptRecord[];
  agents?: AgentRecord[];
  exhibitions?: ExhibitionRecord[];
}

export interface HandApp {
  app: Express;
  store: StoreManager;
  close(): Promise<void>;
}

/** Writes the export, harvests it into a new generation and serves it; `close` stops the store and removes the files. */
export async function startHandApp(records: HandExport): Promise<HandApp> {
  const sourceDir = await mkdtemp(join(tmpdir(), 'hand-export-source-'));
  const dataDir = await mkdtemp(join(tmpdir(), 'hand-export-data-'));
  const remove = async (): Promise<void> => {
    await rm(sourceDir, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  };
  const lines = (items: readonly unknown[] = []): string => items.map((item) => `${JSON.stringify(item)}\n`).join('');
  let store: StoreManager | undefined;
  try {
    await writeFile(join(sourceDir, SOURCE_FILES.objects), lines(records.objects));
    await writeFile(join(sourceDir, SOURCE_FILES.concepts), lines(records.concepts));
    await writeFile(join(sourceDir, SOURCE_FILES.agents), lines(records.agents));
    await writeFile(join(sourceDir, SOURCE_FILES.exhibitions), lines(records.exhibitions));
    const generation = await createGeneration(dataDir, { source: { kind: 'harvest', path: sourceDir }, baseUrl: HAND_BASE_URL, kinds: KIND_NAMES }, async (out) => ({
      details: { ...(await harvestExport(sourceDir, out, { baseUrl: HAND_BASE_URL, imageHosts: [] })) },
    }));
    store = new StoreManager({ includeNonPublic: true });
    await store.start(generation.dir);
    const config = loadConfig({ BASE_URL: HAND_BASE_URL, DATA_DIR: dataDir, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'silent' });
    const ctx: AppContext = { config, iris: new Iris(config.baseUrl), store, logger: memoryLogger('fatal').logger, metrics: new Metrics(), queries: new QueryLibrary(), kinds: KIND_NAMES };
    const app = createApp(ctx);
    await untilIndexesBuilt(ctx);
    const running = store;
    return {
      app,
      store: running,
      close: async () => {
        await running.close();
        await remove();
      },
    };
  } catch (error) {
    await store?.close();
    await remove();
    throw error;
  }
}
