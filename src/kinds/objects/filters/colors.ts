/**
 * `color` (base colours, comma = AND), `cssColor` (named tones as the colour index lists them, whole and ignoring
 * case, comma = AND; a value that is itself a tone name with a comma is that tone) and `hasColors` (objects with
 * at least one analysed image, or without any when false). An object matches a colour when one of its images
 * shows it: the colour index's `object_count` of a colour is this filter's total.
 */
import { Bitset } from '../../../collection-index/bitset.js';
import { ParamError } from '../../../collection-index/filters/filter.js';
import { labelValuesFilter } from '../../../collection-index/filters/label-values.js';
import { booleanParam, rawList } from '../../../collection-index/filters/params.js';
import type { ObjectTable } from '../table.js';
import { BASE_COLORS, type BaseColor } from '../../../colors/base-colors.js';
import { defineObjectFilter } from './define.js';

export const INVALID_BASE_COLOR = `Invalid color. Use one of the base colours: ${BASE_COLORS.join(', ')}.`;

/** The base colours of a `color` value list; a ParamError for any other word. */
export function parseBaseColors(values: readonly string[], param = 'color'): BaseColor[] {
  const colors = values.flatMap((value) => value.split(',')).map((part) => part.trim().toLowerCase()).filter((part) => part !== '');
  for (const color of colors) if (!(BASE_COLORS as readonly string[]).includes(color)) throw new ParamError(param, INVALID_BASE_COLOR);
  return colors as BaseColor[];
}

export const colorFilter = defineObjectFilter<BaseColor[]>({
  name: 'color',
  params: ['color'],
  parse: (query) => {
    const colors = parseBaseColors(rawList(query, 'color'));
    return colors.length > 0 ? colors : undefined;
  },
  link: (colors) => [['color', colors.join(',')]],
  select: (colors, host) => {
    let set = Bitset.full(host.table.size);
    for (const color of colors) set = set.and(Bitset.of(host.table.size, host.table.colors.bases.get(color)?.ids ?? []));
    return set;
  },
});

export const cssColorFilter = labelValuesFilter<ObjectTable>('cssColor', (table) => ({
  has: (key) => table.colors.tones.has(key),
  get: (key) => table.colors.tones.get(key)?.ids,
}));

export const hasColorsFilter = defineObjectFilter<boolean>({
  name: 'hasColors',
  params: ['hasColors'],
  parse: (query) => booleanParam(query, 'hasColors'),
  link: (value) => [['hasColors', String(value)]],
  select: (value, host) => (value ? host.table.colors.hasColors : host.table.colors.hasColors.complement()),
});
