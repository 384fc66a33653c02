/**
 * The Hydra envelope of v2 collections (spec, "Collection envelope"): `@context`, `@id`, `@type`,
 * `hydra:totalItems`, `hydra:view` with first/last and previous/next where they exist, then `hydra:member`.
 * Page links are `<collection>?page=<n>&itemsPerPage=<n>` followed by every active parameter; the same links
 * go into an RFC 8288 `Link` header. Members arrive as finished JSON texts and are spliced in unparsed.
 */
import { NS } from '../vocab/namespaces.js';

/** The envelope's prefix map, as the real service writes it. */
export const COLLECTION_CONTEXT = { crm: NS.crm, rdfs: NS.rdfs, hydra: NS.hydra, owl: NS.owl } as const;

export interface PageLinks {
  self: string;
  first: string;
  last: string;
  previous?: string;
  next?: string;
}

export interface PageRequest {
  /** URI of the collection (`{base}/v2/id/objects`). */
  collection: string;
  page: number;
  itemsPerPage: number;
  total: number;
  /** Active parameters after page and itemsPerPage, in link order. */
  params: readonly (readonly [string, string])[];
}

/** The number of the last page (1 for an empty collection). */
export const lastPage = (total: number, itemsPerPage: number): number => Math.max(1, Math.ceil(total / itemsPerPage));

/** Links of the requested page; previous is omitted on page 1, next from the last page on. */
export function pageLinks(request: PageRequest): PageLinks {
  const url = (page: number): string => {
    const query = new URLSearchParams([['page', String(page)], ['itemsPerPage', String(request.itemsPerPage)], ...request.params.map(([name, value]) => [name, value])]);
    return `${request.collection}?${query.toString()}`;
  };
  const last = lastPage(request.total, request.itemsPerPage);
  const links: PageLinks = { self: url(request.page), first: url(1), last: url(last) };
  if (request.page > 1) links.previous = url(request.page - 1);
  if (request.page < last) links.next = url(request.page + 1);
  return links;
}

/** The RFC 8288 Link header value for the page links (first, prev, next, last). */
export function linkHeader(links: PageLinks): string {
  const entries: [string, string | undefined][] = [
    ['first', links.first],
    ['prev', links.previous],
    ['next', links.next],
    ['last', links.last],
  ];
  return entries
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([rel, target]) => `<${target}>; rel="${rel}"`)
    .join(', ');
}

/** The collection page as JSON text; `members` are JSON texts (stubs or full records) in page order. */
export function collectionDocument(request: PageRequest, links: PageLinks, members: readonly string[]): string {
  const view: Record<string, string> = {
    '@id': links.self,
    '@type': 'hydra:PartialCollectionView',
    'hydra:first': links.first,
    'hydra:last': links.last,
  };
  if (links.previous !== undefined) view['hydra:previous'] = links.previous;
  if (links.next !== undefined) view['hydra:next'] = links.next;
  const head = JSON.stringify({
    '@context': COLLECTION_CONTEXT,
    '@id': request.collection,
    '@type': 'hydra:Collection',
    'hydra:totalItems': request.total,
    'hydra:view': view,
  });
  return `${head.slice(0, -1)},"hydra:member":[${members.join(',')}]}`;
}
