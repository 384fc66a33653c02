/** `type` and `material`: the Dutch concept labels the type and material indexes list (comma = AND, label-values.ts). */
import { labelValuesFilter } from '../../../collection-index/filters/label-values.js';
import type { ObjectTable } from '../table.js';

export const typeFilter = labelValuesFilter<ObjectTable>('type', (table) => table.typeLabels);
export const materialFilter = labelValuesFilter<ObjectTable>('material', (table) => table.materialLabels);
