/** `koepels=exclude` hides koepelrecords; `include` is the default and filters nothing. */
import { defineFilter } from './filter.js';
import { oneOf } from './params.js';

export const koepelsFilter = defineFilter<'exclude'>({
  name: 'koepels',
  params: ['koepels'],
  parse: (query) => (oneOf(query, 'koepels', ['exclude', 'include']) === 'exclude' ? 'exclude' : undefined),
  link: () => [['koepels', 'exclude']],
  select: (_value, host) => host.table.koepels.complement(),
});
