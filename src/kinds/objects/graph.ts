/** Maps one object record to its named graph, exactly as docs/graph-model.md "Object graph" says. */
import type { Iris } from '../../vocab/iris.js';
import { GraphBuilder } from '../../harvest/graph-builder.js';
import type { Catalog } from '../../harvest/catalog.js';
import { preferredTitle } from '../../harvest/catalog.js';
import { iri, literal, typed, XSD } from '../../harvest/nquads.js';
import { AAT_TERM, C, P } from '../../harvest/terms.js';
import { agentRef, conceptRef, exhibitionRef, museum } from '../../harvest/references.js';
import { centimetres, slug } from '../../harvest/units.js';
import { unique } from '../../harvest/unique.js';
import { imageUrls } from '../../iiif/urls.js';
import type { Dimension, ObjectRecord, Production, Creation } from '../../harvest/schema.js';
import { colorVisualItems, type AnalysedColors } from '../../harvest/color-graph.js';

export interface ObjectGraphContext {
  iris: Iris;
  catalog: Catalog;
  /** Whether a full image URL passed validation. */
  keepImage: (url: string) => boolean;
  /** The colour analysis of a kept image's full URL, when it was analysed (harvest `analyseColors`). */
  colorsOf?: (url: string) => AnalysedColors | undefined;
}

const COLLECTION_PRESENTATION_LABEL = 'Collection presentation Design Museum Gent';

/** The object's graph; all references were checked by the harvest's first pass. */
export function objectGraph(o: ObjectRecord, ctx: ObjectGraphContext): GraphBuilder {
  const { iris, catalog } = ctx;
  const base = iris.object(o.objectNumber);
  const O = `<${base}>`;
  const g = GraphBuilder.ofRecord(O, C.E22_Human_Made_Object, preferredTitle(o.titles, o.objectNumber), o);

  g.identifier(O, `<${base}/identifier/objectnummer>`, o.objectNumber, `<${iris.type('objectnummer')}>`, 'objectnummer');
  g.appellations(O, o.titles);

  for (const pid of unique(o.types)) g.add(O, P.P2, conceptRef(g, catalog, pid, C.E55_Type));
  for (const pid of unique(o.materials)) g.add(O, P.P45, conceptRef(g, catalog, pid, C.E57_Material));
  g.descriptions(O, o.descriptions);
  g.add(O, P.P50, museum(g, C.E39_Actor));

  o.productions.forEach((production, i) => {
    const event = `<${base}/production/${i + 1}>`;
    g.add(O, P.P108i, event);
    g.add(event, P.type, C.E12_Production);
    eventDetails(g, catalog, event, production);
    for (const pid of unique(production.techniques)) g.add(event, P.P32, conceptRef(g, catalog, pid, C.E55_Type));
  });
  o.creations.forEach((creation, i) => {
    const event = `<${base}/creation/${i + 1}>`;
    g.add(O, P.P94i, event);
    g.add(event, P.type, C.E65_Creation);
    eventDetails(g, catalog, event, creation);
  });

  if (o.acquisition !== undefined) {
    const a = o.acquisition;
    const event = `<${base}/acquisition>`;
    g.add(O, P.P24i, event);
    g.add(event, P.type, C.E8_Acquisition);
    g.add(event, P.P2, g.typeNode(`<${iris.type(`acquisition/${slug(a.method)}`)}>`, a.method));
    if (a.year !== undefined) g.add(event, P.P4, g.yearSpan(String(a.year), a.year, a.year));
    if (a.place !== undefined) g.add(event, P.P7, g.place(a.place));
    let receiver: string;
    if (a.receiver === undefined) receiver = museum(g, C.E39_Actor);
    else {
      receiver = iri(a.receiver.uri);
      if (g.first(`${receiver} ${C.E39_Actor}`)) {
        g.add(receiver, P.type, C.E39_Actor);
        g.add(receiver, P.label, literal(a.receiver.label));
      }
    }
    g.add(event, P.P22, receiver);
  }

  for (const d of o.dimensions) g.add(O, P.P43, dimension(g, iris, d));

  o.parts.forEach((part, i) => {
    const node = `<${base}/part/${i + 1}>`;
    g.add(O, P.P46, node);
    g.add(node, P.type, C.E22_Human_Made_Object);
    g.add(node, P.label, literal(part.label));
    for (const pid of unique(part.materials)) g.add(node, P.P45, conceptRef(g, catalog, pid, C.E57_Material));
    for (const d of part.dimensions) g.add(node, P.P43, dimension(g, iris, d));
  });

  for (const member of catalog.membersOf(o.objectNumber)) {
    const node = `<${iris.object(member)}>`;
    g.add(O, P.P106, node);
    g.add(node, P.type, C.E22_Human_Made_Object);
  }
  if (o.partOfSet !== undefined) {
    const koepel = `<${iris.object(o.partOfSet)}>`;
    g.add(O, P.P46i, koepel);
    g.add(koepel, P.type, C.E22_Human_Made_Object);
  }
  for (const pid of unique(o.subCollections)) g.add(O, P.P106i, conceptRef(g, catalog, pid, C.E78_Curated_Holding));

  for (const pid of unique(o.exhibitions)) {
    // Only exhibitions the service publishes: unknown and private ones are left out.
    const exhibition = exhibitionRef(g, catalog, pid);
    if (exhibition !== undefined) g.add(O, P.P12i, exhibition);
  }

  media(g, O, o);
  const kept = images(g, O, o, ctx.keepImage);
  const { colorsOf } = ctx;
  if (colorsOf) colorVisualItems(g, O, base, kept.map((url) => ({ url, colors: colorsOf(url) ?? { colors: [] } })));

  for (const project of o.creativeProjects) {
    const node = g.blank();
    g.add(O, P.P15i, node);
    g.add(node, P.type, C.E7_Activity);
    g.add(node, P.P2, g.typeNode(AAT_TERM.creativeProject.term, AAT_TERM.creativeProject.label));
    g.title(node, project.title);
    const page = iri(project.url);
    g.add(node, P.P129i, page);
    if (g.first(page)) g.add(page, P.type, C.E73_Information_Object);
    if (project.year !== undefined) g.add(node, P.P4, g.yearSpan(String(project.year), project.year, project.year));
  }

  if (o.onDisplay) {
    const place = `<${iris.place('collection-presentation')}>`;
    g.add(O, P.P55, place);
    g.add(place, P.type, C.E53_Place);
    g.add(place, P.P2, g.typeNode(AAT_TERM.permanentDisplay.term, AAT_TERM.permanentDisplay.label));
    g.add(place, P.label, literal(COLLECTION_PRESENTATION_LABEL));
  }
  return g;
}

