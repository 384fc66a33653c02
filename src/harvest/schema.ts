/**
 * The source-export format: what the registrar system exports, one JSON Lines file per record kind
 * (objects.jsonl, agents.jsonl, exhibitions.jsonl, concepts.jsonl). Documented field by field in
 * docs/source-format.md; this module is the single definition both the generator and the harvest use.
 */
import { z } from 'zod';
import { OBJECT_NUMBER, AGENT_PID, EXHIBITION_PID, CONCEPT_PID } from '../vocab/iris.js';

export const SOURCE_FILES = {
  objects: 'objects.jsonl',
  agents: 'agents.jsonl',
  exhibitions: 'exhibitions.jsonl',
  concepts: 'concepts.jsonl',
} as const;
export type SourceKind = keyof typeof SOURCE_FILES;

const objectNumber = z.string().regex(OBJECT_NUMBER, 'not an object number');
const agentPid = z.string().regex(AGENT_PID, 'not an agent pid');
const exhibitionPid = z.string().regex(EXHIBITION_PID, 'not an exhibition pid (TE_<year>-<serial>)');
const conceptPid = z.string().regex(CONCEPT_PID, 'not a concept pid');
const httpUri = z.url({ protocol: /^https?$/ });
const nonEmpty = z.string().trim().min(1);
const year = z.number().int().min(-9999).max(9999);
const isoDate = z.iso.date();
const isoDateTime = z.iso.datetime({ offset: true });

/** Text per language; any language may be missing. */
export const Texts = z.strictObject({ nl: nonEmpty.optional(), fr: nonEmpty.optional(), en: nonEmpty.optional() });
export type Texts = z.infer<typeof Texts>;

/** A place from a place authority (GeoNames, Wikidata or the city datahub). */
export const Place = z.strictObject({ uri: httpUri, label: nonEmpty });
export type Place = z.infer<typeof Place>;

/**
 * A dated span. `label` is the EDTF string as recorded (`1969`, `1920~/1930`, `1850?/1900`);
 * `begin`/`end` are the years with the uncertainty markers `~ ? %` stripped.
 */
export const DateSpan = z
  .strictObject({ label: nonEmpty, begin: year, end: year })
  .refine((d) => d.begin <= d.end, { message: 'begin year after end year' });
export type DateSpan = z.infer<typeof DateSpan>;

/** Lifecycle of the persistent URI (spec "States and transitions"). Redirecting states name the canonical number. */
export const RecordState = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('current') }),
  z.strictObject({ kind: z.literal('merged'), into: objectNumber }),
  z.strictObject({ kind: z.literal('renumbered'), into: objectNumber }),
  z.strictObject({ kind: z.literal('withdrawn'), into: objectNumber }),
  z.strictObject({ kind: z.literal('removed') }),
]);
export type RecordState = z.infer<typeof RecordState>;

/** Fields every record kind carries. */
const recordMeta = {
  /** When the harvester last read the record from the source system (prov:generatedAtTime, ETag). */
  harvestedAt: isoDateTime,
  /** Last modification in the museum's own system (modifiedSince filter). */
  modified: isoDate,
  /** Private records are never served by v2 or SPARQL. */
  public: z.boolean(),
  /** External authority URIs (owl:sameAs). */
  sameAs: z.array(httpUri),
};

export const Event = z.strictObject({
  agent: agentPid.optional(),
  place: Place.optional(),
  date: DateSpan.optional(),
});

export const Production = Event.extend({ techniques: z.array(conceptPid) });
export type Production = z.infer<typeof Production>;
export const Creation = Event;
export type Creation = z.infer<typeof Creation>;

export const Dimension = z.strictObject({
  /** Dutch dimension name as the registrar records it: hoogte, breedte, diepte, diameter, lengte, ... */
  type: z.string().regex(/^[a-z][a-z-]*$/, 'dimension type: lower-case word'),
  value: z.number().positive(),
  /** Harvest converts to cm: the served unit is always cm. */
  unit: z.enum(['mm', 'cm', 'm']),
});
export type Dimension = z.infer<typeof Dimension>;

