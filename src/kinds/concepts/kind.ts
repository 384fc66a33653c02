/**
 * The concepts kind (spec "Concept record", "Concepts collection"): ids in pid order, the Dutch label, SKOS
 * labels and scope notes per language; filters modifiedSince and language (a preferred label in it); `q` on
 * labels (weight 3), scope notes (1) and pid (4). Stubs are `{@id, @type crm:E55_Type, rdfs:label}`, as the
 * real service writes them.
 */
import { builtPerLanguage, perLanguage, type PerLanguage, TITLE_LANGUAGES, type TitleLanguage } from '../../collection-index/languages.js';
import { BitsetBuilder, type Bitset } from '../../collection-index/bitset.js';
import { forEachListed, listRecords, type RecordTable, type Row } from '../../collection-index/record-table.js';
import type { TextField } from '../../collection-index/text/text-index.js';
import type { OracleFragment } from '../../collection-index/oracle.js';
import type { ResourceKind } from '../../engine/kind.js';
import { indexTable, labelledIndex, labelledPage, recordDeclaration, shapingExport } from '../../engine/declarations.js';
import { shapeConcept } from './shaping.js';
import { CONCEPTS_API } from './api.js';
import { NS } from '../../vocab/namespaces.js';
import { CONCEPT_LINKED, conceptFacts } from './page.js';

interface ConceptRows {
  concepts: readonly Row[];
  texts: readonly Row[];
}

export interface ConceptTable extends RecordTable {
  readonly labels: readonly string[];
  readonly prefLabels: PerLanguage<readonly (string | undefined)[]>;
  readonly scopeNotes: PerLanguage<readonly (string | undefined)[]>;
  readonly hasLabelIn: PerLanguage<Bitset>;
}

const isLanguage = (tag: string | undefined): tag is TitleLanguage => (TITLE_LANGUAGES as readonly (string | undefined)[]).includes(tag);

/** Builds the table from the index rows of one generation. */
export function buildConceptTable(generationId: string, rows: ConceptRows): ConceptTable {
  const { listed, base } = listRecords(generationId, rows.concepts, { record: 'record', pid: 'pid' });
  const prefLabels = perLanguage<(string | undefined)[]>(() => new Array<string | undefined>(base.size));
  const scopeNotes = perLanguage<(string | undefined)[]>(() => new Array<string | undefined>(base.size));
  const hasLabelIn = perLanguage(() => new BitsetBuilder(base.size));
  forEachListed(rows.texts, base.idOf, (id, row) => {
    if (!isLanguage(row.lang) || row.text === undefined) return;
    const texts = row.field === 'label' ? prefLabels : scopeNotes;
    texts[row.lang][id] ??= row.text;
    if (row.field === 'label') hasLabelIn[row.lang].add(id);
  });
  return { ...base, labels: listed.map((row) => row.label ?? row.pid!), prefLabels, scopeNotes, hasLabelIn: builtPerLanguage(hasLabelIn) };
}

export const CONCEPTS: ResourceKind<ConceptTable> = {
  facts: conceptFacts,
  linked: CONCEPT_LINKED,
  kind: 'concept',
  collection: 'concepts',
  class: { iri: `${NS.crm}E55_Type`, name: 'Type' },
  record: recordDeclaration('concept', {
    shape: shapeConcept,
    shapeExport: shapingExport(import.meta.url, 'shapeConcept'),
    // The spec gives concepts ETag and Last-Modified but no Cache-Control, as the real service sends.
    cacheControl: null,
    messages: { notFound: 'Concept not found', invalidPid: 'Invalid concept id.' },
  }),
  page: labelledPage('crm:E55_Type'),
  index: labelledIndex({
    ...indexTable({ concepts: 'concepts/index-concepts', texts: 'concepts/index-texts' }, buildConceptTable),
    label: { key: 'label', text: (table, id) => table.labels[id] },
    textFields: (table) => [
      ...TITLE_LANGUAGES.map((lang): TextField => ({ name: `label_${lang}`, boost: 3, analysis: lang, text: (id) => table.prefLabels[lang][id] })),
      ...TITLE_LANGUAGES.map((lang): TextField => ({ name: `note_${lang}`, boost: 1, analysis: lang, text: (id) => table.scopeNotes[lang][id] })),
    ],
    languages: (table) => table.hasLabelIn,
  }),
  api: CONCEPTS_API,
  oracle: {
    base: 'concepts/oracle-base',
    sorts: { label: { query: 'concepts/oracle-sort-label' }, modified: { query: 'concepts/oracle-sort-modified' } },
    filters: (params): OracleFragment[] => [
      ...(params.modifiedSince ? [{ query: 'concepts/oracle-filter-modified-since', bindings: { since: params.modifiedSince } }] : []),
      ...(params.language ? [{ query: 'concepts/oracle-filter-language', bindings: { lang: (({ NLD: 'nl', FRA: 'fr', ENG: 'en' }) as Record<string, string>)[params.language.toUpperCase()] ?? 'xx' } }] : []),
    ],
  },
};
