/**
 * The yes-only filters: `hasImages`, `hasParts`, `isPartOf`. `true` keeps the objects with the flag;
 * `false` (the default) keeps everything, as the spec's default of false says.
 */
import type { Bitset } from '../../../collection-index/bitset.js';
import type { ObjectTable } from '../table.js';
import { defineObjectFilter, type ObjectFilter } from './define.js';
import { booleanParam } from '../../../collection-index/filters/params.js';

function flagFilter(param: string, flag: (table: ObjectTable) => Bitset): ObjectFilter {
  return defineObjectFilter<true>({
    name: param,
    params: [param],
    parse: (query) => (booleanParam(query, param) === true ? true : undefined),
    link: () => [[param, 'true']],
    select: (_value, host) => flag(host.table),
  });
}

/** Only objects with a IIIF manifest. */
export const hasImagesFilter = flagFilter('hasImages', (table) => table.hasImages);
/** Only koepelrecords. */
export const hasPartsFilter = flagFilter('hasParts', (table) => table.koepels);
/** Only set members. */
export const isPartOfFilter = flagFilter('isPartOf', (table) => table.setMembers);
