/**
 * The records of other collections that a record's page for people lists as cards (`ResourceKind.linked`): an
 * agent's objects and a concept's objects through the objects' own filters (`agent`, `concept`: the same
 * selection, narrower concepts included, as `/v2/id/objects?agent=…`), an exhibition's objects through its
 * `crm:P16_used_specific_object`. The members are the finished full records of their collection (the record
 * cache), so a card says what the record says.
 */
import type { AppContext } from '../engine/app-context.js';
import type { RecordTable } from '../collection-index/record-table.js';
import { sharedIndexes } from '../engine/indexes.js';
import type { LinkedRecords, ResourceKind } from '../engine/kind.js';
import { isNode, list, type JsonNode } from '../pages/jsonld-view.js';
import type { PageLanguage } from '../pages/messages.js';
import type { LinkedCards } from '../pages/record-page.js';
import type { JsonObject } from '../shaping/jsonld.js';
import { CollectionMembers } from './collection-members.js';
import { parseCollectionQuery } from './collection-params.js';

/** Cards shown per section; the section links to all of them where a collection lists them. */
export const LINKED_ON_PAGE = 12;

const membersByApp = new WeakMap<AppContext, Map<string, CollectionMembers>>();

/** One members fetcher per app and collection (its stub cache unused: cards are full records). */
function membersOf(ctx: AppContext, kind: ResourceKind<RecordTable>): CollectionMembers {
  let byCollection = membersByApp.get(ctx);
  if (byCollection === undefined) membersByApp.set(ctx, (byCollection = new Map()));
  let members = byCollection.get(kind.collection);
  if (members === undefined) byCollection.set(kind.collection, (members = new CollectionMembers(ctx, kind)));
  return members;
}

/** The IRIs of the first records of `linked` for the record, how many there are, and where they are all listed. */
async function selection(ctx: AppContext, target: ResourceKind<RecordTable>, linked: LinkedRecords, pid: string, record: JsonNode): Promise<{ iris: string[]; total: number; all?: string; generationId: string }> {
  // The target's collection index lists only the records it serves, in its generation.
  const index = await sharedIndexes(ctx, target).forRequest();
  if ('param' in linked.from) {
    const { param } = linked.from;
    const query = parseCollectionQuery({ [param]: pid }, target.index);
    const slice = index.select({ filters: query.filters, offset: 0, limit: LINKED_ON_PAGE });
    return { iris: slice.iris, total: slice.total, all: `/v2/id/${target.collection}?${new URLSearchParams({ [param]: pid }).toString()}`, generationId: index.generationId };
  }
  const named = list(record[linked.from.property]).flatMap((node) => (isNode(node) && typeof node['@id'] === 'string' && index.table.idOf.has(node['@id']) ? [node['@id']] : []));
  return { iris: named.slice(0, LINKED_ON_PAGE), total: named.length, generationId: index.generationId };
}

/** The linked sections of the page of `record` (a record of `kind` with `pid`), in the page's language. */
export async function linkedCards(ctx: AppContext, kind: Pick<ResourceKind, 'linked'>, pid: string, record: JsonNode, lang: PageLanguage): Promise<LinkedCards[]> {
  const sections: LinkedCards[] = [];
  for (const linked of kind.linked ?? []) {
    const target = ctx.kinds.ofCollection(linked.collection);
    if (target === undefined) continue;
    const { iris, total, all, generationId } = await selection(ctx, target, linked, pid, record);
    if (iris.length === 0) continue;
    // Undefined when the store moved to another generation meanwhile: the page then goes without this section.
    const bodies = await membersOf(ctx, target).fullRecords(iris, generationId);
    if (bodies === undefined) continue;
    const records = bodies.map((body) => JSON.parse(body) as JsonNode);
    const iri = String(record['@id']);
    sections.push({
      title: linked.title[lang],
      records,
      notes: records.map((member) => linked.note?.(member as JsonObject, iri, lang)),
      total,
      ...(all !== undefined ? { all } : {}),
      ...(target.facts !== undefined ? { facts: target.facts } : {}),
    });
  }
  return sections;
}
