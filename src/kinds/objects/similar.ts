/**
 * Related objects: `GET /v2/id/object/{pid}/similar` ranks the other listed objects by what they share with
 * the object, from the collection index's postings alone (no store query). Each shared feature adds its
 * weight (docs/similar.md):
 *
 *   maker (designer or producer)  5    type  3    other concept (technique, sub-collection)  2
 *   material                      1    base colour of its images  0.5    overlapping period  1
 *
 * The period counts only for an object that shares something else (two dated objects always overlap
 * somewhere in a large collection). Ties go to pid order, so the answer is deterministic. Each member says
 * why it is there (`shares`: the feature, and the concept, agent or colour shared).
 */
import { ParamError, type RawQuery } from '../../collection-index/filters/filter.js';
import { single } from '../../collection-index/filters/params.js';
import { integerParam, PerIndex, type IndexEndpoint } from '../../endpoints/index-endpoints.js';
import type { RelatedRecord } from '../../engine/kind.js';
import { indexContext } from '../../endpoints/index-context.js';
import { NotFoundError } from '../../http/errors.js';
import { BASE_COLORS } from '../../colors/base-colors.js';
import { PID } from '../../vocab/iris.js';
import type { ObjectTable } from './table.js';
import { compareCodePoints } from '../../collection-index/record-table.js';

export const SIMILARITY_WEIGHTS = { maker: 5, type: 3, concept: 2, material: 1, color: 0.5, period: 1 } as const;
export type SharedFeature = keyof typeof SIMILARITY_WEIGHTS;
export const SIMILAR_LIMIT = { default: 10, max: 50 } as const;

/** One shared feature of a member: what it is, and the concept, agent or colour. */
export interface Shared {
  feature: SharedFeature;
  /** A concept or agent IRI, or a base colour's name; none for the period. */
  value?: string;
}

export interface Similar {
  id: number;
  score: number;
  shares: Shared[];
}

/** Per object, the keys of each feature it has (the postings read backwards), made once per table. */
interface Features {
  makers: (readonly string[])[];
  concepts: (readonly string[])[];
  colors: (readonly string[])[];
  /** The feature a concept counts as (type, material or concept). */
  conceptFeature: ReadonlyMap<string, SharedFeature>;
}

const featuresOf = new WeakMap<ObjectTable, Features>();

function reverse(size: number, postings: Iterable<readonly [string, ArrayLike<number>]>): string[][] {
  const keys: string[][] = Array.from({ length: size }, () => []);
  for (const [key, ids] of postings) for (let i = 0; i < ids.length; i++) keys[ids[i]!]!.push(key);
  return keys;
}

function features(table: ObjectTable): Features {
  let made = featuresOf.get(table);
  if (made === undefined) {
    const conceptFeature = new Map<string, SharedFeature>();
    for (const term of table.materialTerms.values()) for (const iri of term.concepts) conceptFeature.set(iri, 'material');
    // A concept used both ways counts as a type, the stronger.
    for (const term of table.typeTerms.values()) for (const iri of term.concepts) conceptFeature.set(iri, 'type');
    made = {
      makers: reverse(table.size, table.agents),
      concepts: reverse(table.size, table.concepts),
      colors: reverse(table.size, BASE_COLORS.map((color) => [color, table.colors.bases.get(color)?.ids ?? []] as const)),
      conceptFeature,
    };
    featuresOf.set(table, made);
  }
  return made;
}

const overlaps = (table: ObjectTable, a: number, b: number): boolean =>
  !Number.isNaN(table.periodBegin[a]!) && !Number.isNaN(table.periodBegin[b]!) && table.periodBegin[a]! <= table.periodEnd[b]! && table.periodBegin[b]! <= table.periodEnd[a]!;

/** The `limit` objects most like object `id`, best first. */
export function similarObjects(table: ObjectTable, id: number, limit: number): Similar[] {
  const f = features(table);
  const scores = new Float64Array(table.size);
  const touched: number[] = [];
  const add = (ids: ArrayLike<number> | undefined, weight: number): void => {
    if (ids === undefined) return;
    for (let i = 0; i < ids.length; i++) {
      const other = ids[i]!;
      if (scores[other] === 0) touched.push(other);
      scores[other]! += weight;
    }
  };
  for (const agent of f.makers[id]!) add(table.agents.get(agent), SIMILARITY_WEIGHTS.maker);
  for (const concept of f.concepts[id]!) add(table.concepts.get(concept), SIMILARITY_WEIGHTS[f.conceptFeature.get(concept) ?? 'concept']);
  for (const color of f.colors[id]!) add(table.colors.bases.get(color as (typeof BASE_COLORS)[number])?.ids, SIMILARITY_WEIGHTS.color);
  const ranked: { id: number; score: number }[] = [];
  for (const other of touched) {
    if (other === id) continue;
    const score = scores[other]! + (overlaps(table, id, other) ? SIMILARITY_WEIGHTS.period : 0);
    ranked.push({ id: other, score });
  }
  ranked.sort((a, b) => b.score - a.score || a.id - b.id);
  return ranked.slice(0, limit).map(({ id: other, score }) => ({ id: other, score, shares: shared(table, f, id, other) }));
}