export const Acquisition = z.strictObject({
  /** Dutch method label: aankoop, schenking, bruikleen, legaat, oningeschreven gevonden, onbekend. */
  method: nonEmpty,
  year: year.optional(),
  place: Place.optional(),
  /** Receiving institution; the museum when omitted. */
  receiver: z.strictObject({ uri: httpUri, label: nonEmpty }).optional(),
});

export const Part = z.strictObject({
  label: nonEmpty,
  materials: z.array(conceptPid),
  dimensions: z.array(Dimension),
});

export const MediaItem = z.strictObject({
  url: httpUri,
  title: nonEmpty,
  year: year.optional(),
});

export const Image = z.strictObject({
  /** IIIF Image API base URI of the image (without region/size/rotation/quality). */
  iiifBase: httpUri,
  attribution: nonEmpty,
  /** Canonical rights statement or licence URI. */
  rights: httpUri,
});
export type Image = z.infer<typeof Image>;

export const CreativeProject = z.strictObject({ title: nonEmpty, url: httpUri, year: year.optional() });

export const ObjectRecord = z.strictObject({
  objectNumber,
  titles: Texts,
  descriptions: Texts,
  /** Object types, materials, techniques and sub-collections are references to concepts.jsonl. */
  types: z.array(conceptPid),
  materials: z.array(conceptPid),
  subCollections: z.array(conceptPid),
  productions: z.array(Production),
  creations: z.array(Creation),
  acquisition: Acquisition.optional(),
  dimensions: z.array(Dimension),
  parts: z.array(Part),
  /** Set members name their koepelrecord; the koepelrecord's member list is derived by the harvest. */
  partOfSet: objectNumber.optional(),
  exhibitions: z.array(exhibitionPid),
  media: z.strictObject({
    manifest: httpUri.optional(),
    videos: z.array(MediaItem),
    audios: z.array(MediaItem),
  }),
  /** In canvas order. Harvest keeps only those whose IIIF server answers HEAD with 2xx/3xx. */
  images: z.array(Image),
  creativeProjects: z.array(CreativeProject),
  onDisplay: z.boolean(),
  /** Failed validation against the source system: never listed, never served. */
  healthy: z.boolean(),
  state: RecordState,
  ...recordMeta,
});
export type ObjectRecord = z.infer<typeof ObjectRecord>;

export const RELATION_TYPES = [
  'parent_of',
  'child_of',
  'spouse_of',
  'sibling_of',
  'employer_of',
  'employee_of',
  'mentor_of',
  'student_of',
  'collaborator',
  'member_of',
  'has_member',
  'founded',
  'founded_by',
] as const;
export type RelationType = (typeof RELATION_TYPES)[number];

/** The same relation seen from the other agent (relations are stored in both directions). */
export const INVERSE_RELATION: Record<RelationType, RelationType> = {
  parent_of: 'child_of',
  child_of: 'parent_of',
  spouse_of: 'spouse_of',
  sibling_of: 'sibling_of',
  employer_of: 'employee_of',
  employee_of: 'employer_of',
  mentor_of: 'student_of',
  student_of: 'mentor_of',
  collaborator: 'collaborator',
  member_of: 'has_member',
  has_member: 'member_of',
  founded: 'founded_by',
  founded_by: 'founded',
};

export const LifeEvent = z.strictObject({ year, place: Place.optional() });

