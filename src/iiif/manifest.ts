/**
 * One object's IIIF Presentation 3 Manifest: a Canvas per served image, each painted by one Annotation whose
 * body is the full image with its Image API 3 service. Pure: records and image list in, JSON out.
 */
import type { Image, Texts } from '../harvest/schema.js';
import { Iris } from '../vocab/iris.js';
import type { ImageSpec } from './image-list.js';
import { maxSize } from './limits.js';
import { imageIdOf, imageServiceUrl, imageUrls, manifestUrl, THUMBNAIL_WIDTH } from './urls.js';

export const PRESENTATION_CONTEXT = 'http://iiif.io/api/presentation/3/context.json';

/** Language map: BCP 47 code (or `none`) to strings. */
export type LanguageMap = Record<string, string[]>;

export interface ImageService3 {
  id: string;
  type: 'ImageService3';
  profile: 'level2';
}

export interface ImageResource {
  id: string;
  type: 'Image';
  format: 'image/jpeg';
  width: number;
  height: number;
  service: ImageService3[];
}

export interface Canvas {
  id: string;
  type: 'Canvas';
  label: LanguageMap;
  width: number;
  height: number;
  thumbnail: ImageResource[];
  rights?: string;
  items: {
    id: string;
    type: 'AnnotationPage';
    items: { id: string; type: 'Annotation'; motivation: 'painting'; body: ImageResource; target: string }[];
  }[];
}

export interface Manifest {
  '@context': typeof PRESENTATION_CONTEXT;
  id: string;
  type: 'Manifest';
  label: LanguageMap;
  summary?: LanguageMap;
  metadata: { label: LanguageMap; value: LanguageMap }[];
  requiredStatement: { label: LanguageMap; value: LanguageMap };
  rights?: string;
  thumbnail: ImageResource[];
  seeAlso: { id: string; type: 'Dataset'; format: 'application/ld+json' }[];
  items: Canvas[];
}

/** What a manifest needs of an object record. */
export interface ManifestInput {
  objectNumber: string;
  titles: Texts;
  descriptions: Texts;
  images: Image[];
}

/**
 * The manifest of `object`, or undefined when none of its images is served. Only images whose status is
 * "ok" get a canvas: "restricted" images answer 403 (this demo server has no IIIF Auth service a viewer
 * could log in through) and the harvest drops them from records for the same reason.
 */
export function buildManifest(object: ManifestInput, images: ReadonlyMap<string, ImageSpec>, baseUrl: string): Manifest | undefined {
  const served = object.images.flatMap((image) => {
    const id = imageIdOf(image.iiifBase);
    const spec = id === undefined ? undefined : images.get(id);
    return spec?.status === 'ok' ? [{ image, spec }] : [];
  });
  if (served.length === 0) return undefined;

  const id = manifestUrl(baseUrl, object.objectNumber);
  const canvases = served.map(({ image, spec }, index) => canvas(id, index + 1, image, spec, baseUrl));
  const rights = new Set(canvases.map((c) => c.rights));
  const sharedRights = rights.size === 1 ? [...rights][0] : undefined;
  const summary = languageMap(object.descriptions);

  return {
    '@context': PRESENTATION_CONTEXT,
    id,
    type: 'Manifest',
    label: languageMap(object.titles) ?? { none: [object.objectNumber] },
    ...(summary ? { summary } : {}),
    metadata: [
      { label: { en: ['Object number'], nl: ['Objectnummer'] }, value: { none: [object.objectNumber] } },
      { label: { en: ['Rights'], nl: ['Rechten'] }, value: { none: [...new Set(served.map(({ image }) => image.rights))] } },
    ],
    requiredStatement: {
      label: { en: ['Attribution'], nl: ['Naamsvermelding'] },
      value: { none: [...new Set(served.map(({ image }) => image.attribution))] },
    },
    ...(sharedRights ? { rights: sharedRights } : {}),
    thumbnail: canvases[0]?.thumbnail ?? [],
    seeAlso: [{ id: new Iris(baseUrl).object(object.objectNumber), type: 'Dataset', format: 'application/ld+json' }],
    items: canvases,
  };
}

function canvas(manifestId: string, n: number, image: Image, spec: ImageSpec, baseUrl: string): Canvas {
  const id = `${manifestId}/canvas/${n}`;
  const service = imageServiceUrl(baseUrl, spec.id);
  const services: ImageService3[] = [{ id: service, type: 'ImageService3', profile: 'level2' }];
  const full = maxSize(spec.width, spec.height);
  const rights = canonicalRights(image.rights);
  return {
    id,
    type: 'Canvas',
    label: { none: [String(n)] },
    width: spec.width,
    height: spec.height,
    thumbnail: [thumbnail(service, spec, services)],
    ...(rights ? { rights } : {}),
    items: [
      {
        id: `${id}/page`,
        type: 'AnnotationPage',
        items: [
          {
            id: `${id}/page/painting`,
            type: 'Annotation',
            motivation: 'painting',
            body: { id: imageUrls(service).full, type: 'Image', format: 'image/jpeg', ...full, service: services },
            target: id,
          },
        ],
      },
    ],
  };
}

/** The 400-px derivative; an image narrower than that would need upscaling, so it is its own thumbnail. */
function thumbnail(service: string, spec: ImageSpec, services: ImageService3[]): ImageResource {
  if (spec.width <= THUMBNAIL_WIDTH) {
    return { id: imageUrls(service).full, type: 'Image', format: 'image/jpeg', ...maxSize(spec.width, spec.height), service: services };
  }
  // Same arithmetic as the image server (iiif-processor) uses to fill in the missing height of `400,`.
  const height = Math.floor(THUMBNAIL_WIDTH / (spec.width / spec.height));
  return { id: imageUrls(service).thumbnail, type: 'Image', format: 'image/jpeg', width: THUMBNAIL_WIDTH, height, service: services };
}

/** A language map of the texts present, or undefined when there are none. */
function languageMap(texts: Texts): LanguageMap | undefined {
  const entries = Object.entries(texts).filter((e): e is [string, string] => typeof e[1] === 'string');
  return entries.length > 0 ? Object.fromEntries(entries.map(([lang, text]) => [lang, [text]])) : undefined;
}

const RIGHTS = /^https?:\/\/(creativecommons\.org\/(?:licenses|publicdomain)\/[a-z-]+\/\d\.\d|rightsstatements\.org\/vocab\/[A-Za-z-]+\/\d\.\d)\/?$/;

/**
 * Presentation 3 allows only Creative Commons and RightsStatements.org URIs in `rights`, in their canonical
 * form (http, trailing slash); other statements appear only in the manifest's "Rights" metadata entry.
 */
export function canonicalRights(uri: string): string | undefined {
  const match = RIGHTS.exec(uri);
  return match ? `http://${match[1]}/` : undefined;
}
