/**
 * The facets of a kind's search page: each declared facet's values counted among the records the current query
 * selects (`countLabels` over the same postings the filters select with, so a value's count is the total of the
 * narrowed query). The value sets are made once per generation's table.
 */
import type { CollectionIndex } from '../collection-index/collection-index.js';
import type { ActiveFilter } from '../collection-index/filters/filter.js';
import type { RecordTable } from '../collection-index/record-table.js';
import type { TextQuery } from '../collection-index/text/query-parser.js';
import type { ResourceKind } from '../engine/kind.js';
import { countLabels, type LabelledSet } from '../engine/label-index.js';
import type { FacetView } from './collection-page.js';

/** Values shown per facet. */
export const FACET_VALUES = 12;

const made = new WeakMap<RecordTable, (readonly LabelledSet[])[]>();

/** The facets of `kind` under the query (its filters and text). */
export function facetViews<T extends RecordTable>(kind: ResourceKind<T>, index: CollectionIndex<T>, filters: readonly ActiveFilter<T>[], text: TextQuery | undefined): FacetView[] {
  const facets = kind.facets ?? [];
  if (facets.length === 0) return [];
  let sets = made.get(index.table);
  if (sets === undefined) {
    sets = facets.map((facet) => facet.sets(index.table));
    made.set(index.table, sets);
  }
  const within = index.matching(filters, text);
  return facets.map((facet, i) => ({ param: facet.param, title: facet.title, combines: facet.combines ?? true, values: countLabels(sets[i]!, within).slice(0, FACET_VALUES) }));
}
