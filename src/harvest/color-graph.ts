/**
 * The colours of an object's images as CIDOC-CRM (spec, "Object record": `crm:P65_shows_visual_item`; real
 * shape: reference/object-colors-fragment.from-code.jsonld). Per analysed image, in canvas order:
 *
 *   <object> crm:P65_shows_visual_item <object>/visual/image/<n> .
 *   <…/image/n> a crm:E36_Visual_Item ; crm:P2_has_type aat:300264863 (digital image) ;
 *       crm:P138i_has_representation <image URL> ;
 *       crm:P56_bears_feature <…/image/n/colors/hex>, <…/image/n/colors/base> .
 *   <…/colors/hex> a crm:E26_Physical_Feature ; crm:P2_has_type aat:300056130 (color) ; rdfs:comment "…" ;
 *       crm:P3_has_note [ a crm:E62_String ; rdf:value "#dcdcdc" ; rdfs:label "Gainsboro" ;
 *                         crm:P43_has_dimension [ a crm:E54_Dimension ; crm:P2_has_type aat:300417476 (percentage) ;
 *                                                 crm:P90_has_value 41.23 ; crm:P91_has_unit unit:PERCENT ] ] .
 *   <…/colors/base> the same, one note per base colour (`rdf:value "grey"`, no label), percentages summed.
 *
 * Percentages are of the image's foreground (the object), two decimals; notes are heaviest first.
 */
import type { GraphBuilder } from './graph-builder.js';
import { iri, literal } from './nquads.js';
import { AAT_TERM, C, P, PERCENT_UNIT } from './terms.js';

/** What the colour analysis found in one image: its colour clusters, heaviest first. */
export interface AnalysedColors {
  colors: readonly { hex: string; share: number; name: string; base: string }[];
}

export interface AnalysedImage {
  /** The image's full URL (the object's `crm:P138i_has_representation`). */
  url: string;
  colors: AnalysedColors;
}

export const HEX_COMMENT = 'Dominant colors extracted from the digital image as HEX values';
export const BASE_COMMENT = 'Dominant base colors grouped and aggregated for indexing';

/** Percent of the foreground with two decimals, as an xsd:double lexical form. */
const percent = (share: number): string => (Math.round(share * 10000) / 100).toFixed(2);

/** Adds the visual items of `images` (analysed, kept images in canvas order) to the object `O` (`<iri>`). */
export function colorVisualItems(g: GraphBuilder, O: string, objectIri: string, images: readonly AnalysedImage[]): void {
  images.forEach((image, i) => {
    if (image.colors.colors.length === 0) return;
    const item = `<${objectIri}/visual/image/${i + 1}>`;
    g.add(O, P.P65, item);
    g.add(item, P.type, C.E36_Visual_Item);
    g.add(item, P.P2, g.typeNode(AAT_TERM.digitalImage.term, AAT_TERM.digitalImage.label));
    g.add(item, P.P138i, iri(image.url));

    const bases = new Map<string, number>();
    for (const color of image.colors.colors) bases.set(color.base, (bases.get(color.base) ?? 0) + color.share);
    const feature = (name: 'hex' | 'base', comment: string, notes: { value: string; label?: string; share: number }[]): void => {
      const node = `<${objectIri}/visual/image/${i + 1}/colors/${name}>`;
      g.add(item, P.P56, node);
      g.add(node, P.type, C.E26_Physical_Feature);
      g.add(node, P.P2, g.typeNode(AAT_TERM.color.term, AAT_TERM.color.label));
      g.add(node, P.comment, literal(comment));
      for (const note of notes) {
        const blank = g.blank();
        g.add(node, P.P3, blank);
        g.add(blank, P.type, C.E62_String);
        g.add(blank, P.value, literal(note.value));
        if (note.label !== undefined) g.add(blank, P.label, literal(note.label));
        g.add(blank, P.P43, g.dimension(AAT_TERM.percentage.term, AAT_TERM.percentage.label, percent(note.share), PERCENT_UNIT));
      }
    };
    feature('hex', HEX_COMMENT, image.colors.colors.map((color) => ({ value: color.hex, label: color.name, share: color.share })));
    feature(
      'base',
      BASE_COMMENT,
      [...bases].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([base, share]) => ({ value: base, share })),
    );
  });
}
