/**
 * `concept` (a pid or URI) and `conceptSearch` (a text found in the preferred labels of the thesaurus):
 * each expands to every narrower concept, at any depth, and keeps the objects that have one of them as
 * type, material, technique or sub-collection.
 */
import { Bitset } from '../bitset.js';
import type { ObjectTable } from '../object-table.js';
import { defineFilter } from './filter.js';
import { single } from './params.js';
import { recordIri } from './record-reference.js';

function objectsOf(table: ObjectTable, concepts: Iterable<string>): Bitset {
  const set = new Bitset(table.size);
  for (const concept of table.thesaurus.closure(concepts)) for (const id of table.concepts.get(concept) ?? []) set.add(id);
  return set;
}

export const conceptFilter = defineFilter<string>({
  name: 'concept',
  params: ['concept'],
  parse: (query) => single(query, 'concept'),
  link: (value) => [['concept', value]],
  select: (value, host) => {
    const iri = recordIri(host.iris, 'concept', value);
    return iri ? objectsOf(host.table, [iri]) : new Bitset(host.table.size);
  },
});

export const conceptSearchFilter = defineFilter<string>({
  name: 'conceptSearch',
  params: ['conceptSearch'],
  parse: (query) => single(query, 'conceptSearch'),
  link: (value) => [['conceptSearch', value]],
  select: (value, host) => objectsOf(host.table, host.table.thesaurus.search(value)),
});
