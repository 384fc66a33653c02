/**
 * The only importer of jsonld. Frames and contexts are local files read once; the document loader refuses
 * every URL, so no JSON-LD code path can reach the network (a context or frame that names a remote URL
 * fails loudly instead).
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import jsonld from 'jsonld';

export type JsonObject = { [key: string]: JsonValue };
export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;

export const FRAMES_DIR = fileURLToPath(new URL('../../frames', import.meta.url));

export class RemoteDocumentRefused extends Error {}

/** A document loader that never loads anything: every context is inlined at start-up. */
export async function refuseRemoteDocuments(url: string): Promise<never> {
  throw new RemoteDocumentRefused(`refusing to load remote JSON-LD document ${url}`);
}

function readJson(path: string): JsonObject {
  return JSON.parse(readFileSync(path, 'utf8')) as JsonObject;
}

/**
 * Reads `frames/<name>.frame.jsonld` (or the file at `name` when it is an absolute path: the frame of a kind
 * declared outside src/kinds) and inlines its local `@context` file.
 */
export function loadFrame(name: string, dir: string = FRAMES_DIR): JsonObject {
  const path = isAbsolute(name) ? name : join(dir, `${name}.frame.jsonld`);
  const frame = readJson(path);
  const context = frame['@context'];
  if (typeof context === 'string') {
    if (/^[a-z][a-z0-9+.-]*:/i.test(context)) throw new RemoteDocumentRefused(`${path}: remote @context ${context}`);
    frame['@context'] = readJson(join(dirname(path), context))['@context'] ?? {};
  }
  return frame;
}

type Frame = Parameters<typeof jsonld.frame>[1];

const OPTIONS = { documentLoader: refuseRemoteDocuments, safe: true } as const;

/** N-Quads → framed, compacted JSON-LD (jsonld.js, the reference implementation). */
export async function frameNQuads(nquads: string, frame: JsonObject): Promise<JsonObject> {
  const expanded = await jsonld.fromRDF(nquads, { format: 'application/n-quads' });
  const framed = await jsonld.frame(expanded, frame as Frame, {
    ...OPTIONS,
    embed: '@always',
    omitGraph: true,
  } as jsonld.Options.Frame);
  return framed as unknown as JsonObject;
}

/** A JSON-LD document (with an inline context) as N-Quads: the RDF graph of a shaped document. */
export async function documentToNQuads(document: JsonObject): Promise<string> {
  return (await jsonld.toRDF(document as Parameters<typeof jsonld.toRDF>[0], {
    ...OPTIONS,
    format: 'application/n-quads',
  } as jsonld.Options.ToRdf)) as unknown as string;
}
