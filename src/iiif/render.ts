/**
 * Renders the demo images of images.jsonl to PNG files for the IIIF server. Deterministic (same list, same
 * pixels) and idempotent: an image whose file already matches its recipe and size is not drawn again.
 */
import { availableParallelism } from 'node:os';
import { mkdir, rename, stat } from 'node:fs/promises';
import sharp from 'sharp';
import { readImageList, type ImageSpec } from './image-list.js';
import { imageSvg } from './shapes.js';
import { readRenderIndex, recipeHash, renderedImagePath, writeRenderIndex } from './rendered-files.js';

export interface RenderOptions {
  /**
   * Images drawn at the same time. sharp runs each pipeline on one libvips thread here (glibc without
   * jemalloc), so parallelism comes from concurrent pipelines on the libuv pool; default: the core count.
   */
  concurrency?: number;
}

export interface RenderResult {
  rendered: number;
  skipped: number;
}

/** Renders every "ok" and "restricted" image of `imagesJsonlPath` into `outDir` as `<id>.png`. */
export async function renderImages(imagesJsonlPath: string, outDir: string, options: RenderOptions = {}): Promise<RenderResult> {
  const images = [...(await readImageList(imagesJsonlPath)).values()].filter((i) => i.status !== 'missing');
  await mkdir(outDir, { recursive: true });
  const previous = await readRenderIndex(outDir);
  const index = new Map<string, string>();
  const result: RenderResult = { rendered: 0, skipped: 0 };

  let next = 0;
  const worker = async (): Promise<void> => {
    for (let image = images[next++]; image !== undefined; image = images[next++]) {
      const hash = recipeHash(image);
      if (previous.get(image.id) === hash && (await hasSize(renderedImagePath(outDir, image.id), image))) {
        result.skipped += 1;
      } else {
        await renderOne(image, outDir);
        result.rendered += 1;
      }
      index.set(image.id, hash);
    }
  };
  const lanes = Math.max(1, Math.min(options.concurrency ?? availableParallelism(), images.length));
  try {
    await Promise.all(Array.from({ length: lanes }, worker));
  } finally {
    // Whatever finished is recorded even if one image failed, so the next start resumes instead of redoing.
    await writeRenderIndex(outDir, index);
  }
  return result;
}

/** Draws one image to a temporary file and renames it into place, so a server never reads half a file. */
async function renderOne(image: ImageSpec, outDir: string): Promise<void> {
  const target = renderedImagePath(outDir, image.id);
  const temp = `${target}.${process.pid}.tmp`;
  const pipeline = sharp(Buffer.from(imageSvg(image)));
  // The background rectangle covers every pixel of an opaque image, so its alpha channel carries nothing.
  if (!image.transparent) pipeline.removeAlpha();
  await pipeline.png({ compressionLevel: 6 }).toFile(temp);
  await rename(temp, target);
}

/** True when `file` exists and its header says `width` x `height` (reads the header only). */
async function hasSize(file: string, { width, height }: ImageSpec): Promise<boolean> {
  try {
    if (!(await stat(file)).isFile()) return false;
    const meta = await sharp(file).metadata();
    return meta.width === width && meta.height === height;
  } catch {
    return false;
  }
}
