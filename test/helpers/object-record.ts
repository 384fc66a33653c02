/** A minimal valid source object record (no events, parts or media beyond a manifest), for tests that need only a few fields. */
import { ObjectRecord } from '../../src/harvest/schema.js';

/** The record of `objectNumber` with a Dutch title, the given fields, and empty or default values elsewhere. */
export function minimalObjectRecord(objectNumber: string, fields: Partial<ObjectRecord> = {}): ObjectRecord {
  return ObjectRecord.parse({
    objectNumber,
    titles: { nl: `Titel ${objectNumber}` },
    descriptions: {},
    types: [],
    materials: [],
    subCollections: [],
    productions: [],
    creations: [],
    dimensions: [],
    parts: [],
    exhibitions: [],
    media: { videos: [], audios: [] },
    images: [],
    creativeProjects: [],
    onDisplay: false,
    healthy: true,
    state: { kind: 'current' },
    harvestedAt: '2026-01-05T10:00:00Z',
    modified: '2026-01-04',
    public: true,
    sameAs: [],
    ...fields,
  });
}
