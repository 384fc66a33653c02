/**
 * The record kinds of a deployment as the data side knows them: harvest and load, the generation check, the
 * change snapshot and feed, the dumps. Each kind is its names (the singular of its record IRIs, the plural of
 * its collection) and its class. The list is made from the engine's kinds (src/kinds/index.ts) by the entry
 * points (the server, the data commands) and handed down; no module below them lists the kinds.
 */
/** What the data side needs of a kind. */
export interface KindNames {
  /** The singular in its record IRIs, `{base}/v2/id/<kind>/<pid>`: lowercase letters. */
  readonly kind: string;
  /** The plural of its collection, `{base}/v2/id/<collection>`, and of its dump, `<collection>.nq.gz`. */
  readonly collection: string;
  /** The CIDOC-CRM class of its records, and that class's name in Linked Art (the change feed's `object.type`). */
  readonly class: { readonly iri: string; readonly name: string };
}

const NAME = /^[a-z]+$/;

/**
 * The kind among `names` of the record IRI `{base}/v2/id/<kind>/<pid>`, written as an N-Quads term (`<…>`) or
 * bare (`form`); undefined for anything else: another base, another path, a name not in `names`, a pid that is
 * empty or holds a slash (a node inside a record). The one test of "a record of a kind" on the data side: the
 * generation check, the change snapshot, the per-kind dumps and the change feed use it.
 */
export function recordKindOf(iri: string, base: string, names: ReadonlySet<string>, form: 'term' | 'iri' = 'term'): string | undefined {
  const term = form === 'term';
  const prefix = `${term ? '<' : ''}${base}/v2/id/`;
  const end = term ? iri.length - 1 : iri.length;
  if (!iri.startsWith(prefix) || (term && iri[end] !== '>')) return undefined;
  const slash = iri.indexOf('/', prefix.length);
  if (slash < 0 || slash + 1 >= end || iri.indexOf('/', slash + 1) >= 0) return undefined;
  const kind = iri.slice(prefix.length, slash);
  return names.has(kind) ? kind : undefined;
}

/** The kinds in the order the catalog lists them, with what the data side derives from them. */
export class RecordKinds<K extends KindNames = KindNames> {
  readonly names: readonly string[];
  /** `object|agent|…`, for path and IRI patterns. */
  readonly kindAlternatives: string;
  /** `objects|agents|…`. */
  readonly collectionAlternatives: string;
  private readonly byKind: ReadonlyMap<string, K>;
  private readonly nameSet: ReadonlySet<string>;
  private readonly byCollection: ReadonlyMap<string, K>;

  constructor(readonly list: readonly K[]) {
    for (const { kind, collection } of list) {
      if (!NAME.test(kind) || !NAME.test(collection)) throw new Error(`a kind's names are lowercase letters: ${kind}, ${collection}`);
    }
    this.byKind = new Map(list.map((k) => [k.kind, k]));
    this.byCollection = new Map(list.map((k) => [k.collection, k]));
    if (this.byKind.size !== list.length || this.byCollection.size !== list.length) throw new Error('two kinds share a name');
    this.names = list.map((k) => k.kind);
    this.nameSet = new Set(this.names);
    this.kindAlternatives = this.names.join('|');
    this.collectionAlternatives = list.map((k) => k.collection).join('|');
  }

  has(kind: string): boolean {
    return this.byKind.has(kind);
  }

  /** The kind named `kind`; throws for a name the deployment does not serve. */
  get(kind: string): K {
    const found = this.byKind.get(kind);
    if (found === undefined) throw new Error(`no record kind ${JSON.stringify(kind)}`);
    return found;
  }

  /** The kind whose collection is `collection`, if any. */
  ofCollection(collection: string): K | undefined {
    return this.byCollection.get(collection);
  }

  /** Zero for every kind: the start of a count of records per kind. */
  zeroCounts(): Record<string, number> {
    return Object.fromEntries(this.names.map((kind) => [kind, 0]));
  }

  /**
   * The kind of a record graph's term `<{base}/v2/id/<kind>/<pid>>`, else undefined (another base, another
   * path, a pid that is empty or holds a slash).
   */
  kindOfGraph(term: string, base: string): string | undefined {
    return recordKindOf(term, base, this.nameSet);
  }

  /** The kind of a record IRI `{base}/v2/id/<kind>/<pid>`, else undefined. */
  kindOfIri(iri: string, base: string): string | undefined {
    return recordKindOf(iri, base, this.nameSet, 'iri');
  }

  /** Matches a record graph's term of any base: `<(base)/v2/id/<kind>/<pid>>`. */
  get graphPattern(): RegExp {
    return new RegExp(`^<(.+?)/v2/id/(?:${this.kindAlternatives})/[^/]+>$`);
  }
}
