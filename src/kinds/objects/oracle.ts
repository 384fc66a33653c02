/**
 * The objects collection as pure SPARQL (queries/objects/oracle-*.rq): the fragment for each filter parameter
 * and sort key. It reads the parameters independently of the filter modules, as a second implementation should.
 */
import type { OracleFragment } from '../../collection-index/oracle.js';
import { LANGUAGE_CODES, type LanguageCode } from '../../collection-index/languages.js';
import type { BoundTerm } from '../../queries/terms.js';
import type { OracleDeclaration } from '../../engine/kind.js';
import type { Iris } from '../../vocab/iris.js';
import { AUTHORITY } from '../../vocab/namespaces.js';

/** The fragments for the filter parameters of a request (single values, as tests write them). */
function oracleFilters(params: Readonly<Record<string, string>>, iris: Iris): OracleFragment[] {
  const out: OracleFragment[] = [];
  const add = (query: string, bindings?: Record<string, BoundTerm>): void => {
    out.push({ query: `objects/oracle-filter-${query}`, bindings });
  };
  const truthy = (name: string): boolean => params[name] === 'true' || params[name] === '1';
  const falsy = (name: string): boolean => params[name] === 'false' || params[name] === '0';
  if (params.modifiedSince) add('modified-since', { since: params.modifiedSince });
  if (truthy('hasImages')) add('has-images');
  if (truthy('hasParts')) add('koepel');
  if (truthy('isPartOf')) add('set-member');
  if (truthy('onDisplay')) add('on-display');
  if (falsy('onDisplay')) add('not-on-display');
  if (params.language) add('language', { language: `${AUTHORITY.language}${LANGUAGE_CODES[params.language.toUpperCase() as LanguageCode] ? params.language.toUpperCase() : 'XXX'}` });
  for (const name of ['type', 'material'] as const) {
    for (const label of (params[name] ?? '').split(',').map((part) => part.trim()).filter(Boolean)) add(name, { label });
  }
  if (params.agent) add('agent', { agent: params.agent.includes('/') ? params.agent : iris.agent(params.agent) });
  const froms: number[] = [];
  const tos: number[] = [];
  if (params.date) {
    const [from, to] = params.date.split('/');
    if (from && from !== '..') froms.push(Number(from));
    if (to && to !== '..') tos.push(Number(to));
  }
  if (params.dateFrom) froms.push(Number(params.dateFrom));
  if (params.dateTo) tos.push(Number(params.dateTo));
  if (params.date || params.dateFrom || params.dateTo) {
    add('period', { from: froms.length > 0 ? Math.max(...froms) : -9999, to: tos.length > 0 ? Math.min(...tos) : 9999 });
  }
  if (params.concept) add('concept', { concept: params.concept.includes('/') ? params.concept : iris.concept(params.concept) });
  if (params.conceptSearch) add('concept-search', { text: params.conceptSearch });
  if (params.koepels === 'exclude') add('not-koepel');
  return out;
}

export const OBJECTS_ORACLE: OracleDeclaration = {
  base: 'objects/oracle-base',
  sorts: {
    modified: { query: 'objects/oracle-sort-modified' },
    titleNL: { query: 'objects/oracle-sort-title', bindings: { language: `${AUTHORITY.language}NLD` } },
    titleFR: { query: 'objects/oracle-sort-title', bindings: { language: `${AUTHORITY.language}FRA` } },
    titleEN: { query: 'objects/oracle-sort-title', bindings: { language: `${AUTHORITY.language}ENG` } },
    dateBegin: { query: 'objects/oracle-sort-date-begin' },
    dateEnd: { query: 'objects/oracle-sort-date-end' },
  },
  filters: oracleFilters,
};
