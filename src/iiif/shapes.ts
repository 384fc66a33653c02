/**
 * Draws a demo image as SVG: one object of the listed colours as a simple flat shape, centred on a plain
 * background (or on nothing, for transparent images). Edges are crisp so every pixel carries one of the
 * listed colours exactly, which keeps colour analysis of the rendered images predictable.
 */
import type { ImageSpec } from './image-list.js';

type Band = [top: number, bottom: number, color: number];

/** A shape drawn in a 100 x 100 unit box that is stretched to the shape's aspect ratio. */
interface ShapeDrawing {
  /** Width over height of the object's bounding box. */
  aspect: number;
  /** Outline of the main body, painted in the first colour; extra colours are banded inside it. */
  body: string;
  /** Further parts; `paint(i)` is colour i, or the first colour when the image lists fewer. */
  parts: (paint: (i: number) => string) => string;
  /** Horizontal bands of the body `[top, bottom, colour index]`, following its outline. */
  inside?: Band[];
  /** How many colours `body` and `parts` use; colours after these become bands. */
  colorsUsed: number;
  /** Vertical range (units) of the body in which extra colours are banded. */
  bands: [number, number];
}

const rect = (x: number, y: number, w: number, h: number, fill: string): string =>
  `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="${fill}"/>`;
const path = (d: string, fill: string): string => `<path d="${d}" fill="${fill}"/>`;

const SHAPES: Record<string, ShapeDrawing> = {
  vase: {
    aspect: 0.62,
    body: 'M38 4 H62 V14 C62 22 90 30 90 58 C90 82 72 92 62 94 H38 C28 92 10 82 10 58 C10 30 38 22 38 14 Z',
    parts: (p) => rect(32, 0, 36, 5, p(1)) + rect(30, 94, 40, 6, p(1)),
    inside: [[48, 58, 2]],
    colorsUsed: 3,
    bands: [64, 88],
  },
  bowl: {
    aspect: 1.8,
    body: 'M0 18 H100 C100 66 76 86 50 86 C24 86 0 66 0 18 Z',
    parts: (p) => rect(34, 86, 32, 14, p(1)) + rect(0, 10, 100, 8, p(1)) + path('M4 28 H96 C95 36 93 40 91 44 H9 C7 40 5 36 4 28 Z', p(2)),
    colorsUsed: 3,
    bands: [50, 78],
  },
  chair: {
    aspect: 0.72,
    body: 'M14 0 H86 V46 H14 Z',
    parts: (p) =>
      rect(4, 46, 92, 14, p(0)) + rect(8, 60, 10, 40, p(1)) + rect(82, 60, 10, 40, p(1)) + rect(24, 8, 52, 24, p(2)),
    colorsUsed: 3,
    bands: [34, 44],
  },
  tile: {
    aspect: 1,
    body: 'M0 0 H100 V100 H0 Z',
    parts: (p) => path('M50 14 L86 50 L50 86 L14 50 Z', p(1)) + `<circle cx="50" cy="50" r="16" fill="${p(2)}"/>`,
    colorsUsed: 3,
    bands: [0, 12],
  },
  poster: {
    aspect: 0.7,
    body: 'M0 0 H100 V100 H0 Z',
    // The unit box is stretched to the 0.7 aspect, so a round disc has ry = rx * 0.7.
    parts: (p) => `<ellipse cx="50" cy="40" rx="32" ry="22.4" fill="${p(1)}"/>` + rect(10, 74, 80, 8, p(2)) + rect(10, 86, 54, 6, p(3)),
    colorsUsed: 4,
    bands: [0, 8],
  },
  lamp: {
    aspect: 0.6,
    body: 'M26 0 H74 L96 40 H4 Z',
    parts: (p) => rect(45, 40, 10, 50, p(1)) + `<ellipse cx="50" cy="94" rx="32" ry="6" fill="${p(2)}"/>`,
    colorsUsed: 3,
    bands: [24, 40],
  },
  generic: {
    aspect: 1,
    body: 'M12 0 H88 Q100 0 100 12 V88 Q100 100 88 100 H12 Q0 100 0 88 V12 Q0 0 12 0 Z',
    parts: (p) => `<circle cx="50" cy="38" r="22" fill="${p(1)}"/>` + path('M18 88 L50 62 L82 88 Z', p(2)),
    colorsUsed: 3,
    bands: [4, 16],
  },
};

/**
 * Bands as a vertical gradient with hard stops, so they follow the body's outline. A clip path would do
 * the same but librsvg anti-aliases clip edges whatever `shape-rendering` says.
 */
function bandGradient(bands: readonly Band[], paint: (i: number) => string): string {
  const stop = (offset: number, color: string): string => `<stop offset="${(offset / 100).toFixed(5)}" stop-color="${color}"/>`;
  const sorted = [...bands].sort((a, b) => a[0] - b[0]);
  let stops = stop(0, paint(0));
  for (const [top, bottom, color] of sorted) {
    stops += stop(top, paint(0)) + stop(top, paint(color)) + stop(bottom, paint(color)) + stop(bottom, paint(0));
  }
  stops += stop(100, paint(0));
  return `<linearGradient id="body" gradientUnits="userSpaceOnUse" x1="0" y1="0" x2="0" y2="100">${stops}</linearGradient>`;
}

/** Shapes the renderer knows; any other name is drawn as `generic`. */
export const KNOWN_SHAPES: readonly string[] = Object.keys(SHAPES);

/** Share of the image's shorter side the object may fill, so the background shows on every border. */
const FILL = 0.8;
const FALLBACK_COLOR = '#808080';

/** The SVG document for one image, exactly `width` x `height` pixels. */
export function imageSvg(spec: Pick<ImageSpec, 'width' | 'height' | 'shape' | 'colors' | 'background' | 'transparent'>): string {
  const shape = SHAPES[spec.shape.toLowerCase()] ?? (SHAPES.generic as ShapeDrawing);
  const colors = spec.colors.length > 0 ? spec.colors : [FALLBACK_COLOR];
  const paint = (i: number): string => colors[i] ?? (colors[0] as string);

  const { width, height } = spec;
  const boxW = Math.min(width * FILL, height * FILL * shape.aspect);
  const boxH = boxW / shape.aspect;
  const x = (width - boxW) / 2;
  const y = (height - boxH) / 2;

  const extra = colors.slice(shape.colorsUsed);
  const [bandTop, bandBottom] = shape.bands;
  const bandH = (bandBottom - bandTop) / Math.max(extra.length, 1);
  const bands: Band[] = [
    ...(shape.inside ?? []),
    ...extra.map((_c, i): Band => [bandTop + i * bandH, bandTop + (i + 1) * bandH, shape.colorsUsed + i]),
  ];

  const background = spec.transparent ? '' : rect(0, 0, width, height, spec.background);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" shape-rendering="crispEdges">` +
    background +
    `<g transform="translate(${x.toFixed(3)} ${y.toFixed(3)}) scale(${(boxW / 100).toFixed(5)} ${(boxH / 100).toFixed(5)})">` +
    (bands.length > 0 ? `<defs>${bandGradient(bands, paint)}</defs>${path(shape.body, 'url(#body)')}` : path(shape.body, paint(0))) +
    shape.parts(paint) +
    '</g></svg>'
  );
}
