/** Reading `manifest.json` of a generation: parsed with a schema, so a damaged manifest is a clear error. */
import { z } from 'zod';
import type { GenerationManifest, RecordCounts } from './types.js';

/** Version of the generation folder layout and manifest; bumped when either changes incompatibly. */
export const FORMAT_VERSION = 1;

const count = z.number().int().nonnegative();
/** Records per kind, by the kind's name (the kinds the generation was written with, zeros included). */
const recordCounts: z.ZodType<RecordCounts> = z.record(z.string().regex(/^[a-z]+$/), count);
const sha256 = z.string().regex(/^[0-9a-f]{64}$/);

const manifestSchema: z.ZodType<GenerationManifest> = z.object({
  formatVersion: z.literal(FORMAT_VERSION),
  id: z.string(),
  created: z.string(),
  source: z.object({ kind: z.enum(['harvest', 'load']), path: z.string() }),
  baseUrl: z.string(),
  counts: z.object({
    publicQuads: count,
    nonPublicQuads: count,
    graphs: count,
    publicRecords: recordCounts,
    nonPublicRecords: recordCounts,
  }),
  checksums: z.object({ public: sha256, nonPublic: sha256 }),
  bytes: z.object({ public: count, nonPublic: count }),
  details: z.record(z.string(), z.unknown()).optional(),
});

/** Parses manifest JSON text; throws an Error naming the first problem. */
export function parseManifest(text: string): GenerationManifest {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('manifest.json is not JSON');
  }
  const result = manifestSchema.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new Error(`manifest.json is invalid: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim());
  }
  return result.data;
}

/** The kinds a generation holds: those its manifest counts records of, in the manifest's order. */
export function generationKinds(manifest: GenerationManifest): string[] {
  return [...new Set([...Object.keys(manifest.counts.publicRecords), ...Object.keys(manifest.counts.nonPublicRecords)])];
}
