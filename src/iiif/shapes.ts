/**
 * Draws a demo image as SVG: one object of the listed colours as a flat silhouette, centred on its backdrop
 * (plain, a stepped gradient, a fine texture or a wall and floor) or on nothing, for transparent images.
 * Edges are crisp so every pixel carries one of the listed colours exactly, which keeps colour analysis of
 * the rendered images predictable.
 *
 * Everything is drawn in pixel coordinates. Each shape is written in its own unit box; its paths are mapped
 * to pixels here rather than by an SVG transform, because librsvg resamples a pattern that is painted
 * under a scaling transform (its edges blend into new colours), while a pattern whose tile is a whole
 * number of pixels, painted untransformed, stays exact. For the same reason there are no clip paths
 * (librsvg anti-aliases clip edges whatever `shape-rendering` says): bands are hard-stop gradients, and
 * holes are even-odd fills.
 */
import type { Backdrop, BodyPattern, ImageSpec } from './image-list.js';
import { SHAPES, type Band, type PathData, type ShapeDrawing } from './shape-drawings.js';

export { hasOwnDrawing, KNOWN_SHAPES } from './shape-drawings.js';

/** Share of the image's shorter side the object may fill, so the background shows on every border. */
const FILL = 0.8;
const FALLBACK_COLOR = '#808080';
/** Where the floor of a `floor` backdrop starts, as a share of the object's height from its top. */
const HORIZON = 0.75;

/** The numbers each path command takes, and how each is mapped: x, y, a length, or kept as is. */
const COMMAND_ARGS: Record<string, readonly ('x' | 'y' | 'len' | 'keep')[]> = {
  M: ['x', 'y'],
  L: ['x', 'y'],
  H: ['x'],
  V: ['y'],
  C: ['x', 'y', 'x', 'y', 'x', 'y'],
  Q: ['x', 'y', 'x', 'y'],
  A: ['len', 'len', 'keep', 'keep', 'keep', 'x', 'y'],
  Z: [],
};

type ParsedPath = readonly (readonly [command: string, args: readonly number[]])[];
const parsed = new Map<PathData, ParsedPath>();

/** Splits path data into commands; throws on relative or unknown commands or a wrong count of numbers. */
function parsePath(d: PathData): ParsedPath {
  const cached = parsed.get(d);
  if (cached) return cached;
  const commands: [string, number[]][] = [];
  for (const [, command, rest] of d.matchAll(/([A-Za-z])([^A-Za-z]*)/g)) {
    const kinds = COMMAND_ARGS[command as string];
    if (!kinds) throw new Error(`shape path: unsupported command ${command} in ${d}`);
    const args = (rest as string).trim() === '' ? [] : (rest as string).trim().split(/[\s,]+/).map(Number);
    if (args.some((n) => !Number.isFinite(n)) || (kinds.length === 0 ? args.length !== 0 : args.length === 0 || args.length % kinds.length !== 0)) {
      throw new Error(`shape path: bad arguments for ${command} in ${d}`);
    }
    commands.push([command as string, args]);
  }
  parsed.set(d, commands);
  return commands;
}

/** Maps the unit box onto pixels: `x -> ox + x * s`, `y -> oy + y * s`. */
interface Placement {
  s: number;
  ox: number;
  oy: number;
}

const num = (v: number): string => String(Math.round(v * 1000) / 1000);

function toPixels(d: PathData, { s, ox, oy }: Placement): string {
  let out = '';
  for (const [command, args] of parsePath(d)) {
    const kinds = COMMAND_ARGS[command] as readonly string[];
    out += command + args.map((v, i) => {
      const kind = kinds[i % kinds.length];
      return num(kind === 'x' ? ox + v * s : kind === 'y' ? oy + v * s : kind === 'len' ? v * s : v);
    }).join(' ');
  }
  return out;
}

/**
 * A filled path in pixels. Without even-odd, each subpath is its own element, so overlapping subpaths always
 * add up (under the nonzero rule, subpaths drawn in opposite directions would cut holes where they overlap).
 */
