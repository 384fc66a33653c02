/**
 * The frame and context files (frames/), read without jsonld.js, so that a store worker shapes records without
 * loading it (store/shaped-records.ts). Contexts are local files inlined here: a frame that names a remote
 * `@context` fails loudly.
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