function eventDetails(g: GraphBuilder, catalog: Catalog, event: string, e: Production | Creation): void {
  if (e.agent !== undefined) g.add(event, P.P14, agentRef(g, catalog, e.agent));
  if (e.place !== undefined) g.add(event, P.P7, g.place(e.place));
  if (e.date !== undefined) g.add(event, P.P4, g.yearSpan(e.date.label, e.date.begin, e.date.end));
}

function dimension(g: GraphBuilder, iris: Iris, d: Dimension): string {
  return g.dimension(`<${iris.type(d.type)}>`, d.type, centimetres(d.value, d.unit), AAT_TERM.centimetres);
}

function media(g: GraphBuilder, O: string, o: ObjectRecord): void {
  if (o.media.manifest !== undefined) {
    const node = iri(o.media.manifest);
    g.add(O, P.P129i, node);
    g.add(node, P.type, C.E73_Information_Object);
    g.add(node, P.P2, g.typeNode(AAT_TERM.iiifManifest.term, AAT_TERM.iiifManifest.label));
    g.title(node, AAT_TERM.iiifManifest.label);
  }
  const items = [
    ...o.media.videos.map((item) => ({ item, kind: AAT_TERM.video })),
    ...o.media.audios.map((item) => ({ item, kind: AAT_TERM.audio })),
  ];
  for (const { item, kind } of items) {
    const node = iri(item.url);
    g.add(O, P.P129i, node);
    g.add(node, P.type, C.E73_Information_Object);
    g.add(node, P.P2, g.typeNode(kind.term, kind.label));
    g.title(node, item.title);
    if (item.year !== undefined) g.add(node, P.P4, g.yearSpan(String(item.year), item.year, item.year));
  }
}

/** Adds the kept images in canvas order; returns their full URLs in that order. */
function images(g: GraphBuilder, O: string, o: ObjectRecord, keep: (url: string) => boolean): string[] {
  let position = 0;
  const seen = new Set<string>();
  for (const image of o.images) {
    const { full: url, thumbnail } = imageUrls(image.iiifBase);
    if (seen.has(url) || !keep(url)) continue;
    seen.add(url);
    position += 1;
    const node = iri(url);
    g.add(O, P.P138i, node);
    g.add(node, P.type, C.E38_Image);
    g.add(node, P.thumbnail, iri(thumbnail));
    g.add(node, P.P3, literal(image.attribution));
    const rights = iri(image.rights);
    g.add(node, P.P104, rights);
    if (g.first(rights)) g.add(rights, P.type, C.E30_Right);
    g.add(node, P.position, typed(String(position), XSD.integer));
    // The JSON-LD repeats the first image as `image` (schema:image): the graph states it too, so the record's
    // JSON-LD says nothing its Turtle does not (docs/graph-model.md).
    if (position === 1) g.add(O, P.image, node);
  }
  return [...seen];
}
