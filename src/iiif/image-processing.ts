/**
 * Runs iiif-processor for one image: info.json from the listed dimensions (no decoding) and derivatives
 * from the rendered file in the image directory.
 */
import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { IIIFError, Processor, type ProcessorResult } from 'iiif-processor';
import type { ImageSpec } from './image-list.js';
import type { ImageRequestParams } from './image-request.js';
import { MAX_SIZE } from './limits.js';
import { renderedImagePath } from './rendered-files.js';
import { imageServiceUrl, trimSlash } from './urls.js';

/** Processes Image API 3.0 requests for the images of one image directory, served under `baseUrl`. */
export class ImageProcessing {
  private readonly pathPrefix: string;

  constructor(
    private readonly imageDir: string,
    private readonly baseUrl: string,
  ) {
    // iiif-processor finds the image id after this prefix (a regular expression) in the URL path.
    const basePath = new URL(trimSlash(baseUrl)).pathname.replace(/\/+$/, '');
    this.pathPrefix = `${basePath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/iiif/{{version}}/`;
  }

  /** The info.json document of `image` (its `id` is the image service URL). */
  info(image: ImageSpec): Promise<ProcessorResult> {
    return this.run(image, 'info.json');
  }

  /** The derivative `params` of `image`; the caller has checked `params` (checkImageRequest). */
  derivative(image: ImageSpec, params: ImageRequestParams): Promise<ProcessorResult> {
    const { region, size, rotation, quality, format } = params;
    return this.run(image, `${region}/${size}/${rotation}/${quality}.${format}`);
  }

  /** True when the rendered file of `image` is on disk. */
  async isRendered(image: ImageSpec): Promise<boolean> {
    try {
      await access(renderedImagePath(this.imageDir, image.id));
      return true;
    } catch {
      return false;
    }
  }

  private async run(image: ImageSpec, request: string): Promise<ProcessorResult> {
    try {
      return await this.processor(image, request).execute();
    } catch (err) {
      // The constructor parses the URL and throws instead of returning an error result.
      if (err instanceof IIIFError) return { type: 'error', statusCode: err.statusCode ?? 400, message: err.message };
      throw err;
    }
  }

  private processor(image: ImageSpec, request: string): Processor {
    const file = renderedImagePath(this.imageDir, image.id);
    return new Processor(
      `${imageServiceUrl(this.baseUrl, image.id)}/${request}`,
      // The stream is opened for the listed image only, whatever id the processor parsed from the URL.
      async () => {
        if (!(await this.isRendered(image))) throw new IIIFError('Image file not found', { statusCode: 404 });
        return createReadStream(file);
      },
      {
        dimensionFunction: async () => ({ width: image.width, height: image.height }),
        max: { ...MAX_SIZE },
        pathPrefix: this.pathPrefix,
      },
    );
  }
}
