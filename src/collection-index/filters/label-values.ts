/**
 * A filter on labels with the comma = AND rule (objects `type`, `material`, `cssColor`; agents `nationality`):
 * whole labels, ignoring case; comma-separated values, or the parameter repeated, must all hold; a value that is
 * itself a label with a comma (`kast, laag`) is that label (params.ts, `labelsOf`). Links repeat each value as given.
 */
import { Bitset } from '../bitset.js';
import type { RecordTable } from '../record-table.js';
import { defineFilter, type CollectionFilter } from './filter.js';
import { labelsOf, rawList } from './params.js';

/** The records of each lower-cased label, as the kind's table holds them. */
export interface LabelLookup {
  has(key: string): boolean;
  get(key: string): Iterable<number> | undefined;
}

export function labelValuesFilter<T extends RecordTable>(param: string, lookup: (table: T) => LabelLookup): CollectionFilter<T> {
  return defineFilter<string[], undefined, T>({
    name: param,
    params: [param],
    parse: (query) => {
      const values = rawList(query, param);
      return values.length > 0 ? values : undefined;
    },
    link: (values) => values.map((value): [string, string] => [param, value]),
    select: (values, host) => {
      const labels = lookup(host.table);
      let set = Bitset.full(host.table.size);
      for (const label of labelsOf(values, (key) => labels.has(key))) set = set.and(Bitset.of(host.table.size, labels.get(label) ?? []));
      return set;
    },
  });
}
