/**
 * The index endpoints (spec, "Material index", "Production density", "Other indexes"): `/v2/id/types`,
 * `/materials`, `/nationalities`, `/roles`, `/production`, `/colors` and `/colors/dominant`. Each is computed from
 * the generation's collection index of its kind (objects or agents), the same in-memory postings the collection
 * filters select with, so an index count and its filter link's `hydra:totalItems` cannot disagree. Label indexes are computed once per
 * generation and variant and kept with that generation's index; the production density is prepared once per
 * generation and population and then costs O(buckets × log n) per request. Every answer carries an ETag made
 * of the generation and the canonical query, Last-Modified (the generation's creation) and Cache-Control.
 */
import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../app-context.js';
import type { Bitset } from '../collection-index/bitset.js';
import type { CollectionIndex } from '../collection-index/collection-index.js';
import type { ActiveFilter, RawQuery } from '../collection-index/filters/filter.js';
import { ParamError } from '../collection-index/filters/filter.js';
import { single } from '../collection-index/filters/params.js';
import type { RecordTable } from '../collection-index/record-table.js';
import type { TextQuery } from '../collection-index/text/query-parser.js';
import { sharedIndexes } from '../engine/indexes.js';
import type { ResourceKind } from '../engine/kind.js';
import { answeredNotModified, RECORD_CACHE_CONTROL, weakEtag } from '../http/caching.js';
import { JSON_LD_CONTENT_TYPE } from '../http/json-ld.js';
import { countLabels, type CountedLabel, type LabelledSet } from '../indexes/label-index.js';
import {
  DensityPopulation,
  densityBuckets,
  FIRST_AXIS_YEAR,
  LAST_AXIS_YEAR,
  objectYears,
  type DensityAxis,
  type ObjectYears,
} from '../indexes/production-density.js';
import { AGENTS, OBJECTS } from '../kinds/index.js';
import { AGENT_ROLES, type AgentTable } from '../kinds/agents/table.js';
import { onDisplayFilter } from '../kinds/objects/filters/on-display.js';
import type { LabelTerm, ObjectTable } from '../kinds/objects/table.js';
import { dominantContext, indexContext } from './index-context.js';
import { linearLightCentroid } from '../colors/centroid.js';
import { asBadRequest, textQuery } from './collection-params.js';
import { CollectionMembers } from './collection-members.js';
import { parseBaseColors } from '../kinds/objects/filters/colors.js';
import { imageShowing, type PaletteColor, type ShownColor } from '../kinds/objects/colors.js';
import type { BaseColor } from '../colors/base-colors.js';


/**
 * A query string for links and `@id`s: values percent-encoded as by encodeURIComponent, with `(` and `)`
 * encoded too (the real service's links) and `/` kept readable (`date=1900/1909`, as the spec writes it).
 */
export function queryString(params: readonly (readonly [string, string])[]): string {
  return params
    .map(([name, value]) => `${name}=${encodeURIComponent(value).replace(/\(/g, '%28').replace(/\)/g, '%29').replace(/%2F/g, '/')}`)
    .join('&');
}

const withQuery = (url: string, params: readonly (readonly [string, string])[]): string => (params.length === 0 ? url : `${url}?${queryString(params)}`);

/** One index endpoint: what it reads from the query, and how it answers from one generation's index. */
interface IndexEndpoint<T extends RecordTable, Q> {
  name: string;
  kind: ResourceKind<T>;
  /** Parses the query; throws ParamError. */
  parse(query: RawQuery): Q;
  /** The query in canonical form: the document's `@id` query and part of the ETag. */
  params(query: Q): [string, string][];
  /** Whether one generation's document for a given canonical query is kept (false for open-ended queries such as `q`). */
  keep(query: Q): boolean;
  document(index: CollectionIndex<T>, query: Q, id: string): Record<string, unknown> | Promise<Record<string, unknown>>;
}

/** Values computed once per generation's index: a second call with the same key returns the first answer. */
class PerIndex {
  private readonly values = new WeakMap<object, Map<string, unknown>>();

  get<V>(index: object, key: string, compute: () => V): V {
    let byKey = this.values.get(index);
    if (!byKey) {
      byKey = new Map();
      this.values.set(index, byKey);
    }
    if (!byKey.has(key)) byKey.set(key, compute());
    return byKey.get(key) as V;
  }
}

