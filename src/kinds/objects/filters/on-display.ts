/** `onDisplay`, three states: omitted keeps all; `true`/`1` only objects on display; `false`/`0` only the others. */
import { defineObjectFilter } from './define.js';
import { booleanParam } from '../../../collection-index/filters/params.js';

export const onDisplayFilter = defineObjectFilter<boolean>({
  name: 'onDisplay',
  params: ['onDisplay'],
  parse: (query) => booleanParam(query, 'onDisplay'),
  link: (value) => [['onDisplay', String(value)]],
  select: (value, host) => (value ? host.table.onDisplay : host.table.onDisplay.complement()),
});
