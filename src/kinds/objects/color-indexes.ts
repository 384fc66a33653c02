/**
 * The objects' colour indexes (spec, "Color index", "Dominant-objects record"): `/v2/id/colors`, the weighted
 * statistics of every base colour and named tone, and `/v2/id/colors/dominant`, the objects a colour covers
 * most. Computed from the colour postings of the objects' collection index.
 */
import type { ServiceContext } from '../../engine/service-context.js';
import type { Bitset } from '../../collection-index/bitset.js';
import { ParamError, type ActiveFilter } from '../../collection-index/filters/filter.js';
import { single } from '../../collection-index/filters/params.js';
import { linearLightCentroid } from '../../colors/centroid.js';
import type { BaseColor } from '../../colors/base-colors.js';
import { filterParams, integerParam, PerIndex, queryString, round, withQuery, type IndexEndpoint } from '../../endpoints/index-endpoints.js';
import type { ResourceKind } from '../../engine/kind.js';
import { CollectionMembers } from '../../endpoints/collection-members.js';
import { dominantContext, indexContext } from '../../endpoints/index-context.js';
import { imageShowing, type PaletteColor, type ShownColor } from './colors.js';
import { parseBaseColors } from './filters/colors.js';
import { onDisplayFilter } from './filters/on-display.js';
import type { ObjectTable } from './table.js';

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

export function colorIndex(base: string): IndexEndpoint<ObjectTable, ColorIndexQuery> {
  const stats = new PerIndex();
  return {
    name: 'colors',
    parse: (query) => {
      const minCount = integerParam(query, 'minCount') ?? 1;
      if (minCount < 0) throw new ParamError('minCount', 'Invalid minCount. Use a whole number from 0.');
      return { onDisplay: onDisplayFilter.parse(query), minCount };
    },
    params: (query) => [...filterParams(query.onDisplay), ...(query.minCount === 1 ? [] : [['minCount', String(query.minCount)] as [string, string]])],
    keep: () => true,
    document: (index, query, id) => {
      const variant = queryString(filterParams(query.onDisplay));
      const all = stats.get(index, variant, () => colorStats(index.table, query.onDisplay ? index.matching([query.onDisplay]) : undefined));
      const extra = filterParams(query.onDisplay);
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
export function dominantIndex(ctx: ServiceContext, kind: ResourceKind<ObjectTable>): IndexEndpoint<ObjectTable, DominantQuery> {
  const records = new CollectionMembers(ctx, kind);
  const context = dominantContext(ctx.iris.base);
  // A colour's objects by dominance, ranked once per generation (brown covers 17,820 objects at 50k).
  const rankings = new PerIndex();
  return {
    name: 'colors/dominant',
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
