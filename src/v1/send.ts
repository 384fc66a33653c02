/** Sending v1 documents: JSON-LD, as v1 always answered. */
import type { Response } from 'express';
import { JSON_LD_CONTENT_TYPE } from '../http/json-ld.js';
import type { JsonObject } from '../shaping/jsonld.js';
import type { CollectionIndex, CollectionSlice } from '../collection-index/collection-index.js';
import type { ActiveFilter } from '../collection-index/filters/filter.js';
import type { RecordTable } from '../collection-index/record-table.js';
import type { TextQuery } from '../collection-index/text/query-parser.js';
import { v1Collection, type V1PageRequest } from './envelope.js';
import type { KindPages } from './pages.js';
import type { V1Paging } from './params.js';

/** Sends a JSON-LD document. */
export function sendJsonLd(res: Response, document: JsonObject): void {
  res.setHeader('Content-Type', JSON_LD_CONTENT_TYPE);
  res.send(JSON.stringify(document));
}

/** Which records a page lists: the filters and text query of the collection index, in pid order unless the text ranks them. */
export interface Listing {
  filters?: readonly ActiveFilter<RecordTable>[];
  text?: TextQuery;
}

/** The slice of a listing for a page. */
export const sliceOf =
  (listing: Listing, paging: V1Paging) =>
  (index: CollectionIndex<RecordTable>): CollectionSlice =>
    index.select({ filters: listing.filters ?? [], text: listing.text, offset: (paging.pageNumber - 1) * paging.itemsPerPage, limit: paging.itemsPerPage });

export interface V1PageOf {
  pages: KindPages;
  listing: Listing;
  paging: V1Paging;
  collection: string;
  params: V1PageRequest['params'];
  /** Fetch full records in the kind's view (objects: colours). */
  view: boolean;
  member(record: JsonObject): JsonObject;
}

/** Answers one page of a v1 collection. */
export async function sendPage(res: Response, request: V1PageOf): Promise<void> {
  const page = await request.pages.page(sliceOf(request.listing, request.paging), request.view);
  const envelope: V1PageRequest = { ...request.paging, collection: request.collection, total: page.total, params: request.params };
  sendJsonLd(res, v1Collection(envelope, page.records.map((record) => request.member(record))));
}