function pathEl(d: PathData, at: Placement, fill: string, evenOdd = false): string {
  if (evenOdd) return `<path d="${toPixels(d, at)}" fill="${fill}" fill-rule="evenodd"/>`;
  return d
    .split(/(?=M)/)
    .map((sub) => `<path d="${toPixels(sub, at)}" fill="${fill}"/>`)
    .join('');
}
const rectEl = (x: number, y: number, w: number, h: number, fill: string): string =>
  `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="${fill}"/>`;

/**
 * Bands as a vertical gradient with hard stops in pixel space, so they follow the body's outline.
 */
function bandGradient(id: string, bands: readonly Band[], paint: (i: number) => string, boxH: number, at: Placement): string {
  const stop = (offset: number, color: string): string => `<stop offset="${(offset / boxH).toFixed(5)}" stop-color="${color}"/>`;
  const sorted = [...bands].sort((a, b) => a[0] - b[0]);
  let stops = stop(0, paint(0));
  for (const [top, bottom, color] of sorted) {
    stops += stop(top, paint(0)) + stop(top, paint(color)) + stop(bottom, paint(color)) + stop(bottom, paint(0));
  }
  stops += stop(boxH, paint(0));
  return `<linearGradient id="${id}" gradientUnits="userSpaceOnUse" x1="0" y1="${num(at.oy)}" x2="0" y2="${num(at.oy + boxH * at.s)}">${stops}</linearGradient>`;
}

/**
 * A body pattern as an SVG pattern whose tile is a whole number of pixels, anchored at the image's origin.
 * `cell` is the pattern's unit in pixels.
 */
function bodyPattern(id: string, kind: BodyPattern, colors: readonly string[], cell: number): string {
  const n = colors.length;
  const color = (i: number): string => colors[i % n] as string;
  let tile: [number, number];
  let content: string;
  if (kind === 'stripes') {
    const w = Math.max(2, Math.round(cell / 2));
    tile = [n * w, w];
    content = colors.map((c, i) => rectEl(i * w, 0, w, w, c)).join('');
  } else if (kind === 'checks') {
    tile = [n * cell, n * cell];
    content = rectEl(0, 0, n * cell, n * cell, color(0));
    for (let j = 0; j < n; j++) {
      for (let i = 0; i < n; i++) {
        const k = (i + 2 * j) % n;
        if (k !== 0) content += rectEl(i * cell, j * cell, cell, cell, color(k));
      }
    }
  } else {
    // Dots of colours 2.. on a ground of colour 1; each row shifts the colours by two.
    const m = Math.max(1, n - 1);
    tile = [m * cell, m * cell];
    content = rectEl(0, 0, m * cell, m * cell, color(0));
    const r = num(cell * 0.32);
    for (let j = 0; j < m; j++) {
      for (let i = 0; i < m; i++) {
        content += `<circle cx="${num((i + 0.5) * cell)}" cy="${num((j + 0.5) * cell)}" r="${r}" fill="${n > 1 ? color(1 + ((i + 2 * j) % m)) : color(0)}"/>`;
      }
    }
  }
  return `<pattern id="${id}" patternUnits="userSpaceOnUse" x="0" y="0" width="${tile[0]}" height="${tile[1]}">${content}</pattern>`;
}

/** A small integer hash of a cell position, the same on every run and platform. */
function cellHash(i: number, j: number): number {
  let h = (Math.imul(i, 374761393) + Math.imul(j, 668265263)) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 1274126177) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

/** Cells per side of the texture tile, and the share of cells that are specks (of 16). */
const TEXTURE_CELLS = 32;
const TEXTURE_SPECKS = 5;