/**
 * What `a` and `b` share, in the order of the weights, then of the concept, agent or colour: an answer must not
 * depend on the order in which the index read its rows (stored index or store), or replicas of one generation
 * would send different bytes.
 */
function shared(table: ObjectTable, f: Features, a: number, b: number): Shared[] {
  const both = (keys: (readonly string[])[]): string[] => keys[a]!.filter((key) => keys[b]!.includes(key));
  const concepts = both(f.concepts).map((value): Shared => ({ feature: f.conceptFeature.get(value) ?? 'concept', value }));
  const order: SharedFeature[] = ['maker', 'type', 'concept', 'material', 'color', 'period'];
  return [
    ...both(f.makers).map((value): Shared => ({ feature: 'maker', value })),
    ...concepts,
    ...both(f.colors).map((value): Shared => ({ feature: 'color', value })),
    ...(overlaps(table, a, b) ? [{ feature: 'period' } as Shared] : []),
  ].sort((x, y) => order.indexOf(x.feature) - order.indexOf(y.feature) || compareCodePoints(x.value ?? '', y.value ?? ''));
}

interface SimilarQuery {
  pid: string;
  limit: number;
}

/** The endpoint, routed as an index endpoint of the objects with the object's pid in its path. */
export function similarEndpoint(base: string): IndexEndpoint<ObjectTable, SimilarQuery> {
  const answers = new PerIndex();
  return {
    name: 'object/:pid/similar',
    parse: (query: RawQuery, params?: Readonly<Record<string, string>>): SimilarQuery => {
      const pid = params?.pid ?? '';
      if (!PID.test(pid)) throw new ParamError('pid', 'Invalid object number.');
      if (single(query, 'limit') !== undefined && !/^\d{1,3}$/.test(single(query, 'limit')!)) throw new ParamError('limit', `Invalid limit. Use a whole number from 1 to ${SIMILAR_LIMIT.max}.`);
      const limit = integerParam(query, 'limit', SIMILAR_LIMIT.default) ?? SIMILAR_LIMIT.default;
      if (limit < 1 || limit > SIMILAR_LIMIT.max) throw new ParamError('limit', `Invalid limit. Use a whole number from 1 to ${SIMILAR_LIMIT.max}.`);
      return { pid, limit };
    },
    params: (query) => (query.limit === SIMILAR_LIMIT.default ? [] : [['limit', String(query.limit)]]),
    keep: () => false,
    document: (index, query, id) => {
      const table = index.table;
      const object = table.idOf.get(index.iris.object(query.pid));
      // Only a listed object has neighbours: an unknown, private, removed or moved one is not found here.
      if (object === undefined) throw new NotFoundError('Object not found');
      const members = answers.get(index, `${object}`, () => similarObjects(table, object, SIMILAR_LIMIT.max)).slice(0, query.limit);
      return {
        '@context': indexContext(base),
        '@id': id,
        '@type': 'hydra:Collection',
        'rdfs:label': `Objects like ${query.pid}`,
        'rdfs:comment': 'Other public objects ranked by what they share with the object: maker 5, type 3, other concept 2, material 1, base colour 0.5, overlapping period 1 (docs/similar.md).',
        'hydra:totalItems': members.length,
        'hydra:member': members.map((member) => ({
          '@id': table.iris[member.id],
          '@type': 'crm:E22_Human-Made_Object',
          'rdfs:label': table.titles.nl[member.id] ?? table.pids[member.id],
          similarity: member.score,
          shares: member.shares.map((s) => (s.value === undefined ? { feature: s.feature } : { feature: s.feature, value: /^https?:/.test(s.value) ? { '@id': s.value } : s.value })),
        })),
      };
    },
  };
}

const FEATURE_WORDS: Readonly<Record<SharedFeature, string>> = { maker: 'maker', type: 'type', concept: 'concept', material: 'material', color: 'colour', period: 'period' };

/** The objects a page shows as related to object `id`, with what they share in words. */
export function relatedObjects(table: ObjectTable, id: number, limit: number): RelatedRecord[] {
  return similarObjects(table, id, limit).map((s) => ({
    id: s.id,
    label: table.titles.nl[s.id] ?? table.pids[s.id]!,
    why: [...new Set(s.shares.map((shared) => FEATURE_WORDS[shared.feature]))].join(', '),
  }));
}
