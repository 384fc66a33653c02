/**
 * `color` (base colours, comma = AND), `cssColor` (named tones as the colour index lists them, whole and ignoring
 * case, comma = AND; a value that is itself a tone name with a comma is that tone) and `hasColors` (objects with
 * at least one analysed image, or without any when false). An object matches a colour when one of its images
 * shows it: the colour index's `object_count` of a colour is this filter's total.
 */
import { Bitset } from '../../../collection-index/bitset.js';
import { ParamError } from '../../../collection-index/filters/filter.js';
import { booleanParam, labelsOf, rawList } from '../../../collection-index/filters/params.js';
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
    const set = Bitset.full(host.table.size);
    for (const color of colors) set.and(Bitset.of(host.table.size, host.table.colors.bases.get(color)?.ids ?? []));
    return set;
  },
});

export const cssColorFilter = defineObjectFilter<string[]>({
  name: 'cssColor',
  params: ['cssColor'],
  parse: (query) => {
    const values = rawList(query, 'cssColor');
    return values.length > 0 ? values : undefined;
  },
  link: (values) => values.map((value): [string, string] => ['cssColor', value]),
  select: (values, host) => {
    const { tones } = host.table.colors;
    const set = Bitset.full(host.table.size);
    for (const tone of labelsOf(values, (key) => tones.has(key))) set.and(Bitset.of(host.table.size, tones.get(tone)?.ids ?? []));
    return set;
  },
});

export const hasColorsFilter = defineObjectFilter<boolean>({
  name: 'hasColors',
  params: ['hasColors'],
  parse: (query) => booleanParam(query, 'hasColors'),
  link: (value) => [['hasColors', String(value)]],
  select: (value, host) => (value ? host.table.colors.hasColors.clone() : host.table.colors.hasColors.complement()),
});