function route<T extends RecordTable, Q>(ctx: AppContext, router: Router, endpoint: IndexEndpoint<T, Q>): void {
  const indexes = sharedIndexes(ctx, endpoint.kind);
  const documents = new PerIndex();
  const url = `${ctx.iris.base}/v2/id/${endpoint.name}`;
  router.get(`/id/${endpoint.name}`, async (req: Request, res: Response) => {
    const query = asBadRequest(() => endpoint.parse(req.query));
    const params = endpoint.params(query);
    const index = await indexes.current();
    const id = withQuery(url, params);
    // Kept as JSON text with its tag: a large index (thousands of types at 100k objects) then costs no
    // serialisation or digest per request. The tag is a digest of the bytes, so it changes exactly when they do.
    const build = async (): Promise<{ body: string; etag: string }> => {
      const text = JSON.stringify(await endpoint.document(index, query, id));
      return { body: text, etag: weakEtag(text) };
    };
    const { body, etag } = endpoint.keep(query) ? await documents.get(index, id, build) : await build();
    const generation = ctx.store.generation;
    const validators = { etag, lastModified: generation?.id === index.generationId ? new Date(generation.created) : undefined };
    if (answeredNotModified(req, res, validators, RECORD_CACHE_CONTROL)) return;
    res.setHeader('Content-Type', JSON_LD_CONTENT_TYPE);
    res.send(body);
  });
}

/** `onDisplay` as on the objects collection: `true` only objects on display, `false` only the others. */
const parseOnDisplay = (query: RawQuery): ActiveFilter<ObjectTable> | undefined => onDisplayFilter.parse(query);

const onDisplayParams = (filter: ActiveFilter<ObjectTable> | undefined): [string, string][] =>
  (filter?.link ?? []).map(([name, value]): [string, string] => [name, value]);

interface LabelIndexText {
  name: string;
  label: string;
  comment: string;
  memberType: string;
  countKey: 'object_count' | 'agent_count';
  /** The collection and parameter the member's filter link uses. */
  filter: { collection: 'objects' | 'agents'; param: string };
}

function labelIndexDocument(
  base: string,
  text: LabelIndexText,
  id: string,
  members: readonly CountedLabel[],
  extraFilterParams: readonly [string, string][] = [],
): Record<string, unknown> {
  const collection = `${base}/v2/id/${text.filter.collection}`;
  return {
    '@context': indexContext(base),
    '@id': id,
    '@type': 'hydra:Collection',
    'rdfs:label': text.label,
    'rdfs:comment': text.comment,
    'hydra:totalItems': members.length,
    'hydra:member': members.map((member) => ({
      ...(member.iri === undefined ? {} : { '@id': member.iri }),
      '@type': text.memberType,
      'rdfs:label': member.label,
      [text.countKey]: member.count,
      filter: withQuery(collection, [[text.filter.param, member.label], ...extraFilterParams]),
    })),
  };
}

/** Type or material terms with their postings; a member names its concept when the label has exactly one. */
export function termSets(terms: ReadonlyMap<string, LabelTerm>, postings: ReadonlyMap<string, Uint32Array>, withIri: boolean): LabelledSet[] {
  return [...terms].map(([key, term]) => ({
    label: term.label,
    ids: postings.get(key) ?? [],
    iri: withIri && term.concepts.length === 1 ? term.concepts[0] : undefined,
  }));
}

function objectLabelIndex(base: string, text: LabelIndexText, sets: (table: ObjectTable) => LabelledSet[]): IndexEndpoint<ObjectTable, ActiveFilter<ObjectTable> | undefined> {
  return {
    name: text.name,
    kind: OBJECTS,
    parse: parseOnDisplay,
    params: onDisplayParams,
    keep: () => true,
    document: (index, onDisplay, id) => {
      const within = onDisplay ? index.matching([onDisplay]) : undefined;
      return labelIndexDocument(base, text, id, countLabels(sets(index.table), within), onDisplayParams(onDisplay));
    },
  };
}

function agentLabelIndex(base: string, text: LabelIndexText, sets: (table: AgentTable) => LabelledSet[]): IndexEndpoint<AgentTable, undefined> {
  return {
    name: text.name,
    kind: AGENTS,
    parse: () => undefined,
    params: () => [],
    keep: () => true,
    document: (index, _query, id) => labelIndexDocument(base, text, id, countLabels(sets(index.table))),
  };
}

// ---------------------------------------------------------------- production density

