/**
 * Nodes a record graph copies from other records (docs/graph-model.md: graphs are self-contained).
 * The link itself is always kept, but the copied description (label, sameAs) only comes from public
 * records, so a private record's name never reaches a public graph through a reference.
 */
import type { GraphBuilder } from './graph-builder.js';
import type { Catalog } from './catalog.js';
import { literal } from './nquads.js';
import { C, MUSEUM_TERM, P } from './terms.js';
import { MUSEUM } from '../vocab/namespaces.js';

/** A thesaurus concept typed `classTerm` (E55_Type, E57_Material or E78_Curated_Holding). */
export function conceptRef(g: GraphBuilder, catalog: Catalog, pid: string, classTerm: string): string {
  const entry = catalog.concepts.get(pid);
  if (entry === undefined) throw new Error(`unknown concept ${pid} (the first pass checks references)`);
  const term = entry.term;
  if (g.first(`${term} ${classTerm}`)) g.add(term, P.type, classTerm);
  if (entry.record.public && g.first(term)) {
    g.add(term, P.label, literal(entry.record.labels.nl));
    g.sameAs(term, entry.record.sameAs);
  }
  return term;
}

/** An agent as the object and exhibition tables show it: `crm:E39_Actor` with label and sameAs. */
export function agentRef(g: GraphBuilder, catalog: Catalog, pid: string): string {
  const entry = catalog.agents.get(pid);
  if (entry === undefined) throw new Error(`unknown agent ${pid} (the first pass checks references)`);
  const term = entry.term;
  if (g.first(term)) {
    g.add(term, P.type, C.E39_Actor);
    if (entry.record.public) {
      g.add(term, P.label, literal(entry.record.name));
      g.sameAs(term, entry.record.sameAs);
    }
  }
  return term;
}

/**
 * A public exhibition as object and agent graphs show it: `crm:E7_Activity` with the exhibition graph's label
 * and its sameAs. Undefined for unknown and private exhibitions: links name only exhibitions the service
 * publishes (a link to anything else would be a dead end).
 */
export function exhibitionRef(g: GraphBuilder, catalog: Catalog, pid: string): string | undefined {
  const entry = catalog.exhibitions.get(pid);
  if (entry === undefined || !entry.record.public) return undefined;
  const term = entry.term;
  if (g.first(term)) {
    g.add(term, P.type, C.E7_Activity);
    g.add(term, P.label, literal(entry.label));
    g.sameAs(term, entry.record.sameAs);
  }
  return term;
}

/** The museum, typed `classTerm` (E39_Actor as keeper or organiser, E53_Place as venue). */
export function museum(g: GraphBuilder, classTerm: string): string {
  if (g.first(`${MUSEUM_TERM} ${classTerm}`)) g.add(MUSEUM_TERM, P.type, classTerm);
  if (g.first(MUSEUM_TERM)) g.add(MUSEUM_TERM, P.label, literal(MUSEUM.name));
  return MUSEUM_TERM;
}