/** The backdrop in pixels: defs (if any) and the elements that cover the whole image. */
function backdropSvg(width: number, height: number, background: string, backdrop: Backdrop | undefined, at: Placement, boxH: number): { defs: string; body: string } {
  if (!backdrop) return { defs: '', body: rectEl(0, 0, width, height, background) };
  switch (backdrop.kind) {
    case 'gradient': {
      const colors = [background, ...backdrop.colors];
      let body = '';
      colors.forEach((c, k) => {
        const top = Math.round((k * height) / colors.length);
        const bottom = Math.round(((k + 1) * height) / colors.length);
        body += rectEl(0, top, width, bottom - top, c);
      });
      return { defs: '', body };
    }
    case 'texture': {
      const cell = Math.max(2, Math.round(Math.min(width, height) / 300));
      const side = TEXTURE_CELLS * cell;
      let content = rectEl(0, 0, side, side, background);
      for (let j = 0; j < TEXTURE_CELLS; j++) {
        for (let i = 0; i < TEXTURE_CELLS; i++) {
          const h = cellHash(i, j);
          if (h % 16 < TEXTURE_SPECKS) content += rectEl(i * cell, j * cell, cell, cell, backdrop.colors[(h >>> 8) % backdrop.colors.length] as string);
        }
      }
      const defs = `<pattern id="backdrop" patternUnits="userSpaceOnUse" x="0" y="0" width="${side}" height="${side}">${content}</pattern>`;
      return { defs, body: rectEl(0, 0, width, height, 'url(#backdrop)') };
    }
    case 'floor': {
      const horizon = Math.min(height - 1, Math.max(1, Math.round(at.oy + boxH * at.s * HORIZON)));
      return { defs: '', body: rectEl(0, 0, width, horizon, background) + rectEl(0, horizon, width, height - horizon, backdrop.colors[0] as string) };
    }
  }
}

/** The SVG document for one image, exactly `width` x `height` pixels. */
export function imageSvg(spec: Pick<ImageSpec, 'width' | 'height' | 'shape' | 'colors' | 'background' | 'transparent' | 'backdrop' | 'pattern'>): string {
  const shape = SHAPES[spec.shape.toLowerCase()] ?? (SHAPES.generic as ShapeDrawing);
  const colors = spec.colors.length > 0 ? spec.colors : [FALLBACK_COLOR];
  const paint = (i: number): string => colors[i] ?? (colors[0] as string);

  const { width, height } = spec;
  const [boxW, boxH] = shape.box;
  const s = Math.min((width * FILL) / boxW, (height * FILL) / boxH);
  const at: Placement = { s, ox: (width - boxW * s) / 2, oy: (height - boxH * s) / 2 };

  let defs = '';
  let bodyFill = paint(0);
  if (spec.pattern && colors.length > 1) {
    const cell = Math.max(4, Math.round((Math.min(boxW, boxH) * s) / 18));
    defs += bodyPattern('pattern', spec.pattern, colors, cell);
    bodyFill = 'url(#pattern)';
  } else {
    const extra = colors.slice(shape.colorsUsed);
    const [bandTop, bandBottom] = shape.bands;
    const bandH = (bandBottom - bandTop) / Math.max(extra.length, 1);
    const bands: Band[] = [...(shape.inside ?? []), ...extra.map((_c, i): Band => [bandTop + i * bandH, bandTop + (i + 1) * bandH, shape.colorsUsed + i])];
    if (bands.length > 0) {
      defs += bandGradient('body', bands, paint, boxH, at);
      bodyFill = 'url(#body)';
    }
  }

  let backdrop = '';
  if (!spec.transparent) {
    const drawn = backdropSvg(width, height, spec.background, spec.backdrop, at, boxH);
    defs += drawn.defs;
    backdrop = drawn.body;
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" shape-rendering="crispEdges">` +
    (defs ? `<defs>${defs}</defs>` : '') +
    backdrop +
    pathEl(shape.body, at, bodyFill, shape.bodyEvenOdd) +
    shape.parts.map((p) => pathEl(p.d, at, paint(p.color), p.evenOdd)).join('') +
    '</svg>'
  );
}
