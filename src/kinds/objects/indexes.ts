/**
 * The objects' index endpoints (spec, "Material index", "Production density", "Other indexes"): `/v2/id/types`
 * and `/v2/id/materials` (label indexes, narrowed by `onDisplay`), `/v2/id/production`, and the colour
 * indexes of colour-indexes.ts. Label indexes are computed once per generation and variant and kept with that
 * generation's index; the production density is prepared once per generation and population and then costs
 * O(buckets × log n) per request.
 */
import type { ServiceContext } from '../../engine/service-context.js';
import type { Bitset } from '../../collection-index/bitset.js';
import { ParamError, type ActiveFilter, type RawQuery } from '../../collection-index/filters/filter.js';
import type { TextQuery } from '../../collection-index/text/query-parser.js';
import { filterParams, integerParam, labelIndex, PerIndex, queryString, round, withQuery, type IndexEndpoint } from '../../endpoints/index-endpoints.js';
import type { ResourceKind } from '../../engine/kind.js';
import type { LabelledSet } from '../../engine/label-index.js';
import { BASE_COLORS } from '../../colors/base-colors.js';
import { textQuery } from '../../endpoints/collection-params.js';
import { indexContext } from '../../endpoints/index-context.js';
import { colorIndex, dominantIndex } from './color-indexes.js';
import { similarEndpoint } from './similar.js';
import { onDisplayFilter } from './filters/on-display.js';
import {
  DensityPopulation,
  densityBuckets,
  FIRST_AXIS_YEAR,
  LAST_AXIS_YEAR,
  objectYears,
  type DensityAxis,
  type ObjectYears,
} from './production-density.js';
import type { LabelTerm, ObjectTable } from './table.js';

/** Type or material terms with their postings; a member names its concept when the label has exactly one. */
export function termSets(terms: ReadonlyMap<string, LabelTerm>, postings: ReadonlyMap<string, Uint32Array>, withIri: boolean): LabelledSet[] {
  return [...terms].map(([key, term]) => ({
    label: term.label,
    ids: postings.get(key) ?? [],
    iri: withIri && term.concepts.length === 1 ? term.concepts[0] : undefined,
  }));
}

export const DEFAULT_AXIS: DensityAxis = { bucket: 10, yearFrom: 1600, yearTo: 2030 };
export const BUCKET_RANGE = { min: 5, max: 100 } as const;

interface ProductionQuery {
  axis: DensityAxis;
  onDisplay?: ActiveFilter<ObjectTable>;
  q?: { q: string; text: TextQuery };
}

/** An axis parameter (its default is the example of its error). */
const axisParam = (query: RawQuery, name: keyof DensityAxis): number | undefined => integerParam(query, name, DEFAULT_AXIS[name]);

/** The production request: clamps as the real service does (bucket to 5…100, yearFrom to ≥ 1, yearTo to ≤ 2100). */
export function parseProductionQuery(query: RawQuery): ProductionQuery {
  const bucket = Math.min(Math.max(axisParam(query, 'bucket') ?? DEFAULT_AXIS.bucket, BUCKET_RANGE.min), BUCKET_RANGE.max);
  const yearFrom = Math.max(axisParam(query, 'yearFrom') ?? DEFAULT_AXIS.yearFrom, FIRST_AXIS_YEAR);
  const yearTo = Math.min(axisParam(query, 'yearTo') ?? DEFAULT_AXIS.yearTo, LAST_AXIS_YEAR);
  if (yearFrom > yearTo) {
    throw new ParamError('yearFrom', `Invalid range: yearFrom (${yearFrom}) is after yearTo (${yearTo}). Years run from ${FIRST_AXIS_YEAR} to ${LAST_AXIS_YEAR}.`);
  }
  return { axis: { bucket, yearFrom, yearTo }, onDisplay: onDisplayFilter.parse(query), q: textQuery(query) };
}

/** Parameters that narrow the population, as the bucket filter links repeat them. */
const populationParams = (query: ProductionQuery): [string, string][] => [...filterParams(query.onDisplay), ...(query.q ? [['q', query.q.q] as [string, string]] : [])];

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
        : populations.get(index, queryString(filterParams(query.onDisplay)), () => new DensityPopulation(spans, members(index.matching(narrowing), table.size)));
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

/** The type labels and their objects (the types index, the type facet). */
export const typeSets = (table: ObjectTable): LabelledSet[] => termSets(table.typeTerms, table.typeLabels, true);
/** The material labels and their objects. */
export const materialSets = (table: ObjectTable): LabelledSet[] => termSets(table.materialTerms, table.materialLabels, false);
/** The base colours and their objects (what `color` selects). */
export const baseColorSets = (table: ObjectTable): LabelledSet[] => BASE_COLORS.map((color) => ({ label: color, ids: table.colors.bases.get(color)?.ids ?? [] }));

/**
 * The decades and the objects with a production or creation span overlapping each (what `date=<decade>`
 * selects: src/kinds/objects/filters/production-date.ts), labelled as that filter value, `1950/1959`.
 */
export function decadeSets(table: ObjectTable): LabelledSet[] {
  const { object, begin, end } = table.spans;
  const decades = new Map<number, Set<number>>();
  for (let i = 0; i < object.length; i++) {
    if (!Number.isFinite(begin[i]!) || !Number.isFinite(end[i]!)) continue;
    for (let decade = Math.floor(begin[i]! / 10) * 10; decade <= end[i]!; decade += 10) {
      let ids = decades.get(decade);
      if (!ids) decades.set(decade, (ids = new Set()));
      ids.add(object[i]!);
    }
  }
  return [...decades].map(([decade, ids]) => ({ label: `${decade}/${decade + 9}`, ids: Uint32Array.from([...ids].sort((a, b) => a - b)) }));
}

/** The ids of `set`, or every id below `size` when nothing narrows. */
const members = (set: Bitset | undefined, size: number): Iterable<number> => set?.toArray() ?? Array.from({ length: size }, (_, id) => id);

/** The index endpoints the objects kind declares, in the order they are routed. */
export function objectIndexes(ctx: ServiceContext, kind: ResourceKind<ObjectTable>): IndexEndpoint<ObjectTable, never>[] {
  const base = ctx.iris.base;
  const endpoints = [
    labelIndex<ObjectTable>(
      base,
      {
        name: 'types',
        label: 'Object type index',
        comment: 'All object types in the Design Museum Gent collection with object counts',
        memberType: 'crm:E55_Type',
        countKey: 'object_count',
        filter: { collection: 'objects', param: 'type' },
      },
      typeSets,
      onDisplayFilter,
    ),
    labelIndex<ObjectTable>(
      base,
      {
        name: 'materials',
        label: 'Material index',
        comment: 'All materials in the Design Museum Gent collection with object counts',
        memberType: 'crm:E57_Material',
        countKey: 'object_count',
        filter: { collection: 'objects', param: 'material' },
      },
      materialSets,
      onDisplayFilter,
    ),
    productionIndex(base),
    dominantIndex(ctx, kind),
    colorIndex(base),
    similarEndpoint(base),
  ];
  return endpoints as unknown as IndexEndpoint<ObjectTable, never>[];
}
