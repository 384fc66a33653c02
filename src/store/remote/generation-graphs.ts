/**
 * The graph names of a generation on a remote SPARQL server (docs/remote-store.md): every graph of generation G
 * is stored under a prefixed name, `urn:x-museum-ld:g:<G>:p:<graph IRI>` for the public quads and
 * `…:n:<graph IRI>` for the non-public ones, beside one union graph of G's public quads (the SPARQL endpoint's
 * default graph) and the store's own graphs (the empty graph, the record of complete generations). A view is
 * what one query may read of a generation; generation-scope.ts rewrites queries to it.
 */

const GRAPH_NAMESPACE = 'urn:x-museum-ld:g:';
/** A graph nothing is ever written to: the default graph of REST queries, the named graphs of FROM-only queries. */
export const EMPTY_GRAPH = 'urn:x-museum-ld:empty';
/** Where the store records which generations are complete on the server. */
export const GENERATIONS_GRAPH = 'urn:x-museum-ld:generations';

/** The graph names of one generation on the server. */
export interface GenerationGraphs {
  /** Start of every graph name of the generation (public and non-public). */
  readonly prefix: string;
  readonly publicPrefix: string;
  readonly nonPublicPrefix: string;
  /** The union of the public graphs. */
  readonly unionGraph: string;
  /** The IRI naming the generation in {@link GENERATIONS_GRAPH}. */
  readonly marker: string;
}

/** The graph names of generation `id` (a generation folder name: digits, letters, `-`). */
export function generationGraphs(id: string): GenerationGraphs {
  if (!/^[A-Za-z0-9-]+$/.test(id)) throw new Error(`not a generation id: ${id}`);
  const prefix = `${GRAPH_NAMESPACE}${id}:`;
  return {
    prefix,
    // Equal lengths: one SUBSTR takes either prefix off a graph name.
    publicPrefix: `${prefix}p:`,
    nonPublicPrefix: `${prefix}n:`,
    unionGraph: `urn:x-museum-ld:union:${id}`,
    marker: `urn:x-museum-ld:generation:${id}`,
  };
}

/** What a query may read: the public graphs of a generation, or also its non-public ones. */
export interface GraphView {
  graphs: GenerationGraphs;
  includeNonPublic: boolean;
  /**
   * The generation's non-public graph names (from its non-public file), so that in the full view every graph
   * name maps to the one server graph that holds it. Two candidates per name would make `FILTER NOT EXISTS
   * { GRAPH ?admin … }` true for the candidate that does not exist.
   */
  nonPublicGraphs?: ReadonlySet<string>;
}

/** The server graph of graph name `iri` in `view`: the non-public prefix for the generation's non-public graphs. */
export function serverGraphOf(view: GraphView): (iri: string) => string {
  const { graphs, includeNonPublic } = view;
  const nonPublic = view.nonPublicGraphs ?? new Set<string>();
  return includeNonPublic ? (iri) => (nonPublic.has(iri) ? graphs.nonPublicPrefix : graphs.publicPrefix) + iri : (iri) => graphs.publicPrefix + iri;
}
