/**
 * The v1 collection envelope (spec, Deprecated v1 interface): a `GecureerdeCollectie` with its members in
 * `gecureerdeSet.bestaatUit` and Hydra pagination whose `hydra:previous` is null on the first page and
 * `hydra:next` null on the last. Links repeat `pageNumber`, `itemsPerPage` and the request's own parameters,
 * never a credential.
 */
import type { JsonObject } from '../shaping/jsonld.js';
import { V1_CONTEXT } from './shaping/links.js';
import type { V1Paging } from './params.js';

export interface V1PageRequest extends V1Paging {
  /** The collection's URL without a query (`{base}/v1/id/objects`). */
  collection: string;
  total: number;
  /** Parameters after pageNumber and itemsPerPage, in the order links repeat them. */
  params: readonly (readonly [string, string])[];
}

/** The last page number (1 for an empty collection). */
export const lastPage = (page: Pick<V1PageRequest, 'total' | 'itemsPerPage'>): number => Math.max(1, Math.ceil(page.total / page.itemsPerPage));

/** The URL of page `n` of the request's collection. */
export function pageUrl(page: V1PageRequest, n: number): string {
  const query = new URLSearchParams([['pageNumber', String(n)], ['itemsPerPage', String(page.itemsPerPage)], ...page.params.map(([k, v]): [string, string] => [k, v])]);
  return `${page.collection}?${query.toString()}`;
}

/** The envelope of one page of members. */
export function v1Collection(page: V1PageRequest, members: JsonObject[]): JsonObject {
  const last = lastPage(page);
  return {
    '@context': V1_CONTEXT,
    '@type': 'GecureerdeCollectie',
    '@id': page.collection,
    'hydra:totalItems': page.total,
    'hydra:view': {
      '@id': pageUrl(page, page.pageNumber),
      '@type': 'hydra:PartialCollectionView',
      'hydra:first': pageUrl(page, 1),
      'hydra:last': pageUrl(page, last),
      'hydra:previous': page.pageNumber > 1 ? pageUrl(page, Math.min(page.pageNumber - 1, last)) : null,
      'hydra:next': page.pageNumber < last ? pageUrl(page, page.pageNumber + 1) : null,
    },
    'GecureerdeCollectie.curator': 'Design Museum Gent',
    'gecureerdeSet.bestaatUit': members,
  };
}
