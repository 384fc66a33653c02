/**
 * URL patterns of the IIIF server: image services, derivative images and manifests. The harvest builds
 * the same image URLs (docs/graph-model.md), so they are defined once here.
 */

/** Width of the thumbnail derivative (spec "Image node": 400 px wide). */
export const THUMBNAIL_WIDTH = 400;

/** Full-size image and 400-px thumbnail of a IIIF Image API 3 service (`full/max` is the 3.0 syntax). */
export function imageUrls(iiifBase: string): { full: string; thumbnail: string } {
  const base = trimSlash(iiifBase);
  return {
    full: `${base}/full/max/0/default.jpg`,
    thumbnail: `${base}/full/${THUMBNAIL_WIDTH},/0/default.jpg`,
  };
}

/** `<baseUrl>/iiif/3/<id>`: the image service (base URI) of image `id`. */
export function imageServiceUrl(baseUrl: string, id: string): string {
  return `${trimSlash(baseUrl)}/iiif/3/${pathSegment(id)}`;
}

/** `<baseUrl>/iiif/manifest/<objectNumber>`: the Presentation 3 manifest of an object. */
export function manifestUrl(baseUrl: string, objectNumber: string): string {
  return `${trimSlash(baseUrl)}/iiif/manifest/${pathSegment(objectNumber)}`;
}

/** The image id at the end of an image service URL (`.../iiif/3/<id>`), or undefined for other URLs. */
export function imageIdOf(iiifBase: string): string | undefined {
  const match = /\/iiif\/3\/([^/?#]+)\/?$/.exec(iiifBase);
  if (!match?.[1]) return undefined;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return undefined;
  }
}

/** Percent-encodes a path segment but keeps `+`, which object numbers use and which is literal in a path. */
function pathSegment(value: string): string {
  return encodeURIComponent(value).replace(/%2B/g, '+');
}

/** The base URL without trailing slashes, so joined paths never get `//`. */
export function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
