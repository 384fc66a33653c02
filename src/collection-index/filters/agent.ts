/** `agent`: objects the agent designed (creation) or produced (production). Such queries keep object-number order. */
import { Bitset } from '../bitset.js';
import { defineFilter } from './filter.js';
import { single } from './params.js';
import { recordIri } from './record-reference.js';

export const agentFilter = defineFilter<string>({
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