export const DEFAULT_AXIS: DensityAxis = { bucket: 10, yearFrom: 1600, yearTo: 2030 };
export const BUCKET_RANGE = { min: 5, max: 100 } as const;

interface ProductionQuery {
  axis: DensityAxis;
  onDisplay?: ActiveFilter<ObjectTable>;
  q?: { q: string; text: TextQuery };
}

/** An integer parameter, or a ParamError; undefined when absent. */
function integerParam(query: RawQuery, name: string): number | undefined {
  const value = single(query, name);
  if (value === undefined) return undefined;
  const number = /^[+-]?\d{1,16}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(number)) throw new ParamError(name, `Invalid ${name}. Use a whole number such as ${DEFAULT_AXIS[name as keyof DensityAxis] ?? 10}.`);
  return number;
}

/** The production request: clamps as the real service does (bucket to 5…100, yearFrom to ≥ 1, yearTo to ≤ 2100). */
export function parseProductionQuery(query: RawQuery): ProductionQuery {
  const bucket = Math.min(Math.max(integerParam(query, 'bucket') ?? DEFAULT_AXIS.bucket, BUCKET_RANGE.min), BUCKET_RANGE.max);
  const yearFrom = Math.max(integerParam(query, 'yearFrom') ?? DEFAULT_AXIS.yearFrom, FIRST_AXIS_YEAR);
  const yearTo = Math.min(integerParam(query, 'yearTo') ?? DEFAULT_AXIS.yearTo, LAST_AXIS_YEAR);
  if (yearFrom > yearTo) {
    throw new ParamError('yearFrom', `Invalid range: yearFrom (${yearFrom}) is after yearTo (${yearTo}). Years run from ${FIRST_AXIS_YEAR} to ${LAST_AXIS_YEAR}.`);
  }
  return { axis: { bucket, yearFrom, yearTo }, onDisplay: parseOnDisplay(query), q: textQuery(query) };
}

/** Parameters that narrow the population, as the bucket filter links repeat them. */
const populationParams = (query: ProductionQuery): [string, string][] => [...onDisplayParams(query.onDisplay), ...(query.q ? [['q', query.q.q] as [string, string]] : [])];

const round = (value: number, decimals: number): number => {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
};

const PRODUCTION_COMMENT =
  'Production density: how much of the published collection was being made in each period. Each dated object ' +
  'contributes a total weight of 1, spread evenly over the years of its recorded production and creation spans; ' +
  'only the years on the axis are counted. object_count counts the objects with a year in the bucket, exact_count ' +
  'those dated to that single year. Undated objects are left out.';

function productionIndex(base: string): IndexEndpoint<ObjectTable, ProductionQuery> {
  const years = new PerIndex();
  const populations = new PerIndex();
  const objects = `${base}/v2/id/objects`;
  return {
    name: 'production',
    kind: OBJECTS,
    parse: parseProductionQuery,
    params: (query) => {
      const { bucket, yearFrom, yearTo } = query.axis;
      const out: [string, string][] = [];
      if (bucket !== DEFAULT_AXIS.bucket) out.push(['bucket', String(bucket)]);
      if (yearFrom !== DEFAULT_AXIS.yearFrom) out.push(['yearFrom', String(yearFrom)]);
      if (yearTo !== DEFAULT_AXIS.yearTo) out.push(['yearTo', String(yearTo)]);
      return [...out, ...populationParams(query)];
    },
    // Text queries are open-ended; their density is computed per request from the matches.
    keep: (query) => query.q === undefined,
    document: (index, query, id) => {
      const table = index.table;
      const spans = years.get<ObjectYears>(index, 'years', () => objectYears(table.size, table.spans));
      const narrowing = [...(query.onDisplay ? [query.onDisplay] : [])];
      const population = query.q
        ? new DensityPopulation(spans, members(index.matching(narrowing, query.q.text), table.size))
        : populations.get(index, queryString(onDisplayParams(query.onDisplay)), () => new DensityPopulation(spans, members(index.matching(narrowing), table.size)));
      const buckets = densityBuckets(population, query.axis);
      const total = buckets.reduce((sum, bucket) => sum + bucket.weight, 0);
      const links = populationParams(query);
      return {
        '@context': indexContext(base),
        '@id': id,
        '@type': 'hydra:Collection',
        'rdfs:label': 'Time index',
        'rdfs:comment': PRODUCTION_COMMENT,
        bucket_size: query.axis.bucket,
        year_from: query.axis.yearFrom,
        year_to: query.axis.yearTo,
        total_weight: round(total, 3),
        buckets: buckets.map((bucket) => ({
          year: bucket.year,
          weight: round(bucket.weight, 4),
          share_pct: total > 0 ? round((bucket.weight / total) * 100, 2) : 0,
          object_count: bucket.objectCount,
          exact_count: bucket.exactCount,
          spread_factor: bucket.weight > 0 ? round(bucket.objectCount / bucket.weight, 1) : null,
          filter: withQuery(objects, [['date', `${bucket.year}/${bucket.lastYear}`], ...links]),
        })),
      };
    },
  };
}

