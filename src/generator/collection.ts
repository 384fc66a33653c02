/**
 * The deterministic demo collection: the same options always give the same records, in the same order,
 * with the same key order. Concepts, agents, exhibitions and images are built in memory (they are small);
 * objects are produced one at a time from a compact plan, so a large collection can be written without
 * holding its objects in memory (streamCollection) or materialised for tests (generateCollection).
 */
import type { AgentRecord, ConceptRecord, ExhibitionRecord, ObjectRecord } from '../harvest/schema.js';
import { buildAgents, MIN_AGENTS } from './agents.js';
import { FIXED_IMAGES } from './anchors.js';
import { buildThesaurus } from './concepts.js';
import { buildExhibitions, FIXED_EXHIBITIONS } from './exhibitions.js';
import { buildImagePool, imagePoolSize, type DemoImage } from './images.js';
import type { ObjectContext } from './object-context.js';
import { buildObject } from './objects.js';
import { anchorObjectCount, planObjects } from './plan.js';

export interface GeneratorOptions {
  /** Number of objects (at least the fixed anchor objects, see anchorObjectCount()). */
  objects: number;
  /** Any safe integer. */
  seed: number;
  /** Scheme and host of the IIIF server (images, manifests), without a trailing slash. */
  iiifBase: string;
}

/** Records of a collection, each kind iterable (possibly lazily, and more than once). */
export interface CollectionSource {
  objects: Iterable<ObjectRecord>;
  agents: Iterable<AgentRecord>;
  exhibitions: Iterable<ExhibitionRecord>;
  concepts: Iterable<ConceptRecord>;
  images: Iterable<DemoImage>;
}

export interface GeneratedCollection extends CollectionSource {
  objects: ObjectRecord[];
  agents: AgentRecord[];
  exhibitions: ExhibitionRecord[];
  concepts: ConceptRecord[];
  images: DemoImage[];
}

/**
 * Largest supported collection, the size of a national museum. Past 300,000 objects the agents' stad.gent ids
 * continue in a block of their own (stad-gent-ids.ts), the objects' ids (from 530,500,000) need none, and the
 * concepts stay at MAX_CONCEPTS.
 */
export const MAX_OBJECTS = 1_000_000;

/**
 * Concepts at most: the thesaurus forms about this many distinct labels, and a museum's thesaurus stops growing
 * with its collection long before 1,000,000 objects.
 */
const MAX_CONCEPTS = 150_000;

/** Record counts derived from the object count (agents about N/3, exhibitions N/20, concepts N/2 up to MAX_CONCEPTS). */
export function collectionSizes(objects: number): { objects: number; agents: number; exhibitions: number; concepts: number; images: number } {
  const n = Math.max(objects, anchorObjectCount());
  return {
    objects: n,
    agents: Math.max(MIN_AGENTS, Math.round(n / 3)),
    exhibitions: Math.max(FIXED_EXHIBITIONS.length + 9, Math.round(n / 20)),
    concepts: Math.max(150, Math.min(MAX_CONCEPTS, Math.round(n / 2))),
    images: imagePoolSize(n),
  };
}

function checkOptions(options: GeneratorOptions): void {
  if (!Number.isInteger(options.objects) || options.objects < 1 || options.objects > MAX_OBJECTS) {
    throw new Error(`objects must be an integer from 1 to ${MAX_OBJECTS}, got ${options.objects}`);
  }
  if (!Number.isSafeInteger(options.seed) || options.seed < 0) throw new Error(`seed must be a non-negative integer, got ${options.seed}`);
  if (!/^https?:\/\/[^/\s]+(\/[^\s]*)?$/.test(options.iiifBase) || options.iiifBase.endsWith('/')) {
    throw new Error(`iiifBase must be an http(s) URL without a trailing slash, got ${options.iiifBase}`);
  }
}

/** The collection with objects produced lazily, one record at a time, on each iteration. */
export function streamCollection(options: GeneratorOptions): CollectionSource {
  checkOptions(options);
  const sizes = collectionSizes(options.objects);
  const thesaurus = buildThesaurus(options.seed, sizes.concepts);
  const agents = buildAgents(options.seed, sizes.agents);
  const images = buildImagePool(options.seed, sizes.images, FIXED_IMAGES);
  const plan = planObjects(options.seed, sizes.objects);
  const exhibitions = buildExhibitions(options.seed, sizes.exhibitions, plan, agents, images, options.iiifBase);
  const ctx: ObjectContext = {
    seed: options.seed,
    iiifBase: options.iiifBase,
    thesaurus,
    agents,
    images,
    plan,
    exhibitionPids: new Set(exhibitions.map((e) => e.pid)),
  };
  return {
    objects: {
      *[Symbol.iterator]() {
        for (const object of plan.objects) yield buildObject(object, ctx);
      },
    },
    agents: agents.records,
    exhibitions,
    concepts: thesaurus.records,
    images: images.images,
  };
}

/** The whole collection in memory (tests, demo start-up). */
export function generateCollection(options: GeneratorOptions): GeneratedCollection {
  const source = streamCollection(options);
  return {
    objects: [...source.objects],
    agents: [...source.agents],
    exhibitions: [...source.exhibitions],
    concepts: [...source.concepts],
    images: [...source.images],
  };
}
