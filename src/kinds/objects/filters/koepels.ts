/** `koepels=exclude` hides koepelrecords; `include` is the default and filters nothing. */
import { defineObjectFilter } from './define.js';
import { oneOf } from '../../../collection-index/filters/params.js';

export const koepelsFilter = defineObjectFilter<'exclude'>({
  name: 'koepels',
  params: ['koepels'],
  parse: (query) => (oneOf(query, 'koepels', ['exclude', 'include']) === 'exclude' ? 'exclude' : undefined),
  link: () => [['koepels', 'exclude']],
  select: (_value, host) => host.table.koepels.complement(),
});
