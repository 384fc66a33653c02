/**
 * The exhibitions kind (spec "Exhibition record", "Exhibitions collection"): ids in pid order, the label
 * (Dutch or source title) and titles per language; filters modifiedSince and language (a title in it);
 * `q` on titles and pid.
 */
import { languageFilter } from '../../collection-index/filters/language.js';
import { INVALID_MODIFIED_SINCE_OTHER_KINDS, modifiedSinceFilter } from '../../collection-index/filters/modified-since.js';
import { LANGUAGE_CODES, type LanguageCode, type PerLanguage, textsPerLanguage } from '../../collection-index/languages.js';
import { listRecords, type RecordTable, type Row } from '../../collection-index/record-table.js';
import { collatedOrder, modifiedOrder } from '../../collection-index/sort-orders.js';
import { TEXT_LANGUAGES } from '../../collection-index/text/analysis.js';
import type { TextField } from '../../collection-index/text/text-index.js';
import type { Bitset } from '../../collection-index/bitset.js';
import type { OracleFragment } from '../../collection-index/oracle.js';
import type { ResourceKind } from '../../engine/kind.js';
import { RECORD_CACHE_CONTROL } from '../../http/caching.js';
import { shapeExhibition } from './shaping.js';
import { labelledStubs } from '../../shaping/labelled-stub.js';
import { AUTHORITY } from '../../vocab/namespaces.js';
import { EXHIBITIONS_API } from './api.js';

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
  kind: 'exhibition',
  collection: 'exhibitions',
  record: {
    paths: ['/id/exhibition/:pid'],
    query: 'records/record',
    frame: 'exhibition',
    shape: shapeExhibition,
    cacheControl: RECORD_CACHE_CONTROL,
    messages: { notFound: 'Exhibition not found', invalidPid: 'Invalid exhibition id. Use TE_<year>-<serial>.' },
  },
  page: { records: 'records/page-records', stubs: 'records/page-labels', stubsFromNQuads: labelledStubs('crm:E7_Activity'), stubFrame: 'labelled-stub' },
  index: {
    queries: { exhibitions: 'exhibitions/index-exhibitions', titles: 'exhibitions/index-titles' } satisfies Record<keyof ExhibitionRows, string>,
    table: (generationId, rows) => buildExhibitionTable(generationId, rows as unknown as ExhibitionRows),
    sortKeys: ['pid', 'title', 'modified'],
    sorts: (table) => ({ modified: modifiedOrder(table), title: collatedOrder(table.size, 'nl', (id) => table.labels[id]) }),
    textFields: (table) => [
      { name: 'pid', boost: 4, analysis: 'identifier', text: (id) => table.pids[id] },
      ...TEXT_LANGUAGES.map((lang): TextField => ({ name: `title_${lang}`, boost: 3, analysis: lang, text: (id) => table.titles[lang][id] })),
      // The label is the source title when there is no Dutch one.
      { name: 'label', boost: 1, analysis: 'plain', text: (id) => table.labels[id] },
    ],
    filters: [modifiedSinceFilter(INVALID_MODIFIED_SINCE_OTHER_KINDS), languageFilter((table) => table.hasTitleIn)],
    linkOrder: ['fullRecord', 'modifiedSince', 'language', 'q', 'sortBy', 'sortOrder'],
  },
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
