/**
 * The exhibitions kind (spec "Exhibition record", "Exhibitions collection"): ids in pid order, the label
 * (Dutch or source title) and titles per language; filters modifiedSince and language (a title in it);
 * `q` on titles and pid.
 */
import { LANGUAGE_CODES, type LanguageCode, type PerLanguage, textsPerLanguage } from '../../collection-index/languages.js';
import { listRecords, type RecordTable, type Row } from '../../collection-index/record-table.js';
import { TEXT_LANGUAGES } from '../../collection-index/text/analysis.js';
import type { TextField } from '../../collection-index/text/text-index.js';
import type { Bitset } from '../../collection-index/bitset.js';
import type { OracleFragment } from '../../collection-index/oracle.js';
import type { ResourceKind } from '../../engine/kind.js';
import { indexTable, labelledIndex, labelledPage, recordDeclaration, shapingExport } from '../../engine/declarations.js';
import { shapeExhibition } from './shaping.js';
import { AUTHORITY } from '../../vocab/namespaces.js';
import { EXHIBITIONS_API } from './api.js';
import { NS } from '../../vocab/namespaces.js';
import { EXHIBITION_LINKED, exhibitionFacts } from './page.js';

interface ExhibitionRows {
  exhibitions: readonly Row[];
  titles: readonly Row[];
}

export interface ExhibitionTable extends RecordTable {
  readonly labels: readonly string[];
  readonly titles: PerLanguage<readonly (string | undefined)[]>;
  readonly hasTitleIn: PerLanguage<Bitset>;
}

/** Builds the table from the index rows of one generation. */
export function buildExhibitionTable(generationId: string, rows: ExhibitionRows): ExhibitionTable {
  const { listed, base } = listRecords(generationId, rows.exhibitions, { record: 'record', pid: 'pid' });
  const { texts: titles, has: hasTitleIn } = textsPerLanguage(base.size, rows.titles, base.idOf);
  return { ...base, labels: listed.map((row) => row.label ?? row.pid!), titles, hasTitleIn };
}

export const EXHIBITIONS: ResourceKind<ExhibitionTable> = {
  facts: exhibitionFacts,
  linked: EXHIBITION_LINKED,
  kind: 'exhibition',
  collection: 'exhibitions',
  class: { iri: `${NS.crm}E7_Activity`, name: 'Activity' },
  record: recordDeclaration('exhibition', {
    shape: shapeExhibition,
    shapeExport: shapingExport(import.meta.url, 'shapeExhibition'),
    messages: { notFound: 'Exhibition not found', invalidPid: 'Invalid exhibition id. Use TE_<year>-<serial>.' },
  }),
  page: labelledPage('crm:E7_Activity'),
  index: labelledIndex({
    ...indexTable({ exhibitions: 'exhibitions/index-exhibitions', titles: 'exhibitions/index-titles' }, buildExhibitionTable),
    label: { key: 'title', text: (table, id) => table.labels[id] },
    textFields: (table) => [
      ...TEXT_LANGUAGES.map((lang): TextField => ({ name: `title_${lang}`, boost: 3, analysis: lang, text: (id) => table.titles[lang][id] })),
      // The label is the source title when there is no Dutch one.
      { name: 'label', boost: 1, analysis: 'plain', text: (id) => table.labels[id] },
    ],
    languages: (table) => table.hasTitleIn,
  }),
  api: EXHIBITIONS_API,
  oracle: {
    base: 'exhibitions/oracle-base',
    sorts: { title: { query: 'exhibitions/oracle-sort-title' }, modified: { query: 'exhibitions/oracle-sort-modified' } },
    filters: (params): OracleFragment[] => [
      ...(params.modifiedSince ? [{ query: 'exhibitions/oracle-filter-modified-since', bindings: { since: params.modifiedSince } }] : []),
      ...(params.language
        ? [{ query: 'exhibitions/oracle-filter-language', bindings: { language: `${AUTHORITY.language}${params.language.toUpperCase() in LANGUAGE_CODES ? (params.language.toUpperCase() as LanguageCode) : 'XXX'}` } }]
        : []),
    ],
  },
};
