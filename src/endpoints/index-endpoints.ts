/**
 * Index endpoints (spec, "Material index", "Production density", "Other indexes"), as the engine serves them
 * for any kind that declares some (`ResourceKind.indexes`): `/v2/id/<name>`, a document computed from the
 * generation's collection index of the kind, the same in-memory postings the collection filters select with,
 * so an index count and its filter link's `hydra:totalItems` cannot disagree. A document is kept per
 * generation and canonical query unless the endpoint says it is open-ended; every answer carries a weak ETag
 * of its bytes, Last-Modified (the generation's creation) and Cache-Control.
 *
 * The label index (a member per label, its count and a filter link) is common to several kinds and is
 * declared here; the kinds' own indexes live in their folders (src/kinds/<kind>/indexes.ts).
 */
import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../engine/app-context.js';
import { ParamError, type ActiveFilter, type CollectionFilter, type RawQuery } from '../collection-index/filters/filter.js';
import { single } from '../collection-index/filters/params.js';
import { withQuery } from '../collection-index/filters/query-string.js';
import type { RecordTable } from '../collection-index/record-table.js';
import { asBadRequest } from './collection-params.js';
import { indexContext } from './index-context.js';
import { sendAnswer } from '../http/answer.js';
import { RECORD_CACHE_CONTROL, weakEtag } from '../http/caching.js';
import { JSON_LD_CONTENT_TYPE } from '../http/json-ld.js';
import { documentBody, HTML_CONTENT_TYPE, negotiateRepresentation, rdfContentType, varyOnAccept } from '../http/negotiation.js';
import { indexPage } from '../pages/index-page.js';
import { pageLanguage } from '../pages/messages.js';
import { viewContext } from '../pages/negotiation.js';
import type { JsonNode } from '../pages/jsonld-view.js';
import type { CollectionName } from '../vocab/iris.js';
import { sharedIndexes } from '../engine/indexes.js';
import type { IndexEndpoint, ResourceKind } from '../engine/kind.js';
import { countLabels, type CountedLabel, type LabelledSet } from '../engine/label-index.js';

export type { IndexEndpoint, IndexEndpoints } from '../engine/kind.js';

export { queryString, withQuery } from '../collection-index/filters/query-string.js';

/** An integer parameter, or a ParamError naming `example`; undefined when absent. */
export function integerParam(query: RawQuery, name: string, example = 10): number | undefined {
  const value = single(query, name);
  if (value === undefined) return undefined;
  const number = /^[+-]?\d{1,16}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(number)) throw new ParamError(name, `Invalid ${name}. Use a whole number such as ${example}.`);
  return number;
}

export const round = (value: number, decimals: number): number => {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
};

/** Values computed once per generation's index: a second call with the same key returns the first answer. */
export class PerIndex {
  private readonly values = new WeakMap<object, Map<string, unknown>>();

  get<V>(index: object, key: string, compute: () => V): V {
    let byKey = this.values.get(index);
    if (!byKey) {
      byKey = new Map();
      this.values.set(index, byKey);
    }
    if (!byKey.has(key)) byKey.set(key, compute());
    return byKey.get(key) as V;
  }
}

