/**
 * Source export → CIDOC-CRM N-Quads, one named graph per record (docs/graph-model.md).
 *
 * Concepts, agents and exhibitions are read into memory (small); objects are read twice: a first
 * pass validates every line and collects the facts other graphs need (numbers, set membership,
 * servability, image URLs), then the images are checked, then the second pass streams the object
 * graphs. Memory therefore grows with the number of objects only by a few facts each.
 */
import { Iris, type CollectionName } from '../vocab/iris.js';
import { Catalog, type ObjectFacts } from './catalog.js';
import { readRecords } from './source-reader.js';
import {
  checkAgentRelations,
  checkConceptBroader,
  checkExhibition,
  checkObjectNumbers,
  checkObjectReferences,
  duplicate,
  type PendingObjectReference,
} from './reference-checks.js';
import { imageUrls as iiifImageUrls } from '../iiif/urls.js';
import { checkImages, type ImageCheckOptions } from './images.js';
import { analyseImageColors, type ColorAnalysisOptions } from './image-colors.js';
import type { ImageColors } from '../colors/extract.js';
import { QuadSink } from './quad-sink.js';
import { adminQuads, isServable, type AdminFacts } from './admin-graph.js';
import { conceptGraph } from '../kinds/concepts/graph.js';
import { agentGraph } from '../kinds/agents/graph.js';
import { exhibitionGraph } from '../kinds/exhibitions/graph.js';
import { objectGraph } from '../kinds/objects/graph.js';
import { kindRecords, type KindSource } from './kind-source.js';
import type { GraphBuilder } from './graph-builder.js';
import type { ObjectRecord } from './schema.js';

export { SourceLineError } from './source-line-error.js';

export interface HarvestOptions {
  /** e.g. http://localhost:3000 ; all record IRIs via new Iris(baseUrl). */
  baseUrl: string;
  /** Hosts (host[:port]) whose image URIs are HEAD-checked; images on other hosts are dropped. */
  imageHosts: string[];
  /** Default 16. */
  imageConcurrency?: number;
  /** Default 5000. */
  imageTimeoutMs?: number;
  /** Where the image check writes its summary (info) and each image's outcome (debug); the CLI shows a progress bar instead. */
  imageLogger?: ImageCheckOptions['logger'];
  /** Default true; false keeps every image unchecked (benchmarks without an IIIF server). */
  validateImages?: boolean;
  /** Verdicts of the current generation's image check, which stand (incremental harvests: docs/incremental.md). */
  knownImages?: ReadonlyMap<string, boolean>;
  /** Gets the verdict on every image on a checked host, asked now or reused, for the next harvest. */
  onImageVerdicts?: (verdicts: Map<string, boolean>) => void;
  /**
   * Colour analysis of the kept images (docs/colors.md), cached by image content in this folder; absent: no
   * analysis, no colour statements. Needs validated images (only checked hosts are fetched).
   */
  colors?: Omit<ColorAnalysisOptions, 'onProgress'>;
  onProgress?: (p: { phase: 'read' | 'images' | 'colors' | 'write'; done: number; total?: number }) => void;
  /** Kinds beyond the export's four, each from a file of its own in the export (kind-source.ts), by collection. */
  kinds?: Readonly<Record<CollectionName, KindSource<never>>>;
}

export interface HarvestReport {
  records: Record<CollectionName, number>;
  publicQuads: number;
  nonPublicQuads: number;
  /** Distinct image URIs a HEAD request was sent for. */
  imagesChecked: number;
  /** Distinct image URIs dropped: failed checks plus URIs on hosts outside `imageHosts`. */
  imagesDropped: number;
  /** Distinct image URIs whose verdict was reused from `knownImages`, without a request. */
  imagesReused?: number;
  /** Colour analysis, when asked for: images analysed now, taken from the cache, or without colours. */
  colors?: { analysed: number; cached: number; failed: number };
}

/**
 * A writer that takes the records one by one (a generation's record files: src/store/record-files.ts): a record's
 * text is its graph's statements and, when it is not public, the admin graph's statements about it.
 */
export interface RecordOutput {
  record(part: 'public' | 'nonPublic', graph: string, text: string, quads: number): Promise<void>;
}

