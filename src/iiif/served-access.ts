/**
 * What the IIIF router may answer for (issue 28): the images and manifests of the objects that are public in
 * the generation being served, and nothing else. The router's images and manifests come from the demo source
 * export, but visibility is the served generation's: a private, unhealthy, removed or unknown object (and a
 * demo object number that a harvested collection uses for another record) must answer 404, exactly like
 * /v2/id/object/<n>. Computed once per generation from its public file, never per request.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { isServable } from '../harvest/admin-graph.js';
import { IMAGES_FILE, ObjectRecord, SOURCE_FILES } from '../harvest/schema.js';
import { generationDir, generationFiles } from '../store/generations.js';
import type { GenerationManifest } from '../store/types.js';
import { IMAGE_ID, readImageList } from './image-list.js';
import { readJsonLines } from './json-lines.js';
import { imageIdOf } from './urls.js';

/** Object numbers whose manifests, and image ids that, may be served. */
export interface IiifAccess {
  objects: ReadonlySet<string>;
  images: ReadonlySet<string>;
}

/** Nothing is served: no generation yet, or one that was not harvested from the router's source export. */
export const NO_ACCESS: IiifAccess = { objects: new Set(), images: new Set() };

/** An image URI's id in any IRI of a public quad; the id alphabet is IMAGE_ID's. */
const IMAGE_IN_IRI = /\/iiif\/3\/([A-Za-z0-9][A-Za-z0-9._+-]{0,127})[/>]/g;

/**
 * The access a generation's public file grants: the objects whose record graphs are in it (the objects that
 * answer 200 on /v2/id/object/<n>) and the images its public quads name (those objects' images, and public
 * exhibitions' posters and views).
 */
export async function publicAccess(publicFile: string, baseUrl: string): Promise<IiifAccess> {
  const objectGraph = `<${baseUrl}/v2/id/object/`;
  const objects = new Set<string>();
  const images = new Set<string>();
  const lines = createInterface({ input: createReadStream(publicFile).pipe(createGunzip()), crlfDelay: Infinity });
  for await (const line of lines) {
    // N-Quads written by the harvest: the graph name is the last IRI of the line, before ` .`.
    const graphStart = line.lastIndexOf(' <');
    if (graphStart >= 0 && line.startsWith(objectGraph, graphStart + 1)) {
      const end = line.indexOf('>', graphStart);
      const pid = line.slice(graphStart + 1 + objectGraph.length, end);
      // Record IRIs end at the pid; a longer path (a fragment or sub-resource) is not a record graph.
      if (!pid.includes('/') && !pid.includes('#')) objects.add(decoded(pid));
    }
    if (!line.includes('/iiif/3/')) continue;
    for (const match of line.matchAll(IMAGE_IN_IRI)) {
      const id = match[1];
      if (id !== undefined && IMAGE_ID.test(id)) images.add(id);
    }
  }
  return { objects, images };
}

/** A pid as the router sees it in its path (a malformed escape is kept as written: it matches no request). */
function decoded(pid: string): string {
  try {
    return decodeURIComponent(pid);
  } catch {
    return pid;
  }
}

/** The fields the source rule needs. */
const AccessFields = z.object({
  objectNumber: ObjectRecord.shape.objectNumber,
  images: ObjectRecord.shape.images,
  public: ObjectRecord.shape.public,
  healthy: ObjectRecord.shape.healthy,
  state: ObjectRecord.shape.state,
});

/**
 * The access while the demo source export is being harvested and no generation serves yet: the harvest
 * HEAD-checks and analyses the images through this very router, so the images the new generation will show
 * must answer. Objects the source marks servable and their images, and images of no object (exhibitions');
 * an image used only by private, unhealthy, redirected or removed objects stays 404 (their non-public records
 * lose it, which nobody sees).
 */
export async function sourceAccess(sourceDir: string): Promise<IiifAccess> {
  const objects = new Set<string>();
  const servedImages = new Set<string>();
  const hiddenImages = new Set<string>();
  for await (const { value: object } of readJsonLines(join(sourceDir, SOURCE_FILES.objects), AccessFields)) {
    const servable = isServable(object);
    if (servable) objects.add(object.objectNumber);
    for (const image of object.images) {
      const id = imageIdOf(image.iiifBase);
      if (id !== undefined) (servable ? servedImages : hiddenImages).add(id);
    }
  }
  const listed = await readImageList(join(sourceDir, IMAGES_FILE));
  const images = new Set([...listed.keys()].filter((id) => servedImages.has(id) || !hiddenImages.has(id)));
  return { objects, images };
}

/**
 * The access of the served generation, computed once per generation (keyed by its id) and shared by the
 * requests that arrive while it is computed. Only a generation harvested from `sourceDir` (the export the
 * router serves) grants any: another collection's object numbers name other records than the demo's.
 */
export class ServedIiifAccess {
  private cached: { id: string; access: Promise<IiifAccess> } | undefined;

  constructor(private readonly options: { dataDir: string; sourceDir: string }) {}

  /** The access of `generation` (undefined: none served yet). */
  of(generation: GenerationManifest | undefined): Promise<IiifAccess> {
    if (generation === undefined) return Promise.resolve(NO_ACCESS);
    if (this.cached?.id === generation.id) return this.cached.access;
    const { dataDir, sourceDir } = this.options;
    const fromSource = generation.source.kind === 'harvest' && resolve(generation.source.path) === resolve(sourceDir);
    const access = fromSource
      ? publicAccess(generationFiles(generationDir(dataDir, generation.id)).public, generation.baseUrl)
      : Promise.resolve(NO_ACCESS);
    const entry = { id: generation.id, access };
    this.cached = entry;
    // A failed read is not kept, so the next request tries again.
    access.catch(() => {
      if (this.cached === entry) this.cached = undefined;
    });
    return access;
  }
}
