/**
 * Synthetic object photographs with a known answer, for the colour-extraction tests and the colour probe:
 * flat painted shapes (each pixel of a shape has the shape's colour, plus the scene's grain) on a plain,
 * gradient or transparent background, encoded as JPEG (or PNG when transparent) at photo size.
 */
import sharp from 'sharp';
import { hexToLinear } from '../../src/colors/color-space.js';

export interface Shape {
  kind: 'rect' | 'ellipse';
  /** Bounding box in pixels; may reach past the image edge. */
  x: number;
  y: number;
  w: number;
  h: number;
  color: string;
  /** Side lighting: the paint darkens linearly (in light) from the left edge to this factor at the right. */
  shadedTo?: number;
}

export type SceneBackground =
  | { kind: 'plain'; color: string }
  /** Linear blend from `from` (top-left corner) to `to` (bottom-right corner) with a darker vignette. */
  | { kind: 'gradient'; from: string; to: string }
  | { kind: 'transparent' };

export interface Scene {
  name: string;
  width: number;
  height: number;
  background: SceneBackground;
  shapes: Shape[];
  /** Standard deviation of Gaussian grain added to every channel of every pixel (8-bit levels). */
  noise?: number;
  /** A soft drop shadow of the first shape's box on the backdrop: offset, blur radius (px), darkening 0..1. */
  shadow?: { dx: number; dy: number; blur: number; depth: number };
  seed?: number;
}

export interface RenderedScene {
  scene: Scene;
  /** The encoded image (JPEG quality 90, or PNG with alpha for a transparent background). */
  image: Buffer;
  /** 1 where a shape is painted, full resolution. */
  mask: Uint8Array;
  /** Painted pixels per colour (later shapes paint over earlier ones). */
  areas: Map<string, number>;
}

