/** A page of a v2 collection as the collection tests read it: status, body, members, total, view and Link header. */
import type { Express } from 'express';
import request from 'supertest';

type Json = Record<string, unknown>;

export interface CollectionPage {
  status: number;
  body: Json;
  text: string;
  members: Json[];
  total: number;
  view: Record<string, string>;
  link: string | undefined;
}

/** GET `/v2/id/<collection>?<query>` (no `?` for an empty query). */
export async function getCollectionPage(app: Express, collection: string, query: string): Promise<CollectionPage> {
  const res = await request(app).get(`/v2/id/${collection}${query === '' ? '' : `?${query}`}`);
  const body = (res.status === 200 ? JSON.parse(res.text) : res.body) as Json;
  return {
    status: res.status,
    body,
    text: res.text,
    members: (body['hydra:member'] ?? []) as Json[],
    total: body['hydra:totalItems'] as number,
    view: (body['hydra:view'] ?? {}) as Record<string, string>,
    link: res.headers.link as string | undefined,
  };
}
