/**
 * How much one embedded store worker can hold (issue 13, "The embedded store at its limit"). Each worker loads its
 * generation into one Oxigraph WebAssembly heap (wasm32, 4 GiB); a generation past that traps (`unreachable`) a
 * minute into the load and never becomes ready. The manifest counts the quads before a worker starts, so a
 * generation that cannot fit is refused at once, with a message that points to the remote store (`STORE_URL`).
 */
import type { GenerationManifest } from './types.js';

/**
 * Quads one embedded store worker may load. Measured on main (docs/operations.md, "The embedded store's
 * limit"; 2026-11-24, oxigraph 0.5.11, Node 20): `store.load` traps near 13.3M quads at 4.2 GiB RSS, which was about 89k objects of the generator's
 * shape then (about 145 quads per object, all records and admin quads counted); a 100k generation (14.2-14.9M
 * quads) never became ready. 13.0M keeps about 2 % below the trap: the bytes per quad vary with the data.
 */
export const EMBEDDED_MAX_QUADS = 13_000_000;

/**
 * Quads per object of today's generator shape, all quads counted: 171 in the bench generations of 10k and 50k
 * objects (1.71M and 8.53M quads; 145 before every owl:sameAs was stated twice and agents gained their
 * exhibitions), so the limit is about 76k such objects. Only for messages.
 */
export const QUADS_PER_OBJECT = 171;

/** Overrides EMBEDDED_MAX_QUADS (a positive integer), for data whose quads are much smaller or larger than the generator's. */
export const MAX_QUADS_ENV = 'EMBEDDED_MAX_QUADS';

/** A generation that one embedded store worker cannot hold; nothing was loaded. */
export class GenerationTooLargeError extends Error {
  readonly quads: number;
  readonly limit: number;

  constructor(message: string, quads: number, limit: number) {
    super(message);
    this.name = 'GenerationTooLargeError';
    this.quads = quads;
    this.limit = limit;
  }
}

/** The quad limit in force: `EMBEDDED_MAX_QUADS` from the environment when set, else the measured constant. */
export function embeddedQuadLimit(env: NodeJS.ProcessEnv = process.env): number {
  const text = env[MAX_QUADS_ENV]?.trim();
  if (text === undefined || text === '') return EMBEDDED_MAX_QUADS;
  const value = Number(text.replace(/_/g, ''));
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${MAX_QUADS_ENV} must be a positive whole number of quads, not "${text}"`);
  return value;
}

/** Quads a worker would load from the generation: the public file, and the non-public one for the REST store. */
export function quadsToLoad(manifest: GenerationManifest, includeNonPublic: boolean): number {
  return manifest.counts.publicQuads + (includeNonPublic ? manifest.counts.nonPublicQuads : 0);
}

const sum = (counts: Record<string, number>): number => Object.values(counts).reduce((a, b) => a + b, 0);
const amount = (n: number): string => (n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e4 ? `${Math.floor(n / 1000)}k` : n.toLocaleString('en'));

/**
 * Throws GenerationTooLargeError when the generation's quads (as the manifest counts them) would not fit one
 * embedded store worker; returns the number of quads otherwise.
 */
export function checkFitsEmbeddedStore(manifest: GenerationManifest, includeNonPublic: boolean, limit: number = embeddedQuadLimit()): number {
  const quads = quadsToLoad(manifest, includeNonPublic);
  if (quads <= limit) return quads;
  const { publicRecords, nonPublicRecords } = manifest.counts;
  const records = sum(publicRecords) + (includeNonPublic ? sum(nonPublicRecords) : 0);
  const objects = (publicRecords.object ?? 0) + (includeNonPublic ? (nonPublicRecords.object ?? 0) : 0);
  throw new GenerationTooLargeError(
    `generation ${manifest.id} is too large for the embedded store: ${amount(quads)} quads (${records.toLocaleString('en')} records, ` +
      `${objects.toLocaleString('en')} of them objects) against a limit of ${amount(limit)} quads in one WebAssembly heap ` +
      `(about ${amount(Math.floor(limit / QUADS_PER_OBJECT))} objects of ${QUADS_PER_OBJECT} quads each). Serve it from a SPARQL server instead: set STORE_URL ` +
      `to its query endpoint (docs/operations.md). Nothing was loaded.`,
    quads,
    limit,
  );
}
