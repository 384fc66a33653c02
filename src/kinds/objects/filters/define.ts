/** Objects-collection filters see the object table. */
import { defineFilter, type CollectionFilter, type FilterDefinition } from '../../../collection-index/filters/filter.js';
import type { ObjectTable } from '../table.js';

export type ObjectFilter = CollectionFilter<ObjectTable>;

/** `defineFilter` for a filter over the object table. */
export const defineObjectFilter = <V, S = undefined>(definition: FilterDefinition<V, S, ObjectTable>): ObjectFilter => defineFilter(definition);
