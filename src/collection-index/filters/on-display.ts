/** `onDisplay`, three states: omitted keeps all; `true`/`1` only objects on display; `false`/`0` only the others. */
import { defineFilter } from './filter.js';
import { booleanParam } from './params.js';

export const onDisplayFilter = defineFilter<boolean>({
  name: 'onDisplay',
  params: ['onDisplay'],
  parse: (query) => booleanParam(query, 'onDisplay'),
  link: (value) => [['onDisplay', String(value)]],
  select: (value, host) => (value ? host.table.onDisplay.clone() : host.table.onDisplay.complement()),
});