export const AgentRecord = z.strictObject({
  pid: agentPid,
  name: nonEmpty,
  alternativeNames: z.array(nonEmpty),
  /**
   * Classification evidence (spec "Agent classification"): the registrar's kind decides first; without it,
   * the knowledge-base class (instance of human, or of an organisation type); otherwise unknown.
   */
  registrarKind: z.enum(['person', 'institution']).optional(),
  knowledgeBaseKind: z.enum(['human', 'organisation']).optional(),
  /** Titles of the agent's encyclopedia pages per language, with the page URL. */
  wikipediaTitles: z.array(z.strictObject({ lang: z.enum(['nl', 'fr', 'en']), title: nonEmpty, url: httpUri })),
  /** Persons only: male, female or other, as the EU human-sex authority codes them (MALE, FEMALE, ...). */
  gender: z.enum(['MALE', 'FEMALE', 'OP_DATPRO']).optional(),
  /** ISO 3166 alpha-3 code (EU country authority) with the Dutch, English and French names. */
  citizenship: z
    .strictObject({ code: z.string().regex(/^[A-Z]{3}$/), labels: z.strictObject({ nl: nonEmpty, en: nonEmpty, fr: nonEmpty }) })
    .optional(),
  /** Birth for persons, founding for organisations. */
  birth: LifeEvent.optional(),
  /** Death for persons, dissolution for organisations. */
  death: LifeEvent.optional(),
  biographies: z.array(
    z.strictObject({ lang: z.enum(['nl', 'fr', 'en']), text: nonEmpty, source: httpUri, licence: httpUri }),
  ),
  thumbnail: httpUri.optional(),
  /** Curated relations; the harvest also writes each one from the other agent's side. */
  relations: z.array(z.strictObject({ type: z.enum(RELATION_TYPES), agent: agentPid })),
  ...recordMeta,
});
export type AgentRecord = z.infer<typeof AgentRecord>;

export const ExhibitionRecord = z.strictObject({
  pid: exhibitionPid,
  titles: Texts,
  /** Title in the source language when no Dutch title exists. */
  sourceTitle: nonEmpty.optional(),
  begin: isoDate,
  end: isoDate,
  venue: Place.optional(),
  /** A known curator; the museum is the organiser otherwise. */
  curator: z.strictObject({ label: nonEmpty, agent: agentPid.optional() }).optional(),
  /** Objects shown; numbers not present in the collection are dropped by the harvest. */
  objects: z.array(objectNumber),
  descriptions: Texts,
  publications: z.array(z.strictObject({ title: nonEmpty, year: year.optional(), url: httpUri.optional() })),
  media: z.array(z.strictObject({ kind: z.enum(['video', 'audio']), title: nonEmpty, year: year.optional(), url: httpUri.optional() })),
  poster: z.strictObject({ url: httpUri }).optional(),
  views: z.array(
    z.strictObject({ url: httpUri, fileName: nonEmpty, width: z.number().int().positive().optional(), height: z.number().int().positive().optional() }),
  ),
  ...recordMeta,
});
export type ExhibitionRecord = z.infer<typeof ExhibitionRecord>;

/** A broader term: a concept of this thesaurus (pid) or an external term (URI and label). */
export const BroaderRef = z.union([conceptPid, z.strictObject({ uri: httpUri, label: nonEmpty })]);
export type BroaderRef = z.infer<typeof BroaderRef>;

export const ConceptRecord = z.strictObject({
  pid: conceptPid,
  /** Dutch label always; French and English progressively. */
  labels: Texts.extend({ nl: nonEmpty }),
  scopeNotes: Texts,
  /** Narrower terms are derived by the harvest from every concept's broader list. */
  broader: z.array(BroaderRef),
  ...recordMeta,
});
export type ConceptRecord = z.infer<typeof ConceptRecord>;

export const RECORD_SCHEMAS = {
  objects: ObjectRecord,
  agents: AgentRecord,
  exhibitions: ExhibitionRecord,
  concepts: ConceptRecord,
} as const;

export type SourceRecord = {
  objects: ObjectRecord;
  agents: AgentRecord;
  exhibitions: ExhibitionRecord;
  concepts: ConceptRecord;
};

/** The images of the demo IIIF server: which ids exist and which answer 403 (see src/iiif). */
export const IMAGES_FILE = 'images.jsonl';
