/** Decodes an image for colour analysis: downscaled with sharp to fit a square, as sRGB RGBA bytes. */
import sharp from 'sharp';

/** Decoded pixels, four bytes (r, g, b, alpha) per pixel in row order. */
export interface Pixels {
  width: number;
  height: number;
  rgba: Uint8Array;
}

/** The input is not an image sharp can decode (or it is corrupt). */
export class ImageDecodeError extends Error {
  override readonly name = 'ImageDecodeError';
}

/**
 * Decodes `input` and shrinks it to fit within maxSize × maxSize (never enlarged). JPEGs are shrunk while
 * decoding (libjpeg's DCT scaling), which is most of the speed; colours are converted to sRGB, an alpha
 * channel is added when missing. Throws ImageDecodeError for input that is not a decodable image.
 */
export async function decodeForAnalysis(input: Uint8Array, maxSize: number): Promise<Pixels> {
  try {
    const { data, info } = await sharp(input, { failOn: 'error' })
      .resize({ width: maxSize, height: maxSize, fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      .ensureAlpha()
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 4) throw new Error(`expected 4 channels after decoding, got ${info.channels}`);
    return { width: info.width, height: info.height, rgba: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
  } catch (err) {
    throw new ImageDecodeError(`cannot decode image: ${(err as Error).message}`, { cause: err });
  }
}
