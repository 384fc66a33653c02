/**
 * `type` and `material`: labels as the type and material indexes list them (the Dutch concept label),
 * matched whole and ignoring case. Comma-separated values, or the parameter repeated, must all hold; a value
 * that is itself a label with a comma (`kast, laag`) is that label (params.ts, `labelsOf`).
 */
import { Bitset } from '../../../collection-index/bitset.js';
import type { Postings } from '../../../collection-index/postings.js';
import type { ObjectTable } from '../table.js';
import { defineObjectFilter, type ObjectFilter } from './define.js';
import { labelsOf, rawList } from '../../../collection-index/filters/params.js';

function labelFilter(param: string, postings: (table: ObjectTable) => Postings): ObjectFilter {
  return defineObjectFilter<string[]>({
    name: param,
    params: [param],
    parse: (query) => {
      const values = rawList(query, param);
      return values.length > 0 ? values : undefined;
    },
    link: (values) => values.map((value): [string, string] => [param, value]),
    select: (values, host) => {
      const known = postings(host.table);
      let set: Bitset | undefined;
      for (const label of labelsOf(values, (key) => known.has(key))) {
        const ids = Bitset.of(host.table.size, known.get(label) ?? []);
        set = set ? set.and(ids) : ids;
      }
      return set ?? Bitset.full(host.table.size);
    },
  });
}

export const typeFilter = labelFilter('type', (table) => table.typeLabels);
export const materialFilter = labelFilter('material', (table) => table.materialLabels);