function route<T extends RecordTable, Q>(ctx: AppContext, router: Router, kind: ResourceKind<T>, endpoint: IndexEndpoint<T, Q>): void {
  const indexes = sharedIndexes(ctx, kind);
  const documents = new PerIndex();
  router.get(`/id/${endpoint.name}`, async (req: Request, res: Response) => {
    const query = asBadRequest(() => endpoint.parse(req.query, req.params as Record<string, string>));
    // A name with path parameters (`object/:pid/similar`) names one document per value.
    const url = `${ctx.iris.base}/v2/id/${endpoint.name.replace(/:(\w+)/g, (_, name: string) => String(req.params[name]))}`;
    const params = endpoint.params(query);
    const index = await indexes.forRequest();
    const id = withQuery(url, params);
    // Kept as JSON text with its tag: a large index (thousands of types at 100k objects) then costs no
    // serialisation or digest per request. The tag is a digest of the bytes, so it changes exactly when they do.
    const build = async (): Promise<{ body: string; etag: string }> => {
      const text = JSON.stringify(await endpoint.document(index, query, id));
      return { body: text, etag: weakEtag(text) };
    };
    const { body, etag } = endpoint.keep(query) ? await documents.get(index, id, build) : await build();
    const generation = ctx.store.generation;
    const lastModified = generation?.id === index.generationId ? new Date(generation.created) : undefined;
    // A browser gets the page for people, a client that prefers an RDF syntax the document's graph in it, every
    // other client the JSON-LD.
    varyOnAccept(res);
    const representation = negotiateRepresentation(req, { pages: true });
    if (representation.kind === 'html') {
      const html = indexPage(JSON.parse(body) as JsonNode, { ...viewContext(ctx), lang: pageLanguage(req, res), path: id.slice(ctx.iris.base.length) });
      await sendAnswer(req, res, { validators: { etag: weakEtag(html), lastModified }, cacheControl: RECORD_CACHE_CONTROL, contentType: HTML_CONTENT_TYPE, body: html });
      return;
    }
    if (representation.kind === 'rdf') {
      const graph = async (): Promise<string> => documentBody(body, representation);
      const text = await (endpoint.keep(query) ? documents.get(index, `${id}\n${representation.syntax}`, graph) : graph());
      await sendAnswer(req, res, { validators: { etag: weakEtag(text), lastModified }, cacheControl: RECORD_CACHE_CONTROL, contentType: rdfContentType(representation.syntax), body: text });
      return;
    }
    await sendAnswer(req, res, {
      validators: { etag, lastModified },
      cacheControl: RECORD_CACHE_CONTROL,
      contentType: JSON_LD_CONTENT_TYPE,
      body,
    });
  });
}

/** Routes of the index endpoints of `kinds`, in their order (mount under /v2, behind the readiness gate). */
export function indexRoutes(ctx: AppContext, kinds: readonly ResourceKind<RecordTable>[]): Router {
  const router = Router();
  for (const kind of kinds) for (const endpoint of kind.indexes?.(ctx, kind) ?? []) route(ctx, router, kind, endpoint as IndexEndpoint<RecordTable, unknown>);
  return router;
}

// ---------------------------------------------------------------- the label index

/** What a label index document says about itself and its members. */
export interface LabelIndexText {
  name: string;
  label: string;
  comment: string;
  memberType: string;
  countKey: 'object_count' | 'agent_count';
  /** The collection and parameter the member's filter link uses. */
  filter: { collection: CollectionName; param: string };
}

function labelIndexDocument(
  base: string,
  text: LabelIndexText,
  id: string,
  members: readonly CountedLabel[],
  extraFilterParams: readonly [string, string][],
): Record<string, unknown> {
  const collection = `${base}/v2/id/${text.filter.collection}`;
  return {
    '@context': indexContext(base),
    '@id': id,
    '@type': 'hydra:Collection',
    'rdfs:label': text.label,
    'rdfs:comment': text.comment,
    'hydra:totalItems': members.length,
    'hydra:member': members.map((member) => ({
      ...(member.iri === undefined ? {} : { '@id': member.iri }),
      '@type': text.memberType,
      'rdfs:label': member.label,
      [text.countKey]: member.count,
      filter: withQuery(collection, [[text.filter.param, member.label], ...extraFilterParams]),
    })),
  };
}

/** The parameters of an active filter as its links repeat them (none when absent). */
export const filterParams = <T extends RecordTable>(filter: ActiveFilter<T> | undefined): [string, string][] =>
  (filter?.link ?? []).map(([name, value]): [string, string] => [name, value]);

/**
 * A label index: one member per labelled set of records, counted, with a link to the collection filtered on
 * the label. `narrowing`, a collection filter of the kind (objects' `onDisplay`), counts only the records it
 * selects, and its parameter is repeated in the links.
 */
export function labelIndex<T extends RecordTable>(
  base: string,
  text: LabelIndexText,
  sets: (table: T) => LabelledSet[],
  narrowing?: CollectionFilter<T>,
): IndexEndpoint<T, ActiveFilter<T> | undefined> {
  return {
    name: text.name,
    parse: (query) => narrowing?.parse(query),
    params: filterParams,
    keep: () => true,
    document: (index, filter, id) => {
      const within = filter ? index.matching([filter]) : undefined;
      return labelIndexDocument(base, text, id, countLabels(sets(index.table), within), filterParams(filter));
    },
  };
}
