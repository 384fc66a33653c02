/**
 * The records a per-record test checks: a sample of the demo's source records that shows every feature of the
 * population several times, and a regular stride through the rest.
 *
 * A feature is what a record's fields say about its shape, read from the source export (the tests' independent
 * truth, never the code under test): which fields it has, whether a list holds none, one or several values, the
 * value of each flag (`public`, `healthy`, `onDisplay`, …), its state (current, merged, removed) and which
 * languages or parts a nested field has (`titles.fr`, `birth.place`). Every feature the population shows is in
 * the sample at least `least` times (or as often as the population has it), so the edge cases the spec names are
 * all checked: koepelrecords and set members, merged and removed records, missing fields, each language. The
 * stride (every `every`-th record, and the last) adds records picked without looking at their fields.
 *
 * With the demo's 1,000 objects the sample is about a fifth of them; the per-record tests took most of a CI run's
 * time when they checked every record. `TEST_EVERY_RECORD=1` checks every record (a longer run, e.g. before a
 * release or after a change to shaping).
 */

type Json = Record<string, unknown>;

const empty = (value: unknown): boolean => value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

/** The features of one source record (see above). */
export function featuresOf(record: object): string[] {
  const features: string[] = [];
  for (const [key, value] of Object.entries(record as Json)) {
    if (Array.isArray(value)) features.push(`${key}[${value.length === 0 ? 0 : value.length === 1 ? 1 : 'n'}]`);
    else if (empty(value)) features.push(`${key}:none`);
    else if (typeof value === 'boolean') features.push(`${key}=${String(value)}`);
    else if (typeof value === 'object') {
      const inner = value as Json;
      if (typeof inner.kind === 'string') features.push(`${key}=${inner.kind}`);
      const present = Object.keys(inner).filter((k) => !empty(inner[k])).sort();
      features.push(`${key}{${present.join(',')}}`, ...present.map((k) => `${key}.${k}`));
    } else features.push(key);
  }
  return features;
}

export interface SampleOptions<T> {
  /** How often each feature is in the sample at least (3). */
  least?: number;
  /** The stride: every `every`-th record is in the sample too (8). */
  every?: number;
  /** Features beyond the record's own fields, such as what other records say of it (a concept's narrower terms). */
  features?: (record: T) => string[];
}

export const everyRecord = (): boolean => process.env.TEST_EVERY_RECORD === '1';

/**
 * The sampled records, in their order. Deterministic: the same population gives the same sample. All of them
 * with `TEST_EVERY_RECORD=1`.
 */
export function coveringSample<T extends object>(records: readonly T[], options: SampleOptions<T> = {}): T[] {
  if (everyRecord()) return [...records];
  const least = options.least ?? 3;
  const every = options.every ?? 8;
  const seen = new Map<string, number>();
  return records.filter((record, i) => {
    const features = [...featuresOf(record), ...(options.features?.(record) ?? [])];
    const take = i % every === 0 || i === records.length - 1 || features.some((f) => (seen.get(f) ?? 0) < least);
    if (take) for (const f of features) seen.set(f, (seen.get(f) ?? 0) + 1);
    return take;
  });
}

/** A source record's own id: an object's number, any other record's pid. */
const sourceId = (record: Json): string => String(record.objectNumber ?? record.pid);

/**
 * The record IRIs (or paths) to check of those a collection lists: the ones whose source record (`sources`, the
 * kind's JSON Lines records) is in the covering sample, in the listed order. A listed IRI without a source record
 * is kept (the test then meets it).
 */
export function sampleListed(listed: readonly string[], sources: readonly object[], options: SampleOptions<object> = {}): string[] {
  if (everyRecord()) return [...listed];
  const known = new Set(sources.map((record) => sourceId(record as Json)));
  const sampled = new Set(coveringSample(sources, options).map((record) => sourceId(record as Json)));
  const idOf = (iri: string): string => decodeURIComponent(iri.replace(/[?#].*$/, '').split('/').pop()!);
  return listed.filter((iri) => !known.has(idOf(iri)) || sampled.has(idOf(iri)));
}
