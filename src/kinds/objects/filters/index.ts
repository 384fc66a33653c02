/**
 * Every filter of the objects collection, in the order pagination links list their parameters (the spec's
 * table), one module each; `colors` is not a filter but the record view of kind.ts.
 */
import { agentFilter } from './agent.js';
import { colorFilter, cssColorFilter, hasColorsFilter } from './colors.js';
import { conceptFilter, conceptSearchFilter } from './concept.js';
import { languageFilter } from '../../../collection-index/filters/language.js';
import { INVALID_MODIFIED_SINCE, modifiedSinceFilter } from '../../../collection-index/filters/modified-since.js';
import type { ObjectFilter } from './define.js';
import { hasImagesFilter, hasPartsFilter, isPartOfFilter } from './flags.js';
import { koepelsFilter } from './koepels.js';
import { materialFilter, typeFilter } from './labels.js';
import { onDisplayFilter } from './on-display.js';
import { productionDateFilter } from './production-date.js';

export const OBJECT_FILTERS: readonly ObjectFilter[] = [
  modifiedSinceFilter(INVALID_MODIFIED_SINCE),
  hasImagesFilter,
  hasPartsFilter,
  isPartOfFilter,
  onDisplayFilter,
  languageFilter((table) => table.hasTitleIn),
  typeFilter,
  materialFilter,
  agentFilter,
  productionDateFilter,
  conceptFilter,
  conceptSearchFilter,
  koepelsFilter,
  colorFilter,
  cssColorFilter,
  hasColorsFilter,
];

/** Parameters of the spec that no module handles yet: they answer 400 rather than being silently ignored. */
export const PLANNED_PARAMS = [] as const;
