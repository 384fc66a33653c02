/**
 * Size limits of the image server. They appear in info.json (maxWidth/maxHeight), bound the memory of one
 * request, and decide the pixel size that `full/max` has in a manifest.
 */

/** Largest width and height the server returns; larger requests (including upscaling) are scaled down. */
export const MAX_SIZE = { width: 4096, height: 4096 } as const;

/** The size `full/max` yields for a source image: the image itself, scaled down to fit MAX_SIZE. */
export function maxSize(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(1, MAX_SIZE.width / width, MAX_SIZE.height / height);
  return scale === 1 ? { width, height } : { width: Math.floor(width * scale), height: Math.floor(height * scale) };
}
