/**
 * Checks an Image API 3.0 request (region/size/rotation/quality.format) against one image without
 * decoding it, and derives what the response will be: its media type and canonical URI. A request that
 * passes here is one iiif-processor can fulfil; one that fails is the client's error (400).
 */
import { IIIFError, Versions } from 'iiif-processor';
import type { ImageSpec } from './image-list.js';
import { MAX_SIZE } from './limits.js';

export interface ImageRequestParams {
  region: string;
  size: string;
  rotation: string;
  quality: string;
  format: string;
}

export type CheckedImageRequest =
  | { ok: true; contentType: string; canonicalPath: string }
  | { ok: false; message: string };

const MEDIA_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  tif: 'image/tiff',
  tiff: 'image/tiff',
};
const CANONICAL_FORMAT: Record<string, string> = { jpeg: 'jpg', tiff: 'tif' };

/** Validates `params` for `image` with iiif-processor's own calculator plus the checks it leaves out. */
export function checkImageRequest(image: Pick<ImageSpec, 'width' | 'height'>, params: ImageRequestParams): CheckedImageRequest {
  // The 3.0 calculator checks sizes with the 2.x patterns, which still accept "full".
  if (params.size.replace(/^\^/, '') === 'full') return { ok: false, message: 'Size "full" is Image API 2.x; 3.0 uses "max"' };
  const calculator = new Versions[3].Calculator({ width: image.width, height: image.height }, { max: { ...MAX_SIZE } });
  try {
    calculator.region(params.region).size(params.size).rotation(params.rotation).quality(params.quality).format(params.format);
  } catch (err) {
    if (err instanceof IIIFError) return { ok: false, message: err.message };
    throw err;
  }
  const { region, size, rotation } = calculator.info();
  // The calculator lets these through, and sharp would then fail with a server error.
  if (region.width < 1 || region.height < 1) return { ok: false, message: 'Region is outside the image or empty' };
  const out = outputSize(region, size);
  if (out.width < 1 || out.height < 1) return { ok: false, message: 'Requested size is smaller than one pixel' };
  if (rotation.degree > 360) return { ok: false, message: 'Rotation must be between 0 and 360' };

  const full = region.left === 0 && region.top === 0 && region.width === image.width && region.height === image.height;
  const regionPart = full ? 'full' : `${region.left},${region.top},${region.width},${region.height}`;
  const upscaled = out.width > region.width || out.height > region.height;
  const max = Math.min(1, MAX_SIZE.width / region.width, MAX_SIZE.height / region.height);
  const atMax = out.width === Math.floor(region.width * max) && out.height === Math.floor(region.height * max);
  const sizePart = atMax ? 'max' : `${upscaled ? '^' : ''}${out.width},${out.height}`;
  const rotationPart = `${rotation.flop ? '!' : ''}${rotation.degree}`;
  const format = CANONICAL_FORMAT[params.format] ?? params.format;
  return {
    ok: true,
    contentType: MEDIA_TYPES[params.format] ?? 'application/octet-stream',
    canonicalPath: `${regionPart}/${sizePart}/${rotationPart}/${params.quality}.${format}`,
  };
}

/** Pixel size of the result before rotation; `!w,h` keeps the region's aspect ratio inside w x h. */
function outputSize(
  region: { width: number; height: number },
  size: { width: number; height: number; fit?: 'fill' | 'inside' },
): { width: number; height: number } {
  if (size.fit !== 'inside') return { width: size.width, height: size.height };
  const scale = Math.min(size.width / region.width, size.height / region.height);
  return { width: Math.round(region.width * scale), height: Math.round(region.height * scale) };
}
