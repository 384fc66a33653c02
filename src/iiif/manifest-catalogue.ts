/**
 * All manifests of a source export, built once from objects.jsonl and kept as finished JSON text, so a
 * manifest request costs a map lookup.
 */
import { z } from 'zod';
import { ObjectRecord, SOURCE_FILES } from '../harvest/schema.js';
import { join } from 'node:path';
import type { ImageSpec } from './image-list.js';
import { readJsonLines } from './json-lines.js';
import { buildManifest } from './manifest.js';
import { isServable } from '../harvest/admin-graph.js';

/** The fields a manifest needs; other fields of a record are not read (the harvest validates them). */
const ManifestFields = z.object({
  objectNumber: ObjectRecord.shape.objectNumber,
  titles: ObjectRecord.shape.titles,
  descriptions: ObjectRecord.shape.descriptions,
  images: ObjectRecord.shape.images,
  public: ObjectRecord.shape.public,
  healthy: ObjectRecord.shape.healthy,
  state: ObjectRecord.shape.state,
});

/**
 * Manifest JSON by object number. Private, unhealthy and redirected or removed records get none: the
 * service never shows them, and a manifest would leak their titles.
 */
export async function loadManifests(
  sourceDir: string,
  images: ReadonlyMap<string, ImageSpec>,
  baseUrl: string,
): Promise<Map<string, string>> {
  const manifests = new Map<string, string>();
  for await (const { value: object } of readJsonLines(join(sourceDir, SOURCE_FILES.objects), ManifestFields)) {
    if (!isServable(object)) continue;
    const manifest = buildManifest(object, images, baseUrl);
    if (manifest) manifests.set(object.objectNumber, JSON.stringify(manifest));
  }
  return manifests;
}
