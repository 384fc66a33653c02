/**
 * `type` and `material`: labels as the type and material indexes list them (the Dutch concept label),
 * matched whole and ignoring case. Comma-separated values, or the parameter repeated, must all hold.
 */
import { Bitset } from '../../../collection-index/bitset.js';
import type { Postings } from '../../../collection-index/postings.js';
import type { ObjectTable } from '../table.js';
import { defineObjectFilter, type ObjectFilter } from './define.js';
import { commaList } from '../../../collection-index/filters/params.js';

function labelFilter(param: string, postings: (table: ObjectTable) => Postings): ObjectFilter {
  return defineObjectFilter<string[]>({
    name: param,
    params: [param],
    parse: (query) => {
      const labels = commaList(query, param);
      return labels.length > 0 ? labels : undefined;
    },
    link: (labels) => [[param, labels.join(',')]],
    select: (labels, host) => {
      let set: Bitset | undefined;
      for (const label of labels) {
        const ids = Bitset.of(host.table.size, postings(host.table).get(label.toLowerCase()) ?? []);
        set = set ? set.and(ids) : ids;
      }
      return set ?? Bitset.full(host.table.size);
    },
  });
}

export const typeFilter = labelFilter('type', (table) => table.typeLabels);
export const materialFilter = labelFilter('material', (table) => table.materialLabels);
