/**
 * The drawings of the demo images' shapes (shapes.ts renders them): each shape's body outline, parts and
 * bands in its own unit box, as path data. A data table: one entry per shape the generator's object types
 * name.
 */

/** `[top, bottom, colour index]` in the shape's unit box. */
export type Band = readonly [top: number, bottom: number, color: number];

/** Path data in the shape's unit box: absolute M, L, H, V, C, Q, A and Z commands only. */
export type PathData = string;

/** A part drawn over the body in colour `color` (the body colour when the image lists fewer colours). */
export interface Part {
  d: PathData;
  color: number;
  /** Fill rule even-odd: inner subpaths cut holes. */
  evenOdd?: boolean;
}

/** One shape, drawn in a `box[0]` x `box[1]` unit box that is scaled uniformly to fit the image. */
export interface ShapeDrawing {
  box: readonly [width: number, height: number];
  /** Outline of the main body, painted in the first colour (or the pattern); extra colours are banded inside it. */
  body: PathData;
  bodyEvenOdd?: boolean;
  parts: readonly Part[];
  /** Fixed horizontal bands of the body. */
  inside?: readonly Band[];
  /** How many colours the body and parts use; colours after these become bands. */
  colorsUsed: number;
  /** Vertical range (units) of the body in which the extra colours are banded. */
  bands: readonly [top: number, bottom: number];
}

const rect = (x: number, y: number, w: number, h: number): PathData => `M${x} ${y} H${x + w} V${y + h} H${x} Z`;
const ellipse = (cx: number, cy: number, rx: number, ry: number): PathData =>
  `M${cx - rx} ${cy} A${rx} ${ry} 0 1 0 ${cx + rx} ${cy} A${rx} ${ry} 0 1 0 ${cx - rx} ${cy} Z`;
const circle = (cx: number, cy: number, r: number): PathData => ellipse(cx, cy, r, r);
const part = (d: PathData, color: number, evenOdd = false): Part => (evenOdd ? { d, color, evenOdd } : { d, color });

