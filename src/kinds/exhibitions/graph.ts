/** Maps one exhibition record to its named graph (spec "Exhibition record"; docs/graph-model.md). */
import type { Iris } from '../../vocab/iris.js';
import { GraphBuilder } from '../../harvest/graph-builder.js';
import type { Catalog, ExhibitionEntry } from '../../harvest/catalog.js';
import { iri, literal, XSD } from '../../harvest/nquads.js';
import { AAT_TERM, C, INTERNAL_ID, P } from '../../harvest/terms.js';
import { museum } from '../../harvest/references.js';
import { unique } from '../../harvest/unique.js';

export interface ExhibitionGraphContext {
  iris: Iris;
  catalog: Catalog;
}

/** The exhibition's graph; the curator agent was checked when the exhibition was read. */
export function exhibitionGraph(entry: ExhibitionEntry, ctx: ExhibitionGraphContext): GraphBuilder {
  const { iris, catalog } = ctx;
  const e = entry.record;
  const base = iris.exhibition(e.pid);
  const E = entry.term;
  const g = GraphBuilder.ofRecord(E, C.E7_Activity, entry.label, e);
  g.add(E, P.P2, g.typeNode(AAT_TERM.exhibition.term, AAT_TERM.exhibition.label));
  g.identifier(E, `<${base}/identifier/intern>`, e.pid, `<${iris.type(INTERNAL_ID.type)}>`, INTERNAL_ID.label);
  g.appellations(E, e.titles);
  g.add(E, P.P4, g.timeSpan(`${e.begin}/${e.end}`, e.begin, e.end, XSD.date));
  g.add(E, P.P7, e.venue === undefined ? museum(g, C.E53_Place) : g.place(e.venue));

  if (e.curator === undefined) g.add(E, P.P14, museum(g, C.E39_Actor));
  else {
    const curator = e.curator.agent === undefined ? g.blank() : `<${iris.agent(e.curator.agent)}>`;
    g.add(E, P.P14, curator);
    g.add(curator, P.type, C.E39_Actor);
    g.add(curator, P.label, literal(e.curator.label));
  }

  for (const number of unique(e.objects)) {
    const facts = catalog.objects.get(number);
    // Spec: only objects present in the service are listed; unmatched ones are omitted.
    if (facts === undefined || !facts.servable) continue;
    const O = `<${iris.object(number)}>`;
    g.add(E, P.P16, O);
    g.add(O, P.type, C.E22_Human_Made_Object);
    g.sameAs(O, facts.sameAs ?? []);
  }
  g.descriptions(E, e.descriptions);

  const sources = [
    ...e.publications.map((p) => ({ ...p, kind: AAT_TERM.publication })),
    ...e.media.map((m) => ({ ...m, kind: m.kind === 'video' ? AAT_TERM.video : AAT_TERM.audio })),
  ];
  for (const source of sources) {
    const node = source.url === undefined ? g.blank() : iri(source.url);
    g.add(E, P.P129i, node);
    g.add(node, P.type, C.E73_Information_Object);
    g.add(node, P.P2, g.typeNode(source.kind.term, source.kind.label));
    g.title(node, source.title);
    if (source.year !== undefined) g.add(node, P.P4, g.yearSpan(String(source.year), source.year, source.year));
  }

  if (e.poster !== undefined) {
    const poster = iri(e.poster.url);
    g.add(E, P.P65, poster);
    g.add(poster, P.type, C.E36_Visual_Item);
    g.add(poster, P.P2, g.typeNode(AAT_TERM.poster.term, AAT_TERM.poster.label));
  }
  const viewed = new Set<string>();
  for (const view of e.views) {
    // A view listed twice keeps its first entry (one node per URL, as images do).
    if (viewed.has(view.url)) continue;
    viewed.add(view.url);
    const node = iri(view.url);
    g.add(E, P.P138i, node);
    g.add(node, P.type, C.E36_Visual_Item);
    g.add(node, P.P2, g.typeNode(AAT_TERM.exhibitionView.term, AAT_TERM.exhibitionView.label));
    g.add(node, P.label, literal(view.fileName));
    if (view.width !== undefined) g.add(node, P.P43, pixels(g, iris, 'breedte', view.width));
    if (view.height !== undefined) g.add(node, P.P43, pixels(g, iris, 'hoogte', view.height));
  }
  return g;
}

function pixels(g: GraphBuilder, iris: Iris, type: 'breedte' | 'hoogte', value: number): string {
  return g.dimension(`<${iris.type(type)}>`, type, String(value), AAT_TERM.pixels);
}