/** The ids of `set`, or every id below `size` when nothing narrows. */
const members = (set: Bitset | undefined, size: number): Iterable<number> => set?.toArray() ?? Array.from({ length: size }, (_, id) => id);

// ---------------------------------------------------------------- colours

interface ColorStats {
  value: string;
  hex: string | null;
  object_count: number;
  /** Sum of the colour's dominance over the objects (for the palette share). */
  weight: number;
  avg_dominance_pct: number;
  swatches?: { label: string; hex: string | null; object_count: number; weight: number }[];
}

/** Statistics of every colour over the objects `within` (all when undefined), bases and tones, heaviest first. */
function colorStats(table: ObjectTable, within: Bitset | undefined): { bases: ColorStats[]; tones: ColorStats[] } {
  const inside = (id: number): boolean => within === undefined || within.has(id);
  const stat = (value: string, dominance: ReadonlyMap<number, number>): Omit<ColorStats, 'hex'> => {
    let count = 0;
    let weight = 0;
    for (const [id, percent] of dominance) {
      if (!inside(id)) continue;
      count += 1;
      weight += percent;
    }
    return { value, object_count: count, weight, avg_dominance_pct: count === 0 ? 0 : round(weight / count, 2) };
  };
  // Each tone's occurrences inside `within`: the clusters named after it, in the images of the objects.
  const occurrencesOf = new Map<string, { object: number; color: PaletteColor }[]>();
  for (const [object, images] of table.colors.images) {
    if (!inside(object)) continue;
    for (const image of images) {
      for (const color of image.colors) {
        const key = color.css.toLowerCase();
        let list = occurrencesOf.get(key);
        if (!list) occurrencesOf.set(key, (list = []));
        list.push({ object, color });
      }
    }
  }
  const tones: ColorStats[] = [];
  // Per base colour: its tones' occurrences (a tone joins the base its clusters fall in).
  const swatchesOf = new Map<string, { label: string; hexes: { hex: string; weight: number }[]; objects: Set<number>; weight: number }[]>();
  for (const [key, tone] of table.colors.tones) {
    const s = stat(tone.label, tone.dominance);
    if (s.object_count === 0) continue;
    const occurrences = occurrencesOf.get(key) ?? [];
    tones.push({ ...s, hex: linearLightCentroid(occurrences.map(({ color }) => ({ hex: color.hex, weight: color.percent }))) });
    const byBase = new Map<string, { hexes: { hex: string; weight: number }[]; objects: Set<number>; weight: number }>();
    for (const { object, color } of occurrences) {
      let entry = byBase.get(color.base);
      if (!entry) byBase.set(color.base, (entry = { hexes: [], objects: new Set(), weight: 0 }));
      entry.hexes.push({ hex: color.hex, weight: color.percent });
      entry.objects.add(object);
      entry.weight += color.percent;
    }
    for (const [base, entry] of byBase) {
      const list = swatchesOf.get(base) ?? [];
      list.push({ label: tone.label, ...entry });
      swatchesOf.set(base, list);
    }
  }
  const bases: ColorStats[] = [];
  for (const base of table.colors.bases.values()) {
    const s = stat(base.label, base.dominance);
    if (s.object_count === 0) continue;
    const list = (swatchesOf.get(base.label) ?? []).sort((a, b) => b.weight - a.weight || (a.label < b.label ? -1 : 1));
    const total = list.reduce((sum, swatch) => sum + swatch.weight, 0);
    const swatches = list.map((swatch) => ({
      label: swatch.label,
      hex: linearLightCentroid(swatch.hexes),
      object_count: swatch.objects.size,
      weight: total > 0 ? round((swatch.weight / total) * 100, 1) : 0,
    }));
    bases.push({ ...s, hex: swatches[0]?.hex ?? null, swatches });
  }
  const order = (a: ColorStats, b: ColorStats): number => b.weight - a.weight || (a.value < b.value ? -1 : 1);
  return { bases: bases.sort(order), tones: tones.sort(order) };
}

