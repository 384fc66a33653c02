/**
 * `concept` (a pid or URI) and `conceptSearch` (a text found in the preferred labels of the thesaurus):
 * each expands to every narrower concept, at any depth, and keeps the objects that have one of them as
 * type, material, technique or sub-collection.
 */
import { Bitset, BitsetBuilder } from '../../../collection-index/bitset.js';
import type { ObjectTable } from '../table.js';
import { defineObjectFilter } from './define.js';
import { single } from '../../../collection-index/filters/params.js';
import { recordIri } from '../../../collection-index/filters/record-reference.js';

function objectsOf(table: ObjectTable, concepts: Iterable<string>): Bitset {
  const set = new BitsetBuilder(table.size);
  for (const concept of table.thesaurus.closure(concepts)) set.addAll(table.concepts.get(concept) ?? []);
  return set.build();
}

export const conceptFilter = defineObjectFilter<string>({
  name: 'concept',
  params: ['concept'],
  parse: (query) => single(query, 'concept'),
  link: (value) => [['concept', value]],
  select: (value, host) => {
    const iri = recordIri(host.iris, 'concept', value);
    return iri ? objectsOf(host.table, [iri]) : Bitset.empty(host.table.size);
  },
});

export const conceptSearchFilter = defineObjectFilter<string>({
  name: 'conceptSearch',
  params: ['conceptSearch'],
  parse: (query) => single(query, 'conceptSearch'),
  link: (value) => [['conceptSearch', value]],
  select: (value, host) => objectsOf(host.table, host.table.thesaurus.search(value)),
});