export const SHAPES: Record<string, ShapeDrawing> = {
  // Baluster vase: lip and foot ring in colour 2, a fixed band round the belly in colour 3.
  vase: {
    box: [62, 100],
    body: 'M23.5 4 H38.5 V14 C38.5 22 56 30 56 58 C56 82 44.5 92 38.5 94 H23.5 C17.5 92 6 82 6 58 C6 30 23.5 22 23.5 14 Z',
    parts: [part(rect(20, 0, 22, 5), 1), part(rect(18.5, 94, 25, 6), 1)],
    inside: [[48, 58, 2]],
    colorsUsed: 3,
    bands: [64, 88],
  },
  // Wide footed bowl: rim and foot in colour 2, a decorated band under the rim in colour 3.
  bowl: {
    box: [180, 100],
    body: 'M0 18 H180 C180 66 136.8 86 90 86 C43.2 86 0 66 0 18 Z',
    parts: [
      part(rect(61, 86, 58, 14), 1),
      part(rect(0, 10, 180, 8), 1),
      part('M7.2 28 H172.8 C171 36 167.4 40 163.8 44 H16.2 C12.6 40 9 36 7.2 28 Z', 2),
    ],
    colorsUsed: 3,
    bands: [50, 78],
  },
  // Pitcher with a pointed spout on the left and a loop handle on the right (colour 2), rim in colour 3.
  jug: {
    box: [80, 100],
    body: 'M2 2 C8 2 14 4 18 7 H52 V16 C52 26 62 36 62 60 C62 84 54 96 46 98 H24 C16 96 8 84 8 60 C8 38 18 28 18 20 C14 12 8 6 2 2 Z',
    parts: [part('M52 18 C76 16 84 44 60 80 L57 74 C74 46 68 26 52 26 Z', 1), part(rect(18, 7, 34, 3), 2)],
    colorsUsed: 3,
    bands: [56, 86],
  },
  // Round teapot: spout in the body colour, handle, lid and foot in colour 2, knob in colour 3.
  teapot: {
    box: [130, 100],
    body: 'M22 64 C22 42 40 32 62 32 C84 32 102 42 102 64 C102 86 86 96 62 96 C38 96 22 86 22 64 Z',
    parts: [
      part('M28 56 C16 54 10 40 2 24 L9 21 C16 34 22 44 34 48 Z', 0),
      part('M96 44 C126 40 128 86 94 84 L96 76 C116 76 116 52 98 52 Z', 1),
      part('M40 34 C42 22 82 22 84 34 Z', 1),
      part(ellipse(62, 19, 7, 5), 2),
      part(rect(46, 93, 32, 7), 1),
    ],
    colorsUsed: 3,
    bands: [58, 78],
  },
  // Cup on a saucer (colour 2), handle in the body colour, rim band in colour 3.
  cup: {
    box: [100, 76],
    body: 'M10 8 H74 V12 C74 42 62 60 42 60 C22 60 10 42 10 12 Z',
    parts: [part('M72 18 C96 16 98 46 66 46 L68 38 C86 38 86 26 72 26 Z', 0), part(ellipse(42, 66, 42, 8), 1)],
    inside: [[8, 14, 2]],
    colorsUsed: 3,
    bands: [24, 46],
  },
  // Plate seen from above: a ring on the rim in colour 2, a centre medallion in colour 3.
  plate: {
    box: [100, 100],
    body: circle(50, 50, 50),
    parts: [part(circle(50, 50, 45) + circle(50, 50, 40), 1, true), part(circle(50, 50, 16), 2)],
    colorsUsed: 3,
    bands: [70, 84],
  },
  // Stemmed wine glass: foot in colour 2, the drink inside the bowl in colour 3.
  glass: {
    box: [60, 100],
    body: 'M6 0 H54 C54 30 46 46 33 50 V86 C44 88 54 92 56 97 V100 H4 V97 C6 92 16 88 27 86 V50 C14 46 6 30 6 0 Z',
    parts: [part(rect(4, 97, 52, 3), 1)],
    inside: [[18, 50, 2]],
    colorsUsed: 3,
    bands: [6, 16],
  },
  // Knife, fork and spoon lying side by side: metal in the body colour, handles in colour 2, rivets in colour 3.
  cutlery: {
    box: [160, 72],
    body:
      'M70 4 H148 C158 4 160 12 150 16 H70 Z' +
      [26, 31, 36, 41].map((y) => rect(108, y, 42, 3)).join('') +
      'M84 31 L109 26 V44 L84 39 Z' +
      'M80 57 L104 56 V64 L80 63 Z' +
      ellipse(130, 60, 28, 11),
    parts: [
      part(rect(0, 6, 72, 9), 1),
      part(rect(0, 31, 86, 8), 1),
      part(rect(0, 56, 82, 8), 1),
      part(circle(20, 10.5, 1.6) + circle(50, 10.5, 1.6), 2),
    ],
    colorsUsed: 3,
    bands: [49, 71],
  },
  // Baluster candlestick with a candle (colour 2) and its flame (colour 3).
  candlestick: {
    box: [50, 100],
    body: 'M8 36 H42 V40 H31 C29 44 29 47 32 49 C35 51 35 55 32 57 L30 84 C37 86 45 90 47 96 V100 H3 V96 C5 90 13 86 20 84 L18 57 C15 55 15 51 18 49 C21 47 21 44 19 40 H8 Z',
    parts: [part(rect(18, 9, 14, 27), 1), part('M25 0 C30 4 30 8 25 9 C20 8 20 4 25 0 Z', 2)],
    colorsUsed: 3,
    bands: [88, 100],
  },
  // Chair in profile: leaning back post, seat and two legs; seat cushion colour 2, back cushion colour 3.
  chair: {
    box: [70, 100],
    body: 'M2 0 H10 L18 50 H68 V58 H63 L65 100 H57 L55 58 H24 L22 100 H14 L15.5 58 Z',
    parts: [part(rect(14, 45, 56, 6), 1), part('M0 6 H10 L15 40 H5 Z', 2)],
    colorsUsed: 3,
    bands: [51, 58],
  },
  // Table from the front: top in colour 2, apron with a drawer in colour 3, front and (shorter) back legs.
  table: {
    box: [160, 90],
    body: rect(0, 0, 160, 8) + rect(8, 8, 144, 10) + rect(10, 18, 9, 72) + rect(141, 18, 9, 72) + rect(30, 18, 6, 60) + rect(124, 18, 6, 60),
    parts: [part(rect(0, 0, 160, 8), 1), part(rect(64, 10, 32, 6), 2)],
    colorsUsed: 3,
    bands: [8, 18],
  },
  // Cabinet: two doors over two drawers (colour 3); cornice, plinth, feet, door split and handles in colour 2.
  cabinet: {
    box: [80, 100],
    body: rect(2, 6, 76, 86),
    parts: [
      part(rect(0, 0, 80, 6) + rect(0, 90, 80, 4) + rect(3, 94, 9, 6) + rect(68, 94, 9, 6), 1),
      part(rect(6, 62, 68, 12) + rect(6, 77, 68, 12), 2),
      part(rect(39.5, 10, 1, 48) + rect(35, 30, 2, 8) + rect(43, 30, 2, 8) + rect(34, 67, 12, 2) + rect(34, 82, 12, 2), 1),
    ],
    colorsUsed: 3,
    bands: [12, 56],
  },
  // Table lamp: shade in the body colour, stem colour 2, round base colour 3.
  lamp: {
    box: [60, 100],
    body: 'M15.6 0 H44.4 L57.6 40 H2.4 Z',
    parts: [part(rect(27, 40, 6, 50), 1), part(ellipse(30, 94, 19.2, 6), 2)],
    colorsUsed: 3,
    bands: [24, 40],
  },
  // Square tile: a diamond (colour 2) round a disc (colour 3).
  tile: {
    box: [100, 100],
    body: rect(0, 0, 100, 100),
    parts: [part('M50 14 L86 50 L50 86 L14 50 Z', 1), part(circle(50, 50, 16), 2)],
    colorsUsed: 3,
    bands: [0, 12],
  },
  // Poster: a disc (colour 2) over a title bar (colour 3) and a line of text (colour 4).
  poster: {
    box: [70, 100],
    body: rect(0, 0, 70, 100),
    parts: [part(circle(35, 40, 22.4), 1), part(rect(7, 74, 56, 8), 2), part(rect(7, 86, 37.8, 6), 3)],
    colorsUsed: 4,
    bands: [0, 8],
  },
  // Rug: field in the body colour, fringes and a border in colour 2, a lozenge medallion in colour 3.
  textile: {
    box: [160, 100],
    body: rect(8, 0, 144, 100),
    parts: [
      part(
        Array.from({ length: 12 }, (_v, i) => rect(0, 3 + i * 8, 8, 4) + rect(152, 3 + i * 8, 8, 4)).join(''),
        1,
      ),
      part(rect(14, 6, 132, 88) + rect(20, 12, 120, 76), 1, true),
      part('M80 24 L116 50 L80 76 L44 50 Z', 2),
    ],
    colorsUsed: 3,
    bands: [16, 30],
  },
  // Ring: the band in the body colour, a cut stone (colour 2) with its table facet (colour 3).
  jewel: {
    box: [100, 100],
    body: circle(50, 64, 34) + circle(50, 64, 27),
    bodyEvenOdd: true,
    parts: [part('M34 16 L42 4 H58 L66 16 L50 34 Z', 1), part('M42 4 H58 L55 14 H45 Z', 2)],
    colorsUsed: 3,
    bands: [76, 98],
  },
  // Standing figure in a long dress, arms at its sides, on a plinth (colour 2), with a sash (colour 3).
  figurine: {
    box: [60, 100],
    body:
      circle(30, 10, 8) +
      rect(27, 16, 6, 8) +
      'M22 23 H38 C42 23 44 26 44 30 L52 82 H8 L16 30 C16 26 18 23 22 23 Z' +
      'M17 25 C12 30 10 44 9 56 C9 59 13 59 13 56 C14 46 16 36 20 30 Z' +
      'M43 25 C48 30 50 44 51 56 C51 59 47 59 47 56 C46 46 44 36 40 30 Z',
    parts: [part(rect(4, 82, 52, 18), 1), part(rect(17, 40, 26, 5), 2)],
    colorsUsed: 3,
    bands: [58, 80],
  },
  // Casket with a domed lid: lid rim, keyhole and corner fittings in colour 2, lock plate in colour 3.
  box: {
    box: [140, 90],
    body: rect(4, 34, 132, 56) + 'M0 16 C0 6 20 2 70 2 C120 2 140 6 140 16 V34 H0 Z',
    parts: [
      part(rect(0, 30, 140, 6), 1),
      part(rect(62, 32, 16, 18), 2),
      part(rect(68.5, 38, 3, 7) + rect(4, 80, 12, 10) + rect(124, 80, 12, 10), 1),
    ],
    colorsUsed: 3,
    bands: [52, 76],
  },
  // Mantel clock: arched case, dial in colour 2, hands, hour marks and hub in colour 3.
  clock: {
    box: [80, 100],
    body: 'M0 100 V40 C0 14 18 0 40 0 C62 0 80 14 80 40 V100 Z',
    parts: [
      part(circle(40, 42, 28), 1),
      part(
        rect(38.5, 16, 3, 6) +
          rect(38.5, 62, 3, 6) +
          rect(14, 40.5, 6, 3) +
          rect(60, 40.5, 6, 3) +
          rect(38.5, 22, 3, 21) +
          'M40 40.5 L55 48 L53.5 51 L39 43.5 Z' +
          circle(40, 42, 3),
        2,
      ),
    ],
    colorsUsed: 3,
    bands: [74, 92],
  },
  // Exhibition view: two frames and a plinth in the body colour; the canvases and a vase on the plinth in colour 2.
  gallery: {
    box: [160, 100],
    body: rect(4, 4, 44, 34) + rect(112, 4, 44, 34) + rect(62, 58, 36, 42),
    parts: [part(rect(8, 8, 36, 26) + rect(116, 8, 36, 26), 1), part('M76 58 C70 52 70 44 76 40 V34 H84 V40 C90 44 90 52 84 58 Z', 1)],
    colorsUsed: 2,
    bands: [66, 92],
  },
  // Anything else: a rounded block with a disc (colour 2) and a triangle (colour 3).
  generic: {
    box: [100, 100],
    body: 'M12 0 H88 Q100 0 100 12 V88 Q100 100 88 100 H12 Q0 100 0 88 V12 Q0 0 12 0 Z',
    parts: [part(circle(50, 38, 22), 1), part('M18 88 L50 62 L82 88 Z', 2)],
    colorsUsed: 3,
    bands: [4, 16],
  },
};

/** Shapes the renderer draws; any other name is drawn as `generic`. */
export const KNOWN_SHAPES: readonly string[] = Object.keys(SHAPES);

/** True when `shape` has a drawing of its own (it is not drawn as `generic`). */
export function hasOwnDrawing(shape: string): boolean {
  const key = shape.toLowerCase();
  return key !== 'generic' && Object.hasOwn(SHAPES, key);
}