const bytesOf = (hex: string): [number, number, number] => {
  const v = Number.parseInt(hex.slice(1), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
};

/**
 * Seeded standard normal numbers, drawn from a table of 65,536 Box–Muller values by a seeded index: the
 * painter calls it for every channel of every pixel, and under jest each Math call is slow.
 */
function gaussian(seed: number): () => number {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  const table = new Float64Array(65_536);
  for (let k = 0; k < table.length; k++) table[k] = Math.sqrt(-2 * Math.log((next() + 0.5) / 4294967296)) * Math.cos((2 * Math.PI * next()) / 4294967296);
  return () => table[next() >>> 16] as number;
}

/** An sRGB colour with its light multiplied by `factor`. */
function scale(rgb: [number, number, number], factor: number): [number, number, number] {
  return rgb.map((v) => {
    const linear = (v / 255 <= 0.04045 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4) * factor;
    return ((linear <= 0.0031308 ? linear * 12.92 : 1.055 * linear ** (1 / 2.4) - 0.055) * 255 + 0.5) | 0;
  }) as [number, number, number];
}

function inside(s: Shape, x: number, y: number): boolean {
  const px = x + 0.5;
  const py = y + 0.5;
  if (s.kind === 'rect') return px >= s.x && px < s.x + s.w && py >= s.y && py < s.y + s.h;
  const u = (px - (s.x + s.w / 2)) / (s.w / 2);
  const v = (py - (s.y + s.h / 2)) / (s.h / 2);
  return u * u + v * v <= 1;
}

/** The background's colour at (x, y) as 8-bit sRGB. */
function backgroundPainter(bg: SceneBackground, width: number, height: number): (x: number, y: number) => [number, number, number] {
  if (bg.kind === 'plain') {
    const rgb = bytesOf(bg.color);
    return () => rgb;
  }
  if (bg.kind === 'transparent') return (x, y) => [(x * 37) & 255, (y * 59) & 255, ((x ^ y) * 11) & 255];
  const from = hexToLinear(bg.from);
  const to = hexToLinear(bg.to);
  return (x, y) => {
    const t = (x / (width - 1) + y / (height - 1)) / 2;
    const dx = x / (width - 1) - 0.5;
    const dy = y / (height - 1) - 0.5;
    const vignette = 1 - 0.35 * (dx * dx + dy * dy);
    return from.map((f, c) => {
      const linear = (f + ((to[c] as number) - f) * t) * vignette;
      const srgb = linear <= 0.0031308 ? linear * 12.92 : 1.055 * linear ** (1 / 2.4) - 0.055;
      return (srgb * 255 + 0.5) | 0;
    }) as [number, number, number];
  };
}

/** Paints and encodes a scene. */
export async function renderScene(scene: Scene): Promise<RenderedScene> {
  const { width, height, shapes } = scene;
  const transparent = scene.background.kind === 'transparent';
  const channels = transparent ? 4 : 3;
  // Clamped bytes round and clamp on assignment (no Math call per channel).
  const raw = new Uint8ClampedArray(width * height * channels);
  const mask = new Uint8Array(width * height);
  const areas = new Map<string, number>();
  const paints = shapes.map((s) => bytesOf(s.color));
  const backgroundAt = backgroundPainter(scene.background, width, height);
  const shade = (rgb: [number, number, number], x: number, y: number): [number, number, number] => {
    const { shadow } = scene;
    const box = shapes[0];
    if (!shadow || !box) return rgb;
    const dx = x < box.x + shadow.dx ? box.x + shadow.dx - x : x > box.x + shadow.dx + box.w ? x - (box.x + shadow.dx + box.w) : 0;
    const dy = y < box.y + shadow.dy ? box.y + shadow.dy - y : y > box.y + shadow.dy + box.h ? y - (box.y + shadow.dy + box.h) : 0;
    if (dx > 4 * shadow.blur || dy > 4 * shadow.blur) return rgb;
    return scale(rgb, 1 - shadow.depth * Math.exp(-(dx * dx + dy * dy) / (2 * shadow.blur * shadow.blur)));
  };
  const noise = gaussian(scene.seed ?? 1);
  const sigma = scene.noise ?? 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      let painted: Shape | undefined;
      let rgb: [number, number, number] | undefined;
      for (let k = shapes.length - 1; k >= 0 && !painted; k--) {
        if (inside(shapes[k] as Shape, x, y)) {
          painted = shapes[k];
          rgb = paints[k];
        }
      }
      if (painted?.shadedTo !== undefined) rgb = scale(rgb as [number, number, number], 1 - (1 - painted.shadedTo) * ((x + 0.5 - painted.x) / painted.w));
      rgb ??= shade(backgroundAt(x, y), x, y);
      if (painted) {
        mask[i] = 1;
        areas.set(painted.color, (areas.get(painted.color) ?? 0) + 1);
      }
      for (let c = 0; c < 3; c++) {
        const v = (rgb[c] as number) + (sigma > 0 ? sigma * noise() : 0);
        raw[i * channels + c] = v;
      }
      if (transparent) raw[i * channels + 3] = painted ? 255 : 0;
    }
  }
  const img = sharp(Buffer.from(raw.buffer), { raw: { width, height, channels } });
  const image = transparent ? await img.png().toBuffer() : await img.jpeg({ quality: 90 }).toBuffer();
  return { scene, image, mask, areas };
}

/** The known mask shrunk like the analysed image (fit within maxSize), 1 where at least half is painted. */
export async function maskAtSize(rendered: RenderedScene, width: number, height: number): Promise<Uint8Array> {
  const { scene, mask } = rendered;
  const full = Buffer.from(mask.map((m) => (m ? 255 : 0)));
  const small = await sharp(full, { raw: { width: scene.width, height: scene.height, channels: 1 } })
    .resize({ width, height, fit: 'fill' })
    .extractChannel(0)
    .raw()
    .toBuffer();
  return Uint8Array.from(small, (v) => (v >= 128 ? 1 : 0));
}

/** Intersection over union of two masks of equal length (1 = object). */
export function iou(a: Uint8Array, b: Uint8Array): number {
  let inter = 0;
  let union = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i] && b[i]) inter++;
    if (a[i] || b[i]) union++;
  }
  return union === 0 ? 1 : inter / union;
}

const W = 1000;
const H = 800;