/** Where the records go: two streams of N-Quads text, or a writer that takes them one by one. */
type Outputs = { public: NodeJS.WritableStream; nonPublic: NodeJS.WritableStream } | RecordOutput;

/** Records written to two streams, in large chunks. */
function streamOutput(out: { public: NodeJS.WritableStream; nonPublic: NodeJS.WritableStream }): RecordOutput & { flush(): Promise<void> } {
  const sinks = { public: new QuadSink(out.public), nonPublic: new QuadSink(out.nonPublic) };
  return {
    record: (part, _graph, text, quads) => sinks[part].write(text, quads),
    flush: async () => {
      await sinks.public.flush();
      await sinks.nonPublic.flush();
    },
  };
}

const PROGRESS_EVERY = 1000;
const CURRENT = { kind: 'current' } as const;

/**
 * Harvests the export in `sourceDir` into `out` (public and non-public N-Quads). Throws SourceLineError
 * on the first bad line; the streams are then half-written and must be discarded. The streams are not
 * ended: the caller ends them and waits for 'finish'.
 */
export async function harvestExport(sourceDir: string, out: Outputs, options: HarvestOptions): Promise<HarvestReport> {
  const iris = new Iris(options.baseUrl);
  const catalog = new Catalog(iris);
  const progress = options.onProgress;
  let read = 0;
  const tick = (): void => {
    read += 1;
    if (read % PROGRESS_EVERY === 0) progress?.({ phase: 'read', done: read });
  };

  for await (const { line, record } of readRecords(sourceDir, 'concepts')) {
    const first = catalog.concepts.get(record.pid);
    if (first !== undefined) duplicate('concepts', line, record.pid, first.line);
    catalog.addConcept(record, line);
    tick();
  }
  checkConceptBroader(catalog);

  for await (const { line, record } of readRecords(sourceDir, 'agents')) {
    const first = catalog.agents.get(record.pid);
    if (first !== undefined) duplicate('agents', line, record.pid, first.line);
    catalog.addAgent(record, line);
    tick();
  }
  checkAgentRelations(catalog);
  catalog.deriveInverses();

  for await (const { line, record } of readRecords(sourceDir, 'exhibitions')) {
    const first = catalog.exhibitions.get(record.pid);
    if (first !== undefined) duplicate('exhibitions', line, record.pid, first.line);
    checkExhibition(record, line, catalog);
    catalog.addExhibition(record, line);
    tick();
  }

  const validate = options.validateImages ?? true;
  const imageUrls = new Set<string>();
  const pending: PendingObjectReference[] = [];
  for await (const { line, record: o } of readRecords(sourceDir, 'objects')) {
    const first = catalog.objects.get(o.objectNumber);
    if (first !== undefined) duplicate('objects', line, o.objectNumber, first.line);
    checkObjectReferences(o, line, catalog);
    const facts: ObjectFacts = { line, servable: isServable(objectAdminFacts(o)) };
    if (o.partOfSet !== undefined) {
      facts.partOfSet = o.partOfSet;
      pending.push({ line, path: 'partOfSet', target: o.partOfSet });
    }
    if ('into' in o.state) pending.push({ line, path: 'state.into', target: o.state.into });
    if (facts.servable && catalog.shownObjects.has(o.objectNumber)) {
      facts.sameAs = o.sameAs;
      facts.agents = eventAgents(o);
    }
    catalog.objects.set(o.objectNumber, facts);
    if (validate) for (const image of o.images) imageUrls.add(iiifImageUrls(image.iiifBase).full);
    tick();
  }
  checkObjectNumbers(pending, catalog);
  catalog.deriveMembers();
  catalog.deriveParticipation();
  progress?.({ phase: 'read', done: read, total: read });

  let keepImage: (url: string) => boolean = () => true;
  let imagesChecked = 0;
  let imagesDropped = 0;
  let imagesReused = 0;
  if (validate) {
    const result = await checkImages(imageUrls, {
      hosts: options.imageHosts,
      concurrency: options.imageConcurrency,
      timeoutMs: options.imageTimeoutMs,
      logger: options.imageLogger,
      onProgress: (done, total) => progress?.({ phase: 'images', done, total }),
      ...(options.knownImages === undefined ? {} : { known: options.knownImages }),
    });
    keepImage = (url) => result.valid.has(url);
    imagesChecked = result.checked;
    imagesDropped = result.dropped;
    imagesReused = result.reused;
    options.onImageVerdicts?.(result.verdicts);
  }

  let colorsOf: ((url: string) => ImageColors | undefined) | undefined;
  let colorReport: HarvestReport['colors'];
  if (options.colors !== undefined && validate) {
    const kept = [...imageUrls].filter(keepImage);
    const analysis = await analyseImageColors(kept, { ...options.colors, onProgress: (done, total) => progress?.({ phase: 'colors', done, total }) });
    colorsOf = (url) => analysis.colors.get(url);
    colorReport = { analysed: analysis.analysed, cached: analysis.cached, failed: analysis.failed };
  }

  const streams = 'record' in out ? undefined : streamOutput(out);
  const sink = streams ?? (out as RecordOutput);
  const quads = { public: 0, nonPublic: 0 };
  let written = 0;
  // One record is one unit of the files: its graph, and for a record that is not public the admin graph's
  // statements about it right after (an incremental harvest keeps or replaces the two together).
  const emit = async (g: GraphBuilder, recordIri: string, facts: AdminFacts): Promise<void> => {
    const part = isServable(facts) ? 'public' : 'nonPublic';
    const admin = adminQuads(iris, recordIri, facts);
    await sink.record(part, recordIri, g.nquads + admin.text, g.quads + admin.quads);
    quads[part] += g.quads + admin.quads;
    written += 1;
    if (written % PROGRESS_EVERY === 0) progress?.({ phase: 'write', done: written, total: read });
  };
  const ctx = { iris, catalog, keepImage, colorsOf };

  for (const entry of catalog.concepts.values()) {
    await emit(conceptGraph(entry, ctx), iris.concept(entry.record.pid), otherAdminFacts(entry.record.public));
  }
  for (const entry of catalog.agents.values()) {
    await emit(agentGraph(entry, ctx), iris.agent(entry.record.pid), otherAdminFacts(entry.record.public));
  }
  for (const entry of catalog.exhibitions.values()) {
    await emit(exhibitionGraph(entry, ctx), iris.exhibition(entry.record.pid), otherAdminFacts(entry.record.public));
  }
  for await (const { record: o } of readRecords(sourceDir, 'objects')) {
    await emit(objectGraph(o, ctx), iris.object(o.objectNumber), objectAdminFacts(o));
  }
  const more: Record<CollectionName, number> = {};
  for (const [collection, source] of Object.entries(options.kinds ?? {}) as [CollectionName, KindSource<unknown>][]) {
    more[collection] = 0;
    for await (const { record, iri } of kindRecords(sourceDir, source, iris)) {
      await emit(source.graph(record, { record: iri, iris }), iri, otherAdminFacts(source.isPublic(record)));
      more[collection] += 1;
    }
  }
  await streams?.flush();
  progress?.({ phase: 'write', done: written, total: read });

  return {
    records: {
      objects: catalog.objects.size,
      agents: catalog.agents.size,
      exhibitions: catalog.exhibitions.size,
      concepts: catalog.concepts.size,
      ...more,
    },
    publicQuads: quads.public,
    nonPublicQuads: quads.nonPublic,
    imagesChecked,
    imagesDropped,
    ...(options.knownImages === undefined ? {} : { imagesReused }),
    ...(colorReport ? { colors: colorReport } : {}),
  };
}

/** Distinct agents the productions and creations of an object name (for agents' exhibition participation). */
function eventAgents(o: ObjectRecord): string[] {
  const agents = new Set<string>();
  for (const event of [...o.productions, ...o.creations]) if (event.agent !== undefined) agents.add(event.agent);
  return [...agents];
}

function objectAdminFacts(o: ObjectRecord): AdminFacts {
  return { state: o.state, public: o.public, healthy: o.healthy };
}

function otherAdminFacts(isPublic: boolean): AdminFacts {
  return { state: CURRENT, public: isPublic, healthy: true };
}