interface ColorIndexQuery {
  onDisplay?: ActiveFilter<ObjectTable>;
  minCount: number;
}

function colorIndex(base: string): IndexEndpoint<ObjectTable, ColorIndexQuery> {
  const stats = new PerIndex();
  return {
    name: 'colors',
    kind: OBJECTS,
    parse: (query) => {
      const minCount = integerParam(query, 'minCount') ?? 1;
      if (minCount < 0) throw new ParamError('minCount', 'Invalid minCount. Use a whole number from 0.');
      return { onDisplay: parseOnDisplay(query), minCount };
    },
    params: (query) => [...onDisplayParams(query.onDisplay), ...(query.minCount === 1 ? [] : [['minCount', String(query.minCount)] as [string, string]])],
    keep: () => true,
    document: (index, query, id) => {
      const variant = queryString(onDisplayParams(query.onDisplay));
      const all = stats.get(index, variant, () => colorStats(index.table, query.onDisplay ? index.matching([query.onDisplay]) : undefined));
      const extra = onDisplayParams(query.onDisplay);
      const entries = (list: ColorStats[], param: 'color' | 'cssColor'): Record<string, unknown>[] => {
        const total = list.reduce((sum, s) => sum + s.weight, 0);
        return list
          .filter((s) => s.object_count >= query.minCount)
          .map((s) => {
            const swatches = s.swatches?.filter((w) => w.object_count >= query.minCount);
            return {
              value: s.value,
              // A base colour's hex is its first listed swatch's (spec), so it follows minCount.
              hex: swatches?.[0]?.hex ?? s.hex,
              ...(swatches ? { swatches } : {}),
              object_count: s.object_count,
              collection_share_pct: total > 0 ? round((s.weight / total) * 100, 2) : 0,
              avg_dominance_pct: s.avg_dominance_pct,
              filter: withQuery(`${base}/v2/id/objects`, [[param, s.value], ...extra]),
              dominant: withQuery(`${base}/v2/id/colors/dominant`, [[param, s.value]]),
            };
          });
      };
      return {
        '@context': indexContext(base),
        '@id': id,
        '@type': 'hydra:Collection',
        'rdfs:label': 'Color index',
        'rdfs:comment': 'Color distribution across the Design Museum Gent collection with weighted statistics',
        base_colors: entries(all.bases, 'color'),
        css_colors: entries(all.tones, 'cssColor'),
      };
    },
  };
}

interface DominantQuery {
  /** `['color', base]` or `['cssColor', tone]`, as given. */
  param: [string, string];
  limit: number;
}

/** At most this many members per dominant-objects page (spec, "Limits"). */
const DOMINANT_LIMIT = { default: 20, max: 100 } as const;

/**
 * `/v2/id/colors/dominant`: the objects a colour covers most (spec, "Dominant-objects record"). Each member
 * carries the palette of its image that shows the colour most (its clusters heaviest first, `percentage` a
 * fraction as the real service writes it) and the image fields of its full record; an object whose images
 * all failed validation keeps its manifest and has no image fields.
 */
