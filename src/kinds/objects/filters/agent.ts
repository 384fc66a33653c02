/** `agent`: objects the agent designed (creation) or produced (production). Such queries keep object-number order. */
import { Bitset } from '../../../collection-index/bitset.js';
import { defineObjectFilter } from './define.js';
import { single } from '../../../collection-index/filters/params.js';
import { recordIri } from '../../../collection-index/filters/record-reference.js';

export const agentFilter = defineObjectFilter<string>({
  name: 'agent',
  params: ['agent'],
  parse: (query) => single(query, 'agent'),
  link: (value) => [['agent', value]],
  fixesOrder: true,
  select: (value, host) => {
    const iri = recordIri(host.iris, 'agent', value);
    return Bitset.of(host.table.size, (iri && host.table.agents.get(iri)) || []);
  },
});