/** The accuracy scenes: plain, busy (gradient and grain), transparent, one colour, many small, greys, dark, cut by the edge. */
export const SCENES: Scene[] = [
  {
    name: 'plain light backdrop',
    width: W,
    height: H,
    background: { kind: 'plain', color: '#f2f2f0' },
    shapes: [
      { kind: 'rect', x: 150, y: 200, w: 360, h: 300, color: '#c0392b' },
      { kind: 'ellipse', x: 520, y: 180, w: 360, h: 460, color: '#2e5fa8' },
    ],
  },
  {
    name: 'busy: gradient, vignette, grain',
    width: W,
    height: H,
    background: { kind: 'gradient', from: '#ece8df', to: '#8f8d8a' },
    noise: 6,
    seed: 7,
    shapes: [
      { kind: 'ellipse', x: 180, y: 160, w: 380, h: 480, color: '#3f8f4f' },
      { kind: 'rect', x: 600, y: 300, w: 220, h: 260, color: '#e8c22a' },
    ],
  },
  {
    name: 'transparent PNG',
    width: W,
    height: H,
    background: { kind: 'transparent' },
    shapes: [
      { kind: 'rect', x: 120, y: 150, w: 420, h: 420, color: '#e07b28' },
      { kind: 'ellipse', x: 560, y: 220, w: 320, h: 400, color: '#6b3fa0' },
    ],
  },
  {
    name: 'one dominant colour',
    width: W,
    height: H,
    background: { kind: 'plain', color: '#ffffff' },
    shapes: [{ kind: 'ellipse', x: 200, y: 100, w: 600, h: 600, color: '#1f7a7a' }],
  },
  {
    name: 'several small regions',
    width: W,
    height: H,
    background: { kind: 'plain', color: '#f4f4f4' },
    shapes: [
      { kind: 'rect', x: 100, y: 120, w: 110, h: 110, color: '#d62828' },
      { kind: 'ellipse', x: 320, y: 110, w: 130, h: 130, color: '#f77f00' },
      { kind: 'rect', x: 560, y: 130, w: 120, h: 100, color: '#fcbf49' },
      { kind: 'ellipse', x: 780, y: 120, w: 120, h: 140, color: '#2a9d8f' },
      { kind: 'rect', x: 150, y: 480, w: 140, h: 120, color: '#264b96' },
      { kind: 'ellipse', x: 430, y: 470, w: 140, h: 140, color: '#e5989b' },
      { kind: 'rect', x: 700, y: 500, w: 130, h: 130, color: '#7b2cbf' },
    ],
  },
  {
    name: 'near-grey regions',
    width: W,
    height: H,
    background: { kind: 'plain', color: '#fafafa' },
    shapes: [
      { kind: 'rect', x: 120, y: 150, w: 330, h: 250, color: '#505050' },
      { kind: 'rect', x: 520, y: 150, w: 330, h: 250, color: '#8c8c8c' },
      { kind: 'rect', x: 120, y: 450, w: 330, h: 220, color: '#b9b2a8' },
      { kind: 'rect', x: 520, y: 450, w: 330, h: 220, color: '#5f6f80' },
    ],
  },
  {
    name: 'dark backdrop',
    width: W,
    height: H,
    background: { kind: 'plain', color: '#141414' },
    noise: 3,
    seed: 3,
    shapes: [
      { kind: 'ellipse', x: 200, y: 150, w: 400, h: 500, color: '#e8e4d8' },
      { kind: 'rect', x: 560, y: 250, w: 260, h: 300, color: '#b0302a' },
    ],
  },
  {
    name: 'object cut by the lower edge',
    width: W,
    height: H,
    background: { kind: 'plain', color: '#e6e6e6' },
    shapes: [
      { kind: 'rect', x: 300, y: 250, w: 400, h: 600, color: '#7a4a2a' },
      { kind: 'ellipse', x: 380, y: 320, w: 240, h: 200, color: '#d9b25f' },
    ],
  },
];

/** Backdrops with a soft drop shadow, and a side-lit white object on a white backdrop (IoU only). */
export const SHADOW_SCENES: Scene[] = [
  {
    name: 'soft drop shadow',
    width: W,
    height: H,
    background: { kind: 'plain', color: '#f0f0f0' },
    shadow: { dx: 30, dy: 30, blur: 25, depth: 0.35 },
    shapes: [{ kind: 'rect', x: 300, y: 200, w: 350, h: 400, color: '#2e5fa8' }],
  },
  {
    name: 'side-lit white vase on white',
    width: W,
    height: H,
    background: { kind: 'plain', color: '#f2f2f0' },
    shapes: [{ kind: 'ellipse', x: 300, y: 100, w: 400, h: 600, color: '#e6e6e2', shadedTo: 0.45 }],
  },
];