function dominantIndex(ctx: AppContext): IndexEndpoint<ObjectTable, DominantQuery> {
  const records = new CollectionMembers(ctx, OBJECTS);
  const context = dominantContext(ctx.iris.base);
  // A colour's objects by dominance, ranked once per generation (brown covers 17,820 objects at 50k).
  const rankings = new PerIndex();
  return {
    name: 'colors/dominant',
    kind: OBJECTS,
    parse: (query) => {
      const color = single(query, 'color');
      const cssColor = single(query, 'cssColor');
      if ((color === undefined) === (cssColor === undefined)) {
        throw new ParamError('color', 'Give exactly one of color (a base colour) and cssColor (a named tone from /v2/id/colors).');
      }
      const limit = integerParam(query, 'limit') ?? DOMINANT_LIMIT.default;
      if (limit < 1) throw new ParamError('limit', `Invalid limit. Use a whole number from 1 (at most ${DOMINANT_LIMIT.max} are served).`);
      const param: [string, string] = color !== undefined ? ['color', parseBaseColors([color])[0]!] : ['cssColor', cssColor!];
      return { param, limit: Math.min(limit, DOMINANT_LIMIT.max) };
    },
    params: (query) => [query.param, ['limit', String(query.limit)]],
    // Members are whole records' image fields: kept by the record cache, not as whole documents.
    keep: () => false,
    document: async (index, query, id) => {
      const { colors, iris } = index.table;
      const [name, value] = query.param;
      const color: ShownColor = name === 'color' ? { base: value as BaseColor } : { tone: value.toLowerCase() };
      const postings = 'base' in color ? colors.bases.get(color.base) : colors.tones.get(color.tone);
      // Keyed by the colour as the index names it, so no request can add keys of its own.
      const ranking = postings ? rankings.get(index, `${name}=${postings.label}`, () => [...postings.dominance].sort((a, b) => b[1] - a[1] || a[0] - b[0])) : [];
      const ranked = ranking.slice(0, query.limit);
      const bodies = (await records.fullRecords(ranked.map(([object]) => iris[object]!), index.generationId)) ?? [];
      const member = ranked.map(([object, percent], i) => {
        const record = JSON.parse(bodies[i] ?? '{}') as Record<string, unknown>;
        const image = imageShowing(colors.images.get(object) ?? [], color);
        return {
          '@id': iris[object],
          '@type': 'crm:E22_Human-Made_Object',
          'rdfs:label': record['rdfs:label'],
          dominance_pct: percent,
          palette: (image?.colors ?? []).map((c) => ({ hex: c.hex, css: c.css, base: c.base, percentage: round(c.percent / 100, 4) })),
          ...pick(record, ['crm:P138i_has_representation', 'image', 'crm:P129i_is_subject_of']),
        };
      });
      return {
        '@context': context,
        '@id': id,
        '@type': 'hydra:Collection',
        'rdfs:label': `Objects most dominant in ${postings?.label ?? value}`,
        'hydra:totalItems': postings?.ids.length ?? 0,
        'hydra:member': member,
      };
    },
  };
}

/** The given keys of a record that it has. */
const pick = (record: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> =>
  Object.fromEntries(keys.filter((key) => record[key] !== undefined).map((key) => [key, record[key]]));

// ---------------------------------------------------------------- the router

/** Routes of the index endpoints (mount under /v2, behind the readiness gate). */
export function indexRoutes(ctx: AppContext): Router {
  const router = Router();
  const base = ctx.iris.base;
  route(
    ctx,
    router,
    objectLabelIndex(
      base,
      {
        name: 'types',
        label: 'Object type index',
        comment: 'All object types in the Design Museum Gent collection with object counts',
        memberType: 'crm:E55_Type',
        countKey: 'object_count',
        filter: { collection: 'objects', param: 'type' },
      },
      (table) => termSets(table.typeTerms, table.typeLabels, true),
    ),
  );
  route(
    ctx,
    router,
    objectLabelIndex(
      base,
      {
        name: 'materials',
        label: 'Material index',
        comment: 'All materials in the Design Museum Gent collection with object counts',
        memberType: 'crm:E57_Material',
        countKey: 'object_count',
        filter: { collection: 'objects', param: 'material' },
      },
      (table) => termSets(table.materialTerms, table.materialLabels, false),
    ),
  );
  route(
    ctx,
    router,
    agentLabelIndex(
      base,
      {
        name: 'nationalities',
        label: 'Nationality index',
        comment: 'All nationalities in the Design Museum Gent agent records with agent counts',
        memberType: 'crm:E55_Type',
        countKey: 'agent_count',
        filter: { collection: 'agents', param: 'nationality' },
      },
      (table) => [...table.nationalityLabels].map(([key, label]) => ({ label, ids: table.nationalities.get(key) ?? [] })),
    ),
  );
  route(
    ctx,
    router,
    agentLabelIndex(
      base,
      {
        name: 'roles',
        label: 'Role index',
        comment: 'All roles in the Design Museum Gent agent records with agent counts',
        memberType: 'crm:E55_Type',
        countKey: 'agent_count',
        filter: { collection: 'agents', param: 'role' },
      },
      (table) => AGENT_ROLES.map((role) => ({ label: role, ids: table.roles[role] })),
    ),
  );
  route(ctx, router, productionIndex(base));
  route(ctx, router, dominantIndex(ctx));
  route(ctx, router, colorIndex(base));
  return router;
}
