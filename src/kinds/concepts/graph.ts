/** Maps one thesaurus concept to its named graph (spec "Concept record"; docs/graph-model.md). */
import { LANGUAGES } from '../../vocab/namespaces.js';
import { GraphBuilder } from '../../harvest/graph-builder.js';
import type { Catalog, ConceptEntry } from '../../harvest/catalog.js';
import { iri, langLiteral, literal } from '../../harvest/nquads.js';
import { C, P } from '../../harvest/terms.js';

export interface ConceptGraphContext {
  catalog: Catalog;
}

/** The concept's graph, with broader terms as recorded and narrower terms derived from all concepts. */
export function conceptGraph(entry: ConceptEntry, ctx: ConceptGraphContext): GraphBuilder {
  const { catalog } = ctx;
  const c = entry.record;
  const S = entry.term;
  const g = GraphBuilder.ofRecord(S, C.E55_Type, c.labels.nl, c);
  for (const lang of LANGUAGES) {
    const label = c.labels[lang];
    if (label !== undefined) g.add(S, P.prefLabel, langLiteral(label, lang));
  }
  for (const lang of LANGUAGES) {
    const note = c.scopeNotes[lang];
    if (note !== undefined) g.add(S, P.scopeNote, langLiteral(note, lang));
  }

  for (const ref of c.broader) {
    const internal = catalog.internalBroader(ref);
    if (internal === c.pid) continue;
    if (internal !== undefined) g.add(S, P.broader, related(g, catalog, internal));
    else if (typeof ref !== 'string') {
      const node = iri(ref.uri);
      g.add(S, P.broader, node);
      if (g.first(node)) g.add(node, P.label, literal(ref.label));
    }
  }
  for (const pid of catalog.narrowerOf(c.pid)) g.add(S, P.narrower, related(g, catalog, pid));
  return g;
}

/** A broader or narrower thesaurus concept: internal IRI, with its label and sameAs when it is public. */
function related(g: GraphBuilder, catalog: Catalog, pid: string): string {
  const entry = catalog.concepts.get(pid);
  if (entry === undefined) throw new Error(`unknown concept ${pid} (references are checked on reading)`);
  if (entry.record.public && g.first(entry.term)) {
    g.add(entry.term, P.label, literal(entry.record.labels.nl));
    g.sameAs(entry.term, entry.record.sameAs);
  }
  return entry.term;
}
