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
import type { PageLanguage } from './messages.js';

/** Values shown per facet ordered by count (the most frequent). */
export const FACET_VALUES = 12;
/** Values shown per facet ordered by label (a period facet: every decade of the results, up to this many). */
export const LABEL_ORDERED_VALUES = 40;

const made = new WeakMap<RecordTable, (readonly LabelledSet[])[]>();

/** The facets of `kind` under the query (its filters and text), headed in `lang`. */
export function facetViews<T extends RecordTable>(kind: ResourceKind<T>, index: CollectionIndex<T>, filters: readonly ActiveFilter<T>[], text: TextQuery | undefined, lang: PageLanguage): FacetView[] {
  const facets = kind.facets ?? [];
  if (facets.length === 0) return [];
  let sets = made.get(index.table);
  if (sets === undefined) {
    sets = facets.map((facet) => facet.sets(index.table));
    made.set(index.table, sets);
  }
  const within = index.matching(filters, text);
  return facets.map((facet, i) => {
    const counted = countLabels(sets[i]!, within);
    // By count, the most frequent values; by label (periods), every value in that order.
    const values = facet.order === 'label' ? counted.sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0)).slice(0, LABEL_ORDERED_VALUES) : counted.slice(0, FACET_VALUES);
    return { param: facet.param, title: facet.title[lang], combines: facet.combines ?? true, values };
  });
}
