/**
 * Every filter of the objects collection, in the order pagination links list their parameters (the spec's
 * table). The colour issue adds `color`, `cssColor`, `hasColors` (and `colors`, which is not a filter) as one
 * module each here; until a module claims them their names stay reserved and answer 400 rather than
 * being silently ignored, which would list objects of every colour.
 */
import { agentFilter } from './agent.js';
import { conceptFilter, conceptSearchFilter } from './concept.js';
import type { ObjectFilter } from './filter.js';
import { hasImagesFilter, hasPartsFilter, isPartOfFilter } from './flags.js';
import { koepelsFilter } from './koepels.js';
import { materialFilter, typeFilter } from './labels.js';
import { languageFilter } from './language.js';
import { modifiedSinceFilter } from './modified-since.js';
import { onDisplayFilter } from './on-display.js';
import { productionDateFilter } from './production-date.js';

export const OBJECT_FILTERS: readonly ObjectFilter[] = [
  modifiedSinceFilter,
  hasImagesFilter,
  hasPartsFilter,
  isPartOfFilter,
  onDisplayFilter,
  languageFilter,
  typeFilter,
  materialFilter,
  agentFilter,
  productionDateFilter,
  conceptFilter,
  conceptSearchFilter,
  koepelsFilter,
];

/** Parameters of the spec that no module handles yet. */
const PLANNED = ['color', 'cssColor', 'colors', 'hasColors'];

/** Spec parameters that no filter module claims yet, given `filters`. */
export function unclaimedParams(filters: readonly ObjectFilter[] = OBJECT_FILTERS): string[] {
  const claimed = new Set(filters.flatMap((filter) => filter.params));
  return PLANNED.filter((param) => !claimed.has(param));
}
